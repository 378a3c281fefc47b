// The bench signature: valid positions, and the same node count on every run.
#include <gtest/gtest.h>

#include <sstream>

#include "engine/bench.hpp"
#include "engine/position.hpp"
#include "engine/search.hpp"

namespace {

using namespace engine;

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
        EXPECT_EQ(pos->status(), GameStatus::ONGOING) << bp.fen;
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

// The signature at the default depth: a commit that changes it says "Bench: N" in its message
// and updates this number (see docs/STRENGTH.md). About a second in Release.
TEST(Bench, SignatureIsPinned) {
    // The HCE build's signature, or the NNUE build's (OUTPOST_NNUE_DEFAULT, the embedded net).
    EXPECT_EQ(run_bench(BENCH_DEFAULT_DEPTH).nodes, EngineOptions{}.nnue ? 1158826u : 1193394u);
}

TEST(Bench, PrintsTheSignatureLine) {
    std::ostringstream out;
    const BenchResult r = run_bench(3, &out);
    EXPECT_NE(out.str().find("Nodes searched: " + std::to_string(r.nodes) + "\n"),
              std::string::npos);
    EXPECT_NE(out.str().find("Nodes/second: "), std::string::npos);
}

}  // namespace
