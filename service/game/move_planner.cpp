// MovePlanner and LagTracker: the rules listed in move_planner.hpp.
#include "service/game/move_planner.hpp"

#include <algorithm>
#include <vector>

namespace service {

namespace {
// Correspondence clocks (days per move) and unlimited games (2^31 ms): at most about 115 days.
constexpr std::int64_t kMaxCorrespondenceMs = 10'000'000'000;
}  // namespace

void LagTracker::record(std::int64_t ms) {
    samples_.push_back(std::max<std::int64_t>(0, ms));
    if (samples_.size() > kWindow) samples_.pop_front();
}

std::int64_t LagTracker::estimate_ms() const {
    if (samples_.empty()) return 0;
    std::vector<std::int64_t> sorted(samples_.begin(), samples_.end());
    std::sort(sorted.begin(), sorted.end());
    // Nearest-rank percentile: the smallest sample with at least 90% of samples at or below.
    const std::size_t rank = (sorted.size() * 9 + 9) / 10;  // ceil(0.9 n), at least 1
    return std::clamp<std::int64_t>(sorted[rank - 1], 0, kMaxEstimateMs);
}

MovePlannerSettings MovePlannerSettings::from(const config::Config& cfg) {
    MovePlannerSettings s;
    s.move_overhead_ms = std::max(0, cfg.engine.move_overhead_ms);
    const auto& co = cfg.correspondence;
    s.correspondence_move_ms =
        co.move_time_ms > 0 ? co.move_time_ms : std::int64_t(std::max(1, co.move_time_s)) * 1000;
    return s;
}

const char* to_string(BudgetMode m) {
    switch (m) {
        case BudgetMode::FirstMove:
            return "first move";
        case BudgetMode::Clock:
            return "clock";
        case BudgetMode::LowTime:
            return "low time";
        case BudgetMode::Correspondence:
            return "correspondence";
    }
    return "?";
}

MoveClock bounded(const MoveClock& c) {
    MoveClock b = c;
    // Clamped at both ends, so no sum or product below can overflow whatever the server sent.
    const std::int64_t cap = c.real_time ? kMaxRealTimeClockMs : kMaxCorrespondenceMs;
    std::int64_t our_cap = cap, their_cap = cap, inc_cap = cap;
    if (c.limits && c.real_time) {
        const std::int64_t inc =
            std::clamp<std::int64_t>(c.limits->increment_ms, 0, kMaxIncrementMs);
        std::int64_t initial =
            std::clamp<std::int64_t>(c.limits->initial_ms, 0, kMaxInitialClockMs);
        if (initial == 0) initial = std::max(inc, kMinZeroLimitClockMs);
        const auto after = [&](int moves) {
            return std::min(cap, initial + inc * std::clamp(moves, 0, 100'000));
        };
        our_cap = after(c.our_moves_played);
        their_cap = after(c.their_moves_played);
        inc_cap = inc;
    } else if (c.limits && c.limits->days_per_turn > 0) {
        our_cap = their_cap =
            std::int64_t(std::min(c.limits->days_per_turn, kMaxDaysPerTurn)) * 86'400'000;
    }
    b.our_ms = std::clamp<std::int64_t>(c.our_ms, 0, our_cap);
    b.their_ms = std::clamp<std::int64_t>(c.their_ms, 0, their_cap);
    b.our_inc_ms = std::clamp<std::int64_t>(c.our_inc_ms, 0, inc_cap);
    b.their_inc_ms = std::clamp<std::int64_t>(c.their_inc_ms, 0, inc_cap);
    return b;
}

MovePlan MovePlanner::for_move(const MoveClock& clock, std::int64_t lag_ms) const {
    const MoveClock c = bounded(clock);
    MovePlan b;
    b.overhead_ms = std::max<std::int64_t>(0, s_.move_overhead_ms) +
                    std::clamp<std::int64_t>(lag_ms, 0, LagTracker::kMaxEstimateMs);
    const std::int64_t our_ms = c.our_ms;
    const std::int64_t usable = our_ms - b.overhead_ms;  // may be negative: then think minimum
    const std::int64_t floor = std::max<std::int64_t>(1, s_.min_think_ms);

    auto fixed = [&](BudgetMode mode, std::int64_t ms) {
        b.mode = mode;
        b.limits.movetime = std::max(floor, ms);
        b.limits.move_overhead_ms = 0;
        return b;
    };

    if (!c.real_time) {
        // Unlimited games report about 2^31 ms, so the cap only bites near a real deadline.
        return fixed(BudgetMode::Correspondence, std::min(s_.correspondence_move_ms, usable / 2));
    }
    if (c.our_moves_played <= 0)
        return fixed(BudgetMode::FirstMove, std::min(s_.first_move_max_ms, usable / 20));
    if (usable < s_.low_time_ms)
        return fixed(BudgetMode::LowTime,
                     std::min(s_.low_time_move_ms + c.our_inc_ms / 2, usable / 3));

    b.mode = BudgetMode::Clock;
    const bool white = c.us == engine::WHITE;
    b.limits.wtime = white ? our_ms : c.their_ms;
    b.limits.btime = white ? c.their_ms : our_ms;
    b.limits.winc = white ? c.our_inc_ms : c.their_inc_ms;
    b.limits.binc = white ? c.their_inc_ms : c.our_inc_ms;
    b.limits.move_overhead_ms = b.overhead_ms;
    return b;
}

}  // namespace service
