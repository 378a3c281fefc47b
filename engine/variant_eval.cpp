// The variants' hand-crafted evaluation. Crazyhouse, atomic, king of the hill and three-check
// start from the standard evaluation of the pieces on the board; racing kings, horde and
// antichess, where standard chess's judgement misleads, have their own few terms. Every term
// is written from white's point of view and turned to the side to move's at the end.
#include "variant_eval.hpp"

#include <algorithm>
#include <cstdlib>

#include "evaluate.hpp"
#include "variant_rules.hpp"

namespace engine {

namespace {

// --- weights (centipawns), one place for a future tuner ---------------------------------------
// Crazyhouse: a piece in hand is worth a little more than on the board (it goes anywhere), and
// every square next to a king that is not its own piece is a landing square for a drop.
constexpr int POCKET_VALUE[KING] = {130, 340, 350, 500, 950};
constexpr int DROP_DANGER_PER_SQUARE = 6;  // per open king square, per 100 cp in enemy hands
constexpr int DROP_DANGER_MAX = 400;
// Three-check: the checks given so far (the third wins the game).
constexpr int CHECKS_GIVEN_BONUS[4] = {0, 220, 650, 0};
// King of the hill: by a king's distance (king steps) to the nearest centre square.
constexpr int HILL_DISTANCE_BONUS[4] = {0, 260, 110, 40};
// Atomic: a piece next to its own king that the enemy attacks can be captured, and the
// explosion takes the king with it.
constexpr int ATOMIC_KING_NEIGHBOUR_ATTACKED = 200;
// Racing kings: by the rank the king stands on (the eighth wins), and per square of the next
// rank the king could step to without being attacked.
constexpr int RACE_RANK_BONUS[8] = {0, 45, 100, 170, 260, 380, 540, 0};
constexpr int RACE_FREE_STEP = 18;
// Horde: the pawns' advance (by rank) and a pawn no black pawn can stop.
constexpr int HORDE_PAWN_RANK[8] = {0, 0, 6, 14, 26, 44, 70, 0};
constexpr int HORDE_PASSED_PAWN_RANK = 22;
// Antichess: every piece one has left is a liability (Antichess.scala materialImbalance
// counts pieces alone).
constexpr int ANTICHESS_PIECE = 100;

// The pieces of a variant's board on a standard board, for the standard evaluation.
template <Variant V>
Board as_standard(const BasicBoard<V>& b) {
    Board s;
    std::copy(std::begin(b.by_type), std::end(b.by_type), std::begin(s.by_type));
    std::copy(std::begin(b.by_color), std::end(b.by_color), std::begin(s.by_color));
    std::copy(std::begin(b.squares), std::end(b.squares), std::begin(s.squares));
    s.key = b.key;
    s.side = b.side;
    s.castling = b.castling;
    s.en_passant = b.en_passant;
    s.halfmove_clock = b.halfmove_clock;
    s.fullmove_number = b.fullmove_number;
    s.chess960 = b.chess960;
    std::copy(std::begin(b.castling_rook), std::end(b.castling_rook), std::begin(s.castling_rook));
    s.checkers_bb = b.checkers_bb;
    return s;
}

// Standard chess's evaluation of the board, from white's point of view.
template <Variant V>
int standard_white(const BasicBoard<V>& b) {
    const int v = evaluate(as_standard(b));
    return b.side == WHITE ? v : -v;
}

// Every square colour c attacks (pawns, pieces and king).
template <Variant V>
Bitboard attacked_by(const BasicBoard<V>& b, Color c) {
    const Bitboard occupied = b.pieces();
    Bitboard a = c == WHITE ? pawn_attacks_bb<WHITE>(b.pieces(WHITE, PAWN))
                            : pawn_attacks_bb<BLACK>(b.pieces(BLACK, PAWN));
    for (const PieceType pt : {KNIGHT, BISHOP, ROOK, QUEEN, KING})
        for (Bitboard p = b.pieces(c, pt); p;) a |= piece_attacks(pt, pop_lsb(p), occupied);
    return a;
}

int material_white(const Bitboard white[PIECE_TYPE_NB], const Bitboard black[PIECE_TYPE_NB]) {
    int v = 0;
    for (int pt = PAWN; pt < KING; ++pt)
        v += PIECE_VALUE[pt] * (popcount(white[pt]) - popcount(black[pt]));
    return v;
}

template <Variant V>
int board_material_white(const BasicBoard<V>& b) {
    Bitboard white[PIECE_TYPE_NB], black[PIECE_TYPE_NB];
    for (int pt = PAWN; pt < PIECE_TYPE_NB; ++pt) {
        white[pt] = b.pieces(WHITE, PieceType(pt));
        black[pt] = b.pieces(BLACK, PieceType(pt));
    }
    return material_white(white, black);
}

int crazyhouse_white(const BasicBoard<Variant::CRAZYHOUSE>& b) {
    int v = standard_white(b);
    int hand[COLOR_NB] = {0, 0};
    for (const Color c : {WHITE, BLACK})
        for (int pt = PAWN; pt < KING; ++pt)
            hand[c] += POCKET_VALUE[pt] * b.state.pockets.of(c, PieceType(pt));
    v += hand[WHITE] - hand[BLACK];
    for (const Color c : {WHITE, BLACK}) {
        const Bitboard open = king_attacks(b.king_square(c)) & ~b.pieces(c);
        const int danger =
            std::min(DROP_DANGER_MAX, DROP_DANGER_PER_SQUARE * popcount(open) * hand[~c] / 100);
        v += c == WHITE ? -danger : danger;
    }
    return v;
}

int three_check_white(const BasicBoard<Variant::THREE_CHECK>& b) {
    return standard_white(b) + CHECKS_GIVEN_BONUS[b.state.checks_given[WHITE]] -
           CHECKS_GIVEN_BONUS[b.state.checks_given[BLACK]];
}

int hill_white(const BasicBoard<Variant::KING_OF_THE_HILL>& b) {
    auto to_hill = [&](Color c) {
        const Square k = b.king_square(c);
        int d = 7;
        for (Bitboard h = HILL_BB; h;) d = std::min(d, distance(k, pop_lsb(h)));
        return d < 4 ? HILL_DISTANCE_BONUS[d] : 0;
    };
    return standard_white(b) + to_hill(WHITE) - to_hill(BLACK);
}

int atomic_white(const BasicBoard<Variant::ATOMIC>& b) {
    int v = standard_white(b);
    for (const Color c : {WHITE, BLACK}) {
        const Bitboard exposed = king_attacks(b.king_square(c)) & b.pieces(c) & attacked_by(b, ~c);
        const int danger = ATOMIC_KING_NEIGHBOUR_ATTACKED * std::min(popcount(exposed), 2);
        v += c == WHITE ? -danger : danger;
    }
    return v;
}

int racing_white(const BasicBoard<Variant::RACING_KINGS>& b) {
    int v = board_material_white(b);
    for (const Color c : {WHITE, BLACK}) {
        const Square k = b.king_square(c);
        int term = RACE_RANK_BONUS[rank_of(k)];
        if (rank_of(k) < 7) {
            const Bitboard next = king_attacks(k) & rank_bb(rank_of(k) + 1) & ~b.pieces(c);
            term += RACE_FREE_STEP * popcount(next & ~attacked_by(b, ~c));
        }
        v += c == WHITE ? term : -term;
    }
    return v;
}

int horde_white(const BasicBoard<Variant::HORDE>& b) {
    int v = board_material_white(b);
    const Bitboard black_pawns = b.pieces(BLACK, PAWN);
    for (Bitboard p = b.pieces(WHITE, PAWN); p;) {
        const Square s = pop_lsb(p);
        const int r = rank_of(s);
        v += HORDE_PAWN_RANK[r];
        // No black pawn ahead on this file or the next ones: only pieces can stop it.
        Bitboard ahead = 0;
        for (int rr = r + 1; rr < 8; ++rr) ahead |= rank_bb(rr);
        const int f = file_of(s);
        const Bitboard files =
            file_bb(f) | (f > 0 ? file_bb(f - 1) : 0) | (f < 7 ? file_bb(f + 1) : 0);
        if (!(black_pawns & ahead & files)) v += HORDE_PASSED_PAWN_RANK * r;
    }
    return v;
}

int antichess_white(const BasicBoard<Variant::ANTICHESS>& b) {
    return ANTICHESS_PIECE * (popcount(b.pieces(BLACK)) - popcount(b.pieces(WHITE)));
}

}  // namespace

template <Variant V>
int evaluate_variant(const BasicBoard<V>& b) {
    int white = 0;
    if constexpr (V == Variant::CRAZYHOUSE) white = crazyhouse_white(b);
    if constexpr (V == Variant::THREE_CHECK) white = three_check_white(b);
    if constexpr (V == Variant::KING_OF_THE_HILL) white = hill_white(b);
    if constexpr (V == Variant::ATOMIC) white = atomic_white(b);
    if constexpr (V == Variant::RACING_KINGS) white = racing_white(b);
    if constexpr (V == Variant::HORDE) white = horde_white(b);
    if constexpr (V == Variant::ANTICHESS) white = antichess_white(b);
    if constexpr (V == Variant::STANDARD) white = standard_white(b);
    white = std::clamp(white, -EVAL_MAX + 1, EVAL_MAX - 1);
    return b.side == WHITE ? white : -white;
}

#define OUTPOST_INSTANTIATE(V) template int evaluate_variant<V>(const BasicBoard<V>&);
OUTPOST_FOR_EACH_VARIANT(OUTPOST_INSTANTIATE)
#undef OUTPOST_INSTANTIATE

}  // namespace engine
