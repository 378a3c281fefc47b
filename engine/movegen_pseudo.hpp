// Moves by piece movement alone, before any check rule: the building blocks of the atomic and
// antichess generators, whose legality is not standard chess's (explosions; no check at all).
// Internal to the move generator.
#pragma once

#include "movegen.hpp"

namespace engine {

namespace detail {

// Pawn moves of the side to move: pushes (single and double) onto `push_to`, captures onto
// `capture_to`, and en passant when `with_en_passant`. A move to the last rank is one move per
// piece in `promotions` (a king included for antichess: Move::king_promotion).
template <Variant V, class Add>
void pawn_moves(const BasicBoard<V>& b, Bitboard push_to, Bitboard capture_to, bool with_en_passant,
                bool king_promotion, Add&& add) {
    const Color us = b.side;
    const int up = pawn_push(us);
    const Bitboard last = rank_bb(us == WHITE ? 7 : 0);
    const Bitboard third = rank_bb(us == WHITE ? 2 : 5);
    const Bitboard empty = ~b.pieces();
    const Bitboard pawns = b.pieces(us, PAWN);
    auto emit = [&](Square from, Square to) {
        if (!(square_bb(to) & last)) {
            add(Move(from, to));
            return;
        }
        for (const PieceType pt : {QUEEN, KNIGHT, ROOK, BISHOP})
            add(Move(from, to, MoveKind::PROMOTION, pt));
        if (king_promotion) add(Move::king_promotion(from, to));
    };
    const Bitboard one = (us == WHITE ? shift<NORTH>(pawns) : shift<SOUTH>(pawns)) & empty;
    const Bitboard two =
        (us == WHITE ? shift<NORTH>(one & third) : shift<SOUTH>(one & third)) & empty;
    for (Bitboard t = one & push_to; t;) {
        const Square to = pop_lsb(t);
        emit(Square(to - up), to);
    }
    for (Bitboard t = two & push_to; t;) {
        const Square to = pop_lsb(t);
        add(Move(Square(to - 2 * up), to));
    }
    for (Bitboard p = pawns; p;) {
        const Square from = pop_lsb(p);
        for (Bitboard t = pawn_attacks(us, from) & capture_to; t;) emit(from, pop_lsb(t));
    }
    if (with_en_passant && b.en_passant != SQ_NONE)
        for (Bitboard p = pawn_attacks(~us, b.en_passant) & pawns; p;)
            add(Move(pop_lsb(p), b.en_passant, MoveKind::EN_PASSANT));
}

// Knight, bishop, rook and queen moves of the side to move onto `targets`, and king moves
// onto `king_targets` (every king of the side: antichess may have several, or none).
template <Variant V, class Add>
void piece_moves(const BasicBoard<V>& b, Bitboard targets, Bitboard king_targets, Add&& add) {
    const Color us = b.side;
    const Bitboard occupied = b.pieces();
    for (const PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN, KING}) {
        const Bitboard to_mask = pt == KING ? king_targets : targets;
        if (!to_mask) continue;
        for (Bitboard p = b.pieces(us, pt); p;) {
            const Square from = pop_lsb(p);
            for (Bitboard t = piece_attacks(pt, from, occupied) & to_mask; t;)
                add(Move(from, pop_lsb(t)));
        }
    }
}

}  // namespace detail

// The variants with their own generators (movegen_atomic.cpp, movegen_antichess.cpp).
void generate_atomic(const BasicBoard<Variant::ATOMIC>& board, MoveListOf<Variant::ATOMIC>& list,
                     GenType type);
void generate_antichess(const BasicBoard<Variant::ANTICHESS>& board,
                        MoveListOf<Variant::ANTICHESS>& list, GenType type);

}  // namespace engine
