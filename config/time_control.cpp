// Parsing "minutes+seconds" time controls and naming their Lichess speed.
#include "time_control.hpp"

#include <utility>

#include "text.hpp"

namespace config {

std::optional<ClockSetting> parse_time_control(std::string_view text) {
    text = detail::trim(text);
    const auto plus = text.find('+');
    if (plus == std::string_view::npos) return std::nullopt;
    const std::string_view minutes = detail::trim(text.substr(0, plus));
    const std::string_view seconds = detail::trim(text.substr(plus + 1));
    static constexpr std::pair<std::string_view, int> kFractions[] = {
        {"0.25", 15}, {"0.5", 30}, {"0.75", 45}, {"1.5", 90}};
    ClockSetting clock{-1, 0};
    for (const auto& [written, value] : kFractions)
        if (minutes == written) clock.base_s = value;
    if (clock.base_s < 0) {
        const detail::IntParse m = detail::parse_int(minutes);
        if (m.status != detail::IntParse::Ok || m.value < 0 || m.value > 180 ||
            minutes.starts_with('+'))
            return std::nullopt;
        clock.base_s = static_cast<int>(m.value) * 60;
    }
    const detail::IntParse s = detail::parse_int(seconds);
    if (s.status != detail::IntParse::Ok || s.value < 0 || s.value > 60 || seconds.starts_with('+'))
        return std::nullopt;
    clock.increment_s = static_cast<int>(s.value);
    if (clock.base_s + clock.increment_s == 0) return std::nullopt;
    return clock;
}

std::string_view speed_of(const ClockSetting& clock) {
    const int estimate = clock.base_s + 40 * clock.increment_s;
    if (estimate < 30) return "ultraBullet";
    if (estimate < 180) return "bullet";
    if (estimate < 480) return "blitz";
    if (estimate < 1500) return "rapid";
    return "classical";
}

}  // namespace config
