// The match clock: time controls, flags with the margin, the increment, the `go` command.
#include "tools/match/clock.hpp"

#include <gtest/gtest.h>

namespace match {
namespace {

TEST(MatchClock, ParsesSecondsAndIncrement) {
    const auto tc = parse_clock("10+0.1");
    ASSERT_TRUE(tc);
    EXPECT_EQ(tc->base_ms, 10000);
    EXPECT_EQ(tc->inc_ms, 100);
    const auto sudden = parse_clock("2.5");
    ASSERT_TRUE(sudden);
    EXPECT_EQ(sudden->base_ms, 2500);
    EXPECT_EQ(sudden->inc_ms, 0);
}

TEST(MatchClock, RejectsMalformedControls) {
    for (const char* bad : {"", "+", "10+", "ten+1", "-5+0", "10+-1", "0+0", "1e3+0", "10+0.1x"})
        EXPECT_FALSE(parse_clock(bad)) << bad;
}

TEST(MatchClock, ChargesTimeAndAddsTheIncrement) {
    GameClock clock(*parse_clock("10+0.1"), 50);
    EXPECT_TRUE(clock.spend(0, 400));
    EXPECT_EQ(clock.left_ms(0), 10000 - 400 + 100);
    EXPECT_EQ(clock.left_ms(1), 10000);
    EXPECT_EQ(clock.go_command(), "go wtime 9700 btime 10000 winc 100 binc 100");
}

TEST(MatchClock, FlagFallsOnlyBeyondTheMargin) {
    GameClock clock(*parse_clock("1+0"), 50);
    EXPECT_EQ(clock.allowed_ms(1), 1050);
    EXPECT_TRUE(clock.spend(1, 1030));  // late, within the margin: the clock stops at zero
    EXPECT_EQ(clock.left_ms(1), 0);
    EXPECT_EQ(clock.allowed_ms(1), 50);
    EXPECT_FALSE(clock.spend(1, 51));
}

TEST(MatchClock, FixedBudgetsNeverFlag) {
    TimeControl nodes;
    nodes.nodes = 5000;
    GameClock by_nodes(nodes, 0);
    EXPECT_TRUE(by_nodes.spend(0, 100000));
    EXPECT_EQ(by_nodes.go_command(), "go nodes 5000");
    TimeControl movetime;
    movetime.movetime_ms = 100;
    EXPECT_EQ(GameClock(movetime, 0).go_command(), "go movetime 100");
    TimeControl depth;
    depth.depth = 7;
    EXPECT_EQ(GameClock(depth, 0).go_command(), "go depth 7");
}

}  // namespace
}  // namespace match
