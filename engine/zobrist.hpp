// Zobrist hashing keys: one random 64-bit number per (piece, square), castling rights,
// en-passant file and side to move. Generated at compile time from a fixed seed.
#pragma once

#include <array>

#include "types.hpp"

namespace engine::zobrist {

struct Keys {
    Key piece_square[PIECE_NB][SQUARE_NB];
    Key castling[16];
    Key en_passant_file[8];
    Key side;
};

namespace detail {
constexpr Key splitmix64(Key& state) {
    Key z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
constexpr Keys make_keys() {
    Keys k{};
    Key state = 0x0DDB1A5E5BAD5EEDULL;
    for (auto& row : k.piece_square)
        for (auto& key : row) key = splitmix64(state);
    // Castling keys are built from one key per right so that clearing a right is one XOR
    // of the difference, whatever the combination.
    Key right_key[4];
    for (auto& key : right_key) key = splitmix64(state);
    for (int mask = 0; mask < 16; ++mask) {
        k.castling[mask] = 0;
        for (int r = 0; r < 4; ++r)
            if (mask & (1 << r)) k.castling[mask] ^= right_key[r];
    }
    for (auto& key : k.en_passant_file) key = splitmix64(state);
    k.side = splitmix64(state);
    return k;
}
}  // namespace detail

inline constexpr Keys keys = detail::make_keys();

}  // namespace engine::zobrist
