// The hand-crafted evaluation of the variants (the NNUE is standard chess's alone): the
// standard terms where the game is still chess-like, plus what each variant's win condition
// makes matter. Simple on purpose; the weights live in variant_eval.cpp, named, for a tuner.
#pragma once

#include "board.hpp"

namespace engine {

// Centipawns from the side to move's point of view, |value| < EVAL_MAX (no mate-range score).
template <Variant V>
int evaluate_variant(const BasicBoard<V>& board);

}  // namespace engine
