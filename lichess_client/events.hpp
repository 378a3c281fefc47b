// Typed lines of the event stream (/api/stream/event) and the game stream (/api/bot/game/stream).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "lichess_client/api_error.hpp"

namespace lichess {

enum class Color { White, Black };
[[nodiscard]] std::optional<Color> parse_color(std::string_view s);
[[nodiscard]] const char* to_string(Color c);

// Game status by name; lichess ids disagree across versions, names do not.
enum class GameStatus {
    Created,
    Started,
    Aborted,
    Mate,
    Resign,
    Stalemate,
    Timeout,
    Draw,
    OutOfTime,
    Cheat,
    NoStart,
    UnknownFinish,
    InsufficientMaterialClaim,
    VariantEnd,
    Unknown,  // a name this client does not know yet: treat as finished
};
[[nodiscard]] GameStatus parse_game_status(std::string_view name);
[[nodiscard]] const char* to_string(GameStatus s);
// created/started are the only statuses of a game that can still be played.
[[nodiscard]] bool is_game_over(GameStatus s);

struct Variant {
    std::string key;  // "standard", "chess960", "fromPosition", ...
    std::string name;
};

struct Compat {
    bool bot = false;
    bool board = false;
};

// ---- challenges -------------------------------------------------------------------------

struct ChallengeUser {
    std::string id;  // lowercase username
    std::string name;
    std::optional<int> rating;
    std::optional<std::string> title;  // "BOT" for bots, "GM", ...; absent for untitled users
    bool provisional = false;
    std::optional<bool> online;
    [[nodiscard]] bool is_bot() const { return title && *title == "BOT"; }
};

// A challenge's time control. Real-time values are SECONDS here (game streams use ms).
struct TimeControl {
    enum class Type { Clock, Correspondence, Unlimited };
    Type type = Type::Unlimited;
    std::optional<int> limit_s;        // Clock: initial time in seconds
    std::optional<int> increment_s;    // Clock: increment in seconds
    std::optional<std::string> show;   // Clock: "5+2"
    std::optional<int> days_per_turn;  // Correspondence
};

// ChallengeJson from the spec.
struct ChallengeInfo {
    std::string id;  // equals the id of the game it creates
    std::string url;
    std::string status;                      // created | offline | canceled | declined | accepted
    ChallengeUser challenger;                // id "" and name "Anonymous" when lila sends null
    std::optional<ChallengeUser> dest_user;  // null for open challenges
    Variant variant;
    bool rated = false;
    std::string speed;  // ultraBullet | bullet | blitz | rapid | classical | correspondence
    TimeControl time_control;
    std::string color;  // the challenger's choice: white | black | random
    std::optional<Color> final_color;
    std::string perf_name;
    std::optional<std::string> direction;    // "in" | "out", REST replies only
    std::optional<std::string> initial_fen;  // present when a start FEN is known
    std::optional<std::string> rematch_of;
    std::optional<std::string> decline_reason;      // human text
    std::optional<std::string> decline_reason_key;  // lowercase key: "toofast", "nobot", ...
    std::vector<std::string> rules;
};

struct Challenge {
    ChallengeInfo challenge;
    std::optional<Compat> compat;
};
// A `challenge` event whose challenge could not be read (a field of a shape this client does not
// know): it still has an id, so it can be declined rather than left to expire unanswered.
struct ChallengeUnreadable {
    std::string id;
    std::string problem;
};
struct ChallengeCanceled {
    ChallengeInfo challenge;
};
struct ChallengeDeclined {
    ChallengeInfo challenge;
};

// ---- game start / finish --------------------------------------------------------------------

struct GameOpponent {
    std::optional<std::string> id;  // null for the Lichess AI
    std::string username;
    std::optional<int> rating;
    std::optional<int> rating_diff;
    std::optional<int> ai_level;
};

// GameEventInfo from the spec (gameStart / gameFinish payload).
struct GameEventInfo {
    std::string game_id;         // 8 chars: use this for /api/bot/* calls
    std::string full_id;         // 12 chars
    std::optional<Color> color;  // our colour
    std::optional<std::string> fen;
    std::optional<std::string> last_move;
    std::optional<std::string> source;
    std::optional<GameStatus> status;
    std::optional<std::string> status_name;
    std::optional<Variant> variant;
    std::optional<std::string> speed;
    std::optional<std::string> perf;
    std::optional<bool> rated;
    std::optional<bool> has_moved;
    std::optional<GameOpponent> opponent;
    std::optional<bool> is_my_turn;
    std::optional<int> seconds_left;  // SECONDS
    std::optional<Color> winner;
    std::optional<int> rating_diff;
    std::optional<Compat> compat;
    std::optional<std::string> tournament_id;
};

// A game of an arena, a simul or a swiss: lila's Game.isMandatory (modules/core/src/main/game/
// Game.scala: tournamentId, simulId or swissId set), known here by gameStart's `tournamentId` or
// `source` (arena, simul, swiss; "tournament" in older payloads). lila lets no one abort such a
// game or take a move back in it.
[[nodiscard]] bool is_mandatory(const GameEventInfo& game);

struct GameStart {
    GameEventInfo game;
};
struct GameFinish {
    GameEventInfo game;
};

using Event = std::variant<Challenge, ChallengeCanceled, ChallengeDeclined, GameStart, GameFinish,
                           ChallengeUnreadable>;

// ---- game stream ----------------------------------------------------------------------------

struct GamePlayer {
    std::optional<std::string> id;  // absent for the AI
    std::string name;
    std::optional<std::string> title;
    std::optional<int> rating;
    std::optional<int> ai_level;
    bool provisional = false;
    [[nodiscard]] bool is_bot() const { return title && *title == "BOT"; }
};

struct Expiration {
    std::int64_t idle_ms = 0;
    std::int64_t millis_to_move = 0;
};

// All times in MILLISECONDS. Unlimited games report 2147483647.
struct GameState {
    std::string moves;  // space-separated UCI; castling may be king-to-rook (e1h1)
    std::int64_t wtime_ms = 0;
    std::int64_t btime_ms = 0;
    std::int64_t winc_ms = 0;
    std::int64_t binc_ms = 0;
    GameStatus status = GameStatus::Unknown;
    std::string status_name;
    std::optional<Color> winner;
    bool wdraw = false;
    bool bdraw = false;
    bool wtakeback = false;
    bool btakeback = false;
    std::optional<Expiration> expiration;
    std::optional<std::string> rematch;  // undocumented: id of an accepted rematch
};

struct Clock {
    std::int64_t initial_ms = 0;
    std::int64_t increment_ms = 0;
};

struct GameFull {
    std::string id;
    Variant variant;
    std::optional<Clock> clock;  // absent for correspondence and unlimited games
    std::string speed;
    std::string perf_name;
    bool rated = false;
    std::int64_t created_at_ms = 0;
    GamePlayer white;
    GamePlayer black;
    std::string initial_fen = "startpos";  // "startpos" or a full (X-)FEN
    GameState state;
    std::optional<int> days_per_turn;
    std::optional<std::string> tournament_id;
    [[nodiscard]] bool is_startpos() const { return initial_fen == "startpos"; }
};

struct ChatLine {
    std::string room;  // player | spectator
    std::string username;
    std::string text;
};

struct OpponentGone {
    bool gone = false;
    std::optional<int> claim_win_in_seconds;
};

// A gameFull or gameState that could not be read: a field the game depends on is missing or
// of the wrong type, or a `winner` is neither "white" nor "black". The game's state is then
// unknown, so waiting for the next line could lose it on time: the receiver resigns or aborts.
// GameStream also delivers one (with `type` and `field` empty) for a line that is not usable
// JSON at all (invalid, nested too deep, too many values): it may have been a gameState.
struct GameUnreadable {
    std::string type;     // "gameFull", "gameState", or "" when the line's type is unknown
    std::string game_id;  // the gameFull's id, or the stream's game; empty only from the parser
    std::string field;    // its path in the line: "wtime", "state.winner", "clock.initial"
    std::string problem;  // printable: "missing", "expected a number, got text", ...
};

using GameEvent = std::variant<GameFull, GameState, ChatLine, OpponentGone, GameUnreadable>;

// ---- parsing --------------------------------------------------------------------------------
// Never throw. An error value for invalid JSON (or JSON past the limits of bounded_json.hpp) or
// a missing required field; std::nullopt for a well-formed line whose `type` this client does
// not know (skip it). parse_game_event answers a gameFull or gameState whose fields cannot be
// read with a GameUnreadable value naming the field, not an error: it must not be skipped.

[[nodiscard]] Result<std::optional<Event>, ParseError> parse_event(std::string_view line);
[[nodiscard]] Result<std::optional<GameEvent>, ParseError> parse_game_event(std::string_view line);
[[nodiscard]] Result<ChallengeInfo, ParseError> parse_challenge(std::string_view json);

// The same, from an already parsed document (used for REST replies that embed these).
[[nodiscard]] Result<ChallengeInfo, ParseError> challenge_from_json(const nlohmann::json& j);

// Event type name for logs ("challenge", "gameFull", ...).
[[nodiscard]] const char* type_name(const Event& e);
[[nodiscard]] const char* type_name(const GameEvent& e);

}  // namespace lichess
