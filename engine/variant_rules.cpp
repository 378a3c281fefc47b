// Insufficient material per variant: scalachess InsufficientMatingMaterial.scala for standard
// chess and each variant's `isInsufficientMaterial` (core/src/main/scala/variant/*.scala).
#include "variant_rules.hpp"

#include "movegen.hpp"

namespace engine {

namespace {

constexpr Bitboard LIGHT_SQUARES = ~DARK_SQUARES;

bool bishops_on_both_colours(Bitboard bishops) {
    return (bishops & DARK_SQUARES) && (bishops & LIGHT_SQUARES);
}

// Only the given piece types (and kings) are on the board.
template <Variant V>
bool only(const BasicBoard<V>& b, Bitboard allowed) {
    return (b.pieces() & ~(allowed | b.pieces(KING))) == 0;
}

// InsufficientMatingMaterial.scala pawnBlockedByPawn: the pawn on s has no legal move (as if
// its side were to move) and a pawn stands right in front of it.
template <Variant V>
bool pawn_blocked_by_pawn(const BasicBoard<V>& b, Square s) {
    const Piece p = b.piece_on(s);
    if (p == NO_PIECE || type_of(p) != PAWN) return false;
    const Color c = color_of(p);
    const Square front = Square(s + pawn_push(c));
    if (b.empty(front) || type_of(b.piece_on(front)) != PAWN) return false;
    BasicBoard<V> turn = b;
    turn.side = c;
    turn.en_passant = SQ_NONE;
    turn.checkers_bb = turn.compute_checkers();
    for (const Move m : legal_moves(turn))
        if (m.from() == s) return false;
    return true;
}

// InsufficientMatingMaterial.scala apply(board): bare kings, a lone minor piece, or only
// bishops that all stand on squares of one colour.
bool standard_insufficient(Bitboard majors_and_pawns, Bitboard knights, Bitboard bishops) {
    if (majors_and_pawns) return false;
    const Bitboard minors = knights | bishops;
    if (!more_than_one(minors)) return true;
    // Only bishops, all on one square colour: no mate is possible.
    if (knights) return false;
    return !(bishops & DARK_SQUARES) || !(bishops & LIGHT_SQUARES);
}

// Atomic.scala insufficientAtomicWinningMaterial: kings cannot confine each other, so a lone
// king needs a queen or several pieces against it.
bool atomic_material_insufficient(const BasicBoard<Variant::ATOMIC>& b) {
    const int total = popcount(b.pieces());
    const bool opposite_bishops = bishops_on_both_colours(b.pieces(BISHOP));
    if (popcount(b.pieces(WHITE)) >= 2 && popcount(b.pieces(BLACK)) >= 2)
        return only(b, b.pieces(BISHOP)) && total <= 4 && opposite_bishops;
    if (only(b, b.pieces(KNIGHT))) return total <= 4;
    return only(b, b.pieces(ROOK) | b.pieces(KNIGHT) | b.pieces(BISHOP)) && !opposite_bishops &&
           total <= 3;
}

// Atomic.scala atomicClosedPosition: every piece is a king, a bishop or a pawn blocked by a
// pawn, and a bishop (if any) can reach none of the enemy pawns.
bool atomic_closed(const BasicBoard<Variant::ATOMIC>& b) {
    for (Bitboard p = b.pieces() & ~b.pieces(KING) & ~b.pieces(BISHOP); p;)
        if (!pawn_blocked_by_pawn(b, pop_lsb(p))) return false;
    const Bitboard bishops = b.pieces(BISHOP);
    if (!bishops) return true;
    const Square first = lsb(bishops);
    const Color owner = color_of(b.piece_on(first));
    const bool light = LIGHT_SQUARES & square_bb(first);
    const Bitboard same_colour = light ? LIGHT_SQUARES : DARK_SQUARES;
    // bishopPawnitized: our bishops on that colour, enemy pawns only on the other one.
    const Bitboard allowed = b.pieces(owner, PAWN) | (b.pieces(~owner, PAWN) & ~same_colour) |
                             (b.pieces(owner, BISHOP) & same_colour) | b.pieces(KING);
    return (b.pieces() & ~allowed) == 0;
}

// Antichess.scala isInsufficientMaterial: only bishops and pawns; each side's bishops on one
// colour, the two colours different, and every pawn blocked and unable to reach the enemy
// bishop's colour.
bool antichess_insufficient(const BasicBoard<Variant::ANTICHESS>& b) {
    if ((b.pieces(BISHOP) | b.pieces(PAWN)) != b.pieces()) return false;
    const Bitboard wb = b.pieces(WHITE, BISHOP), bb = b.pieces(BLACK, BISHOP);
    if (!wb || !bb || bishops_on_both_colours(wb) || bishops_on_both_colours(bb)) return false;
    const bool white_light = wb & LIGHT_SQUARES, black_light = bb & LIGHT_SQUARES;
    if (white_light == black_light) return false;
    auto not_attackable = [&](Bitboard pawns, bool enemy_bishop_light) {
        for (Bitboard p = pawns; p;) {
            const Square s = pop_lsb(p);
            const bool light = LIGHT_SQUARES & square_bb(s);
            if (!pawn_blocked_by_pawn(b, s) || light == enemy_bishop_light) return false;
        }
        return true;
    };
    return not_attackable(b.pieces(WHITE, PAWN), black_light) &&
           not_attackable(b.pieces(BLACK, PAWN), white_light);
}

// Horde.scala hordeClosedPosition: the horde cannot move and whatever black plays keeps it so
// (unless its last piece can be taken at once).
bool horde_closed(const BasicBoard<Variant::HORDE>& b) {
    const Bitboard horde = b.pieces(WHITE);
    if (popcount(horde) == 1 && b.attacked_by(BLACK, lsb(horde), b.pieces())) return false;
    if (b.side == WHITE) return legal_moves(b).empty();
    for (const Move m : legal_moves(b)) {
        BasicBoard<Variant::HORDE> next = b;
        next.make_move(m);
        if (!legal_moves(next).empty()) return false;
    }
    return true;
}

}  // namespace

template <Variant V>
bool insufficient_material_fast(const BasicBoard<V>& b) {
    if constexpr (V == Variant::STANDARD)
        return standard_insufficient(b.pieces(PAWN) | b.pieces(ROOK) | b.pieces(QUEEN),
                                     b.pieces(KNIGHT), b.pieces(BISHOP));
    // ThreeCheck.scala: only kings left can give no check.
    if constexpr (V == Variant::THREE_CHECK) return b.pieces() == b.pieces(KING);
    if constexpr (V == Variant::ATOMIC) return atomic_material_insufficient(b);
    // Crazyhouse, king of the hill and racing kings: always enough (their scala files).
    return false;
}

template <Variant V>
bool insufficient_material(const BasicBoard<V>& b) {
    if constexpr (V == Variant::ATOMIC) return atomic_material_insufficient(b) || atomic_closed(b);
    if constexpr (V == Variant::ANTICHESS) return antichess_insufficient(b);
    if constexpr (V == Variant::HORDE) return horde_closed(b);
    return insufficient_material_fast(b);
}

#define OUTPOST_INSTANTIATE(V)                                    \
    template bool insufficient_material<V>(const BasicBoard<V>&); \
    template bool insufficient_material_fast<V>(const BasicBoard<V>&);
OUTPOST_FOR_EACH_VARIANT(OUTPOST_INSTANTIATE)
#undef OUTPOST_INSTANTIATE

}  // namespace engine
