// The bench signature: valid positions, and the same node count on every run.
#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>

#include "engine/bench.hpp"
#include "engine/position.hpp"
#include "engine/search.hpp"

namespace engine {
namespace {

// The bench signature: `outpost bench` (depth BENCH_DEFAULT_DEPTH, one thread, 16 MB) prints it
// as "Nodes searched: N". This is the one place it is written down: a commit that changes it
// updates it here and ends its message with "Bench: N" (docs/STRENGTH.md, "The bench signature").
// The embedded net (the default of OUTPOST_NNUE_DEFAULT=ON builds) and the hand-crafted
// evaluation; `outpost bench --evaluation nnue|hce` prints either.
constexpr std::uint64_t kBenchSignatureNnue = 812119;
constexpr std::uint64_t kBenchSignatureHce = 778888;

TEST(Bench, PositionsAreValidAndVaried) {
    const auto& list = bench_positions();
    EXPECT_GE(list.size(), 30u);
    EXPECT_LE(list.size(), 50u);
    int chess960 = 0;
    for (const auto& bp : list) {
        auto pos = bp.fen == "startpos" ? Result<Position>(Position())
                                        : Position::from_fen(bp.fen, bp.chess960);
        ASSERT_TRUE(pos) << bp.fen;
        std::istringstream moves{std::string(bp.moves)};
        for (std::string m; moves >> m;) ASSERT_TRUE(pos->play_uci(m)) << bp.fen << " " << m;
        EXPECT_EQ(pos->status(), PositionStatus::ONGOING) << bp.fen;
        chess960 += bp.chess960;
    }
    EXPECT_GE(chess960, 3);
}

TEST(Bench, SignatureIsReproducible) {
    const int depth = 5;
    const BenchResult a = run_bench(depth);
    const BenchResult b = run_bench(depth);
    EXPECT_GT(a.nodes, 0u);
    EXPECT_EQ(a.nodes, b.nodes);
}

// Both signatures at the default depth (kBenchSignature* above), in every build; the build's
// default evaluation gives its own. About a second each in Release.
TEST(Bench, SignatureIsPinned) {
    const auto check = [](BenchEval eval, std::uint64_t expected) {
        const std::uint64_t nodes = run_bench(BENCH_DEFAULT_DEPTH, nullptr, eval).nodes;
        EXPECT_EQ(nodes, expected) << "the search changed: if that is intended, update "
                                      "kBenchSignature* in this file and end the commit message "
                                      "with \"Bench: "
                                   << nodes << "\"";
        return nodes;
    };
    const std::uint64_t nnue = check(BenchEval::Nnue, kBenchSignatureNnue);
    const std::uint64_t hce = check(BenchEval::Hce, kBenchSignatureHce);
    EXPECT_EQ(run_bench(BENCH_DEFAULT_DEPTH).nodes, EngineOptions{}.nnue ? nnue : hce);
}

TEST(Bench, PrintsTheSignatureLine) {
    std::ostringstream out;
    const BenchResult r = run_bench(3, &out);
    EXPECT_NE(out.str().find("Nodes searched: " + std::to_string(r.nodes) + "\n"),
              std::string::npos);
    EXPECT_NE(out.str().find("Nodes/second: "), std::string::npos);
}

}  // namespace
}  // namespace engine
