// The hand-crafted evaluation of the variants (the NNUE is standard chess's alone): the
// standard terms where the game is still chess-like, plus what each variant's win condition
// makes matter. The weights are a table (variant_eval_params.hpp) that outpost-tune can tune.
#pragma once

#include "board.hpp"
#include "variant_eval_params.hpp"

namespace engine {

// Centipawns from the side to move's point of view, |value| < EVAL_MAX (no mate-range score).
template <Variant V>
int evaluate_variant(const BasicBoard<V>& board,
                     const VariantWeights& weights = DEFAULT_VARIANT_WEIGHTS);

// The same from white's point of view, recording in `trace` how often each weight applied.
template <Variant V>
int evaluate_variant_traced(const BasicBoard<V>& board, const VariantWeights& weights,
                            VariantEvalTrace& trace);

}  // namespace engine
