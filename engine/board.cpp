// Board queries (attacks, pins) and copy-make move application with incremental hashing.
#include "board.hpp"

#include "zobrist.hpp"

namespace engine {

using zobrist::keys;

Bitboard Board::attackers_to(Square s, Bitboard occupied) const {
    return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN)) |
           (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN)) | (knight_attacks(s) & by_type[KNIGHT]) |
           (king_attacks(s) & by_type[KING]) |
           (bishop_attacks(s, occupied) & (by_type[BISHOP] | by_type[QUEEN])) |
           (rook_attacks(s, occupied) & (by_type[ROOK] | by_type[QUEEN]));
}

bool Board::gives_check(Move m) const {
    if (m.kind() == MoveKind::CASTLING) {
        Board next = *this;
        next.make_move(m);
        return next.in_check();
    }
    const Color us = side;
    const Square from = m.from(), to = m.to(), ksq = king_square(~us);
    Bitboard occupied = (pieces() ^ square_bb(from)) | square_bb(to);
    if (m.kind() == MoveKind::EN_PASSANT) occupied ^= square_bb(Square(to - pawn_push(us)));
    // The moved piece from its new square.
    const PieceType pt = m.kind() == MoveKind::PROMOTION ? m.promotion() : type_of(squares[from]);
    if (pt == PAWN) {
        if (pawn_attacks(us, to) & square_bb(ksq)) return true;
    } else if (pt != KING && (piece_attacks(pt, to, occupied) & square_bb(ksq))) {
        return true;
    }
    // Our sliders the move uncovers (the moved piece is no longer on `from`).
    const Bitboard ours = pieces(us) & ~square_bb(from);
    return (bishop_attacks(ksq, occupied) & ours & (by_type[BISHOP] | by_type[QUEEN])) ||
           (rook_attacks(ksq, occupied) & ours & (by_type[ROOK] | by_type[QUEEN]));
}

CheckInfo Board::check_info() const {
    CheckInfo ci;
    const Color us = side;
    const Square ksq = king_square(~us);
    const Bitboard occupied = pieces();
    ci.king = ksq;
    ci.squares[PAWN] = pawn_attacks(~us, ksq);
    ci.squares[KNIGHT] = knight_attacks(ksq);
    ci.squares[BISHOP] = bishop_attacks(ksq, occupied);
    ci.squares[ROOK] = rook_attacks(ksq, occupied);
    ci.squares[QUEEN] = ci.squares[BISHOP] | ci.squares[ROOK];
    ci.discoverers = sole_blockers(ksq, us, us);
    return ci;
}

bool Board::gives_check(Move m, const CheckInfo& ci) const {
    // Promotions, en passant and castling change the occupancy of more than the two squares
    // the tables assume: the full test.
    if (m.kind() != MoveKind::NORMAL) return gives_check(m);
    const Square from = m.from(), to = m.to();
    // A slider's square set was taken with `from` occupied; it only hides squares beyond
    // `from` from the king, and a piece there would be checking already.
    if (ci.squares[type_of(squares[from])] & square_bb(to)) return true;
    return (ci.discoverers & square_bb(from)) && !aligned(from, to, ci.king);
}

bool Board::attacked_by(Color attacker, Square s, Bitboard occupied) const {
    const Bitboard them = by_color[attacker];
    return (pawn_attacks(~attacker, s) & by_type[PAWN] & them) ||
           (knight_attacks(s) & by_type[KNIGHT] & them) ||
           (king_attacks(s) & by_type[KING] & them) ||
           (bishop_attacks(s, occupied) & (by_type[BISHOP] | by_type[QUEEN]) & them) ||
           (rook_attacks(s, occupied) & (by_type[ROOK] | by_type[QUEEN]) & them);
}

Bitboard Board::sole_blockers(Square ksq, Color sliders, Color blockers_of) const {
    const Bitboard occupied = pieces();
    Bitboard snipers = ((rook_attacks(ksq, 0) & (by_type[ROOK] | by_type[QUEEN])) |
                        (bishop_attacks(ksq, 0) & (by_type[BISHOP] | by_type[QUEEN]))) &
                       by_color[sliders];
    Bitboard result = 0;
    while (snipers) {
        const Square s = pop_lsb(snipers);
        const Bitboard blockers = between_bb(ksq, s) & occupied & ~square_bb(s);
        if (blockers && !more_than_one(blockers)) result |= blockers & by_color[blockers_of];
    }
    return result;
}

Bitboard Board::pinned(Color c) const { return sole_blockers(king_square(c), ~c, c); }

Move Board::castling_move(Color c, bool king_side) const {
    const int idx = castling_index(c, king_side);
    if (!(castling & (1 << idx))) return Move::none();
    return Move(king_square(c), castling_rook[idx], MoveKind::CASTLING);
}

void Board::put_piece(Piece p, Square s) {
    squares[s] = p;
    by_type[type_of(p)] |= square_bb(s);
    by_color[color_of(p)] |= square_bb(s);
    key ^= keys.piece_square[p][s];
}

void Board::remove_piece(Square s) {
    const Piece p = squares[s];
    by_type[type_of(p)] ^= square_bb(s);
    by_color[color_of(p)] ^= square_bb(s);
    squares[s] = NO_PIECE;
    key ^= keys.piece_square[p][s];
}

void Board::move_piece(Square from, Square to) {
    const Piece p = squares[from];
    const Bitboard fromto = square_bb(from) | square_bb(to);
    by_type[type_of(p)] ^= fromto;
    by_color[color_of(p)] ^= fromto;
    squares[from] = NO_PIECE;
    squares[to] = p;
    key ^= keys.piece_square[p][from] ^ keys.piece_square[p][to];
}

void Board::set_en_passant_if_capturable(Square s) {
    // Only a square an enemy pawn could capture on counts, so that transpositions hash alike.
    if (pawn_attacks(~side, s) & pieces(side, PAWN)) {
        en_passant = s;
        key ^= keys.en_passant_file[file_of(s)];
    }
}

Key Board::key_after(Move m) const {
    const Square from = m.from(), to = m.to();
    const Piece moved = squares[from];
    Key k = key ^ keys.side ^ keys.piece_square[moved][from] ^ keys.piece_square[moved][to];
    if (m.kind() != MoveKind::CASTLING && squares[to] != NO_PIECE)
        k ^= keys.piece_square[squares[to]][to];
    if (en_passant != SQ_NONE) k ^= keys.en_passant_file[file_of(en_passant)];
    return k;
}

void Board::make_move(Move m) {
    const Color us = side;
    const Square from = m.from(), to = m.to();
    const Piece moved = squares[from];

    if (en_passant != SQ_NONE) {
        key ^= keys.en_passant_file[file_of(en_passant)];
        en_passant = SQ_NONE;
    }
    ++halfmove_clock;

    std::uint8_t new_castling = castling;
    switch (m.kind()) {
        case MoveKind::CASTLING: {
            // `to` is the rook's square; both pieces leave before either lands (Chess960).
            const bool king_side = to > from;
            const Piece rook = squares[to];
            remove_piece(from);
            remove_piece(to);
            put_piece(moved, castling_king_target(us, king_side));
            put_piece(rook, castling_rook_target(us, king_side));
            break;
        }
        case MoveKind::EN_PASSANT:
            remove_piece(Square(to - pawn_push(us)));
            move_piece(from, to);
            halfmove_clock = 0;
            break;
        case MoveKind::PROMOTION:
            if (squares[to] != NO_PIECE) remove_piece(to);
            remove_piece(from);
            put_piece(make_piece(us, m.promotion()), to);
            halfmove_clock = 0;
            break;
        case MoveKind::NORMAL:
            if (squares[to] != NO_PIECE) {
                remove_piece(to);
                halfmove_clock = 0;
            }
            move_piece(from, to);
            if (type_of(moved) == PAWN) {
                halfmove_clock = 0;
                if ((int(to) ^ int(from)) == 16) {
                    side = ~us;  // capturability is judged for the side that will move
                    set_en_passant_if_capturable(Square((from + to) / 2));
                    side = us;
                }
            }
            break;
    }

    if (new_castling) {
        if (type_of(moved) == KING)
            new_castling &= us == WHITE ? ~(WHITE_OO | WHITE_OOO) : ~(BLACK_OO | BLACK_OOO);
        for (int i = 0; i < 4; ++i)
            if (castling_rook[i] == from || castling_rook[i] == to) new_castling &= ~(1 << i);
        key ^= keys.castling[castling] ^ keys.castling[new_castling];
        castling = new_castling;
    }

    side = ~us;
    key ^= keys.side;
    if (us == BLACK) ++fullmove_number;
    checkers_bb = compute_checkers();
}

void Board::make_null_move() {
    if (en_passant != SQ_NONE) {
        key ^= keys.en_passant_file[file_of(en_passant)];
        en_passant = SQ_NONE;
    }
    ++halfmove_clock;
    if (side == BLACK) ++fullmove_number;
    side = ~side;
    key ^= keys.side;
    checkers_bb = 0;  // the side that passed was not in check, so neither is the other
}

Key Board::compute_key() const {
    Key k = 0;
    for (int s = 0; s < 64; ++s)
        if (squares[s] != NO_PIECE) k ^= keys.piece_square[squares[s]][s];
    k ^= keys.castling[castling];
    if (en_passant != SQ_NONE) k ^= keys.en_passant_file[file_of(en_passant)];
    if (side == BLACK) k ^= keys.side;
    return k;
}

}  // namespace engine
