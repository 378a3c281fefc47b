// The state a variant adds to a position, kept in the board of that variant only: a standard
// board carries an empty member and so stays exactly as large as before.
//   crazyhouse: each side's pocket and the squares of pieces that were promoted pawns
//               (scalachess Crazyhouse.scala, `Data(pockets, promoted)`);
//   three-check: the checks each side has given (scalachess History.scala, `CheckCount`).
#pragma once

#include <cstdint>

#include "types.hpp"
#include "variant.hpp"

namespace engine {

// Pieces in hand per side, PAWN..QUEEN (a king is never in a pocket).
struct Pockets {
    std::uint8_t count[COLOR_NB][KING] = {};

    int of(Color c, PieceType pt) const { return count[c][pt]; }
    bool empty(Color c) const {
        for (int pt = PAWN; pt < KING; ++pt)
            if (count[c][pt]) return false;
        return true;
    }
    int total() const {
        int n = 0;
        for (const auto& side : count)
            for (const auto c : side) n += c;
        return n;
    }
    bool operator==(const Pockets&) const = default;
};

template <Variant V>
struct VariantState {
    bool operator==(const VariantState&) const = default;
};

template <>
struct VariantState<Variant::CRAZYHOUSE> {
    Pockets pockets;
    Bitboard promoted = 0;  // pieces that return to a pocket as pawns when captured
    bool operator==(const VariantState&) const = default;
};

template <>
struct VariantState<Variant::THREE_CHECK> {
    std::uint8_t checks_given[COLOR_NB] = {};  // 0..3; the third check wins
    bool operator==(const VariantState&) const = default;
};

}  // namespace engine
