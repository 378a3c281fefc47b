// Transposition table: store/probe round trips, mate-score adjustment, sizing, hashfull, aging.
#include <gtest/gtest.h>

#include "engine/score.hpp"
#include "engine/tt.hpp"

namespace engine {
namespace {

TEST(TranspositionTable, StoreThenProbeReturnsTheEntry) {
    TranspositionTable tt(1);
    const Key key = 0x123456789ABCDEF0ULL;
    const Move m(E2, E4);
    tt.store(key, m, 37, -12, 9, BOUND_EXACT);
    TTData d;
    ASSERT_TRUE(tt.probe(key, d));
    EXPECT_EQ(d.move, m);
    EXPECT_EQ(d.score, 37);
    EXPECT_EQ(d.eval, -12);
    EXPECT_EQ(d.depth, 9);
    EXPECT_EQ(d.bound, BOUND_EXACT);
    EXPECT_FALSE(tt.probe(key ^ 1, d));
}

TEST(TranspositionTable, NegativeValuesAndQsearchDepthsRoundTrip) {
    TranspositionTable tt(1);
    tt.store(42, Move::none(), -31000, SCORE_NONE, -1, BOUND_UPPER);
    TTData d;
    ASSERT_TRUE(tt.probe(42, d));
    EXPECT_EQ(d.score, -31000);
    EXPECT_EQ(d.eval, SCORE_NONE);
    EXPECT_EQ(d.depth, -1);
    EXPECT_EQ(d.bound, BOUND_UPPER);
}

TEST(TranspositionTable, KeepsTheOldMoveWhenTheNewResultHasNone) {
    TranspositionTable tt(1);
    tt.store(99, Move(G1, F3), 10, 0, 5, BOUND_LOWER);
    tt.store(99, Move::none(), 20, 0, 6, BOUND_UPPER);
    TTData d;
    ASSERT_TRUE(tt.probe(99, d));
    EXPECT_EQ(d.move, Move(G1, F3));
    EXPECT_EQ(d.score, 20);
}

TEST(TranspositionTable, MateScoresAreStoredRelativeToTheNode) {
    // Mate in 3 plies seen from ply 5 is "mate in 8 plies" from the root; in the table it must
    // read as mate in 3 from whatever node finds it again.
    const int at_root = mate_in(8);
    const int stored = score_to_tt(at_root, 5);
    EXPECT_EQ(stored, mate_in(3));
    EXPECT_EQ(score_from_tt(stored, 2), mate_in(5));
    EXPECT_EQ(score_from_tt(score_to_tt(mated_in(7), 4), 4), mated_in(7));
    EXPECT_EQ(score_to_tt(123, 40), 123);
}

TEST(TranspositionTable, ClearEmptiesAndHashfullCounts) {
    TranspositionTable tt(1);
    EXPECT_EQ(tt.hashfull(), 0);
    for (Key k = 0; k < 5000; ++k)
        tt.store(k * 0x9E3779B97F4A7C15ULL + 1, Move::none(), 0, 0, 3, BOUND_EXACT);
    EXPECT_GT(tt.hashfull(), 0);
    EXPECT_LE(tt.hashfull(), 1000);
    tt.clear();
    EXPECT_EQ(tt.hashfull(), 0);
    TTData d;
    EXPECT_FALSE(tt.probe(1, d));
}

TEST(TranspositionTable, ResizeKeepsAPowerOfTwoAndForgets) {
    TranspositionTable tt(2);
    tt.store(7, Move(A2, A3), 1, 1, 1, BOUND_EXACT);
    tt.resize(3);
    EXPECT_EQ(tt.size_mb(), 3u);
    TTData d;
    EXPECT_FALSE(tt.probe(7, d));
    tt.store(7, Move(A2, A3), 1, 1, 1, BOUND_EXACT);
    EXPECT_TRUE(tt.probe(7, d));
}

TEST(TranspositionTable, OlderSearchesAreReplacedFirst) {
    TranspositionTable tt(1);
    // Fill one bucket (same low bits) with deep entries from an old search.
    const Key stride = Key(1) << 40;
    for (Key i = 0; i < 4; ++i) tt.store(5 + i * stride, Move::none(), 0, 0, 20, BOUND_EXACT);
    tt.new_search();
    tt.new_search();
    tt.new_search();
    tt.store(5 + 9 * stride, Move::none(), 0, 0, 2, BOUND_EXACT);
    TTData d;
    EXPECT_TRUE(tt.probe(5 + 9 * stride, d));
}

}  // namespace
}  // namespace engine
