// Perft: counts the leaf nodes of the legal move tree, the standard move generator check,
// plus parsing of perft EPD lines ("<fen> ;D1 20 ;D2 400").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "board.hpp"

namespace engine {

// Leaf count at `depth` (the last ply counted in bulk, without making the moves).
std::uint64_t perft(const Board& board, int depth);

// Per root move counts (Stockfish's `go perft` "move: count" lines), in generation order.
std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Board& board, int depth);

struct PerftCase {
    std::string fen;
    std::vector<std::pair<int, std::uint64_t>> expected;  // (depth, nodes)
    std::string id;
};

// Parses one perft EPD line; std::nullopt for blank and comment lines, an error for lines
// whose depth fields are malformed.
Result<std::optional<PerftCase>> parse_perft_line(std::string_view line);

}  // namespace engine
