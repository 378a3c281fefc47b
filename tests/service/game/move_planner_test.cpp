// MovePlanner and LagTracker on typical Lichess clocks.
#include "service/game/move_planner.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <ostream>
#include <string>

namespace service {
namespace {

MoveClock real_time(std::int64_t our_ms, std::int64_t their_ms, std::int64_t inc_ms, int played,
                    engine::Color us = engine::WHITE) {
    return MoveClock{.real_time = true,
                     .us = us,
                     .our_ms = our_ms,
                     .their_ms = their_ms,
                     .our_inc_ms = inc_ms,
                     .their_inc_ms = inc_ms,
                     .our_moves_played = played};
}

MovePlanner budget() {
    MovePlannerSettings s;
    s.move_overhead_ms = 100;
    s.correspondence_move_ms = 60000;
    return MovePlanner(s);
}

// What the engine will actually use, through its own allocator.
engine::TimeBudget engine_view(const MovePlan& b, engine::Color us) {
    return engine::allocate_time(b.limits, us);
}

TEST(MovePlanner, BulletFirstMoveIsFast) {
    const MovePlan b = budget().for_move(real_time(60000, 60000, 0, 0), 0);
    EXPECT_EQ(b.mode, BudgetMode::FirstMove);
    EXPECT_EQ(b.limits.movetime, 1000);
    EXPECT_EQ(b.limits.move_overhead_ms, 0);
    EXPECT_EQ(engine_view(b, engine::WHITE).hard_ms, 1000);
}

TEST(MovePlanner, UltraBulletFirstMoveTakesASmallShare) {
    const MovePlan b = budget().for_move(real_time(15000, 15000, 0, 0, engine::BLACK), 50);
    EXPECT_EQ(b.mode, BudgetMode::FirstMove);
    EXPECT_EQ(b.limits.movetime, (15000 - 150) / 20);
}

TEST(MovePlanner, BulletMidGamePassesClocksWithOverheadAndLag) {
    const MovePlan b = budget().for_move(real_time(42000, 39000, 0, 12, engine::BLACK), 80);
    EXPECT_EQ(b.mode, BudgetMode::Clock);
    EXPECT_EQ(b.limits.btime, 42000);
    EXPECT_EQ(b.limits.wtime, 39000);
    EXPECT_EQ(b.limits.movetime, 0);
    EXPECT_EQ(b.overhead_ms, 180);
    EXPECT_EQ(b.limits.move_overhead_ms, 180);
    const engine::TimeBudget e = engine_view(b, engine::BLACK);
    EXPECT_GT(e.soft_ms, 500);
    EXPECT_LT(e.hard_ms, 42000 - 180);
}

TEST(MovePlanner, BulletWith300MsLeftStillMovesInTime) {
    const MovePlan b = budget().for_move(real_time(300, 20000, 0, 40), 50);
    EXPECT_EQ(b.mode, BudgetMode::LowTime);
    EXPECT_EQ(b.limits.movetime, 50);  // (300 - 150) / 3
    EXPECT_EQ(b.limits.move_overhead_ms, 0);
    EXPECT_LT(b.limits.movetime + b.overhead_ms, 300);
    EXPECT_EQ(b.limits.wtime, -1);  // the engine plans with the movetime only
}

TEST(MovePlanner, AlmostFlaggedAsksForTheFloorNeverZero) {
    for (std::int64_t left : {0, 1, 40, 149, 160}) {
        const MovePlan b = budget().for_move(real_time(left, 20000, 0, 40), 50);
        EXPECT_EQ(b.mode, BudgetMode::LowTime) << left;
        EXPECT_GE(b.limits.movetime, 10) << left;
        EXPECT_GT(engine_view(b, engine::WHITE).hard_ms, 0) << left;
    }
    // Negative clocks (a late state after the flag) are treated as zero.
    EXPECT_EQ(budget().for_move(real_time(-500, 1000, 0, 3), 0).limits.movetime, 10);
}

TEST(MovePlanner, LowTimeUsesHalfTheIncrement) {
    // 2+1 with 900 ms left: 100 + 1000/2 = 600, capped by (900 - 100) / 3 = 266.
    EXPECT_EQ(budget().for_move(real_time(900, 5000, 1000, 30), 0).limits.movetime, 266);
    MovePlannerSettings s;
    s.move_overhead_ms = 0;
    s.low_time_ms = 2000;
    // 1900 ms usable, 1 s increment: 100 + 500 = 600 < 1900 / 3.
    EXPECT_EQ(MovePlanner(s).for_move(real_time(1900, 5000, 1000, 30), 0).limits.movetime, 600);
}

TEST(MovePlanner, Blitz3Plus2) {
    const MovePlan b = budget().for_move(real_time(170000, 165000, 2000, 5), 30);
    EXPECT_EQ(b.mode, BudgetMode::Clock);
    EXPECT_EQ(b.limits.wtime, 170000);
    EXPECT_EQ(b.limits.btime, 165000);
    EXPECT_EQ(b.limits.winc, 2000);
    EXPECT_EQ(b.limits.binc, 2000);
    const engine::TimeBudget e = engine_view(b, engine::WHITE);
    EXPECT_GE(e.soft_ms, 4000);
    EXPECT_LE(e.hard_ms, (170000 - 130) * 3 / 4);
}

TEST(MovePlanner, BlitzFirstMoveIsCappedAtOneSecond) {
    const MovePlan b = budget().for_move(real_time(180000, 180000, 2000, 0), 30);
    EXPECT_EQ(b.mode, BudgetMode::FirstMove);
    EXPECT_EQ(b.limits.movetime, 1000);
}

TEST(MovePlanner, HighLagRaisesTheOverheadButIsClamped) {
    const MovePlan b = budget().for_move(real_time(60000, 60000, 0, 10), 5000);
    EXPECT_EQ(b.overhead_ms, 100 + LagTracker::kMaxEstimateMs);
    EXPECT_EQ(b.limits.move_overhead_ms, 2100);
    // With 2.5 s left and 2.1 s of overhead, only a low-time move fits.
    const MovePlan low = budget().for_move(real_time(2500, 60000, 0, 10), 2000);
    EXPECT_EQ(low.mode, BudgetMode::LowTime);
    EXPECT_EQ(low.limits.movetime, 100);  // min(100, (2500 - 2100) / 3)
}

TEST(MovePlanner, CorrespondenceUsesTheConfiguredMoveTime) {
    MoveClock c{.real_time = false, .our_ms = 3LL * 86400000, .their_ms = 3LL * 86400000};
    c.our_moves_played = 7;
    const MovePlan b = budget().for_move(c, 100);
    EXPECT_EQ(b.mode, BudgetMode::Correspondence);
    EXPECT_EQ(b.limits.movetime, 60000);
    EXPECT_EQ(b.limits.wtime, -1);
    // Its first move is no different: the quick-start abort is a real-time matter.
    c.our_moves_played = 0;
    EXPECT_EQ(budget().for_move(c, 0).limits.movetime, 60000);
}

TEST(MovePlanner, UnlimitedAndNearlyExpiredCorrespondence) {
    MoveClock unlimited{.real_time = false, .our_ms = 2147483647, .their_ms = 2147483647};
    EXPECT_EQ(budget().for_move(unlimited, 0).limits.movetime, 60000);
    MoveClock late{.real_time = false, .our_ms = 30000, .their_ms = 86400000};
    EXPECT_EQ(budget().for_move(late, 0).limits.movetime, (30000 - 100) / 2);
}

TEST(MovePlanner, SettingsFromConfig) {
    config::Config cfg;
    cfg.engine.move_overhead_ms = 250;
    cfg.correspondence.move_time_s = 20;
    const MovePlannerSettings s = MovePlannerSettings::from(cfg);
    EXPECT_EQ(s.move_overhead_ms, 250);
    EXPECT_EQ(s.correspondence_move_ms, 20000);
    cfg.correspondence.move_time_ms = 80;  // sub-second thinking replaces move_time_s
    EXPECT_EQ(MovePlannerSettings::from(cfg).correspondence_move_ms, 80);
}

TEST(LagTracker, EmptyIsZero) { EXPECT_EQ(LagTracker().estimate_ms(), 0); }

TEST(LagTracker, NinetiethPercentileIgnoresRareSpikes) {
    LagTracker lag;
    for (int i = 0; i < 18; ++i) lag.record(50);
    lag.record(900);
    lag.record(1500);
    EXPECT_EQ(lag.estimate_ms(), 50);
    // A third spike in the window is no longer rare.
    lag.record(700);
    EXPECT_EQ(lag.estimate_ms(), 700);
}

TEST(LagTracker, KeepsOnlyTheLastTwentySamples) {
    LagTracker lag;
    for (int i = 0; i < 20; ++i) lag.record(1000);
    for (int i = 0; i < 20; ++i) lag.record(30);
    EXPECT_EQ(lag.samples(), LagTracker::kWindow);
    EXPECT_EQ(lag.estimate_ms(), 30);
}

TEST(LagTracker, ClampsToTheRange) {
    LagTracker lag;
    lag.record(-40);
    EXPECT_EQ(lag.estimate_ms(), 0);
    lag.record(10000);
    EXPECT_EQ(lag.estimate_ms(), LagTracker::kMaxEstimateMs);
}

TEST(MovePlanner, ExtremeClocksNeverOverflowAndStillEndTheSearch) {
    // Whatever reaches MovePlanner (the parser already clamps; this is the second line), no sum
    // or product overflows (UBSan checks it in the sanitize preset) and the engine is never
    // given a search longer than a day.
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
    for (const std::int64_t ms : {kMax, kMin, std::int64_t(9e18), std::int64_t(0)}) {
        for (const int played : {0, 20}) {
            for (const engine::Color us : {engine::WHITE, engine::BLACK}) {
                const MovePlan b = budget().for_move(real_time(ms, ms, ms, played, us), kMax);
                const engine::TimeBudget e = engine_view(b, us);
                EXPECT_GE(e.hard_ms, 1) << ms;
                EXPECT_LE(e.hard_ms, kMaxRealTimeClockMs) << ms;
                EXPECT_LE(e.soft_ms, e.hard_ms) << ms;
                EXPECT_LE(b.limits.wtime, kMaxRealTimeClockMs);
                EXPECT_LE(b.limits.btime, kMaxRealTimeClockMs);
                EXPECT_LE(b.limits.winc, kMaxRealTimeClockMs);
                EXPECT_LE(b.limits.binc, kMaxRealTimeClockMs);
            }
        }
        MoveClock corr = real_time(ms, ms, ms, 5);
        corr.real_time = false;
        const MovePlan c = budget().for_move(corr, kMin);
        EXPECT_GE(c.limits.movetime, 1);
        EXPECT_LE(c.limits.movetime, 60000);
    }
}

// The clock as its game can hold it (bounded): whatever a gameState says, our time is at most
// the gameFull's initial clock plus its increment for each move we made (lila: Clock.Config),
// a correspondence clock at most its days per turn.
struct BoundRow {
    const char* name;
    MoveClock clock;
    std::int64_t our_ms, their_ms, our_inc_ms;  // after bounded()
};

std::ostream& operator<<(std::ostream& os, const BoundRow& r) { return os << r.name; }

constexpr std::int64_t kHuge = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t k1e10 = 10'000'000'000;  // what the client clamps 1e300 and 2^64-1 to

MoveClock game_clock(std::int64_t our_ms, std::int64_t their_ms, std::int64_t inc_ms, int ours,
                     int theirs, GameClockLimits limits, bool live = true) {
    MoveClock c = real_time(our_ms, their_ms, inc_ms, ours);
    c.real_time = live;
    c.their_moves_played = theirs;
    c.limits = limits;
    return c;
}

const GameClockLimits k1Plus0{.initial_ms = 60'000, .increment_ms = 0};
const GameClockLimits k3Plus2{.initial_ms = 180'000, .increment_ms = 2'000};

const BoundRow kBoundRows[] = {
    {"AnHonestClockIsKept", game_clock(41'000, 39'500, 0, 12, 12, k1Plus0), 41'000, 39'500, 0},
    {"WtimeOf1e300In1Plus0IsItsMinute", game_clock(k1e10, 30'000, 0, 20, 20, k1Plus0), 60'000,
     30'000, 0},
    {"WtimeOf9e18In1Plus0IsItsMinute",
     game_clock(9'000'000'000'000'000'000, 30'000, 0, 20, 20, k1Plus0), 60'000, 30'000, 0},
    {"WtimeOfInt64MaxIsItsMinute", game_clock(kHuge, kHuge, 0, 5, 5, k1Plus0), 60'000, 60'000, 0},
    {"WincOf1e300In1Plus0IsNoIncrement", game_clock(30'000, 30'000, k1e10, 20, 20, k1Plus0), 30'000,
     30'000, 0},
    {"ThreePlusTwoHoldsTheIncrementsEarned", game_clock(k1e10, k1e10, k1e10, 10, 11, k3Plus2),
     200'000, 202'000, 2'000},
    {"TheFirstMoveHasTheInitialClockOnly", game_clock(k1e10, k1e10, k1e10, 0, 0, k3Plus2), 180'000,
     180'000, 2'000},
    {"ZeroPlusOneStartsWithThreeSeconds",
     game_clock(k1e10, k1e10, 1'000, 4, 4, {.initial_ms = 0, .increment_ms = 1'000}), 7'000, 7'000,
     1'000},
    {"ABogusInitialClockIsAtMostLilasThreeHours",
     game_clock(k1e10, 1'000, k1e10, 1, 1, {.initial_ms = k1e10, .increment_ms = k1e10}),
     kMaxInitialClockMs + kMaxIncrementMs, 1'000, kMaxIncrementMs},
    {"NegativeClocksAreZero", game_clock(-5, -kHuge, -1, 3, 3, k1Plus0), 0, 0, 0},
    {"CorrespondenceHoldsItsDaysPerTurn",
     game_clock(k1e10, k1e10, 0, 7, 7, {.days_per_turn = 3}, false), 3 * 86'400'000LL,
     3 * 86'400'000LL, 0},
    {"CorrespondenceDaysAreAtMostFourteen",
     game_clock(k1e10, 1'000, 0, 7, 7, {.days_per_turn = 1'000}, false), 14 * 86'400'000LL, 1'000,
     0},
    {"NoLimitsKnownKeepsTheDayCap",
     [] {
         MoveClock c = real_time(kHuge, kHuge, kHuge, 3);
         return c;
     }(),
     kMaxRealTimeClockMs, kMaxRealTimeClockMs, kMaxRealTimeClockMs},
};

class BoundTable : public ::testing::TestWithParam<BoundRow> {};

TEST_P(BoundTable, HoldsWhatTheGameCan) {
    const BoundRow& row = GetParam();
    const MoveClock b = bounded(row.clock);
    EXPECT_EQ(b.our_ms, row.our_ms);
    EXPECT_EQ(b.their_ms, row.their_ms);
    EXPECT_EQ(b.our_inc_ms, row.our_inc_ms);
    EXPECT_EQ(b.their_inc_ms, row.our_inc_ms);
}

INSTANTIATE_TEST_SUITE_P(MovePlanner, BoundTable, ::testing::ValuesIn(kBoundRows),
                         [](const auto& info) { return std::string(info.param.name); });

// No move of a 1+0 game is budgeted more than its minute allows, whatever the state says: the
// engine's hard limit stays within what 60 s give (3/4 of it at most, 8 s with 30 moves to go).
TEST(MovePlanner, NoMoveOfAOnePlusZeroGameThinksLongWhateverTheServerWrites) {
    for (const std::int64_t wtime : {k1e10, std::int64_t(9e18), kHuge, std::int64_t(-1)}) {
        for (const std::int64_t winc : {std::int64_t(0), k1e10, kHuge}) {
            for (const int played : {0, 1, 10, 40}) {
                const MoveClock c = game_clock(wtime, wtime, winc, played, played, k1Plus0);
                const MovePlan plan = budget().for_move(c, 0);
                const engine::TimeBudget e = engine_view(plan, engine::WHITE);
                EXPECT_LE(e.hard_ms, 8'000) << wtime << " " << winc << " " << played;
                EXPECT_LE(plan.limits.wtime, 60'000);
                EXPECT_LE(plan.limits.winc, 0);
            }
        }
    }
}

}  // namespace
}  // namespace service
