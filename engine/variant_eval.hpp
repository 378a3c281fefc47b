// The hand-crafted evaluation of the variants (three-check's on the NNUE's judgement): the
// standard terms where the game is still chess-like, plus what each variant's win condition
// makes matter. The weights are a table (variant_eval_params.hpp) that outpost-tune can tune.
#pragma once

#include "board.hpp"
#include "score.hpp"
#include "variant_eval_params.hpp"

namespace engine {

// The variants whose evaluation starts from the NNUE's judgement of the pieces on the board
// when the search has a net, each with a net of its own (nnue::embedded_network(V)) trained on
// its positions: three-check, with the check terms on top (the net cannot see the count); king
// of the hill, whose net has learnt the hill (the king's square is among its inputs) and judges
// the whole position: there the hill terms serve only the hand-crafted evaluation; crazyhouse,
// whose net judges all but the hands, their material and danger added on top (the net was
// trained on the judgement less that material); and atomic, whose net has learnt the explosions
// and judges the whole position, its terms serving only the hand-crafted evaluation.
constexpr bool net_judges_board(Variant v) {
    return v == Variant::THREE_CHECK || v == Variant::KING_OF_THE_HILL ||
           v == Variant::CRAZYHOUSE || v == Variant::ATOMIC;
}

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
                            VariantEvalTrace& trace, int board_score = SCORE_NONE);

}  // namespace engine
