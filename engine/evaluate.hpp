// Static evaluation: a score in centipawns from the side to move's point of view.
#pragma once

#include <string>

#include "board.hpp"

namespace engine {

// Piece values the search uses for SEE and pruning margins (middlegame-ish, centipawns).
inline constexpr int PIECE_VALUE[PIECE_TYPE_NB] = {100, 320, 330, 500, 950, 0};

// Tapered hand-crafted evaluation (weights in engine/eval_params.cpp). Stateless and
// thread-safe. Never returns a mate-range score: |value| < EVAL_MAX.
int evaluate(const Board& board);

inline constexpr int EVAL_MAX = 20000;

// A readable table of every term for white and black, middlegame and endgame, then the phase,
// the endgame scale and the final score (`outpost eval`).
std::string eval_trace(const Board& board);

}  // namespace engine
