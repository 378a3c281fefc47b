// The scenario that drives one emulator run: account, opponents, scripted challenges, games,
// answers to the bot's own challenges, and faults, as plain structs loaded from YAML or JSON.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace emu {

using Ms = std::int64_t;

// A Lichess user as the emulator shows it (challenger, opponent, online bot).
struct UserSpec {
    std::string name = "Opponent";
    std::optional<std::string> title;  // "BOT", "GM", ... or none
    int rating = 1500;
    bool provisional = false;
    bool online = true;
    int bot_games_today = 0;  // bot-vs-bot games counted by lila's BotLimit before the start
};

struct ChatSpec {
    int at_ply = 0;  // sent when the game reaches this many plies
    std::string room = "player";
    std::string text;
};

// Who plays the other side of a game and what it does besides moving.
struct OpponentSpec {
    enum class Kind { RANDOM, LINE, ENGINE, STALLER };
    Kind kind = Kind::RANDOM;
    UserSpec user;
    Ms think_ms = 50;
    std::vector<std::string> line;     // LINE: the opponent's own moves, in order
    Kind then = Kind::RANDOM;          // LINE: what follows the line (RANDOM or STALLER)
    int depth = 2;                     // ENGINE
    std::int64_t nodes = 0;            // ENGINE: 0 = no node limit
    bool outpost_search = true;        // ENGINE: engine::Engine, or (false) the material search
    int stall_from_ply = 0;            // STALLER: plays randomly before this ply
    int resign_at_ply = -1;            // resigns on its turn once ply >= this
    int offer_draw_at_ply = -1;        // offers a draw on its turn at this ply
    bool accept_draw = false;          // answer to the bot's draw offers
    int takeback_at_ply = -1;          // after its move reaching this ply, asks for a takeback
    bool accept_takeback = false;      // answer to the bot's takeback proposals
    int go_away_at_ply = -1;           // leaves (opponentGone) on its turn at this ply
    bool go_away_on_bot_turn = false;  // … or right after its move, while the bot is to move
    int claim_win_in_seconds = 10;
    Ms come_back_after_ms = -1;  // -1: never comes back
    // On its turn, once the bot's move reaches each of these plies (ascending, one request
    // each), asks to take back its own last move: two plies, as on Lichess.
    std::vector<int> takeback_on_turn_at_plies;
    std::vector<ChatSpec> chat;
};

// Time control as Lichess's challenge JSON has it: seconds for the clock.
struct TimeControlSpec {
    std::optional<int> limit_s;  // clock
    int increment_s = 0;
    std::optional<int> days;  // correspondence; neither = unlimited
};

// An incoming challenge the scenario sends to the bot.
struct ChallengeSpec {
    std::string id;  // empty: generated
    Ms at_ms = 0;
    UserSpec challenger;
    std::string variant = "standard";
    TimeControlSpec time_control;
    bool rated = false;
    std::string color = "random";  // the challenger's choice
    std::string initial_fen;       // empty: variant's start
    std::string rematch_of;
    Ms cancel_at_ms = -1;     // the challenger withdraws it (challengeCanceled)
    int accept_status = 200;  // a refused accept: status and error text
    std::string accept_error;
    OpponentSpec opponent;  // plays the game if accepted (user = challenger)
};

// A game that exists without a challenge (already running at start, or started by "Lichess").
struct GameSpec {
    std::string id;
    Ms at_ms = 0;
    std::string bot_color = "white";
    std::string variant = "standard";
    TimeControlSpec time_control;
    bool rated = false;
    std::string initial_fen;
    std::string moves;  // already played, space-separated UCI
    // lila's game source: friend (a challenge) has no first-move timer; lobby, pool, arena and
    // swiss do (first_move_timeout_ms; arena and swiss end as noStart, the others are aborted).
    std::string source = "friend";
    OpponentSpec opponent;
};

// How the emulator answers a challenge the bot creates (first matching rule wins).
struct OutgoingRule {
    enum class Response { ACCEPT, DECLINE, IGNORE, RATE_LIMIT, OPPONENT_LIMIT };
    std::string user = "*";  // target username, case-insensitive, "*" = any
    Response response = Response::ACCEPT;
    std::string decline_reason = "generic";
    Ms delay_ms = 200;
    int ratelimit_seconds = 86398;
    int max_uses = -1;      // -1: unlimited
    OpponentSpec opponent;  // plays the game if accepted (user = target)
};

// One scripted fault. Stream faults fire per connection; HTTP faults per request.
struct FaultSpec {
    enum class Kind {
        DROP,
        SILENCE,
        SPLIT,
        BATCH,
        DELAY,
        HTTP_429,
        HTTP_5XX,
        HTTP_4XX,
        INJECT,
        MALFORMED,  // online sources: a 200 whose body is cut in half (or an HTML page)
    };
    Kind kind = Kind::DROP;
    std::string target = "any";        // event_stream, game_stream, or an endpoint family
    std::string game;                  // game streams: only this game
    int count = 1;                     // how many times it fires (-1: always)
    int skip = 0;                      // matching connections/requests let through first
    Ms from_ms = 0;                    // not before this time since start
    int after_lines = 0;               // stream faults: after this many lines on the connection
    Ms after_ms = 0;                   // stream faults: or this long after the connection opened
    bool mid_line = false;             // DROP: send half of the next line, then close
    Ms duration_ms = 0;                // SILENCE: how long; 0 = until closed
    int min_chunk = 1, max_chunk = 7;  // SPLIT
    Ms hold_ms = 150;                  // BATCH: collect lines this long into one chunk
    Ms delay_ms = 0;                   // DELAY
    bool hold_reply = false;           // DELAY: the request takes effect, its answer is held
    bool html = false;                 // HTTP_429 / HTTP_5XX: HTML body instead of JSON
    int ratelimit_seconds = -1;        // HTTP_429: adds {"ratelimit":{...}} when >= 0
    int retry_after_s = -1;            // HTTP_429: adds a Retry-After header when >= 0
    int status = 502;                  // HTTP_5XX (500..599); HTTP_4XX (4xx but 429; 403 if unset)
    std::string line_type;             // INJECT: only a line of this "type" (empty: any line)
    std::string patch;                 // INJECT: JSON merge patch (RFC 7386) for that line
};

// A plain-text list of usernames served at `path` (GET, no token): what Outpost's
// challenge.online_block_list reads. Not a lila endpoint, so nothing here copies lila.
struct BlockListSpec {
    std::string path = "/blocklist.txt";
    int status = 200;  // other than 200: that status with a short text body, no names
    std::vector<std::string> names;
};

// One position the online sources' server answers (scenario key `online`), replacing the
// built-in entry for the same position. Keyed by the FEN's placement, side and castling.
struct OnlinePositionSpec {
    std::string fen;
    std::string db = "any";  // explorer only: masters | lichess | player | any
    // The Lichess variant key the position belongs to: only a request for that variant (the
    // explorer's and cloud eval's `variant`, the tablebase's path) finds it.
    std::string variant = "standard";
    int status = 200;
    std::string body;  // JSON (chessdb: its json=1 form; the text form is derived from it)
};

// The online sources' server (its own port): opening explorer, cloud eval, tablebase, chessdb.
struct OnlineSpec {
    bool builtin = true;  // the built-in positions (online_fixtures.cpp)
    std::vector<OnlinePositionSpec> explorer, cloud_eval, tablebase, chessdb;
};

struct AccountSpec {
    std::string username = "OutpostBot";
    std::string token = "lip_emulator_token";
    std::optional<std::string> title = std::string("BOT");
    int rating = 1500;
    std::string scopes = "bot:play,challenge:read,challenge:write";
    int played_games = 0;
    int bot_games_today = 0;  // bot-vs-bot games already counted today (lila BotLimit)
};

struct Scenario {
    std::string name = "unnamed";
    std::uint64_t seed = 1;
    AccountSpec account;
    Ms keepalive_ms = 7000;
    bool king_to_rook = true;  // castling in move lists: e1h1 (Lichess) or e1g1
    Ms first_move_timeout_ms = 30000;
    int clock_start_ply = 2;  // clocks tick once this many plies are played
    Ms chunk_gap_ms = 2;      // pause between separately flushed chunks (SPLIT)
    bool exit_when_all_games_finished = false;
    Ms exit_linger_ms = 500;
    Ms max_duration_ms = 0;  // 0 = no limit
    // lila BotLimit (modules/bot/src/main/BotLimit.scala): bot-vs-bot games per user per window,
    // the window running from the first counted game (RateLimit's clearAt).
    int bot_games_per_day = 100;
    Ms bot_limit_window_ms = 86'400'000;
    std::vector<UserSpec> online_bots;
    std::vector<ChallengeSpec> challenges;
    std::vector<GameSpec> games;
    std::vector<OutgoingRule> outgoing;
    std::vector<FaultSpec> faults;
    std::vector<BlockListSpec> block_lists;
    OnlineSpec online;
};

// Parses a scenario from YAML or JSON text; on error returns a message naming the key.
struct ScenarioResult {
    std::optional<Scenario> scenario;
    std::string error;
};
ScenarioResult parse_scenario(const std::string& text);
ScenarioResult load_scenario_file(const std::string& path);

}  // namespace emu
