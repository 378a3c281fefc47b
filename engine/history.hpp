// Statistics learnt during search: butterfly, continuation and capture history, killers and
// countermoves for move ordering, and the static-eval correction. Plain tables owned by one
// search thread each.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "score.hpp"
#include "search_params.hpp"
#include "types.hpp"

namespace engine {

// History updates with "gravity": the entry moves towards +-HISTORY_MAX and saturates there.
inline void update_history(std::int16_t& entry, int bonus) {
    if (bonus > HISTORY_MAX) bonus = HISTORY_MAX;
    if (bonus < -HISTORY_MAX) bonus = -HISTORY_MAX;
    entry = std::int16_t(entry + bonus - entry * std::abs(bonus) / HISTORY_MAX);
}

// The bonus for a move that caused a cutoff at `depth` (and the malus for those tried before).
inline int history_bonus(int depth) {
    return depth > HISTORY_BONUS_MAX_DEPTH
               ? HISTORY_BONUS_MAX
               : depth * depth * HISTORY_BONUS_QUADRATIC + HISTORY_BONUS_LINEAR * depth;
}

// Moves a correction entry towards `diff` (search score - static eval, centipawns) with a
// weight that grows with the depth of the search that found it.
inline void update_correction(std::int16_t& entry, int diff, int depth) {
    const int weight = depth + 1 < CORRECTION_MAX_WEIGHT ? depth + 1 : CORRECTION_MAX_WEIGHT;
    int target = diff * CORRECTION_GRAIN;
    if (target > CORRECTION_MAX) target = CORRECTION_MAX;
    if (target < -CORRECTION_MAX) target = -CORRECTION_MAX;
    int v = (entry * (CORRECTION_GRAIN - weight) + target * weight) / CORRECTION_GRAIN;
    if (v > CORRECTION_MAX) v = CORRECTION_MAX;
    if (v < -CORRECTION_MAX) v = -CORRECTION_MAX;
    entry = std::int16_t(v);
}

// Indexed by [piece][to] of a move: how good it was to follow the move indexed by [piece][to]
// one (or two) plies earlier.
using PieceToHistory = std::int16_t[16][64];

struct History {
    std::int16_t butterfly[COLOR_NB][64 * 64];    // [side][from * 64 + to]
    std::int16_t capture[16][64][PIECE_TYPE_NB];  // [moved piece][to][captured type]
    PieceToHistory continuation[16][64];          // [previous piece][previous to]
    Move countermove[16][64];                     // [previous piece][previous to]
    Move killers[MAX_PLY + 8][2];
    std::int16_t pawn_correction[COLOR_NB][CORRECTION_SIZE];             // [side][pawn hash]
    std::int16_t piece_correction[COLOR_NB][COLOR_NB][CORRECTION_SIZE];  // [side][colour][hash]

    void clear() { std::memset(static_cast<void*>(this), 0, sizeof(*this)); }
};

}  // namespace engine
