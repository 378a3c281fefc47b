// Time controls and the game clock a match keeps for both engines.
#include "tools/match/clock.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace match {

namespace {

// A non-negative decimal number of seconds as milliseconds ("0.1" -> 100).
std::optional<std::int64_t> seconds_to_ms(std::string_view s) {
    if (s.empty() || s.find_first_not_of("0123456789.") != std::string_view::npos) return {};
    double v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc{} || end != s.data() + s.size() || !(v >= 0) || v > 1e7) return {};
    return std::int64_t(std::llround(v * 1000));
}

}  // namespace

std::optional<TimeControl> parse_clock(std::string_view text) {
    const auto plus = text.find('+');
    const auto base = seconds_to_ms(text.substr(0, plus));
    const auto inc = plus == std::string_view::npos ? std::optional<std::int64_t>(0)
                                                    : seconds_to_ms(text.substr(plus + 1));
    if (!base || !inc || (*base == 0 && *inc == 0)) return std::nullopt;
    TimeControl tc;
    tc.base_ms = *base;
    tc.inc_ms = *inc;
    return tc;
}

bool GameClock::spend(int side, std::int64_t elapsed_ms) {
    if (!tc_.has_clock()) return true;
    if (elapsed_ms > allowed_ms(side)) return false;
    left_ms_[side] = std::max<std::int64_t>(0, left_ms_[side] - elapsed_ms) + tc_.inc_ms;
    return true;
}

std::string GameClock::go_command() const {
    if (tc_.has_clock())
        return "go wtime " + std::to_string(left_ms_[0]) + " btime " + std::to_string(left_ms_[1]) +
               " winc " + std::to_string(tc_.inc_ms) + " binc " + std::to_string(tc_.inc_ms);
    if (tc_.nodes) return "go nodes " + std::to_string(tc_.nodes);
    if (tc_.depth) return "go depth " + std::to_string(tc_.depth);
    return "go movetime " + std::to_string(std::max<std::int64_t>(1, tc_.movetime_ms));
}

}  // namespace match
