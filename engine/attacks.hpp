// Attack tables: leaper lookups, slider attacks (PEXT when compiled for BMI2, magic
// bitboards otherwise), and the between/line tables used for checks and pins.
#pragma once

#include "bitboard.hpp"

#if defined(__BMI2__)
#include <immintrin.h>
#define OUTPOST_USE_PEXT 1
#else
#define OUTPOST_USE_PEXT 0
#endif

namespace engine {

namespace detail {

// One slider table entry per square: the relevant occupancy mask and where its
// attack sets start in the shared table (plus a magic multiplier when PEXT is off).
struct SliderEntry {
    Bitboard mask;
    Bitboard magic;
    const Bitboard* attacks;
    unsigned shift;

    std::size_t index(Bitboard occupied) const {
#if OUTPOST_USE_PEXT
        return _pext_u64(occupied, mask);
#else
        return ((occupied & mask) * magic) >> shift;
#endif
    }
};

struct AttackTables {
    Bitboard pawn[COLOR_NB][SQUARE_NB];
    Bitboard knight[SQUARE_NB];
    Bitboard king[SQUARE_NB];
    SliderEntry bishop[SQUARE_NB];
    SliderEntry rook[SQUARE_NB];
    Bitboard between[SQUARE_NB][SQUARE_NB];  // squares strictly between, plus the second square
    Bitboard line[SQUARE_NB][SQUARE_NB];     // the whole line through both, or 0
};

// Written once by init_attacks(), read-only afterwards.
extern AttackTables tables;

}  // namespace detail

// Builds the tables once; cheap to call again. Every entry point that makes a position calls it.
void init_attacks();

// True when this binary uses PEXT (compiled for BMI2).
constexpr bool uses_pext() { return OUTPOST_USE_PEXT != 0; }

inline Bitboard pawn_attacks(Color c, Square s) { return detail::tables.pawn[c][s]; }
inline Bitboard knight_attacks(Square s) { return detail::tables.knight[s]; }
inline Bitboard king_attacks(Square s) { return detail::tables.king[s]; }

inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
    const auto& e = detail::tables.bishop[s];
    return e.attacks[e.index(occupied)];
}
inline Bitboard rook_attacks(Square s, Bitboard occupied) {
    const auto& e = detail::tables.rook[s];
    return e.attacks[e.index(occupied)];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
    return bishop_attacks(s, occupied) | rook_attacks(s, occupied);
}

// Attacks of a non-pawn piece type from s.
inline Bitboard piece_attacks(PieceType pt, Square s, Bitboard occupied) {
    switch (pt) {
        case KNIGHT:
            return knight_attacks(s);
        case BISHOP:
            return bishop_attacks(s, occupied);
        case ROOK:
            return rook_attacks(s, occupied);
        case QUEEN:
            return queen_attacks(s, occupied);
        case KING:
            return king_attacks(s);
        default:
            return 0;
    }
}

// Squares strictly between a and b on a shared line, plus b itself (so a check from b is
// answered by capturing b or blocking); just b when they share no line.
inline Bitboard between_bb(Square a, Square b) { return detail::tables.between[a][b]; }
// Every square of the line through a and b (edge to edge), or 0 when they share none.
inline Bitboard line_bb(Square a, Square b) { return detail::tables.line[a][b]; }
inline bool aligned(Square a, Square b, Square c) { return line_bb(a, b) & square_bb(c); }

}  // namespace engine
