// Bitboard primitives: masks, bit scans and shifts that every other engine file builds on.
#pragma once

#include <bit>

#include "types.hpp"

namespace engine {

constexpr Bitboard FILE_A_BB = 0x0101010101010101ULL;
constexpr Bitboard FILE_H_BB = FILE_A_BB << 7;
constexpr Bitboard RANK_1_BB = 0xFFULL;
constexpr Bitboard RANK_8_BB = RANK_1_BB << 56;
constexpr Bitboard DARK_SQUARES = 0xAA55AA55AA55AA55ULL;

constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
constexpr Bitboard file_bb(int file) { return FILE_A_BB << file; }
constexpr Bitboard rank_bb(int rank) { return RANK_1_BB << (8 * rank); }

constexpr int popcount(Bitboard b) { return std::popcount(b); }
constexpr Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
constexpr Square msb(Bitboard b) { return Square(63 - std::countl_zero(b)); }
constexpr bool more_than_one(Bitboard b) { return (b & (b - 1)) != 0; }

// Removes and returns the lowest set square; b must not be empty.
inline Square pop_lsb(Bitboard& b) {
    const Square s = lsb(b);
    b &= b - 1;
    return s;
}

enum Direction : int { NORTH = 8, SOUTH = -8, EAST = 1, WEST = -1 };

// Shifts every square one step; bits that would wrap around a board edge are dropped.
template <int D>
constexpr Bitboard shift(Bitboard b) {
    if constexpr (D == NORTH) return b << 8;
    if constexpr (D == SOUTH) return b >> 8;
    if constexpr (D == EAST) return (b & ~FILE_H_BB) << 1;
    if constexpr (D == WEST) return (b & ~FILE_A_BB) >> 1;
    if constexpr (D == NORTH + EAST) return (b & ~FILE_H_BB) << 9;
    if constexpr (D == NORTH + WEST) return (b & ~FILE_A_BB) << 7;
    if constexpr (D == SOUTH + EAST) return (b & ~FILE_H_BB) >> 7;
    if constexpr (D == SOUTH + WEST) return (b & ~FILE_A_BB) >> 9;
    return 0;
}

// Squares attacked by all pawns of colour c in b.
template <Color C>
constexpr Bitboard pawn_attacks_bb(Bitboard b) {
    if constexpr (C == WHITE)
        return shift<NORTH + EAST>(b) | shift<NORTH + WEST>(b);
    else
        return shift<SOUTH + EAST>(b) | shift<SOUTH + WEST>(b);
}

}  // namespace engine
