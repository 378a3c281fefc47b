// The hand-crafted evaluation of the variants (three-check's on the NNUE's judgement): the
// standard terms where the game is still chess-like, plus what each variant's win condition
// makes matter. The weights are a table (variant_eval_params.hpp) that outpost-tune can tune.
#pragma once

#include "board.hpp"
#include "score.hpp"
#include "variant_eval_params.hpp"

namespace engine {

// The variant whose evaluation starts from the NNUE's judgement of the pieces on the board
// when the search has a net: three-check, with a net of its own (nnue::embedded_network(V)),
// trained on three-check positions, and the check terms on top. In king of the hill and
// crazyhouse the standard net, which misjudges their king walks and drops, lost more than the
// hand-crafted judgement (docs/VARIANTS.md).
constexpr bool net_judges_board(Variant v) { return v == Variant::THREE_CHECK; }

// Centipawns from the side to move's point of view, |value| < EVAL_MAX (no mate-range score).
// `board_score`: the standard judgement of the board from the side to move's view, where the
// caller has one (the NNUE's); SCORE_NONE: the hand-crafted evaluation's.
template <Variant V>
int evaluate_variant(const BasicBoard<V>& board,
                     const VariantWeights& weights = DEFAULT_VARIANT_WEIGHTS,
                     int board_score = SCORE_NONE);

// The same from white's point of view, recording in `trace` how often each weight applied.
template <Variant V>
int evaluate_variant_traced(const BasicBoard<V>& board, const VariantWeights& weights,
                            VariantEvalTrace& trace);

}  // namespace engine
