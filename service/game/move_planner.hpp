// MovePlanner turns the Lichess clock of one move into engine::SearchLimits; LagTracker
// estimates the network round trip that the clock must also pay for.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "config/config.hpp"
#include "engine/timeman.hpp"
#include "engine/types.hpp"

namespace service {

// Round-trip samples of one game: milliseconds from posting our move to receiving the
// gameState that contains it. Not thread-safe: one per GameSession, used from its thread.
class LagTracker {
  public:
    static constexpr std::size_t kWindow = 20;            // the last this many samples count
    static constexpr std::int64_t kMaxEstimateMs = 2000;  // beyond this, lag is an outage

    // Negative samples (clock skew) count as 0.
    void record(std::int64_t ms);
    // The 90th percentile of the window, so one slow post does not dominate but a steadily
    // slow line does; clamped to [0, kMaxEstimateMs]. 0 with no samples.
    [[nodiscard]] std::int64_t estimate_ms() const;
    [[nodiscard]] std::size_t samples() const { return samples_.size(); }

  private:
    std::deque<std::int64_t> samples_;
};

// What a game's clock can hold, as lila bounds it: a real-time clock starts with `initial_ms`
// (at most 180 minutes; 0+N clocks start with N, at least 3 s) and gains `increment_ms` (at
// most 180 s) per move made; a correspondence clock holds at most `days_per_turn` days (1 to
// 14). Sources: lila's chess.Clock.Config (limit, increment, initTime) and its correspondence
// days per turn.
struct GameClockLimits {
    std::int64_t initial_ms = 0;
    std::int64_t increment_ms = 0;
    int days_per_turn = 0;  // correspondence; 0: real time (or unlimited)
};
inline constexpr std::int64_t kMaxInitialClockMs = 180LL * 60 * 1000;
inline constexpr std::int64_t kMaxIncrementMs = 180LL * 1000;
inline constexpr std::int64_t kMinZeroLimitClockMs = 3000;
inline constexpr int kMaxDaysPerTurn = 14;

// The clock at the moment we are to move, as the game stream reports it (milliseconds).
// Real-time clocks above this are treated as this much (24 h): no Lichess real-time game comes
// near it, and a search planned from a larger (bogus) clock could run for days.
inline constexpr std::int64_t kMaxRealTimeClockMs = 24LL * 3600 * 1000;

struct MoveClock {
    bool real_time = true;  // false for correspondence and unlimited games (no gameFull clock)
    engine::Color us = engine::WHITE;
    std::int64_t our_ms = 0;    // our remaining time
    std::int64_t their_ms = 0;  // the opponent's remaining time
    std::int64_t our_inc_ms = 0;
    std::int64_t their_inc_ms = 0;
    int our_moves_played = 0;  // moves we already made in this game; 0: our first move
    // What the game can hold (bounded() applies it): the gameFull's clock for real time, its
    // days per turn for correspondence. None: not known (only the 24 h cap applies).
    std::optional<GameClockLimits> limits = std::nullopt;
    int their_moves_played = 0;
};

// `clock` within what its game can hold: our time at most initial + increment x our moves (the
// opponent's likewise), increments at most the game's, a correspondence clock at most its days
// per turn; every value within [0, 24 h] (real time) or [0, ~115 days]. So no line the server
// writes (wtime 1e300, 2^64 - 1, winc 1e300) can make a move of a 1+0 game think for more than
// the 60 s its clock can hold.
[[nodiscard]] MoveClock bounded(const MoveClock& clock);

struct MovePlannerSettings {
    std::int64_t move_overhead_ms = 100;          // engine.move_overhead_ms
    std::int64_t correspondence_move_ms = 60000;  // correspondence.move_time_ms or move_time_s
    // Lichess aborts a game whose first moves do not come quickly, and the clock does not run
    // before both sides have moved: think at most this long, and at most 1/20 of the clock.
    std::int64_t first_move_max_ms = 1000;
    // Below this much usable time (clock less overhead and lag) the clock is too short to plan
    // with: think a fixed short time instead of letting the engine take a share.
    std::int64_t low_time_ms = 1000;
    std::int64_t low_time_move_ms = 100;  // the most a low-time move thinks (plus half the inc)
    std::int64_t min_think_ms = 10;       // never ask the engine for less

    [[nodiscard]] static MovePlannerSettings from(const config::Config& cfg);
};

// Which rule produced the limits, for the one log line per move.
enum class BudgetMode { FirstMove, Clock, LowTime, Correspondence };
[[nodiscard]] const char* to_string(BudgetMode m);

struct MovePlan {
    engine::SearchLimits limits;
    BudgetMode mode = BudgetMode::Clock;
    std::int64_t overhead_ms = 0;  // move overhead plus lag, as used
};

// The rules:
// - correspondence/unlimited: movetime = correspondence_move_ms, capped at half of what the
//   clock has left after the overhead (never below min_think_ms);
// - our first move (real time): movetime = min(first_move_max_ms, usable / 20);
// - usable < low_time_ms: movetime = min(low_time_move_ms + inc / 2, usable / 3);
// - otherwise the clocks go to the engine as wtime/btime/winc/binc with move_overhead_ms =
//   configured overhead + lag, and the engine's allocator takes its share and caps at what
//   the clock allows.
// The clock is bounded() first. usable = our_ms - overhead - lag. With a movetime,
// SearchLimits::move_overhead_ms is 0: the overhead is already taken off, and the engine would
// otherwise take it off twice. Every movetime is at least min_think_ms: the engine is never asked
// for <= 0 ms.
class MovePlanner {
  public:
    explicit MovePlanner(MovePlannerSettings settings = {}) : s_(settings) {}

    [[nodiscard]] MovePlan for_move(const MoveClock& clock, std::int64_t lag_ms) const;
    [[nodiscard]] const MovePlannerSettings& settings() const { return s_; }

  private:
    MovePlannerSettings s_;
};

}  // namespace service
