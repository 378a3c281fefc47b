// OnlineSources: the four online knowledge services (Lichess opening explorer, Lichess cloud
// eval, Lichess tablebase, chessdb.cn) over HTTP + JSON; knows no chess rules.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "lichess_client/api_error.hpp"
#include "lichess_client/http_client.hpp"

namespace lichess {

enum class OnlineSource { Explorer, CloudEval, Tablebase, Chessdb };
inline constexpr std::size_t kOnlineSourceCount = 4;
[[nodiscard]] const char* to_string(OnlineSource s);  // explorer, cloud, tablebase, chessdb

// ---- opening explorer (doc/specs/tags/openingexplorer/{masters,lichess,player}.yaml) ----

struct ExplorerQuery {
    std::string source = "lichess";    // masters | lichess | player
    std::string player;                // player: username (required there)
    std::string color;                 // player: white | black, the player's side (required there)
    std::string variant = "standard";  // lichess and player (masters is standard only)
    std::vector<std::string> speeds;   // lichess and player: bullet, blitz, ...; empty: all
    std::vector<int> ratings;          // lichess: rating groups 0, 1000, ..., 2500; empty: all
    int moves = 12;                    // most common moves to list
};

struct ExplorerMove {
    std::string uci;  // king-to-rook castling is possible (e1h1): the caller checks legality
    std::string san;
    std::int64_t white = 0, draws = 0, black = 0;  // results of the games with this move
    std::optional<int> average_rating;  // averageRating (masters, lichess) or, for player,
                                        // averageOpponentRating
    std::optional<int> performance;     // player only
};

struct ExplorerReply {
    std::int64_t white = 0, draws = 0, black = 0;
    std::vector<ExplorerMove> moves;    // most played first, as the service sorts them
    std::string opening;                // "ECO Name" when the position is named, else empty
    std::optional<int> queue_position;  // player: games of others indexed first
};

// ---- cloud eval (doc/specs/tags/analysis/api-cloud-eval.yaml, schemas/CloudEval.yaml) ----

struct CloudPv {
    std::vector<std::string> moves;  // UCI, king-to-rook castling
    std::optional<int> cp;           // from White's point of view
    std::optional<int> mate;         // from White's point of view
};

struct CloudEvalReply {
    int depth = 0;
    std::int64_t knodes = 0;
    std::vector<CloudPv> pvs;  // best first
};

// ---- tablebase (doc/specs/tags/tablebase/standard.yaml, schemas/Tablebase{Json,Move}.yaml) ----

enum class TablebaseCategory {
    Win,
    SyzygyWin,
    MaybeWin,
    CursedWin,
    Draw,
    BlessedLoss,
    MaybeLoss,
    SyzygyLoss,
    Loss,
    Unknown,
};
[[nodiscard]] const char* to_string(TablebaseCategory c);  // the spec's text: "syzygy-win", ...
// The spec's text to the enum; any other text is Unknown.
[[nodiscard]] TablebaseCategory parse_tablebase_category(std::string_view s);

struct TablebaseMove {
    std::string uci;
    std::string san;
    // The position AFTER the move, from the side then to move: "loss" is a winning move for us.
    TablebaseCategory category = TablebaseCategory::Unknown;
    std::optional<int> dtz, dtm;  // after the move, from the opponent's side
    bool checkmate = false, stalemate = false, zeroing = false;
};

struct TablebaseReply {
    TablebaseCategory category = TablebaseCategory::Unknown;  // for the side to move
    std::optional<int> dtz, dtm;
    bool checkmate = false, stalemate = false, insufficient_material = false;
    std::vector<TablebaseMove> moves;  // best first
};

// ---- chessdb (chessdb.cn/cloudbookc_api_en.html, action queryall) ----

struct ChessdbMove {
    std::string uci;
    std::string san;                // json form only
    std::optional<int> score;       // side to move's view, cp-like; none for "??" (not scored)
    int rank = 0;                   // 2 best, 1 good, 0 bad
    std::string note;               // "! (12-05)", "* (W-0012)", ...
    std::optional<double> winrate;  // percent, for |score| < 10000
};

struct ChessdbReply {
    // "ok", "unknown", "checkmate", "stalemate", "invalid board", "rate limit exceeded", ...
    std::string status;
    std::vector<ChessdbMove> moves;  // for "ok", best first
};

// ---- parsers: never throw; Kind::Parse for bad JSON or a missing required field ----

[[nodiscard]] Result<ExplorerReply> parse_explorer(std::string_view body);  // one JSON object
[[nodiscard]] Result<CloudEvalReply> parse_cloud_eval(std::string_view body);
[[nodiscard]] Result<TablebaseReply> parse_tablebase(std::string_view body);
// chessdb's queryall in either form: the json=1 object ({"status":"ok","moves":[{"uci",
// "san","score","rank","note","winrate"}]}, what OnlineSources::chessdb asks for) or the plain
// text ("move:e2e4,score:1,rank:2,note:! (12-05),winrate:50.08|..." or a bare status word,
// with or without cdb.php's trailing NUL byte).
[[nodiscard]] Result<ChessdbReply> parse_chessdb(std::string_view body);

// ---- the client ----

// The most a source's reply may weigh: the largest real ones (a tablebase reply listing every
// move, an explorer reply) are tens of KB, so a larger body is refused as it arrives and never
// parsed. A reply stays within the JSON limits of bounded_json.hpp too.
inline constexpr std::size_t kMaxOnlineBody = 1024 * 1024;
// The longest pause a server's hint imposes on a source (Retry-After, `ratelimit.seconds`): a
// source that asks for a day is asked again after an hour, one request that costs nothing.
inline constexpr std::chrono::milliseconds kMaxOnlinePause{3'600'000};

struct OnlineUrls {
    // The spec's servers (lichess-api.yaml: "explorer.lichess.org", "tablebase.lichess.org").
    std::string explorer = "https://explorer.lichess.org";
    std::string cloud_eval = "https://lichess.org";
    std::string tablebase = "https://tablebase.lichess.org";
    std::string chessdb = "https://www.chessdb.cn";
};

// One client for the four services. Each source has its own HttpClient (so it never takes a
// slot or a rate-limit family of the Bot API: moves cannot wait on it), one request at a time
// (Lichess: "Only make one request at a time"; the wait for the slot counts against the
// deadline), a per-request deadline, and a pause after a 429 (Retry-After, else the
// `ratelimit.seconds` of a JSON body, between 1 s and kMaxOnlinePause; else `default_pause`,
// Lichess's one minute) during which it answers at once with Kind::RateLimited without a
// request. No retries: the caller falls
// back to its own search. chessdb's "rate limit exceeded" (a 200) counts as a 429.
//
// Token: sent to Lichess's own services (the explorer requires one, its spec's `security:
// OAuth2`; the cloud eval and the tablebase answer more requests with one, and both Python
// bridges send it), only over https and only to lichess.org, lichess.ovh, their subdomains or the
// Bot API's own host (common::token_may_go_to); never to chessdb, never over plain http. Errors:
// Kind::Network for no answer within the deadline, Kind::Http for other statuses (cloud eval
// answers 404 "No cloud evaluation available for that position" for an unknown position: a miss,
// not a failure), Kind::Parse for a body that is not the JSON the spec describes, Kind::Cancelled
// after shutdown(), Kind::Config for a deadline <= 0 or a player query without player/color.
class OnlineSources {
  public:
    using Millis = std::chrono::milliseconds;

    // `http` gives timeouts, the User-Agent name and the body limit, at most kMaxOnlineBody, and
    // in base_url the Bot API's address (the token may go to its host too; its token is not
    // used). Throws std::invalid_argument naming the source for a
    // bad URL or token.
    OnlineSources(HttpConfig http, OnlineUrls urls, std::string token = {},
                  Millis default_pause = Millis{60000});
    ~OnlineSources();
    OnlineSources(const OnlineSources&) = delete;
    OnlineSources& operator=(const OnlineSources&) = delete;

    // GET {explorer}/masters|lichess|player?fen=…; the player endpoint streams NDJSON until its
    // indexing is done: the last complete line within the deadline is the answer.
    [[nodiscard]] Result<ExplorerReply> explorer(std::string_view fen, const ExplorerQuery& q,
                                                 Millis deadline);
    // GET {cloud_eval}/api/cloud-eval?fen=…&multiPv=N, with &variant=KEY for a variant other
    // than standard (a Lichess key: lila's cloudEval reads it with Variant.orDefault).
    [[nodiscard]] Result<CloudEvalReply> cloud_eval(std::string_view fen, int multi_pv,
                                                    Millis deadline,
                                                    std::string_view variant = "standard");
    // GET {tablebase}/{table}?fen=…: table is standard, atomic or antichess (the spec's
    // tags/tablebase/{standard,atomic,antichess}.yaml).
    [[nodiscard]] Result<TablebaseReply> tablebase(std::string_view fen, Millis deadline,
                                                   std::string_view table = "standard");
    // GET {chessdb}/cdb.php?action=queryall&board=…&json=1
    [[nodiscard]] Result<ChessdbReply> chessdb(std::string_view fen, Millis deadline);

    // Time left on the source's 429 pause, or nullopt when it is not paused.
    [[nodiscard]] std::optional<Millis> paused_for(OnlineSource s) const;
    // Whether requests to the source carry the token (see above).
    [[nodiscard]] bool sends_token(OnlineSource s) const;
    // Wakes and cancels requests in flight (within about a second: curl's progress tick) and
    // makes every later call return Kind::Cancelled at once. Idempotent.
    void shutdown();

  private:
    using Clock = std::chrono::steady_clock;
    using RequestLock = std::unique_lock<std::timed_mutex>;
    struct Slot;
    // Refuses at once (shutdown, no time, paused) or takes the source's request slot in `lock`
    // within the deadline; nullopt when the request may go.
    [[nodiscard]] std::optional<ApiError> admit(OnlineSource s, Clock::time_point start,
                                                Millis deadline, RequestLock& lock);
    [[nodiscard]] static HttpRequest request_to(const Slot& slot, const std::string& target,
                                                Clock::time_point start, Millis deadline);
    [[nodiscard]] Result<HttpResponse> get(OnlineSource s, const std::string& target,
                                           Millis deadline);
    [[nodiscard]] ApiError error_from(OnlineSource s, const HttpResponse& response);
    Millis pause(OnlineSource s, std::optional<Millis> hint);
    [[nodiscard]] Result<ExplorerReply> explorer_player(const std::string& target, Millis deadline);

    std::array<std::unique_ptr<Slot>, kOnlineSourceCount> slots_;
    Millis default_pause_;
    std::stop_source shutdown_;
    mutable std::mutex mutex_;  // guards every Slot::paused_until
};

}  // namespace lichess
