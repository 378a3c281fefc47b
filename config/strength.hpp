// engine.strength.elo: "full" or a level, read once here for the validator and the daemon.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace config {

// The levels the engine plays (its UCI_Elo range; service/game/strength_level.cpp checks that
// they agree).
inline constexpr int kMinLevel = 800;
inline constexpr int kMaxLevel = 2800;

// The fixed level of `text`: nullopt for "full" (and for anything that is not a level, which
// strength_elo_problem reports).
[[nodiscard]] std::optional<int> fixed_level(std::string_view text);

// Why `text` is neither "full" nor a whole number kMinLevel..kMaxLevel; nullopt when it is.
[[nodiscard]] std::optional<std::string> strength_elo_problem(std::string_view text);

}  // namespace config
