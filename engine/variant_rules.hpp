// How a game of each variant ends: the win conditions a position shows without generating
// moves (scalachess `specialEnd`/`specialDraw` of each core/src/main/scala/variant/*.scala),
// what having no legal move means, and which material can no longer win.
#pragma once

#include "board.hpp"

namespace engine {

// d4, e4, d5, e5 (KingOfTheHill.scala: Bitboard.center).
inline constexpr Bitboard HILL_BB = 0x0000001818000000ULL;

// A result from the point of view of the side to move.
enum class VariantEnd : std::uint8_t { NONE, LOSS, WIN, DRAW };

// Racing kings, black to move: white's king is on the eighth rank and no legal move takes
// black's king there too (RacingKings.scala specialEnd). In movegen.cpp.
bool racing_black_cannot_follow(const BasicBoard<Variant::RACING_KINGS>& b);

// The variant's own end, where the board alone decides it:
//   king of the hill: the opponent's king stands on the hill;
//   three-check: the side to move is in check for the third time;
//   atomic: a king has exploded;
//   horde: the horde has no piece left;
//   antichess: the side to move has no piece left (it wins);
//   racing kings, white to move: a king reached the eighth rank (both: a draw); black to move
//   after white's king arrived: black has lost unless its king can arrive too.
template <Variant V>
VariantEnd variant_end(const BasicBoard<V>& b) {
    const Color us = b.side, them = ~b.side;
    if constexpr (V == Variant::KING_OF_THE_HILL) {
        if (b.pieces(them, KING) & HILL_BB) return VariantEnd::LOSS;  // KingOfTheHill.scala
    } else if constexpr (V == Variant::THREE_CHECK) {
        if (b.in_check() && b.state.checks_given[them] >= 3) return VariantEnd::LOSS;  // ThreeCheck
    } else if constexpr (V == Variant::ATOMIC) {
        if (!b.has_king(us)) return VariantEnd::LOSS;  // Atomic.scala: kings.count < 2
        if (!b.has_king(them)) return VariantEnd::WIN;
    } else if constexpr (V == Variant::HORDE) {
        if (!b.pieces(WHITE)) return us == WHITE ? VariantEnd::LOSS : VariantEnd::WIN;  // Horde
    } else if constexpr (V == Variant::ANTICHESS) {
        if (!b.pieces(us)) return VariantEnd::WIN;  // Antichess.scala: us.isEmpty
    } else if constexpr (V == Variant::RACING_KINGS) {
        if (us == WHITE) {  // RacingKings.scala specialEnd / specialDraw
            const bool white_home = b.pieces(WHITE, KING) & RANK_8_BB;
            const bool black_home = b.pieces(BLACK, KING) & RANK_8_BB;
            if (white_home && black_home) return VariantEnd::DRAW;
            if (white_home) return VariantEnd::WIN;
            if (black_home) return VariantEnd::LOSS;
        } else if (racing_black_cannot_follow(b)) {
            return VariantEnd::LOSS;
        }
    }
    return VariantEnd::NONE;
}

// What having no legal move means when variant_end found nothing: checkmate (a loss) or
// stalemate (a draw) in most variants; antichess's stalemate is a win.
template <Variant V>
VariantEnd no_moves_result(const BasicBoard<V>& b) {
    if constexpr (V == Variant::ANTICHESS) return VariantEnd::WIN;
    return b.in_check() ? VariantEnd::LOSS : VariantEnd::DRAW;
}

// True when no sequence of legal moves can end the game with a win for either side, by the
// variant's own rule (scalachess `isInsufficientMaterial` of each variant). The full test, for
// game status: atomic's closed positions, antichess's opposite bishops and horde's fortresses
// look at moves.
template <Variant V>
bool insufficient_material(const BasicBoard<V>& board);

// The part of insufficient_material the search asks at every node: the material-only rules
// (standard chess, atomic, three-check); false where the rule needs move generation.
template <Variant V>
bool insufficient_material_fast(const BasicBoard<V>& board);

}  // namespace engine
