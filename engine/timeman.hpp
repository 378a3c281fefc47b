// Time management: how long to think, as pure functions of the clock so tests need no clock.
#pragma once

#include <cstdint>

#include "types.hpp"

namespace engine {

// What `go` asked for. Times in milliseconds; a negative clock means "not given".
struct SearchLimits {
    std::int64_t wtime = -1, btime = -1;
    std::int64_t winc = 0, binc = 0;
    int movestogo = 0;          // 0: sudden death (or increment)
    std::int64_t movetime = 0;  // 0: not set
    int depth = 0;              // 0: no depth limit
    std::uint64_t nodes = 0;    // 0: no node limit
    int mate = 0;               // stop once a mate in at most this many moves is found
    bool infinite = false;
    bool ponder = false;
    std::int64_t move_overhead_ms = 10;  // subtracted for lag and GUI/server delay

    // True when a clock or movetime bounds the search (nothing else stops it on time).
    bool uses_time(Color us) const { return movetime > 0 || (us == WHITE ? wtime : btime) >= 0; }
};

// Milliseconds since the search started after which to stop. `soft`: do not start another
// iteration; `hard`: abort now. Both are at least 1; "none" is a very large value.
struct TimeBudget {
    std::int64_t soft_ms;
    std::int64_t hard_ms;
};

inline constexpr std::int64_t NO_TIME_LIMIT = std::int64_t(1) << 50;

// The budget for the side to move. Never above what the clock allows after the overhead;
// never zero or negative.
[[nodiscard]] TimeBudget allocate_time(const SearchLimits& limits, Color us);

// The soft limit scaled after an iteration: more time when the best move keeps changing
// (`best_move_changes`, decayed over iterations) or the score fell (`score_drop`, in cp, from
// the previous iterations' score), less when one move has been best for long (`stable_iters`).
// Never above the hard limit.
[[nodiscard]] std::int64_t adjusted_soft_limit(const TimeBudget& budget, double best_move_changes,
                                               int score_drop, int stable_iters);

}  // namespace engine
