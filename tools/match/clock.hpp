// What a match gives each engine to think: a clock (base + increment) that the runner keeps,
// or a fixed budget per move (time, nodes or depth). The clock is pure arithmetic on the
// milliseconds the runner measured, so its rules (flag, margin, increment) are unit-tested.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace match {

struct TimeControl {
    std::int64_t base_ms = 0;  // 0 with inc_ms 0: no clock, a fixed budget below
    std::int64_t inc_ms = 0;
    std::int64_t movetime_ms = 0;
    std::int64_t nodes = 0;
    int depth = 0;

    [[nodiscard]] bool has_clock() const { return base_ms > 0 || inc_ms > 0; }
};

// "10+0.1" (seconds, increment in seconds), "40" (no increment); nothing when malformed.
std::optional<TimeControl> parse_clock(std::string_view text);

// Both sides' clocks during a game: `go` reads them, `spend` charges a move's thinking time.
class GameClock {
  public:
    GameClock(const TimeControl& tc, std::int64_t margin_ms)
        : tc_(tc), margin_ms_(margin_ms), left_ms_{tc.base_ms, tc.base_ms} {}

    [[nodiscard]] std::int64_t left_ms(int side) const { return left_ms_[side]; }
    // The latest a move may arrive, counted from the `go`: what is left plus the margin.
    [[nodiscard]] std::int64_t allowed_ms(int side) const { return left_ms_[side] + margin_ms_; }
    // Charges `elapsed_ms` to `side`; false (the flag fell) when it used more than it had
    // plus the margin. Otherwise its clock goes down (never below zero) and gains the increment.
    bool spend(int side, std::int64_t elapsed_ms);
    // The `go` command for the side to move ("go wtime 9850 btime 10000 winc 100 binc 100").
    [[nodiscard]] std::string go_command() const;

  private:
    TimeControl tc_;
    std::int64_t margin_ms_;
    std::int64_t left_ms_[2];
};

}  // namespace match
