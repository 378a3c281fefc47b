// Lichess's own perft suites for the variants (scalachess test-kit, tests/data/perft/variants):
// every count at every listed depth (36 million nodes: about 0.4 s in the release build, 0.5 s
// under the sanitizers).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "engine/perft.hpp"

namespace engine {
namespace {

struct Suite {
    Variant variant;
    const char* file;
    int positions;  // as many as the file has: a truncated file fails
};

class VariantPerft : public ::testing::TestWithParam<Suite> {};

std::string read_text(const std::string& relative) {
    std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/" + relative);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

TEST_P(VariantPerft, EveryCountMatches) {
    const Suite& s = GetParam();
    const auto entries =
        engine::parse_perft_suite(read_text(std::string("perft/variants/") + s.file));
    int positions = 0, checked = 0;
    for (const auto& e : entries) {
        ASSERT_TRUE(e.test) << s.file << ":" << e.line << ": " << e.error;
        auto pos = engine::Position::from_fen(e.test->fen, s.variant);
        ASSERT_TRUE(pos.ok()) << e.test->fen << ": " << pos.error();
        ++positions;
        for (const auto& [depth, expected] : e.test->expected) {
            ++checked;
            EXPECT_EQ(engine::perft(*pos, depth), expected)
                << s.file << " " << e.test->id << " D" << depth << " " << e.test->fen;
        }
    }
    EXPECT_EQ(positions, s.positions);
    EXPECT_GE(checked, s.positions);
}

INSTANTIATE_TEST_SUITE_P(Variants, VariantPerft,
                         ::testing::Values(Suite{Variant::THREE_CHECK, "3check.perft", 2},
                                           Suite{Variant::ANTICHESS, "antichess.perft", 3},
                                           Suite{Variant::ATOMIC, "atomic.perft", 7},
                                           Suite{Variant::CRAZYHOUSE, "crazyhouse.perft", 4},
                                           Suite{Variant::HORDE, "horde.perft", 3},
                                           Suite{Variant::RACING_KINGS, "racingkings.perft", 3}),
                         [](const auto& info) {
                             return std::string(engine::lichess_key(info.param.variant));
                         });

// A divide's counts add up to the total, and a variant's start position has the counts chessops
// gives (SOURCES.md: crazyhouse/atomic/king of the hill/three-check D3 8902, antichess 8067,
// horde 1274, racing kings 11264).
TEST(VariantPerft, StartPositionsAndDivide) {
    const std::pair<Variant, std::uint64_t> starts[] = {
        {Variant::CRAZYHOUSE, 8902},       {Variant::ANTICHESS, 8067},
        {Variant::ATOMIC, 8902},           {Variant::HORDE, 1274},
        {Variant::KING_OF_THE_HILL, 8902}, {Variant::RACING_KINGS, 11264},
        {Variant::THREE_CHECK, 8902}};
    for (const auto& [variant, d3] : starts) {
        const auto pos = engine::Position::start(variant);
        EXPECT_EQ(engine::perft(pos, 3), d3) << engine::lichess_key(variant);
        std::uint64_t sum = 0;
        for (const auto& [move, count] : engine::perft_divide(pos, 3)) sum += count;
        EXPECT_EQ(sum, d3) << engine::lichess_key(variant);
    }
}

}  // namespace
}  // namespace engine
