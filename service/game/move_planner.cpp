// MovePlanner and LagTracker: the rules listed in time_budget.hpp.
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

MovePlan MovePlanner::for_move(const MoveClock& c, std::int64_t lag_ms) const {
    MovePlan b;
    b.overhead_ms = std::max<std::int64_t>(0, s_.move_overhead_ms) +
                    std::clamp<std::int64_t>(lag_ms, 0, LagTracker::kMaxEstimateMs);
    // Clamped at both ends, so no sum or product below can overflow whatever the server sent.
    const std::int64_t clock_cap = c.real_time ? kMaxRealTimeClockMs : kMaxCorrespondenceMs;
    const auto clamp_ms = [&](std::int64_t ms) {
        return std::clamp<std::int64_t>(ms, 0, clock_cap);
    };
    const std::int64_t our_ms = clamp_ms(c.our_ms);
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
    if (usable < s_.low_time_ms) {
        const std::int64_t inc = clamp_ms(c.our_inc_ms);
        return fixed(BudgetMode::LowTime, std::min(s_.low_time_move_ms + inc / 2, usable / 3));
    }

    b.mode = BudgetMode::Clock;
    const bool white = c.us == engine::WHITE;
    const std::int64_t their_ms = clamp_ms(c.their_ms);
    const std::int64_t our_inc = clamp_ms(c.our_inc_ms);
    const std::int64_t their_inc = clamp_ms(c.their_inc_ms);
    b.limits.wtime = white ? our_ms : their_ms;
    b.limits.btime = white ? their_ms : our_ms;
    b.limits.winc = white ? our_inc : their_inc;
    b.limits.binc = white ? their_inc : our_inc;
    b.limits.move_overhead_ms = b.overhead_ms;
    return b;
}

}  // namespace service
