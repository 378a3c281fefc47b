// Static exchange evaluation: does a move win at least a given amount of material once all
// captures on its target square are played out in least-valuable-attacker order?
#pragma once

#include "board.hpp"

namespace engine {

// True when the exchange started by `m` gains at least `threshold` centipawns for the side
// to move (PIECE_VALUE units). Castling counts as 0; promotions add the promotion gain.
// Atomic: the material the explosion removes, theirs minus ours (no exchange follows); antichess
// has no material to win, so every move counts as 0; a drop risks the dropped piece.
template <Variant V>
[[nodiscard]] bool see_ge(const BasicBoard<V>& board, Move m, int threshold);

// Atomic: the material a capture's explosion takes, theirs minus ours (the capturer included);
// ATOMIC_KING_CAPTURE_GAIN when it takes the enemy king. 0 for a move that captures nothing.
inline constexpr int ATOMIC_KING_CAPTURE_GAIN = 20000;
[[nodiscard]] int atomic_capture_gain(const BasicBoard<Variant::ATOMIC>& board, Move m);

}  // namespace engine
