// Perft: counts the leaf nodes of the legal move tree, the standard move generator check,
// plus parsing of perft EPD lines ("<fen> ;D1 20 ;D2 400").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "position.hpp"

namespace engine {

// Leaf count at `depth` (the last ply counted in bulk, without making the moves). A game the
// variant's rules ended has no moves, as scalachess's perft counts (test-kit Perft.scala).
template <Variant V>
std::uint64_t perft(const BasicBoard<V>& board, int depth);

// Per root move counts (Stockfish's `go perft` "move: count" lines), in generation order.
template <Variant V>
std::vector<std::pair<Move, std::uint64_t>> perft_divide(const BasicBoard<V>& board, int depth);

// The same for a position of any variant (the one dispatch of `outpost perft` and UCI).
inline std::uint64_t perft(const Position& pos, int depth) {
    return pos.visit([&](const auto& board) { return perft(board, depth); });
}
inline std::vector<std::pair<Move, std::uint64_t>> perft_divide(const Position& pos, int depth) {
    return pos.visit([&](const auto& board) { return perft_divide(board, depth); });
}

struct PerftCase {
    std::string fen;
    std::vector<std::pair<int, std::uint64_t>> expected;  // (depth, nodes)
    std::string id;
};

// Parses one perft EPD line; std::nullopt for blank and comment lines, an error for lines
// whose depth fields are malformed.
Result<std::optional<PerftCase>> parse_perft_line(std::string_view line);

// One test of a suite file, or the error of one of its lines; `line` is 1-based (the FEN's).
struct PerftSuiteEntry {
    int line = 0;
    std::optional<PerftCase> test;
    std::string error;
};

// Reads a whole suite: EPD lines as above, or scalachess's blocks (test-kit/src/test/resources/
// *.perft): "id NAME", "epd FEN", then one "perft DEPTH NODES" line per depth.
std::vector<PerftSuiteEntry> parse_perft_suite(std::string_view text);

}  // namespace engine
