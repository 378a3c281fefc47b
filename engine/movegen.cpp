// Legal move generation. One template walks the position once per variant, colour and
// generation type, and hands target sets to a sink: one sink builds a move list, the other
// only counts. Atomic and antichess, whose legality differs most, have their own generators
// (movegen_atomic.cpp, movegen_antichess.cpp).
#include "movegen.hpp"

#include "movegen_pseudo.hpp"
#include "variant_rules.hpp"

namespace engine {

namespace {

template <class List>
struct ListSink {
    List& list;

    void add(Square from, Bitboard targets) {
        while (targets) list.push(Move(from, pop_lsb(targets)));
    }
    // Pawn moves whose origin is `to - offset`.
    void add_pawn(int offset, Bitboard targets) {
        while (targets) {
            const Square to = pop_lsb(targets);
            list.push(Move(Square(to - offset), to));
        }
    }
    void add_promotions(int offset, Bitboard targets) {
        while (targets) {
            const Square to = pop_lsb(targets);
            const Square from = Square(to - offset);
            for (const PieceType pt : {QUEEN, KNIGHT, ROOK, BISHOP})
                list.push(Move(from, to, MoveKind::PROMOTION, pt));
        }
    }
    void add_move(Move m) { list.push(m); }
    void add_drops(PieceType pt, Bitboard targets) {
        while (targets) list.push(Move::drop(pt, pop_lsb(targets)));
    }
};

struct CountSink {
    std::uint64_t count = 0;

    void add(Square, Bitboard targets) { count += unsigned(popcount(targets)); }
    void add_pawn(int, Bitboard targets) { count += unsigned(popcount(targets)); }
    void add_promotions(int, Bitboard targets) { count += 4 * unsigned(popcount(targets)); }
    void add_move(Move) { ++count; }
    void add_drops(PieceType, Bitboard targets) { count += unsigned(popcount(targets)); }
};

// Racing kings (RacingKings.scala kingSafety): a move may not give check either (our own king's
// safety is the standard generator's). The game has no pawns, castling or en passant, so every
// move is a plain piece move, tested with the standard quick check test.
template <class Sink>
struct NoCheckSink {
    Sink& sink;
    const CheckInfo& ci;
    const Piece* squares;

    bool checks(Square from, Square to) const {
        return (ci.squares[type_of(squares[from])] & square_bb(to)) ||
               ((ci.discoverers & square_bb(from)) && !aligned(from, to, ci.king));
    }
    void add(Square from, Bitboard targets) {
        while (targets) {
            const Square to = pop_lsb(targets);
            if (!checks(from, to)) sink.add_move(Move(from, to));
        }
    }
    void add_pawn(int, Bitboard) {}
    void add_promotions(int, Bitboard) {}
    void add_move(Move m) {
        if (!checks(m.from(), m.to())) sink.add_move(m);
    }
    void add_drops(PieceType, Bitboard) {}
};

// The horde's white side: no king, so no check, no pin and no castling.
template <Variant V, Color Us>
constexpr bool KINGLESS = (V == Variant::HORDE) && (Us == WHITE);

template <Variant V, Color Us, GenType Type, class Sink>
void generate(const BasicBoard<V>& b, Sink& sink) {
    constexpr Color Them = ~Us;
    constexpr int Up = pawn_push(Us);
    constexpr int UpLeft = Up + WEST, UpRight = Up + EAST;
    // Horde.scala / Position.scala genPawn: the horde's first-rank pawns may step two squares.
    constexpr Bitboard Rank3 =
        rank_bb(Us == WHITE ? 2 : 5) | (KINGLESS<V, Us> ? rank_bb(1) : Bitboard(0));
    constexpr Bitboard Rank8 = rank_bb(Us == WHITE ? 7 : 0);

    const Square ksq = KINGLESS<V, Us> ? SQ_NONE : b.king_square(Us);
    const Bitboard us = b.pieces(Us), them = b.pieces(Them), occupied = us | them;
    const Bitboard empty = ~occupied;
    const Bitboard checkers = b.checkers();

    // Which destination squares this generation type wants (before check/pin filtering).
    const Bitboard wanted = Type == GenType::ALL ? ~us : Type == GenType::NOISY ? them : empty;

    // King: a target is safe if no enemy attacks it once the king has left its square
    // (so the king cannot step back along a checking ray).
    if constexpr (!KINGLESS<V, Us>) {
        Bitboard targets = king_attacks(ksq) & wanted;
        const Bitboard without_king = occupied ^ square_bb(ksq);
        Bitboard safe = 0;
        while (targets) {
            const Square t = pop_lsb(targets);
            if (!b.attacked_by(Them, t, without_king)) safe |= square_bb(t);
        }
        sink.add(ksq, safe);
    }
    if (more_than_one(checkers)) return;  // double check: only the king may move

    // A single check must be captured or blocked.
    Bitboard check_mask = ~Bitboard(0);
    if constexpr (!KINGLESS<V, Us>)
        if (checkers) check_mask = between_bb(ksq, lsb(checkers));
    const Bitboard target = wanted & check_mask;

    // Pinned pieces may only move along the line through their king and pinner.
    Bitboard pinned = 0;
    if constexpr (!KINGLESS<V, Us>) {
        Bitboard snipers = ((rook_attacks(ksq, them) & b.pieces(Them, ROOK, QUEEN)) |
                            (bishop_attacks(ksq, them) & b.pieces(Them, BISHOP, QUEEN)));
        while (snipers) {
            const Square s = pop_lsb(snipers);
            const Bitboard blockers = between_bb(ksq, s) & occupied & ~square_bb(s);
            if (!more_than_one(blockers)) pinned |= blockers & us;
        }
    }

    // Pawns not pinned, set-wise.
    if constexpr (has_pawns(V)) {
        const Bitboard pawns = b.pieces(Us, PAWN) & ~pinned;
        if constexpr (Type != GenType::NOISY) {
            const Bitboard push1 = shift<Up>(pawns) & empty;
            const Bitboard push2 = shift<Up>(push1 & Rank3) & empty & check_mask;
            sink.add_pawn(Up, push1 & check_mask & ~Rank8);
            sink.add_pawn(2 * Up, push2);
        }
        if constexpr (Type != GenType::QUIET) {
            const Bitboard promo_push = shift<Up>(pawns) & empty & check_mask & Rank8;
            const Bitboard left =
                (Us == WHITE ? shift<NORTH + WEST>(pawns) : shift<SOUTH + WEST>(pawns)) & them &
                check_mask;
            const Bitboard right =
                (Us == WHITE ? shift<NORTH + EAST>(pawns) : shift<SOUTH + EAST>(pawns)) & them &
                check_mask;
            sink.add_promotions(Up, promo_push);
            sink.add_promotions(UpLeft, left & Rank8);
            sink.add_promotions(UpRight, right & Rank8);
            sink.add_pawn(UpLeft, left & ~Rank8);
            sink.add_pawn(UpRight, right & ~Rank8);
        }
    }
    // Pinned pawns, one at a time (rare).
    if constexpr (!KINGLESS<V, Us> && has_pawns(V)) {
        Bitboard pawns = b.pieces(Us, PAWN) & pinned;
        while (pawns) {
            const Square from = pop_lsb(pawns);
            const Bitboard line = line_bb(ksq, from);
            Bitboard moves = 0;
            const Bitboard one = shift<Up>(square_bb(from)) & empty;
            if constexpr (Type != GenType::NOISY) {
                moves |= one & ~Rank8;
                moves |= shift<Up>(one & Rank3) & empty;
            } else {
                moves |= one & Rank8;
            }
            if constexpr (Type != GenType::QUIET) moves |= pawn_attacks(Us, from) & them;
            if constexpr (Type == GenType::ALL) moves |= one & Rank8;
            moves &= line & check_mask;
            Bitboard promos = moves & Rank8;
            Bitboard normal = moves & ~Rank8;
            while (normal) sink.add_move(Move(from, pop_lsb(normal)));
            while (promos) {
                const Square to = pop_lsb(promos);
                for (const PieceType pt : {QUEEN, KNIGHT, ROOK, BISHOP})
                    sink.add_move(Move(from, to, MoveKind::PROMOTION, pt));
            }
        }
    }
    // En passant: tested against the real occupancy after the capture, which covers the
    // pawn pinned along the rank, a diagonal pin, and checks it does or does not resolve.
    if constexpr (Type != GenType::QUIET && has_pawns(V)) {
        if (b.en_passant != SQ_NONE) {
            const Square ep = b.en_passant;
            const Square captured = Square(ep - Up);
            Bitboard capturers = pawn_attacks(Them, ep) & b.pieces(Us, PAWN);
            while (capturers) {
                const Square from = pop_lsb(capturers);
                if constexpr (KINGLESS<V, Us>) {
                    sink.add_move(Move(from, ep, MoveKind::EN_PASSANT));
                    continue;
                }
                const Bitboard occ =
                    (occupied ^ square_bb(from) ^ square_bb(captured)) | square_bb(ep);
                const Bitboard remaining_them = them ^ square_bb(captured);
                const bool slider_check =
                    (bishop_attacks(ksq, occ) & remaining_them &
                     (b.pieces(BISHOP) | b.pieces(QUEEN))) ||
                    (rook_attacks(ksq, occ) & remaining_them & (b.pieces(ROOK) | b.pieces(QUEEN)));
                const bool leaper_check =
                    checkers & ~square_bb(captured) & (b.pieces(KNIGHT) | b.pieces(PAWN));
                if (!slider_check && !leaper_check)
                    sink.add_move(Move(from, ep, MoveKind::EN_PASSANT));
            }
        }
    }

    // Knights (a pinned knight can never move).
    {
        Bitboard knights = b.pieces(Us, KNIGHT) & ~pinned;
        while (knights) {
            const Square from = pop_lsb(knights);
            sink.add(from, knight_attacks(from) & target);
        }
    }
    // Sliders.
    {
        Bitboard diagonal = b.pieces(Us, BISHOP, QUEEN);
        while (diagonal) {
            const Square from = pop_lsb(diagonal);
            Bitboard t = bishop_attacks(from, occupied) & target;
            if (!KINGLESS<V, Us> && (pinned & square_bb(from))) t &= line_bb(ksq, from);
            sink.add(from, t);
        }
        Bitboard straight = b.pieces(Us, ROOK, QUEEN);
        while (straight) {
            const Square from = pop_lsb(straight);
            Bitboard t = rook_attacks(from, occupied) & target;
            if (!KINGLESS<V, Us> && (pinned & square_bb(from))) t &= line_bb(ksq, from);
            sink.add(from, t);
        }
    }

    // Crazyhouse.scala legalDrops: any empty square, or one between the king and a single
    // checker; never a pawn on the first or last rank.
    if constexpr (has_drops(V) && Type != GenType::NOISY) {
        const Pockets& pocket = b.state.pockets;
        if (!pocket.empty(Us)) {
            const Bitboard drop_to = empty & check_mask;
            if (pocket.of(Us, PAWN)) sink.add_drops(PAWN, drop_to & ~(RANK_1_BB | RANK_8_BB));
            for (const PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN})
                if (pocket.of(Us, pt)) sink.add_drops(pt, drop_to);
        }
    }

    // Castling: never out of check; both pieces' paths empty (apart from each other), no
    // square the king crosses or lands on attacked once king and rook have left.
    if constexpr (Type != GenType::NOISY && has_castling(V) && !KINGLESS<V, Us>) {
        if (!checkers &&
            (b.castling & (Us == WHITE ? WHITE_OO | WHITE_OOO : BLACK_OO | BLACK_OOO))) {
            for (const bool king_side : {true, false}) {
                const int idx = castling_index(Us, king_side);
                if (!(b.castling & (1 << idx))) continue;
                const Square rsq = b.castling_rook[idx];
                const Square kto = Board::castling_king_target(Us, king_side);
                const Square rto = Board::castling_rook_target(Us, king_side);
                const Bitboard others = occupied ^ square_bb(ksq) ^ square_bb(rsq);
                if ((between_bb(ksq, kto) | between_bb(rsq, rto)) & others) continue;
                Bitboard path = between_bb(ksq, kto) | square_bb(kto);
                bool safe = true;
                while (path && safe) safe = !b.attacked_by(Them, pop_lsb(path), others);
                if (safe) sink.add_move(Move(ksq, rsq, MoveKind::CASTLING));
            }
        }
    }
}

template <Variant V, GenType Type, class Sink>
void dispatch(const BasicBoard<V>& b, Sink& sink) {
    if constexpr (V == Variant::RACING_KINGS) {
        const CheckInfo ci = b.check_info();
        NoCheckSink<Sink> filter{sink, ci, b.squares};
        if (b.side == WHITE)
            generate<V, WHITE, Type>(b, filter);
        else
            generate<V, BLACK, Type>(b, filter);
    } else {
        if (b.side == WHITE)
            generate<V, WHITE, Type>(b, sink);
        else
            generate<V, BLACK, Type>(b, sink);
    }
}

template <Variant V>
void generate_standard_like(const BasicBoard<V>& board, MoveListOf<V>& list, GenType type) {
    ListSink<MoveListOf<V>> sink{list};
    switch (type) {
        case GenType::ALL:
            dispatch<V, GenType::ALL>(board, sink);
            break;
        case GenType::NOISY:
            dispatch<V, GenType::NOISY>(board, sink);
            break;
        case GenType::QUIET:
            dispatch<V, GenType::QUIET>(board, sink);
            break;
    }
}

}  // namespace

// RacingKings.scala specialEnd: once white's king is home, black has lost unless a legal move
// of its king reaches the eighth rank too (then every legal move stays playable).
bool racing_black_cannot_follow(const BasicBoard<Variant::RACING_KINGS>& b) {
    if (b.side != BLACK || !(b.pieces(WHITE, KING) & RANK_8_BB)) return false;
    MoveListOf<Variant::RACING_KINGS> all;
    generate_standard_like(b, all, GenType::ALL);
    const Square ksq = b.king_square(BLACK);
    for (const Move m : all)
        if (m.from() == ksq && (square_bb(m.to()) & RANK_8_BB)) return false;
    return true;
}

template <Variant V>
void generate_moves(const BasicBoard<V>& board, MoveListOf<V>& list, GenType type) {
    if (variant_end(board) != VariantEnd::NONE) return;
    if constexpr (V == Variant::ATOMIC) {
        generate_atomic(board, list, type);
    } else if constexpr (V == Variant::ANTICHESS) {
        generate_antichess(board, list, type);
    } else {
        generate_standard_like(board, list, type);
    }
}

template <Variant V>
std::uint64_t count_legal_moves(const BasicBoard<V>& board) {
    if constexpr (V == Variant::STANDARD) {
        CountSink sink;
        dispatch<V, GenType::ALL>(board, sink);
        return sink.count;
    } else if constexpr (V == Variant::ATOMIC || V == Variant::ANTICHESS ||
                         V == Variant::RACING_KINGS) {
        MoveListOf<V> list;
        generate_moves(board, list);
        return std::uint64_t(list.size());
    } else {
        if (variant_end(board) != VariantEnd::NONE) return 0;
        CountSink sink;
        dispatch<V, GenType::ALL>(board, sink);
        return sink.count;
    }
}

template <Variant V>
bool is_legal(const BasicBoard<V>& board, Move m) {
    if (m.is_none()) return false;
    const bool drop = has_drops(V) && m.is_drop();
    if (!drop && (board.empty(m.from()) || color_of(board.piece_on(m.from())) != board.side))
        return false;
    return legal_moves(board).contains(m);
}

#define OUTPOST_INSTANTIATE(V)                                                      \
    template void generate_moves<V>(const BasicBoard<V>&, MoveListOf<V>&, GenType); \
    template std::uint64_t count_legal_moves<V>(const BasicBoard<V>&);              \
    template bool is_legal<V>(const BasicBoard<V>&, Move);
OUTPOST_FOR_EACH_VARIANT(OUTPOST_INSTANTIATE)
#undef OUTPOST_INSTANTIATE

}  // namespace engine
