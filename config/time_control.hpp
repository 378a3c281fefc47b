// Matchmaking time controls as operators write them ("3+2": minutes + seconds), and the speed
// Lichess files a clock under.
#pragma once

#include <optional>
#include <string_view>

namespace config {

// A real-time clock in the units a challenge is created with.
struct ClockSetting {
    int base_s = 0;
    int increment_s = 0;
    bool operator==(const ClockSetting&) const = default;
};

// "minutes+seconds": whole minutes 0..180 or 0.25, 0.5, 0.75, 1.5 (the fractions Lichess offers),
// seconds 0..60 (the most a challenge may ask), not both 0. Spaces around the parts are allowed.
[[nodiscard]] std::optional<ClockSetting> parse_time_control(std::string_view text);

// Lichess's speed for a clock, from its estimated duration base + 40 x increment:
// "ultraBullet" (< 30 s), "bullet" (< 180 s), "blitz" (< 480 s), "rapid" (< 1500 s), "classical".
[[nodiscard]] std::string_view speed_of(const ClockSetting& clock);

}  // namespace config
