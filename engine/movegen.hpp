// Legal move generation: check and pin masks are applied while generating, so every move
// in the list is legal. Noisy (captures, promotions) and quiet moves can be generated apart.
#pragma once

#include <cstddef>

#include "board.hpp"

namespace engine {

enum class GenType { ALL, NOISY, QUIET };

// A fixed-capacity move list; 256 is above the most legal moves any position has (218).
struct MoveList {
    // A union member, so left uninitialised: the search builds a list or two per node, and
    // zeroing 512 bytes each time (Move's default is none) is wasted. Only [0, count) is read.
    union {
        Move moves[256];
    };
    int count = 0;

    MoveList() {}

    void push(Move m) { moves[count++] = m; }
    const Move* begin() const { return moves; }
    const Move* end() const { return moves + count; }
    Move* begin() { return moves; }
    Move* end() { return moves + count; }
    int size() const { return count; }
    bool empty() const { return count == 0; }
    bool contains(Move m) const {
        for (int i = 0; i < count; ++i)
            if (moves[i] == m) return true;
        return false;
    }
    Move operator[](int i) const { return moves[i]; }
};

// Appends the legal moves of the given kind. Noisy = captures (en passant included) and all
// promotions; quiet = everything else, castling included.
void generate_moves(const Board& board, MoveList& list, GenType type = GenType::ALL);

inline MoveList legal_moves(const Board& board) {
    MoveList list;
    generate_moves(board, list);
    return list;
}

// The number of legal moves, counted by popcounts without building a list (perft leaves).
std::uint64_t count_legal_moves(const Board& board);

// Whether m is a legal move here (used to check moves from the TT or from text).
bool is_legal(const Board& board, Move m);

}  // namespace engine
