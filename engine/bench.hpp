// `bench`: a fixed set of positions searched to a fixed depth with one thread and a fresh
// 16 MB table each; the total node count is a signature of the search's behaviour.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>
#include <vector>

namespace engine {

inline constexpr int BENCH_DEFAULT_DEPTH = 10;

struct BenchPosition {
    std::string_view fen;    // "startpos" or a FEN
    std::string_view moves;  // UCI moves played from it (may be empty)
    bool chess960 = false;
};

const std::vector<BenchPosition>& bench_positions();

struct BenchResult {
    std::uint64_t nodes = 0;
    std::int64_t time_ms = 0;
    std::uint64_t nps = 0;
};

// Which evaluation the bench searches with: the build's default (OUTPOST_NNUE_DEFAULT) or one
// of the two, so either signature can be checked in any build.
enum class BenchEval { Default, Nnue, Hce };

// Runs the bench; with `out`, prints one line per position and the Stockfish-style summary
// ("Nodes searched: N", "Nodes/second: N").
BenchResult run_bench(int depth = BENCH_DEFAULT_DEPTH, std::ostream* out = nullptr,
                      BenchEval eval = BenchEval::Default);

}  // namespace engine
