// Time allocation on a fake clock: pure functions of the limits, no sleeping.
#include <gtest/gtest.h>

#include "engine/timeman.hpp"

namespace engine {
namespace {

SearchLimits clock(std::int64_t time_ms, std::int64_t inc_ms, int movestogo = 0,
                   std::int64_t overhead = 10) {
    SearchLimits l;
    l.wtime = l.btime = time_ms;
    l.winc = l.binc = inc_ms;
    l.movestogo = movestogo;
    l.move_overhead_ms = overhead;
    return l;
}

void expect_sane(const TimeBudget& b, std::int64_t time_ms) {
    EXPECT_GE(b.soft_ms, 1);
    EXPECT_GE(b.hard_ms, b.soft_ms);
    EXPECT_LT(b.hard_ms, std::max<std::int64_t>(time_ms, 2));
}

TEST(TimeManager, OneMinuteNoIncrement) {
    const auto b = allocate_time(clock(60'000, 0), WHITE);
    expect_sane(b, 60'000);
    EXPECT_GE(b.soft_ms, 1'000);
    EXPECT_LE(b.soft_ms, 3'000);
    EXPECT_LE(b.hard_ms, 10'000);
}

TEST(TimeManager, ThreePlusTwoUsesTheIncrement) {
    const auto with_inc = allocate_time(clock(180'000, 2'000), BLACK);
    const auto without = allocate_time(clock(180'000, 0), BLACK);
    expect_sane(with_inc, 180'000);
    EXPECT_GT(with_inc.soft_ms, without.soft_ms + 1'000);
    EXPECT_LE(with_inc.soft_ms, 10'000);
}

TEST(TimeManager, TenMinutes) {
    const auto b = allocate_time(clock(600'000, 0), WHITE);
    expect_sane(b, 600'000);
    EXPECT_GE(b.soft_ms, 10'000);
    EXPECT_LE(b.soft_ms, 25'000);
    EXPECT_LE(b.hard_ms, 100'000);
}

TEST(TimeManager, TheIncrementIsSpentWholeWhileTheClockCoversIt) {
    // 10+0.1 at the start: a 30th of the clock plus the whole increment.
    const auto start = allocate_time(clock(10'000, 100), WHITE);
    expect_sane(start, 10'000);
    EXPECT_GE(start.soft_ms, 420);
    EXPECT_LE(start.soft_ms, 450);
    // Late in a long game, 1 s left: the increment is still planned on in full...
    const auto late = allocate_time(clock(1'000, 100), WHITE);
    EXPECT_GE(late.soft_ms, 100);
    // ...and the hard limit leaves the next moves a reserve.
    EXPECT_LE(late.hard_ms, 750);
}

TEST(TimeManager, OneSecondLeftStillMovesInTime) {
    const auto b = allocate_time(clock(1'000, 0), WHITE);
    expect_sane(b, 1'000);
    // Room for the overhead and for the moves after this one.
    EXPECT_LE(b.hard_ms, 250);
    EXPECT_LE(b.soft_ms, 60);
}

TEST(TimeManager, NeverZeroEvenWhenTheClockIsBelowTheOverhead) {
    for (std::int64_t t : {0, 1, 5, 10, 50}) {
        const auto b = allocate_time(clock(t, 0, 0, 100), WHITE);
        EXPECT_GE(b.soft_ms, 1) << t;
        EXPECT_GE(b.hard_ms, 1) << t;
        EXPECT_LE(b.hard_ms, std::max<std::int64_t>(1, t)) << t;
    }
}

TEST(TimeManager, LowClockWithBigIncrementDoesNotSpendTheIncrementTwice) {
    const auto b = allocate_time(clock(300, 2'000), WHITE);
    EXPECT_LE(b.hard_ms, 300 - 10);
    EXPECT_GE(b.soft_ms, 1);
}

TEST(TimeManager, MovesToGo) {
    const auto last = allocate_time(clock(10'000, 0, 1), WHITE);
    expect_sane(last, 10'000);
    EXPECT_GE(last.soft_ms, 4'000);  // the only move before the time control: use it
    const auto forty = allocate_time(clock(10'000, 0, 40), WHITE);
    expect_sane(forty, 10'000);
    EXPECT_LE(forty.soft_ms, 400);
    EXPECT_GT(last.soft_ms, forty.soft_ms);
}

TEST(TimeManager, MoveTimeIsBothLimitsLessTheOverhead) {
    SearchLimits l;
    l.movetime = 1'000;
    l.move_overhead_ms = 30;
    const auto b = allocate_time(l, WHITE);
    EXPECT_EQ(b.soft_ms, 970);
    EXPECT_EQ(b.hard_ms, 970);
    l.movetime = 1;
    const auto tiny = allocate_time(l, BLACK);
    EXPECT_EQ(tiny.hard_ms, 1);
}

TEST(TimeManager, NoClockMeansNoLimit) {
    SearchLimits l;
    l.depth = 5;
    const auto b = allocate_time(l, WHITE);
    EXPECT_EQ(b.soft_ms, NO_TIME_LIMIT);
    EXPECT_EQ(b.hard_ms, NO_TIME_LIMIT);
    EXPECT_FALSE(l.uses_time(WHITE));
    EXPECT_TRUE(clock(1000, 0).uses_time(BLACK));
}

TEST(TimeManager, InstabilityAndFallingScoresGetMoreTimeUpToTheHardLimit) {
    const TimeBudget b{1'000, 4'000};
    const auto calm = adjusted_soft_limit(b, 0, 0, 0);
    EXPECT_EQ(calm, 1'000);
    EXPECT_GT(adjusted_soft_limit(b, 2.0, 0, 0), calm);
    EXPECT_GT(adjusted_soft_limit(b, 0, 100, 0), calm);
    EXPECT_LT(adjusted_soft_limit(b, 0, 0, 8), calm);
    EXPECT_LE(adjusted_soft_limit(b, 100.0, 1'000, 0), 4'000);
    const TimeBudget tight{900, 1'000};
    EXPECT_EQ(adjusted_soft_limit(tight, 4.0, 500, 0), 1'000);
}

}  // namespace
}  // namespace engine
