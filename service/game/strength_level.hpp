// The level a game is played at (engine.strength): a fixed one, full strength, or the
// opponent's Lichess rating for the game's perf plus the operator's offset, within min..max.
// A pure function, table-tested in tests/service/game/strength_level_test.cpp; docs/STRENGTH.md
// says where the mapping from a Lichess rating to a level comes from.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "config/config.hpp"

namespace service {

// The rating Lichess gives a player that has none yet (Glicko-2's start): a missing rating
// counts as this, and a provisional one is taken halfway towards it.
inline constexpr int kLichessStartRating = 1500;

// One Lichess rating, as a game or a challenge shows it.
struct PerfRating {
    int rating = kLichessStartRating;
    bool provisional = false;
};

// The opponent of a game, as the level needs it.
struct LevelOpponent {
    bool bot = false;  // a BOT account, or Lichess's AI
    // Ratings by Lichess perf key ("blitz", "crazyhouse", ...); the game's perf may be missing.
    std::map<std::string, PerfRating, std::less<>> ratings;
};

// The game's level: none is full strength. `why` says how it was chosen, for the log.
struct GameLevel {
    std::optional<int> elo;
    std::string why;
    bool operator==(const GameLevel&) const = default;
};

// Lichess's perf key of a game: the variant's own perf ("crazyhouse", "chess960", ...), or for
// standard chess and a position set up from a FEN the speed ("bullet", "blitz", "rapid",
// "classical", "correspondence", "ultraBullet").
[[nodiscard]] std::string perf_key(std::string_view variant_key, std::string_view speed);

// The level of a game of `variant_key` at `speed` against `opponent` under `config`.
[[nodiscard]] GameLevel game_level(const config::StrengthConfig& config,
                                   const LevelOpponent& opponent, std::string_view variant_key,
                                   std::string_view speed);

// "level 1400" or "full strength": how the log, the status page and !level say it.
[[nodiscard]] std::string level_text(std::optional<int> elo);

}  // namespace service
