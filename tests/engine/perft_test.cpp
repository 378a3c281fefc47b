// Perft suites: every count the issue names must match exactly (CPW up to 200M nodes,
// standard.epd to depth 5, all 960 Chess960 positions to depth 4, the X-FEN Chess960 lines).
#include <gtest/gtest.h>

#include "engine/fen.hpp"
#include "engine/perft.hpp"
#include "test_util.hpp"

namespace {

struct SuiteTotals {
    int checked = 0;
    int mismatched = 0;
};

SuiteTotals run_suite(const std::string& file, int max_depth, std::uint64_t max_nodes,
                      std::size_t first_line = 0) {
    SuiteTotals totals;
    const auto lines = test_util::read_lines(file);
    EXPECT_FALSE(lines.empty()) << "no data in " << file;
    for (std::size_t i = first_line; i < lines.size(); ++i) {
        auto parsed = engine::parse_perft_line(lines[i]);
        EXPECT_TRUE(parsed.ok()) << file << ":" << i + 1 << ": " << parsed.error();
        if (!parsed.ok() || !parsed->has_value()) continue;
        const auto& c = **parsed;
        auto board = engine::parse_fen(c.fen);
        EXPECT_TRUE(board.ok()) << c.fen << ": " << board.error();
        if (!board.ok()) continue;
        for (const auto& [depth, expected] : c.expected) {
            if (depth > max_depth || expected > max_nodes) continue;
            ++totals.checked;
            const auto got = engine::perft(*board, depth);
            if (got != expected) ++totals.mismatched;
            EXPECT_EQ(got, expected) << file << ":" << i + 1 << " D" << depth << " " << c.fen;
        }
    }
    return totals;
}

TEST(PerftSuite, CpwPositionsUpTo200MillionNodes) {
    const auto t = run_suite("perft/cpw-perft.epd", 99, 200'000'000);
    EXPECT_GE(t.checked, 38);
    EXPECT_EQ(t.mismatched, 0);
}

TEST(PerftSuite, StandardSuiteToDepth5) {
    const auto t = run_suite("perft/standard.epd", 5, ~0ULL);
    EXPECT_GE(t.checked, 600);
}

TEST(PerftSuite, AllChess960PositionsToDepth4) {
    const auto t = run_suite("perft/fischer.epd", 4, ~0ULL);
    EXPECT_EQ(t.checked, 960 * 4);
}

TEST(PerftSuite, XfenChess960LinesToDepth5) {
    // Lines 961..1000 of frc_perftsuite.epd: Chess960 positions written with KQkq castling.
    const auto t = run_suite("perft/frc_perftsuite.epd", 5, ~0ULL, 960);
    EXPECT_EQ(t.checked, 40 * 5);
}

}  // namespace
