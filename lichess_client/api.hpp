// Api: one function per Lichess Bot API endpoint, with rate limits and retries applied.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "lichess_client/api_error.hpp"
#include "lichess_client/events.hpp"
#include "lichess_client/http_client.hpp"
#include "lichess_client/payloads.hpp"
#include "lichess_client/rate_limiter.hpp"
#include "lichess_client/retry.hpp"

namespace lichess {

struct ApiOptions {
    HttpConfig http;
    RetryPolicy retry;
    // A move request with no answer within `move_timeout` is given up and sent again (the
    // Python lichess-bot waits about 2 s), quickly and for as long as the caller's `still_on`
    // says the move can still matter: a server that holds one request must not cost the game.
    Millis move_timeout{2000};
    RetryPolicy move_retry{30, BackoffConfig{Millis{100}, Millis{1000}, 2.0, 0.5}};
    // Game actions (abort, resign, draw, takeback, claims) run on a game's own thread too.
    Millis game_action_timeout{5000};
    // Every other request (families Challenge, ChallengeCreate, Account, Tournament): a try with
    // no answer within this is given up and retried by `retry`, as the Python bridges do
    // (lichess-bot waits 2 s per try). lila answers these in milliseconds; a held one costs a
    // worker thread a few seconds, never a game.
    Millis request_try_timeout{3000};
    RateLimitConfig rate_limit;
    std::uint64_t jitter_seed = 0;  // 0: random
};

// Decline reasons as the request wants them (camelCase); events echo them in lowercase.
// kAllDeclineReasons lists every one (/metrics shows each from the start).
enum class DeclineReason {
    Generic,
    Later,
    TooFast,
    TooSlow,
    TimeControl,
    Rated,
    Casual,
    Standard,
    Variant,
    NoBot,
    OnlyBot,
};
[[nodiscard]] const char* to_string(DeclineReason r);
inline constexpr DeclineReason kAllDeclineReasons[] = {
    DeclineReason::Generic, DeclineReason::Later,       DeclineReason::TooFast,
    DeclineReason::TooSlow, DeclineReason::TimeControl, DeclineReason::Rated,
    DeclineReason::Casual,  DeclineReason::Standard,    DeclineReason::Variant,
    DeclineReason::NoBot,   DeclineReason::OnlyBot};
// Case-insensitive, so both "tooFast" and the event's "toofast" work.
[[nodiscard]] std::optional<DeclineReason> parse_decline_reason(std::string_view s);

// Lichess's daily limit of games between bots (100 a day), as a reply to creating or accepting a
// challenge reports it: a 429 when we have played ours, a 400 when the opponent has.
struct BotGameLimit {
    bool ours = true;                               // false: the opponent is out of games
    std::optional<std::chrono::milliseconds> wait;  // ratelimit.seconds, when the body had it
};
[[nodiscard]] std::optional<BotGameLimit> bot_game_limit(const ApiError& e);

enum class ChatRoom { Player, Spectator };
[[nodiscard]] const char* to_string(ChatRoom r);

// POST /api/tournament/{id}/join (lila TournamentForm.joinForm: team, password, pairMeAsap).
struct TournamentJoin {
    std::optional<std::string> team;
    std::optional<std::string> password;
    // Pair us at once when the arena runs (lila WaitingUsers.addApiUser: we count as waiting for
    // 70 s); ignored before it starts.
    bool pair_me_asap = false;
};

// POST /api/challenge/{username}. Set clock (real-time), or days (correspondence), or neither
// (unlimited).
struct ChallengeRequest {
    std::optional<int> clock_limit_s;
    std::optional<int> clock_increment_s;
    std::optional<int> days;
    bool rated = false;
    std::string color = "random";  // white | black | random
    std::string variant = "standard";
    std::optional<std::string> fen;
};

// How a streaming connection opened through Api ended.
struct StreamResult {
    StreamEnd::Kind kind = StreamEnd::Kind::Closed;
    std::optional<ApiError> error;  // for Http (incl. 429) and Network
    std::uint64_t bytes = 0;
};

using ByteSink = std::function<void(std::string_view)>;

class Api {
  public:
    // Throws std::invalid_argument for a bad base URL or token (start-up error).
    explicit Api(ApiOptions options);
    Api(const Api&) = delete;
    Api& operator=(const Api&) = delete;

    // ---- account and users (family Account) ----
    [[nodiscard]] Result<Account> account();
    // Fails with Kind::Config when the token is unknown or lacks bot:play.
    [[nodiscard]] Result<TokenInfo> token_test();
    [[nodiscard]] Result<Playing> playing(int nb = 50);
    [[nodiscard]] Result<Ok> upgrade_to_bot();
    [[nodiscard]] Result<std::vector<User>> bots_online(int nb = 100);
    [[nodiscard]] Result<std::vector<UserStatus>> user_status(const std::vector<std::string>& ids);

    // ---- playing (families Move, GameAction, Chat) ----
    // `still_on` is asked before every retry: a move is retried (network errors, 5xx, no
    // answer within ApiOptions::move_timeout) only while the game can still be on and our clock
    // allows. A 4xx (e.g. 400 at game end) returns at once: it is final. A 429 returns at once
    // with retry_after (at most 3 s, default_max_pause); the next post is the caller's to time,
    // since the family's pause never refuses a move (is_per_game).
    [[nodiscard]] Result<Ok> post_move(std::string_view game_id, std::string_view uci,
                                       std::optional<bool> offering_draw = std::nullopt,
                                       const std::function<bool()>& still_on = {});
    [[nodiscard]] Result<Ok> chat(std::string_view game_id, ChatRoom room, std::string_view text);
    [[nodiscard]] Result<Ok> abort(std::string_view game_id);
    [[nodiscard]] Result<Ok> resign(std::string_view game_id);
    [[nodiscard]] Result<Ok> handle_draw(std::string_view game_id, bool accept);
    [[nodiscard]] Result<Ok> handle_takeback(std::string_view game_id, bool accept);
    [[nodiscard]] Result<Ok> claim_victory(std::string_view game_id);
    [[nodiscard]] Result<Ok> claim_draw(std::string_view game_id);

    // ---- challenges (family Challenge; creating them: ChallengeCreate) ----
    [[nodiscard]] Result<Ok> accept_challenge(std::string_view id,
                                              std::optional<Color> color = std::nullopt);
    [[nodiscard]] Result<Ok> decline_challenge(std::string_view id,
                                               DeclineReason reason = DeclineReason::Generic);
    [[nodiscard]] Result<ChallengeInfo> create_challenge(std::string_view username,
                                                         const ChallengeRequest& request);
    [[nodiscard]] Result<Ok> cancel_challenge(std::string_view id);

    // ---- arenas (family Tournament) ----
    // GET /api/tournament/{id}: 404 (Kind::Http) for an unknown arena.
    [[nodiscard]] Result<Tournament> tournament(std::string_view id);
    // 400 `{"error": "..."}` when lila refuses (a pause not over, a wrong entry code, no team).
    [[nodiscard]] Result<Ok> join_tournament(std::string_view id, const TournamentJoin& join);
    // lila selfPause: removes us from an arena that has not started, withdraws us from a running
    // one (a pause when we rank in its top 7). Sent even while a 429 pauses the Tournament
    // family: lila limits joins (limit.tourJoinOrResume), not withdrawals, and a bot that stops
    // without withdrawing is paired, and loses, while it is gone.
    [[nodiscard]] Result<Ok> withdraw_tournament(std::string_view id);

    // ---- streams: one connection each; EventStream / GameStream add parsing and reconnects.
    // on_bytes gets raw body bytes. Ends on close, error, silence or stop (or shutdown()).
    StreamResult stream_events(std::stop_token stop, Millis silence, const ByteSink& on_bytes);
    StreamResult stream_game(std::string_view game_id, std::stop_token stop, Millis silence,
                             const ByteSink& on_bytes);

    // ---- state ----
    // Time left on a 429 pause of `family` (matchmaking waits while ChallengeCreate is paused).
    [[nodiscard]] std::optional<Millis> paused_for(Family family) const {
        return limiter_.paused_for(family);
    }
    // When that pause ends (steady clock), or nullopt. Moves and game actions are not refused
    // during their pause (is_per_game): a game whose flag falls first posts before it ends.
    [[nodiscard]] std::optional<RateLimiter::Clock::time_point> paused_until(Family family) const {
        return limiter_.paused_until(family);
    }
    [[nodiscard]] const RateLimiter& rate_limiter() const { return limiter_; }
    // Requests that failed other than with a 429 (5xx, other 4xx, network errors), for
    // /metrics: every attempt counts, retried ones too (a burst of 5xx the retries absorbed
    // is still worth seeing), and so does a stream connection that failed or broke.
    [[nodiscard]] std::uint64_t error_count() const {
        return errors_.load(std::memory_order_relaxed);
    }
    [[nodiscard]] HttpClient& http() { return http_; }
    // Puts `user:<name>` into the User-Agent of later requests (see HttpClient::set_username).
    void set_username(std::string_view username) { http_.set_username(username); }

    // Wakes every waiting retry and stream; later calls fail with Kind::Cancelled.
    void shutdown();
    [[nodiscard]] bool is_shut_down() const { return shutdown_.stop_requested(); }
    [[nodiscard]] std::stop_token shutdown_token() const { return shutdown_.get_token(); }

    // Sleeps unless `stop` or shutdown() fires first; false when interrupted.
    bool sleep_for(Millis duration, std::stop_token stop = {});

  private:
    // through_pause: sent even while the family is paused after a 429 (as a game's own requests
    // always are).
    [[nodiscard]] Result<HttpResponse> call(Family family, const HttpRequest& request,
                                            const std::function<bool()>& still_on = {},
                                            const RetryPolicy* policy = nullptr,
                                            bool through_pause = false);
    [[nodiscard]] Result<Ok> post_ok(Family family, std::string target, std::string body = {},
                                     const RetryPolicy* policy = nullptr,
                                     bool through_pause = false);
    StreamResult open_stream(Family family, const std::string& target, std::stop_token stop,
                             Millis silence, const ByteSink& on_bytes);
    [[nodiscard]] std::uint64_t jitter_seed() const;
    // A non-2xx reply as an error value; a 429 also pauses the family (for the Retry-After
    // header, else the body's `ratelimit.seconds`, within the family's cap).
    [[nodiscard]] ApiError error_from(Family family, int status, std::string_view body,
                                      std::optional<Millis> retry_after_header);
    // Adds `e` to error_count() when it is a failure of the server or the network.
    void count_error(const ApiError& e);

    ApiOptions options_;
    HttpClient http_;
    RateLimiter limiter_;
    Backoff backoff_;
    std::stop_source shutdown_;
    std::mutex sleep_mutex_;
    std::condition_variable_any sleep_cv_;
    std::atomic<std::uint64_t> errors_{0};
};

}  // namespace lichess
