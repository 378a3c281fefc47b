// Legal move generation: check and pin masks are applied while generating, so every move
// in the list is legal. Noisy (captures, promotions) and quiet moves can be generated apart.
// One template per variant; the variant's rules (drops, forced captures, explosions, the
// racing kings' ban on checks, the end of the game) decide which moves are legal.
#pragma once

#include <cstddef>
#include <cstdint>

#include "board.hpp"

namespace engine {

enum class GenType { ALL, NOISY, QUIET };

// A fixed-capacity move list; 256 is above the most legal moves any position has (218) in
// every variant but crazyhouse, whose drops need more (MoveListOf). A position of more than 16
// pieces a side (lila's API lets a FEN have them, FenRules::Lichess) can have more: the moves past
// the capacity are left out, never written past the end, so the search plays one of the rest.
template <int Capacity>
struct BasicMoveList {
    // A union member, so left uninitialised: the search builds a list or two per node, and
    // zeroing 512 bytes each time (Move's default is none) is wasted. Only [0, count) is read.
    union {
        Move moves[Capacity];
    };
    int count = 0;

    BasicMoveList() {}

    void push(Move m) {
        if (count < Capacity) moves[count++] = m;
    }
    const Move* begin() const { return moves; }
    const Move* end() const { return moves + count; }
    Move* begin() { return moves; }
    Move* end() { return moves + count; }
    int size() const { return count; }
    bool empty() const { return count == 0; }
    void clear() { count = 0; }
    bool contains(Move m) const {
        for (int i = 0; i < count; ++i)
            if (moves[i] == m) return true;
        return false;
    }
    Move operator[](int i) const { return moves[i]; }
};

using MoveList = BasicMoveList<256>;

// The most legal moves a position of the variant can have: five piece types dropped on up to
// 62 squares, plus the board's moves, in crazyhouse.
constexpr int max_moves(Variant v) { return has_drops(v) ? 512 : 256; }
template <Variant V>
using MoveListOf = BasicMoveList<max_moves(V)>;

// Appends the legal moves of the given kind. Noisy = captures (en passant included) and all
// promotions; quiet = everything else, castling and drops included. A game the variant's rules
// ended (a king on the hill, a third check, an exploded king, a king home in racing kings) has
// no legal moves.
template <Variant V>
void generate_moves(const BasicBoard<V>& board, MoveListOf<V>& list, GenType type = GenType::ALL);

template <Variant V>
MoveListOf<V> legal_moves(const BasicBoard<V>& board) {
    MoveListOf<V> list;
    generate_moves(board, list);
    return list;
}

// The number of legal moves, counted by popcounts without building a list where the variant
// allows (perft leaves).
template <Variant V>
std::uint64_t count_legal_moves(const BasicBoard<V>& board);

// Whether m is a legal move here (used to check moves from the TT or from text).
template <Variant V>
bool is_legal(const BasicBoard<V>& board, Move m);

}  // namespace engine
