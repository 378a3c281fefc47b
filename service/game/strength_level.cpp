// game_level: engine.strength applied to one game's opponent.
#include "service/game/strength_level.hpp"

#include <algorithm>

#include "config/strength.hpp"
#include "engine/strength.hpp"
#include "engine/variant_table.hpp"

namespace service {

static_assert(config::kMinLevel == engine::MIN_LEVEL_ELO &&
                  config::kMaxLevel == engine::MAX_LEVEL_ELO,
              "engine.strength's range is the engine's UCI_Elo range");

std::string perf_key(std::string_view variant_key, std::string_view speed) {
    // A key the table lacks is kept as its own perf: a rating by that name is still the best guess.
    const engine::GameType* type = engine::find_game_type(variant_key);
    if (!type && !variant_key.empty()) return std::string(variant_key);
    return std::string(engine::perf_of(variant_key, speed));
}

GameLevel game_level(const config::StrengthConfig& config, const LevelOpponent& opponent,
                     std::string_view variant_key, std::string_view speed) {
    if (!config.match_opponent) {
        const std::optional<int> fixed = config::fixed_level(config.elo);
        return {fixed, fixed ? "engine.strength.elo" : "engine.strength.elo is full"};
    }
    if (opponent.bot && !config.match_bots)
        return {std::nullopt, "a bot, and engine.strength.match_bots is false"};

    const std::string perf = perf_key(variant_key, speed);
    const auto found = opponent.ratings.find(perf);
    std::string why;
    int rating = kLichessStartRating;
    if (found == opponent.ratings.end()) {
        why = "no " + perf + " rating: Lichess's start, " + std::to_string(kLichessStartRating);
    } else if (found->second.provisional) {
        // A provisional rating moves by hundreds in a player's first games: half of it is trusted.
        rating = (found->second.rating + kLichessStartRating) / 2;
        why = "provisional " + perf + " rating " + std::to_string(found->second.rating) +
              ", taken halfway to " + std::to_string(kLichessStartRating);
    } else {
        rating = found->second.rating;
        why = perf + " rating " + std::to_string(rating);
    }
    if (config.offset != 0)
        why +=
            ", offset " + std::string(config.offset > 0 ? "+" : "") + std::to_string(config.offset);
    const int low =
        std::clamp(std::min(config.min, config.max), config::kMinLevel, config::kMaxLevel);
    const int high =
        std::clamp(std::max(config.min, config.max), config::kMinLevel, config::kMaxLevel);
    const int level = std::clamp(rating + config.offset, low, high);
    if (level != rating + config.offset)
        why += ", kept within " + std::to_string(low) + ".." + std::to_string(high);
    return {level, "the opponent's " + why};
}

std::string level_text(std::optional<int> elo) {
    return elo ? "level " + std::to_string(*elo) : "full strength";
}

}  // namespace service
