// Time allocation: plan for a number of moves to go, take a share of the clock plus the
// increment as the soft limit, and cap the hard limit well below what is left.
#include "timeman.hpp"

#include <algorithm>

namespace engine {

TimeBudget allocate_time(const SearchLimits& l, Color us) {
    const std::int64_t overhead = std::max<std::int64_t>(0, l.move_overhead_ms);
    if (l.movetime > 0) {
        const std::int64_t t = std::max<std::int64_t>(1, l.movetime - overhead);
        return {t, t};
    }
    const std::int64_t time = us == WHITE ? l.wtime : l.btime;
    if (time < 0) return {NO_TIME_LIMIT, NO_TIME_LIMIT};
    const std::int64_t inc = std::max<std::int64_t>(0, us == WHITE ? l.winc : l.binc);

    // What may be spent at all this move: the clock less the overhead, kept positive.
    const std::int64_t avail = std::max<std::int64_t>(1, time - overhead);
    // Sudden death plans for 30 more moves; a known number of moves to go is trusted but
    // capped so a long movestogo does not starve the next few moves. (35 moves and 3/4 of the
    // increment left a median 0.94 s of 10+0.1 unspent at the end of long games against
    // Ethereal 12, and 13% less than it spent on moves 9-20: docs/STRENGTH.md, the clock.)
    const int mtg = l.movestogo > 0 ? std::min(l.movestogo, 50) : 30;

    std::int64_t soft = avail / mtg + inc;
    // With little on the clock the increment is not a reserve: never plan on more than half.
    soft = std::min(soft, avail / 2);
    std::int64_t hard = std::min(soft * 4, avail * 3 / 4);
    if (mtg == 1) hard = std::max(hard, std::min(avail * 3 / 4, avail - 5));
    hard = std::max<std::int64_t>(1, hard);
    soft = std::clamp<std::int64_t>(soft, 1, hard);
    return {soft, hard};
}

std::int64_t adjusted_soft_limit(const TimeBudget& b, double best_move_changes, int score_drop,
                                 int stable_iters) {
    if (b.soft_ms >= NO_TIME_LIMIT) return b.soft_ms;
    double scale = 1.0 + std::min(best_move_changes, 4.0) * 0.3;        // unstable: up to 2.2x
    scale *= 1.0 + std::clamp(score_drop, 0, 150) / 150.0 * 0.6;        // falling: up to 1.6x
    scale *= stable_iters >= 6 ? 0.7 : stable_iters >= 3 ? 0.85 : 1.0;  // settled: less
    const auto s = std::int64_t(double(b.soft_ms) * scale);
    return std::clamp<std::int64_t>(s, 1, b.hard_ms);
}

}  // namespace engine
