// Zobrist hashing keys: one random 64-bit number per (piece, square), castling rights,
// en-passant file and side to move. Generated at compile time from a fixed seed.
#pragma once

#include <array>

#include "types.hpp"
#include "variant.hpp"

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

// The state some variants add, hashed so that repetitions and the TT tell positions apart
// (scalachess Hash.scala hashes the same: pocket counts, promoted squares, checks).
// A separate table from its own seed, so the standard keys above never change. Index 0 of a
// count is 0: an empty pocket or no check given adds nothing.
inline constexpr int POCKET_COUNT_NB = 64;  // at most 64 pieces on board and in pockets
struct VariantKeys {
    Key pocket[COLOR_NB][PIECE_TYPE_NB][POCKET_COUNT_NB];  // crazyhouse: count per piece type
    Key promoted[SQUARE_NB];                               // crazyhouse: a promoted piece there
    Key checks_given[COLOR_NB][4];                         // three-check: 0..3 checks given
    // Each variant's positions hash apart from the others' (0 for standard chess), so a
    // transposition table that served one game never answers for a game of another variant.
    Key variant[VARIANT_NB];
};

namespace detail {
constexpr VariantKeys make_variant_keys() {
    VariantKeys k{};
    Key state = 0x5EED0F7A81A7CE5ULL;
    for (auto& by_type : k.pocket)
        for (auto& counts : by_type)
            for (int n = 1; n < POCKET_COUNT_NB; ++n) counts[n] = splitmix64(state);
    for (auto& key : k.promoted) key = splitmix64(state);
    for (auto& counts : k.checks_given)
        for (int n = 1; n < 4; ++n) counts[n] = splitmix64(state);
    for (int v = 1; v < VARIANT_NB; ++v) k.variant[v] = splitmix64(state);
    return k;
}
}  // namespace detail

inline constexpr VariantKeys variant_keys = detail::make_variant_keys();

}  // namespace engine::zobrist
