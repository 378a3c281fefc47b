// The variants' hand-crafted evaluation. Crazyhouse, atomic, king of the hill and three-check
// start from the standard evaluation of the pieces on the board and add what the variant makes
// matter; horde, racing kings and antichess, where standard chess's judgement misleads, have
// their own terms only. Each term names its weight (engine/variant_eval_params.hpp) and is
// counted per side, so the tuner can trace it; the result is turned to the side to move's view.
#include "variant_eval.hpp"

#include <algorithm>
#include <cstdlib>

#include "eval_params.hpp"
#include "evaluate.hpp"
#include "variant_rules.hpp"

namespace engine {

namespace {

// Applies weights to each side's score or king-danger units, and tells a tracing tuner which.
struct Terms {
    const VariantWeights& w;
    VariantEvalTrace* trace;
    int score[COLOR_NB] = {};
    int units[COLOR_NB] = {};

    void add(Color c, int index, int count) {
        score[c] += w[index] * count;
        if (trace) trace->coef[c][index] += count;
    }
    void danger(Color c, int index, int count) {
        units[c] += w[index] * count;
        if (trace) trace->coef[c][index] += count;
    }
    // White's view: the linear terms, less each side's squared king danger.
    int white(Variant v) const {
        auto penalty = [v](int u) { return u > 0 ? u * u / danger_divisor(v) : 0; };
        return score[WHITE] - score[BLACK] - penalty(units[WHITE]) + penalty(units[BLACK]);
    }
};

Bitboard adjacent_files(int f) {
    return (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
}

// Standard chess's evaluation of the board, from white's point of view.
template <Variant V>
int standard_white(const BasicBoard<V>& b) {
    const int v = evaluate(as_standard(b));
    return b.side == WHITE ? v : -v;
}

// Every square colour c attacks with its pawns and pieces, and with its king when asked.
template <Variant V>
Bitboard attacked_by(const BasicBoard<V>& b, Color c, bool with_king = true) {
    const Bitboard occupied = b.pieces();
    Bitboard a = c == WHITE ? pawn_attacks_bb<WHITE>(b.pieces(WHITE, PAWN))
                            : pawn_attacks_bb<BLACK>(b.pieces(BLACK, PAWN));
    for (const PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN, KING}) {
        if (pt == KING && !with_king) break;
        for (Bitboard p = b.pieces(c, pt); p;) a |= piece_attacks(pt, pop_lsb(p), occupied);
    }
    return a;
}

// How many of colour c's pieces of type pt attack at least one of the target squares.
template <Variant V>
int pieces_attacking(const BasicBoard<V>& b, Color c, PieceType pt, Bitboard target) {
    int n = 0;
    for (Bitboard p = b.pieces(c, pt); p;)
        n += (piece_attacks(pt, pop_lsb(p), b.pieces()) & target) != 0;
    return n;
}

// Crazyhouse's pieces in hand: all its net cannot see, and part of the hand-crafted evaluation.
void hand_terms(const BasicBoard<Variant::CRAZYHOUSE>& b, Terms& t) {
    for (const Color c : {WHITE, BLACK})
        for (int pt = PAWN; pt < KING; ++pt)
            t.add(c, CH_HAND + pt, b.state.pockets.of(c, PieceType(pt)));
}

// The hand-crafted evaluation's king-danger weights (CH_KD_*) and those fitted on top of the
// net (CH_NET_KD_*) lie in the same order, `NET_KD` apart.
constexpr int NET_KD = CH_NET_KD_HAND - CH_KD_HAND;
static_assert(CH_NET_KD_HOLE - CH_KD_HOLE == NET_KD &&
              CH_NET_KD_RING_ATTACK - CH_KD_RING_ATTACK == NET_KD &&
              CH_NET_KD_DROP_CHECK - CH_KD_DROP_CHECK == NET_KD &&
              CH_NET_KD_ATTACKER - CH_KD_ATTACKER == NET_KD &&
              CH_NET_KD_TO_MOVE - CH_KD_TO_MOVE == NET_KD &&
              CH_NET_KD_OFFSET - CH_KD_OFFSET == NET_KD);

// Crazyhouse: a king's danger from drops: what the enemy holds, the empty squares next to the
// king nothing of ours guards (a drop lands there), the squares next to it the enemy already
// attacks and the pieces attacking them, the safe squares a piece in the enemy's hand could be
// dropped on with check, and whose move it is. `shift`: 0 for the hand-crafted evaluation's
// weights, NET_KD for those on top of the net (which judges the board, not the hands).
void crazyhouse_king_danger(const BasicBoard<Variant::CRAZYHOUSE>& b, Terms& t, int shift) {
    const Bitboard occupied = b.pieces();
    const Bitboard attacks[COLOR_NB] = {attacked_by(b, WHITE), attacked_by(b, BLACK)};
    const Pockets& hand = b.state.pockets;
    for (const Color c : {WHITE, BLACK}) {
        const Color them = ~c;
        const Square k = b.king_square(c);
        const Bitboard ring = king_attacks(k);
        for (int pt = PAWN; pt < KING; ++pt)
            t.danger(c, shift + CH_KD_HAND + pt, hand.of(them, PieceType(pt)));
        t.danger(c, shift + CH_KD_HOLE, popcount(ring & ~occupied & ~attacked_by(b, c, false)));
        t.danger(c, shift + CH_KD_RING_ATTACK, popcount(ring & attacks[them]));
        const Bitboard safe = ~occupied & ~attacks[c];
        for (int pt = PAWN; pt < KING; ++pt) {
            if (!hand.of(them, PieceType(pt))) continue;
            const Bitboard from = pt == PAWN ? pawn_attacks(c, k) & ~(RANK_1_BB | RANK_8_BB)
                                             : piece_attacks(PieceType(pt), k, occupied);
            t.danger(c, shift + CH_KD_DROP_CHECK + pt, std::min(popcount(from & safe), 2));
        }
        // Enemy pawns attack the ring from the squares our pawns would attack from it.
        const Bitboard pawn_spots =
            c == WHITE ? pawn_attacks_bb<WHITE>(ring) : pawn_attacks_bb<BLACK>(ring);
        t.danger(c, shift + CH_KD_ATTACKER + int(PAWN),
                 popcount(b.pieces(them, PAWN) & pawn_spots));
        for (const PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN})
            t.danger(c, shift + CH_KD_ATTACKER + int(pt), pieces_attacking(b, them, pt, ring));
        t.danger(c, shift + CH_KD_TO_MOVE, b.side == them);
        t.danger(c, shift + CH_KD_OFFSET, 1);
    }
}

// Crazyhouse's hand-crafted terms: material on the board and in hand, the king's danger from
// drops, and the tempo.
void crazyhouse_terms(const BasicBoard<Variant::CRAZYHOUSE>& b, Terms& t) {
    hand_terms(b, t);
    for (const Color c : {WHITE, BLACK})
        for (int pt = PAWN; pt < KING; ++pt)
            t.add(c, CH_BOARD + pt, popcount(b.pieces(c, PieceType(pt))));
    crazyhouse_king_danger(b, t, 0);
    t.add(b.side, CH_TEMPO, 1);
}

// Three-check: the checks given so far (the third wins), and a king's danger from the checks
// the enemy can give next (safe ones most), scaled by how few it still needs.
void three_check_terms(const BasicBoard<Variant::THREE_CHECK>& b, Terms& t) {
    const Bitboard occupied = b.pieces();
    const Bitboard attacks[COLOR_NB] = {attacked_by(b, WHITE), attacked_by(b, BLACK)};
    const int phase = game_phase(b);
    for (const Color c : {WHITE, BLACK}) {
        const Color them = ~c;
        const int given = b.state.checks_given[c];
        if (given == 1 || given == 2) {
            t.add(c, TC_CHECKS + given - 1, 1);
            t.add(c, TC_CHECKS_PHASE + given - 1, phase);
        }
        const int scale = 1 + b.state.checks_given[them];
        const Square k = b.king_square(c);
        int any = 0;
        for (const PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) {
            Bitboard reach = 0;
            for (Bitboard p = b.pieces(them, pt); p;)
                reach |= piece_attacks(pt, pop_lsb(p), occupied);
            const Bitboard checks = reach & piece_attacks(pt, k, occupied) & ~b.pieces(them);
            any += popcount(checks);
            t.danger(c, TC_KD_SAFE_CHECK + int(pt) - KNIGHT,
                     popcount(checks & ~attacks[c]) * scale);
        }
        t.danger(c, TC_KD_CHECK, any * scale);
        t.danger(c, TC_KD_RING_ATTACK, popcount(king_attacks(k) & attacks[them]));
        t.danger(c, TC_KD_GIVEN, b.state.checks_given[them]);
        // Pawn checks: a pawn pushed to, or capturing on, a square that attacks the king.
        const Bitboard their_pawns = b.pieces(them, PAWN);
        const Bitboard pushed =
            them == WHITE ? shift<NORTH>(their_pawns) : shift<SOUTH>(their_pawns);
        const Bitboard taken = them == WHITE ? pawn_attacks_bb<WHITE>(their_pawns) & b.pieces(c)
                                             : pawn_attacks_bb<BLACK>(their_pawns) & b.pieces(c);
        t.danger(c, TC_KD_PAWN_CHECK,
                 popcount(pawn_attacks(c, k) & ((pushed & ~occupied) | taken)) * scale);
        for (const PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN})
            t.danger(c, TC_KD_ATTACKER + int(pt) - KNIGHT,
                     pieces_attacking(b, them, pt, king_attacks(k)));
        t.danger(c, TC_KD_OFFSET, 1);
    }
    t.add(b.side, TC_TEMPO, 1);
}

// King of the hill: how far the king is from the hill, counting each enemy piece that guards a
// hill square and our own piece standing on it as a step more (either must be dealt with
// before the king can stand there), and the centre squares it could step onto next without
// being taken there.
void hill_terms(const BasicBoard<Variant::KING_OF_THE_HILL>& b, Terms& t) {
    const Bitboard occupied = b.pieces();
    for (const Color c : {WHITE, BLACK}) {
        const Square k = b.king_square(c);
        int d = 8;
        for (Bitboard h = HILL_BB; h;) {
            const Square s = pop_lsb(h);
            const int guards = popcount(b.attackers_to(s, occupied ^ square_bb(k)) & b.pieces(~c));
            d = std::min(d, distance(k, s) + guards + ((b.pieces(c) & square_bb(s)) != 0));
        }
        if (d >= 1 && d <= 5) t.add(c, KH_DISTANCE + d - 1, 1);
        const Bitboard steps = king_attacks(k) & HILL_BB & ~b.pieces(c);
        if (steps) t.add(c, KH_FREE_HILL, popcount(steps & ~attacked_by(b, ~c)));
    }
}

// Atomic: a piece next to its own king that the enemy attacks can be captured, and the
// explosion takes the king with it; material as the explosions value it.
void atomic_terms(const BasicBoard<Variant::ATOMIC>& b, Terms& t) {
    for (const Color c : {WHITE, BLACK}) {
        for (int pt = PAWN; pt < KING; ++pt)
            t.add(c, AT_MATERIAL + pt, popcount(b.pieces(c, PieceType(pt))));
        if (!b.has_king(c)) continue;
        const Bitboard exposed = king_attacks(b.king_square(c)) & b.pieces(c) & attacked_by(b, ~c);
        t.add(c, AT_EXPOSED, std::min(popcount(exposed), 2));
    }
}

// The squares next to any square of `from`.
Bitboard king_steps(Bitboard from) {
    const Bitboard row = from | shift<EAST>(from) | shift<WEST>(from);
    return row | shift<NORTH>(row) | shift<SOUTH>(row);
}

// Racing kings: the king steps to the eighth rank over squares that neither hold a piece of
// its own nor are attacked by the enemy as the board stands (8: no such path). The rank alone
// does not see a wall of guarded squares, which can make a king on the sixth slower than one
// on the fourth.
int race_steps(const BasicBoard<Variant::RACING_KINGS>& b, Color c, Bitboard enemy_attacks) {
    const Bitboard open = ~b.pieces(c) & ~enemy_attacks;
    Bitboard reached = square_bb(b.king_square(c));
    for (int steps = 0; steps < 8; ++steps) {
        if (reached & rank_bb(7)) return steps;
        const Bitboard next = reached | (king_steps(reached) & open);
        if (next == reached) break;
        reached = next;
    }
    return 8;
}

// Racing kings: material, the rank the king stands on (the eighth wins), the squares of the
// next rank it could step to without being attacked, and its race to the eighth.
void racing_terms(const BasicBoard<Variant::RACING_KINGS>& b, Terms& t) {
    for (const Color c : {WHITE, BLACK}) {
        for (int pt = PAWN; pt < KING; ++pt)
            t.add(c, RK_PIECE + pt, popcount(b.pieces(c, PieceType(pt))));
        const Square k = b.king_square(c);
        const int r = rank_of(k);
        if (r == 7) continue;
        t.add(c, RK_RANK + r, 1);
        const Bitboard enemy_attacks = attacked_by(b, ~c);
        const Bitboard next = king_attacks(k) & rank_bb(r + 1) & ~b.pieces(c);
        t.add(c, RK_FREE_STEP, popcount(next & ~enemy_attacks));
        t.add(c, RK_RACE + race_steps(b, c, enemy_attacks) - 1, 1);
    }
}

// Horde (white is the horde): material of both sides, the pawns' advance, passed pawns, the
// chains and phalanxes that hold the mass together, its loose and doubled pawns, the pieces
// its pawns attack; black's piece play, its pieces that got behind the pawns, the files the
// horde has left open, and the pawns that close in on black's king and its escape squares.
void horde_terms(const BasicBoard<Variant::HORDE>& b, Terms& t) {
    const Bitboard white_pawns = b.pieces(WHITE, PAWN), black_pawns = b.pieces(BLACK, PAWN);
    const Bitboard pawn_guarded = pawn_attacks_bb<WHITE>(white_pawns);
    const Bitboard black_attacks = attacked_by(b, BLACK);
    for (int pt = PAWN; pt < KING; ++pt) {
        t.add(WHITE, HD_WHITE_PIECE + pt, popcount(b.pieces(WHITE, PieceType(pt))));
        t.add(BLACK, HD_BLACK_PIECE + pt, popcount(b.pieces(BLACK, PieceType(pt))));
    }
    const bool black_king = b.has_king(BLACK);
    const Square bk = black_king ? b.king_square(BLACK) : SQ_NONE;
    int chain = 0, isolated = 0, hanging = 0, near_king = 0, open_files = 0, doubled = 0,
        phalanx = 0;
    for (Bitboard p = white_pawns; p;) {
        const Square s = pop_lsb(p);
        const int r = rank_of(s), f = file_of(s);
        t.add(WHITE, HD_PAWN_RANK + r, 1);
        Bitboard ahead = 0;
        for (int rr = r + 1; rr < 8; ++rr) ahead |= rank_bb(rr);
        if (!(black_pawns & ahead & (file_bb(f) | adjacent_files(f))))
            t.add(WHITE, HD_PASSED_RANK + r, 1);
        chain += (pawn_guarded & square_bb(s)) != 0;
        doubled += (white_pawns & ahead & file_bb(f)) != 0;
        phalanx += f < 7 && (white_pawns & square_bb(Square(s + 1)));
        isolated += !(white_pawns & adjacent_files(f));
        hanging += (black_attacks & square_bb(s) & ~pawn_guarded) != 0;
        near_king += black_king && distance(s, bk) <= 2;
    }
    for (int f = 0; f < 8; ++f) open_files += !(white_pawns & file_bb(f));
    t.add(WHITE, HD_CHAIN, chain);
    t.add(WHITE, HD_DOUBLED, doubled);
    t.add(WHITE, HD_PHALANX, phalanx);
    const Bitboard black_pieces = b.pieces(BLACK) & ~b.pieces(PAWN) & ~b.pieces(KING);
    t.add(WHITE, HD_PAWN_THREAT, popcount(black_pieces & pawn_guarded));
    int infiltrated = 0;
    for (Bitboard p = black_pieces; p;) {
        const Square s = pop_lsb(p);
        Bitboard above = 0;
        for (int rr = rank_of(s) + 1; rr < 8; ++rr) above |= rank_bb(rr);
        infiltrated += (white_pawns & above & file_bb(file_of(s))) != 0;
    }
    t.add(BLACK, HD_INFILTRATED, infiltrated);
    t.add(WHITE, HD_ISOLATED, isolated);
    t.add(WHITE, HD_HANGING, hanging);
    t.add(WHITE, HD_KING_PRESSURE, near_king);
    if (black_king) {
        const Bitboard ring = king_attacks(bk);
        t.add(WHITE, HD_KING_RING_ATTACK, popcount(ring & pawn_guarded));
        t.add(BLACK, HD_KING_ESCAPES, popcount(ring & ~b.pieces(BLACK) & ~pawn_guarded));
    }
    t.add(BLACK, HD_OPEN_FILE, open_files);
    const Bitboard occupied = b.pieces();
    for (const PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN}) {
        int mobility = 0;
        for (Bitboard p = b.pieces(BLACK, pt); p;)
            mobility += popcount(piece_attacks(pt, pop_lsb(p), occupied) & ~b.pieces(BLACK) &
                                 ~pawn_guarded);
        t.add(BLACK, HD_BLACK_MOBILITY + int(pt) - KNIGHT, mobility);
    }
    t.add(b.side, HD_TEMPO, 1);
}

// Antichess: every piece one has left is a liability (Antichess.scala counts pieces alone),
// and a piece the opponent attacks may be given away.
void antichess_terms(const BasicBoard<Variant::ANTICHESS>& b, Terms& t) {
    for (const Color c : {WHITE, BLACK}) {
        for (int pt = PAWN; pt <= KING; ++pt)
            t.add(c, AC_PIECE + pt, popcount(b.pieces(c, PieceType(pt))));
        t.add(c, AC_EN_PRISE, popcount(b.pieces(c) & attacked_by(b, ~c)));
    }
    t.add(b.side, AC_TEMPO, 1);
}

// White's evaluation: the standard part where the variant keeps it, then the variant's terms.
template <Variant V>
int white_eval(const BasicBoard<V>& b, const VariantWeights& w, VariantEvalTrace* trace,
               int board_score) {
    Terms t{w, trace};
    int base = 0;
    if constexpr (V == Variant::CRAZYHOUSE || V == Variant::THREE_CHECK ||
                  V == Variant::KING_OF_THE_HILL || V == Variant::ATOMIC || V == Variant::STANDARD)
        base = board_score == SCORE_NONE ? standard_white(b)
               : b.side == WHITE         ? board_score
                                         : -board_score;
    if (trace) trace->base_white = base;
    if constexpr (V == Variant::CRAZYHOUSE) {
        if (board_score == SCORE_NONE)
            crazyhouse_terms(b, t);
        else {
            // The net judges the board; the hands, and the danger they bring a king, it cannot see.
            hand_terms(b, t);
            crazyhouse_king_danger(b, t, NET_KD);
        }
    }
    if constexpr (V == Variant::THREE_CHECK) three_check_terms(b, t);
    if constexpr (V == Variant::KING_OF_THE_HILL)
        if (board_score == SCORE_NONE) hill_terms(b, t);  // the net has learnt the hill
    if constexpr (V == Variant::ATOMIC)
        if (board_score == SCORE_NONE) atomic_terms(b, t);  // the net has learnt the explosions
    if constexpr (V == Variant::RACING_KINGS) racing_terms(b, t);
    if constexpr (V == Variant::HORDE) horde_terms(b, t);
    if constexpr (V == Variant::ANTICHESS) antichess_terms(b, t);
    return std::clamp(base + t.white(V), -EVAL_MAX + 1, EVAL_MAX - 1);
}

}  // namespace

template <Variant V>
int evaluate_variant(const BasicBoard<V>& b, const VariantWeights& w, int board_score) {
    const int white = white_eval(b, w, nullptr, board_score);
    return b.side == WHITE ? white : -white;
}

template <Variant V>
int evaluate_variant_traced(const BasicBoard<V>& b, const VariantWeights& w,
                            VariantEvalTrace& trace, int board_score) {
    trace = VariantEvalTrace{};
    return white_eval(b, w, &trace, board_score);
}

#define OUTPOST_INSTANTIATE(V)                                                           \
    template int evaluate_variant<V>(const BasicBoard<V>&, const VariantWeights&, int);  \
    template int evaluate_variant_traced<V>(const BasicBoard<V>&, const VariantWeights&, \
                                            VariantEvalTrace&, int);
OUTPOST_FOR_EACH_VARIANT(OUTPOST_INSTANTIATE)
#undef OUTPOST_INSTANTIATE

}  // namespace engine
