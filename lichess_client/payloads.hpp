// Typed replies of the REST endpoints (account, playing, token test, users, AI challenge).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lichess_client/events.hpp"
#include "lichess_client/result.hpp"

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

[[nodiscard]] Result<Account, ParseError> parse_account(std::string_view json);
[[nodiscard]] Result<Playing, ParseError> parse_playing(std::string_view json);
// `token` selects the entry; a null entry means the token is invalid or revoked.
[[nodiscard]] Result<std::optional<TokenInfo>, ParseError> parse_token_test(std::string_view json,
                                                                            std::string_view token);
[[nodiscard]] Result<User, ParseError> parse_user(std::string_view json);
[[nodiscard]] Result<std::vector<UserStatus>, ParseError> parse_user_status(std::string_view json);
[[nodiscard]] Result<AiGame, ParseError> parse_ai_game(std::string_view json);

}  // namespace lichess
