// Board queries (attacks, pins) and copy-make move application with incremental hashing, for
// every variant. Each variant rule is an `if constexpr` branch naming the scalachess file it
// follows (core/src/main/scala/variant/*.scala); without one, the code is standard chess.
#include "board.hpp"

#include "zobrist.hpp"

namespace engine {

template <Variant V>
Bitboard BasicBoard<V>::attackers_to(Square s, Bitboard occupied) const {
    return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN)) |
           (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN)) | (knight_attacks(s) & by_type[KNIGHT]) |
           (king_attacks(s) & by_type[KING]) |
           (bishop_attacks(s, occupied) & (by_type[BISHOP] | by_type[QUEEN])) |
           (rook_attacks(s, occupied) & (by_type[ROOK] | by_type[QUEEN]));
}

template <Variant V>
Bitboard BasicBoard<V>::compute_checkers() const {
    // Antichess.scala: kingThreatened is always No.
    if constexpr (!has_royal_king(V)) return 0;
    // Horde.scala: white has no king to check; atomic: an exploded king is no longer checked.
    if constexpr (may_lack_king(V))
        if (!has_king(side)) return 0;
    if constexpr (has_explosions(V)) {
        // Atomic.scala kingThreatened: kings touching: no check; a king never captures, so
        // only the other pieces attack.
        const Square ksq = king_square(side);
        if (king_attacks(ksq) & pieces(~side, KING)) return 0;
        return attackers_to(ksq) & pieces(~side) & ~by_type[KING];
    }
    return attackers_to(king_square(side)) & pieces(~side);
}

template <Variant V>
bool BasicBoard<V>::gives_check(Move m) const {
    // Antichess has no check; in racing kings no legal move gives one (RacingKings.scala
    // kingSafety); the horde's king-less white cannot be checked.
    if constexpr (!can_give_check(V)) return false;
    if constexpr (may_lack_king(V))
        if (!has_king(~side)) return false;
    if constexpr (has_explosions(V)) {
        // Explosions and touching kings: the move is made on a copy.
        BasicBoard next = *this;
        next.make_move(m);
        return next.in_check();
    }
    const Color us = side;
    const Square ksq = king_square(~us);
    if constexpr (has_drops(V)) {
        if (m.is_drop()) {
            const PieceType pt = m.drop_piece();
            const Bitboard occupied = pieces() | square_bb(m.to());
            return pt == PAWN ? (pawn_attacks(us, m.to()) & square_bb(ksq)) != 0
                              : (piece_attacks(pt, m.to(), occupied) & square_bb(ksq)) != 0;
        }
    }
    if (m.kind() == MoveKind::CASTLING) {
        BasicBoard next = *this;
        next.make_move(m);
        return next.in_check();
    }
    const Square from = m.from(), to = m.to();
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

template <Variant V>
CheckInfo BasicBoard<V>::check_info() const {
    CheckInfo ci;
    const Color us = side;
    // Only a single royal enemy king has check squares (the quick test is standard chess's).
    if constexpr (!has_royal_king(V)) return ci;
    if constexpr (may_lack_king(V))
        if (!has_king(~us)) return ci;
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

template <Variant V>
bool BasicBoard<V>::gives_check(Move m, const CheckInfo& ci) const {
    // The variants whose check differs from standard chess take the full test.
    if constexpr (!can_give_check(V)) return false;
    if constexpr (may_lack_king(V)) return gives_check(m);
    if constexpr (has_drops(V))
        if (m.is_drop()) return (ci.squares[m.drop_piece()] & square_bb(m.to())) != 0;
    // Promotions, en passant and castling change the occupancy of more than the two squares
    // the tables assume: the full test.
    if (m.kind() != MoveKind::NORMAL) return gives_check(m);
    const Square from = m.from(), to = m.to();
    // A slider's square set was taken with `from` occupied; it only hides squares beyond
    // `from` from the king, and a piece there would be checking already.
    if (ci.squares[type_of(squares[from])] & square_bb(to)) return true;
    return (ci.discoverers & square_bb(from)) && !aligned(from, to, ci.king);
}

template <Variant V>
bool BasicBoard<V>::attacked_by(Color attacker, Square s, Bitboard occupied) const {
    const Bitboard them = by_color[attacker];
    return (pawn_attacks(~attacker, s) & by_type[PAWN] & them) ||
           (knight_attacks(s) & by_type[KNIGHT] & them) ||
           (king_attacks(s) & by_type[KING] & them) ||
           (bishop_attacks(s, occupied) & (by_type[BISHOP] | by_type[QUEEN]) & them) ||
           (rook_attacks(s, occupied) & (by_type[ROOK] | by_type[QUEEN]) & them);
}

template <Variant V>
Bitboard BasicBoard<V>::sole_blockers(Square ksq, Color sliders, Color blockers_of) const {
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

template <Variant V>
Bitboard BasicBoard<V>::pinned(Color c) const {
    if constexpr (!has_royal_king(V)) return 0;
    if constexpr (may_lack_king(V))
        if (!has_king(c)) return 0;
    return sole_blockers(king_square(c), ~c, c);
}

template <Variant V>
Move BasicBoard<V>::castling_move(Color c, bool king_side) const {
    const int idx = castling_index(c, king_side);
    if (!(castling & (1 << idx))) return Move::none();
    return Move(king_square(c), castling_rook[idx], MoveKind::CASTLING);
}

template <Variant V>
void BasicBoard<V>::put_piece(Piece p, Square s) {
    squares[s] = p;
    by_type[type_of(p)] |= square_bb(s);
    by_color[color_of(p)] |= square_bb(s);
    key ^= zobrist::keys.piece_square[p][s];
}

template <Variant V>
void BasicBoard<V>::remove_piece(Square s) {
    const Piece p = squares[s];
    by_type[type_of(p)] ^= square_bb(s);
    by_color[color_of(p)] ^= square_bb(s);
    squares[s] = NO_PIECE;
    key ^= zobrist::keys.piece_square[p][s];
}

template <Variant V>
void BasicBoard<V>::move_piece(Square from, Square to) {
    const Piece p = squares[from];
    const Bitboard fromto = square_bb(from) | square_bb(to);
    by_type[type_of(p)] ^= fromto;
    by_color[color_of(p)] ^= fromto;
    squares[from] = NO_PIECE;
    squares[to] = p;
    key ^= zobrist::keys.piece_square[p][from] ^ zobrist::keys.piece_square[p][to];
}

template <Variant V>
void BasicBoard<V>::add_to_pocket(Color c, PieceType pt) {
    if constexpr (has_drops(V)) {
        auto& n = state.pockets.count[c][pt];
        key ^= zobrist::variant_keys.pocket[c][pt][n] ^ zobrist::variant_keys.pocket[c][pt][n + 1];
        ++n;
    }
}

template <Variant V>
void BasicBoard<V>::take_from_pocket(Color c, PieceType pt) {
    if constexpr (has_drops(V)) {
        auto& n = state.pockets.count[c][pt];
        key ^= zobrist::variant_keys.pocket[c][pt][n] ^ zobrist::variant_keys.pocket[c][pt][n - 1];
        --n;
    }
}

template <Variant V>
void BasicBoard<V>::toggle_promoted(Square s) {
    if constexpr (has_drops(V)) {
        state.promoted ^= square_bb(s);
        key ^= zobrist::variant_keys.promoted[s];
    }
}

template <Variant V>
void BasicBoard<V>::set_checks_given(Color c, int n) {
    if constexpr (counts_checks(V)) {
        n = n > 3 ? 3 : n;
        key ^= zobrist::variant_keys.checks_given[c][state.checks_given[c]] ^
               zobrist::variant_keys.checks_given[c][n];
        state.checks_given[c] = std::uint8_t(n);
    }
}

template <Variant V>
void BasicBoard<V>::set_en_passant_if_capturable(Square s) {
    // Only a square an enemy pawn could capture on counts, so that transpositions hash alike.
    if (pawn_attacks(~side, s) & pieces(side, PAWN)) {
        en_passant = s;
        key ^= zobrist::keys.en_passant_file[file_of(s)];
    }
}

template <Variant V>
Key BasicBoard<V>::key_after(Move m) const {
    const Square from = m.from(), to = m.to();
    if constexpr (has_drops(V))
        if (m.is_drop())
            return key ^ zobrist::keys.side ^
                   zobrist::keys.piece_square[make_piece(side, m.drop_piece())][to];
    const Piece moved = squares[from];
    Key k = key ^ zobrist::keys.side ^ zobrist::keys.piece_square[moved][from] ^
            zobrist::keys.piece_square[moved][to];
    if (m.kind() != MoveKind::CASTLING && squares[to] != NO_PIECE)
        k ^= zobrist::keys.piece_square[squares[to]][to];
    if (en_passant != SQ_NONE) k ^= zobrist::keys.en_passant_file[file_of(en_passant)];
    return k;
}

template <Variant V>
void BasicBoard<V>::make_drop(Move m) {
    // Crazyhouse.scala `drop`: the piece leaves the pocket; a pawn drop resets the halfmove
    // clock (MoveOrDrop.scala, Drop.finalizeHistory).
    const Color us = side;
    const PieceType pt = m.drop_piece();
    if (en_passant != SQ_NONE) {
        key ^= zobrist::keys.en_passant_file[file_of(en_passant)];
        en_passant = SQ_NONE;
    }
    take_from_pocket(us, pt);
    put_piece(make_piece(us, pt), m.to());
    halfmove_clock = pt == PAWN ? 0 : std::uint8_t(halfmove_clock + 1);
    side = ~us;
    key ^= zobrist::keys.side;
    if (us == BLACK) ++fullmove_number;
    checkers_bb = compute_checkers();
}

template <Variant V>
void BasicBoard<V>::explode(Square center) {
    // Atomic.scala explodeSurroundingPieces: the capturer and every piece but pawns next to the
    // target square go; castling rights go with an exploded rook or king.
    const Bitboard blast = (king_attacks(center) & pieces() & ~by_type[PAWN]) | square_bb(center);
    Bitboard b = blast & pieces();
    while (b) remove_piece(pop_lsb(b));
    if (castling) {
        std::uint8_t rights = castling;
        for (int i = 0; i < 4; ++i)
            if (castling_rook[i] != SQ_NONE && (blast & square_bb(castling_rook[i])))
                rights &= std::uint8_t(~(1 << i));
        if (!has_king(WHITE)) rights &= std::uint8_t(~(WHITE_OO | WHITE_OOO));
        if (!has_king(BLACK)) rights &= std::uint8_t(~(BLACK_OO | BLACK_OOO));
        key ^= zobrist::keys.castling[castling] ^ zobrist::keys.castling[rights];
        castling = rights;
    }
}

template <Variant V>
void BasicBoard<V>::make_move(Move m) {
    if constexpr (has_drops(V))
        if (m.is_drop()) return make_drop(m);
    const Color us = side;
    const Square from = m.from(), to = m.to();
    const Piece moved = squares[from];

    if (en_passant != SQ_NONE) {
        key ^= zobrist::keys.en_passant_file[file_of(en_passant)];
        en_passant = SQ_NONE;
    }
    ++halfmove_clock;

    if constexpr (has_drops(V)) {
        // Crazyhouse.scala updateCrazyData: the captured piece goes to our pocket (a pawn if
        // it was promoted); a promoted piece keeps its mark when it moves.
        const bool ep = m.kind() == MoveKind::EN_PASSANT;
        const Square taken = ep ? Square(to - pawn_push(us)) : to;
        if (ep || (m.kind() != MoveKind::CASTLING && squares[to] != NO_PIECE)) {
            const bool was_promoted = state.promoted & square_bb(taken);
            add_to_pocket(us, was_promoted ? PAWN : type_of(squares[taken]));
            if (was_promoted) toggle_promoted(taken);
        }
        if (m.kind() == MoveKind::PROMOTION)
            toggle_promoted(to);
        else if (m.kind() == MoveKind::NORMAL && (state.promoted & square_bb(from))) {
            toggle_promoted(from);
            toggle_promoted(to);
        }
    }

    std::uint8_t new_castling = castling;
    bool captured = false;
    switch (m.kind()) {
        case MoveKind::CASTLING: {
            if constexpr (promotes_to_king(V)) {
                // Antichess.scala promotableRoles: a pawn may promote to a king.
                if (squares[to] != NO_PIECE) remove_piece(to), captured = true;
                remove_piece(from);
                put_piece(make_piece(us, KING), to);
                halfmove_clock = 0;
                break;
            }
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
            captured = true;
            break;
        case MoveKind::PROMOTION:
            if (squares[to] != NO_PIECE) remove_piece(to), captured = true;
            remove_piece(from);
            put_piece(make_piece(us, m.promotion()), to);
            halfmove_clock = 0;
            break;
        case MoveKind::NORMAL:
            if (squares[to] != NO_PIECE) {
                remove_piece(to);
                halfmove_clock = 0;
                captured = true;
            }
            move_piece(from, to);
            if (type_of(moved) == PAWN) {
                halfmove_clock = 0;
                // Position.scala potentialEpSquare: a double step from the back rank (the
                // horde's first-rank pawns) gives no en-passant square.
                bool double_step = (int(to) ^ int(from)) == 16;
                if constexpr (V == Variant::HORDE) double_step &= relative_rank(us, from) != 0;
                if (double_step) {
                    side = ~us;  // capturability is judged for the side that will move
                    set_en_passant_if_capturable(Square((from + to) / 2));
                    side = us;
                }
            }
            break;
    }
    (void)captured;

    if (new_castling) {
        if (type_of(moved) == KING)
            new_castling &= us == WHITE ? ~(WHITE_OO | WHITE_OOO) : ~(BLACK_OO | BLACK_OOO);
        for (int i = 0; i < 4; ++i)
            if (castling_rook[i] == from || castling_rook[i] == to) new_castling &= ~(1 << i);
        key ^= zobrist::keys.castling[castling] ^ zobrist::keys.castling[new_castling];
        castling = new_castling;
    }
    if constexpr (has_explosions(V))
        if (captured) explode(to);

    side = ~us;
    key ^= zobrist::keys.side;
    if (us == BLACK) ++fullmove_number;
    checkers_bb = compute_checkers();
    // ThreeCheck.scala updateCheckCount: every move that checks counts.
    if constexpr (counts_checks(V))
        if (checkers_bb) set_checks_given(us, state.checks_given[us] + 1);
}

template <Variant V>
void BasicBoard<V>::make_null_move() {
    if (en_passant != SQ_NONE) {
        key ^= zobrist::keys.en_passant_file[file_of(en_passant)];
        en_passant = SQ_NONE;
    }
    ++halfmove_clock;
    if (side == BLACK) ++fullmove_number;
    side = ~side;
    key ^= zobrist::keys.side;
    checkers_bb = 0;  // the side that passed was not in check, so neither is the other
}

template <Variant V>
Key BasicBoard<V>::compute_key() const {
    Key k = zobrist::variant_keys.variant[int(V)];
    for (int s = 0; s < 64; ++s)
        if (squares[s] != NO_PIECE) k ^= zobrist::keys.piece_square[squares[s]][s];
    k ^= zobrist::keys.castling[castling];
    if (en_passant != SQ_NONE) k ^= zobrist::keys.en_passant_file[file_of(en_passant)];
    if (side == BLACK) k ^= zobrist::keys.side;
    if constexpr (has_drops(V)) {
        for (const Color c : {WHITE, BLACK})
            for (int pt = PAWN; pt < KING; ++pt)
                k ^= zobrist::variant_keys.pocket[c][pt][state.pockets.count[c][pt]];
        for (Bitboard b = state.promoted; b;) k ^= zobrist::variant_keys.promoted[pop_lsb(b)];
    }
    if constexpr (counts_checks(V))
        for (const Color c : {WHITE, BLACK})
            k ^= zobrist::variant_keys.checks_given[c][state.checks_given[c]];
    return k;
}

#define OUTPOST_INSTANTIATE(V) template struct BasicBoard<V>;
OUTPOST_FOR_EACH_VARIANT(OUTPOST_INSTANTIATE)
#undef OUTPOST_INSTANTIATE

}  // namespace engine
