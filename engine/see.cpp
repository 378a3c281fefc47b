// Threshold SEE: the swap algorithm with early exits, no gain list needed.
#include "see.hpp"

#include "evaluate.hpp"

namespace engine {

// Atomic.scala explodeSurroundingPieces, counted: the captured piece, the capturer and every
// non-pawn next to the target square leave the board.
int atomic_capture_gain(const BasicBoard<Variant::ATOMIC>& b, Move m) {
    if (!b.is_capture(m)) return 0;
    const Square to = m.to();
    const Color us = b.side;
    Bitboard blast = king_attacks(to) & b.pieces() & ~b.pieces(PAWN) & ~square_bb(m.from());
    int gain = PIECE_VALUE[type_of(b.captured_piece(m))] - PIECE_VALUE[type_of(b.moved_piece(m))];
    if (blast & b.pieces(~us, KING)) return ATOMIC_KING_CAPTURE_GAIN;
    while (blast) {
        const Square s = pop_lsb(blast);
        const int v = PIECE_VALUE[type_of(b.piece_on(s))];
        gain += color_of(b.piece_on(s)) == us ? -v : v;
    }
    return gain;
}

template <Variant V>
bool see_ge(const BasicBoard<V>& b, Move m, int threshold) {
    if constexpr (V == Variant::ANTICHESS) return 0 >= threshold;
    if constexpr (has_explosions(V)) return atomic_capture_gain(b, m) >= threshold;
    if (b.is_castling(m)) return 0 >= threshold;

    const Square from = m.from(), to = m.to();
    int gain = b.is_capture(m) ? PIECE_VALUE[type_of(b.captured_piece(m))] : 0;
    // The piece standing on `to` after the move; the opponent may win it next.
    int at_risk = PIECE_VALUE[type_of(b.moved_piece(m))];
    // A dropped piece comes from the pocket, not from a square.
    Bitboard from_bb = square_bb(from);
    if constexpr (has_drops(V))
        if (m.is_drop()) from_bb = 0;
    if (m.kind() == MoveKind::PROMOTION) {
        gain += PIECE_VALUE[m.promotion()] - PIECE_VALUE[PAWN];
        at_risk = PIECE_VALUE[m.promotion()];
    }

    int balance = gain - threshold;
    if (balance < 0) return false;  // even keeping the piece is not enough
    balance -= at_risk;
    if (balance >= 0) return true;  // even losing the piece for nothing is enough

    Bitboard occupied = b.pieces() ^ from_bb ^ square_bb(to);
    if (m.kind() == MoveKind::EN_PASSANT && !(has_drops(V) && m.is_drop()))
        occupied ^= square_bb(Square(to - pawn_push(b.side)));
    Bitboard attackers = b.attackers_to(to, occupied) & occupied;
    const Bitboard diag = b.pieces(BISHOP) | b.pieces(QUEEN);
    const Bitboard straight = b.pieces(ROOK) | b.pieces(QUEEN);

    Color stm = ~b.side;
    // Invariant: `balance` is the result for the side that just moved if `stm` stops now,
    // negated each turn so it is always from the point of view of the side to move next.
    while (true) {
        const Bitboard mine = attackers & b.pieces(stm);
        if (!mine) break;
        // Pinned pieces may not recapture while their pinner is still on the board.
        Bitboard usable = mine;
        const Bitboard pinned = b.pinned(stm) & mine;
        if (pinned) {
            Bitboard p = pinned;
            while (p) {
                const Square s = pop_lsb(p);
                if (!aligned(b.king_square(stm), s, to)) usable &= ~square_bb(s);
            }
            if (!usable) break;
        }
        PieceType pt = PAWN;
        while (!(usable & b.pieces(pt))) pt = PieceType(pt + 1);
        stm = ~stm;
        balance = -balance - 1 - PIECE_VALUE[pt];
        if (balance >= 0) {
            // A king may only take last: if the other side still attacks, the capture is illegal.
            if (pt == KING && (attackers & b.pieces(stm) & ~square_bb(lsb(usable & b.pieces(pt)))))
                stm = ~stm;
            break;
        }
        const Square sq = lsb(usable & b.pieces(pt));
        occupied ^= square_bb(sq);
        // Sliders behind the piece that just took join the exchange.
        if (pt == PAWN || pt == BISHOP || pt == QUEEN)
            attackers |= bishop_attacks(to, occupied) & diag;
        if (pt == ROOK || pt == QUEEN) attackers |= rook_attacks(to, occupied) & straight;
        attackers &= occupied;
    }
    // The side that could not (or would not) continue loses the exchange.
    return stm != b.side;
}

#define OUTPOST_INSTANTIATE(V) template bool see_ge<V>(const BasicBoard<V>&, Move, int);
OUTPOST_FOR_EACH_VARIANT(OUTPOST_INSTANTIATE)
#undef OUTPOST_INSTANTIATE

}  // namespace engine
