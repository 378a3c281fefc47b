// Typed replies of the REST endpoints (account, playing, token test, users, AI challenge).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lichess_client/api_error.hpp"
#include "lichess_client/events.hpp"

namespace lichess {

struct PerfRating {
    int rating = 0;
    int games = 0;
    bool provisional = false;
};

// GET /api/account (UserExtended, the fields the bot uses).
struct Account {
    std::string id;
    std::string username;
    std::optional<std::string> title;
    std::map<std::string, PerfRating> perfs;  // "blitz", "chess960", ...
    bool disabled = false;
    bool tos_violation = false;
    [[nodiscard]] bool is_bot() const { return title && *title == "BOT"; }
};

// GET /api/account/playing: nowPlaying entries share the gameStart payload shape.
struct Playing {
    std::vector<GameEventInfo> now_playing;
};

// POST /api/token/test, the entry for our own token.
struct TokenInfo {
    std::string user_id;
    std::vector<std::string> scopes;
    std::optional<std::int64_t> expires_ms;  // null: never expires
    [[nodiscard]] bool has_scope(std::string_view scope) const;
};

// One line of GET /api/bot/online (User).
struct User {
    std::string id;
    std::string username;
    std::optional<std::string> title;
    std::map<std::string, PerfRating> perfs;
};

// One entry of GET /api/users/status.
struct UserStatus {
    std::string id;
    std::string name;
    std::optional<std::string> title;
    bool online = false;
    bool playing = false;
};

// The 201 reply of POST /api/challenge/ai.
struct AiGame {
    std::string id;
    std::string full_id;
    std::optional<Color> player;
};

// GET /api/tournament/{id}: an arena as lila's tournament JsonView writes it, the fields the bot
// uses. lila adds optional fields only when they hold something: `botsAllowed` only when true,
// `secondsToStart` only before the start, `secondsToFinish` only while it runs, `me` only for a
// player.
struct TournamentMe {
    bool withdraw = false;               // withdrawn (by us, or by lila after a noStart)
    std::optional<int> pause_delay_s;    // paused: may join again after this
    std::optional<std::string> game_id;  // our game in it now
};
struct Tournament {
    std::string id;
    std::string full_name;
    std::optional<std::int64_t> starts_at_ms;  // `startsAt`, ms since the Unix epoch
    int minutes = 0;
    std::optional<int> seconds_to_start;
    std::optional<int> seconds_to_finish;
    bool is_started = false;
    bool is_finished = false;
    std::string variant = "standard";  // key
    int clock_limit_s = 0;
    int clock_increment_s = 0;
    bool rated = true;
    bool bots_allowed = false;
    bool berserkable = false;
    int nb_players = 0;
    std::optional<TournamentMe> me;
};

// "2025-06-01T12:00:00.000Z" (lila's isoDateTimeFormatter, UTC) as ms since the Unix epoch.
[[nodiscard]] std::optional<std::int64_t> parse_iso_instant(std::string_view text);

[[nodiscard]] Result<Account, ParseError> parse_account(std::string_view json);
[[nodiscard]] Result<Tournament, ParseError> parse_tournament(std::string_view json);
[[nodiscard]] Result<Playing, ParseError> parse_playing(std::string_view json);
// `token` selects the entry; a null entry means the token is invalid or revoked.
[[nodiscard]] Result<std::optional<TokenInfo>, ParseError> parse_token_test(std::string_view json,
                                                                            std::string_view token);
[[nodiscard]] Result<User, ParseError> parse_user(std::string_view json);
[[nodiscard]] Result<std::vector<UserStatus>, ParseError> parse_user_status(std::string_view json);
[[nodiscard]] Result<AiGame, ParseError> parse_ai_game(std::string_view json);

}  // namespace lichess
