// Static evaluation: a score in centipawns from the side to move's point of view.
#pragma once

#include "board.hpp"

namespace engine {

// Piece values the search uses for SEE and pruning margins (middlegame-ish, centipawns).
inline constexpr int PIECE_VALUE[PIECE_TYPE_NB] = {100, 320, 330, 500, 950, 0};

int evaluate(const Board& board);

}  // namespace engine
