// Reading engine.strength.elo.
#include "strength.hpp"

#include <charconv>

namespace config {

namespace {

std::optional<int> whole_number(std::string_view text) {
    int value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
    return value;
}

}  // namespace

std::optional<int> fixed_level(std::string_view text) {
    const auto value = whole_number(text);
    if (!value || *value < kMinLevel || *value > kMaxLevel) return std::nullopt;
    return value;
}

std::optional<std::string> strength_elo_problem(std::string_view text) {
    if (text == "full" || fixed_level(text)) return std::nullopt;
    const std::string range = std::to_string(kMinLevel) + ".." + std::to_string(kMaxLevel);
    if (whole_number(text))
        return "level " + std::string(text) + " is outside " + range + " (or write full)";
    return "'" + std::string(text) + "' is not a level: write full or a whole number " + range;
}

}  // namespace config
