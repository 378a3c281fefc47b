// GameSlots: the concurrency limit holds through bursts, replays, expiry, restarts and threads.
#include "service/challenges/game_slots.hpp"
#include "tests/support/manual_clock.hpp"

#include <atomic>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace service {
namespace {

// A clock the test moves by hand.
TEST(GameSlots, BurstOfEightWithConcurrencyTwoReservesExactlyTwo) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(2, 30s, clock.fn());
    int ok = 0;
    for (int i = 0; i < 8; ++i) ok += slots.try_reserve("game000" + std::to_string(i), "user");
    EXPECT_EQ(ok, 2);
    EXPECT_EQ(slots.reserved(), 2);
    EXPECT_EQ(slots.free(), 0);
    EXPECT_EQ(slots.games_with("USER"), 2);
}

TEST(GameSlots, ReservationBecomesTheGame) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(1, 30s, clock.fn());
    ASSERT_TRUE(slots.try_reserve("g1", "alice"));
    EXPECT_EQ(slots.on_game_start("g1", "alice"), Admission::Admitted);
    EXPECT_EQ(slots.active(), 1);
    EXPECT_EQ(slots.reserved(), 0);
    EXPECT_EQ(slots.free(), 0);
    EXPECT_FALSE(slots.try_reserve("g2", "bob"));
}

TEST(GameSlots, GamesReservedForHumansKeepBotsToTheRest) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(2, 30s, clock.fn());
    slots.reserve_for_humans(1);
    EXPECT_EQ(slots.bot_limit(), 1);
    ASSERT_TRUE(slots.try_reserve("bot1", "somebot", std::nullopt, true));
    EXPECT_FALSE(slots.try_reserve("bot2", "otherbot", std::nullopt, true));  // the human slot
    EXPECT_EQ(slots.snapshot().free_for_bots(), 0);
    // The bot mark follows the reservation into the game, and leaves with it.
    EXPECT_EQ(slots.on_game_start("bot1", "somebot"), Admission::Admitted);
    EXPECT_EQ(slots.snapshot().bot_games, 1);
    ASSERT_TRUE(slots.try_reserve("hum1", "alice"));
    EXPECT_EQ(slots.free(), 0);
    EXPECT_TRUE(slots.on_game_finish("bot1"));
    EXPECT_EQ(slots.snapshot().bot_games, 0);
    EXPECT_TRUE(slots.try_reserve("bot2", "otherbot", std::nullopt, true));
    // A released bot reservation frees its bot slot too.
    slots.release_reservation("bot2");
    EXPECT_EQ(slots.snapshot().free_for_bots(), 1);
    // More reserved than the limit: no bot ever.
    GameSlots humans_only(1, 30s, clock.fn());
    humans_only.reserve_for_humans(3);
    EXPECT_EQ(humans_only.bot_limit(), 0);
    EXPECT_FALSE(humans_only.try_reserve("b", "somebot", std::nullopt, true));
    EXPECT_TRUE(humans_only.try_reserve("h", "alice"));
}

TEST(GameSlots, ReplayedGameStartDoesNotDoubleCount) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(2, 30s, clock.fn());
    ASSERT_TRUE(slots.try_reserve("g1", "alice"));
    EXPECT_EQ(slots.on_game_start("g1", "alice"), Admission::Admitted);
    EXPECT_EQ(slots.on_game_start("g1", "alice"), Admission::AlreadyRunning);
    EXPECT_EQ(slots.on_game_start("g1", "alice"), Admission::AlreadyRunning);
    EXPECT_EQ(slots.active(), 1);
    EXPECT_EQ(slots.free(), 1);
    // A duplicate challenge event for a running game takes no second slot either.
    EXPECT_TRUE(slots.try_reserve("g1", "alice"));
    EXPECT_EQ(slots.free(), 1);
}

TEST(GameSlots, DuplicateReservationTakesOneSlot) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(2, 30s, clock.fn());
    EXPECT_TRUE(slots.try_reserve("c1", "alice"));
    EXPECT_TRUE(slots.try_reserve("c1", "alice"));
    EXPECT_EQ(slots.reserved(), 1);
}

TEST(GameSlots, ExpiryFreesReservations) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(1, 30s, clock.fn());
    ASSERT_TRUE(slots.try_reserve("c1", "alice"));
    clock.t += 29s;
    EXPECT_FALSE(slots.try_reserve("c2", "bob"));
    EXPECT_TRUE(slots.expire_now().empty());
    clock.t += 1s;
    EXPECT_EQ(slots.reserved(), 0);
    EXPECT_EQ(slots.free(), 1);
    EXPECT_TRUE(slots.try_reserve("c2", "bob"));
    clock.t += 30s;
    EXPECT_EQ(slots.expire_now(), std::vector<std::string>{"c2"});
    EXPECT_EQ(slots.games_with("bob"), 0);
}

TEST(GameSlots, OutgoingChallengeReservesWithItsOwnTtl) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(1, 30s, clock.fn());
    ASSERT_TRUE(slots.try_reserve("out1", "somebot", 90s));
    EXPECT_FALSE(slots.try_reserve("in1", "alice"));
    clock.t += 60s;
    EXPECT_EQ(slots.reserved(), 1);
    clock.t += 30s;
    EXPECT_EQ(slots.reserved(), 0);
}

TEST(GameSlots, LateGameStartAfterExpiryTakesAFreeSlotOrIsOverLimit) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(1, 30s, clock.fn());
    ASSERT_TRUE(slots.try_reserve("c1", "alice"));
    clock.t += 31s;
    ASSERT_TRUE(slots.try_reserve("c2", "bob"));
    // c1's game starts after all: its reservation is gone and c2 holds the only slot.
    EXPECT_EQ(slots.on_game_start("c1", "alice"), Admission::OverLimit);
    EXPECT_EQ(slots.active(), 1);
    EXPECT_EQ(slots.free(), 0);
    EXPECT_FALSE(slots.try_reserve("c3", "carol"));
}

TEST(GameSlots, FinishFreesTheSlot) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(1, 30s, clock.fn());
    ASSERT_TRUE(slots.try_reserve("g1", "alice"));
    ASSERT_EQ(slots.on_game_start("g1", "alice"), Admission::Admitted);
    EXPECT_TRUE(slots.on_game_finish("g1"));
    EXPECT_FALSE(slots.on_game_finish("g1"));
    EXPECT_EQ(slots.active(), 0);
    EXPECT_EQ(slots.free(), 1);
    EXPECT_FALSE(slots.is_active("g1"));
}

TEST(GameSlots, FinishOfAGameThatNeverStartedFreesItsReservation) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(1, 30s, clock.fn());
    ASSERT_TRUE(slots.try_reserve("g1", "alice"));
    EXPECT_FALSE(slots.on_game_finish("g1"));
    EXPECT_EQ(slots.free(), 1);
}

TEST(GameSlots, ReleaseReservation) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(1, 30s, clock.fn());
    ASSERT_TRUE(slots.try_reserve("c1", "alice"));
    slots.release_reservation("c1");
    slots.release_reservation("unknown");
    EXPECT_EQ(slots.free(), 1);
    // Releasing an id that became a game leaves the game alone.
    ASSERT_TRUE(slots.try_reserve("c2", "alice"));
    ASSERT_EQ(slots.on_game_start("c2", "alice"), Admission::Admitted);
    slots.release_reservation("c2");
    EXPECT_EQ(slots.active(), 1);
}

TEST(GameSlots, RestartAdmitsOngoingGamesUpToTheLimitThenReportsOverLimit) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(2, 30s, clock.fn());
    // /api/account/playing at start-up, then the event stream replays the same gameStarts.
    EXPECT_EQ(slots.on_game_start("g1", "alice"), Admission::Admitted);
    EXPECT_EQ(slots.on_game_start("g2", "bob"), Admission::Admitted);
    EXPECT_EQ(slots.on_game_start("g3", "carol"), Admission::OverLimit);
    EXPECT_EQ(slots.on_game_start("g1", "alice"), Admission::AlreadyRunning);
    EXPECT_EQ(slots.on_game_start("g3", "carol"), Admission::AlreadyRunning);
    EXPECT_EQ(slots.active(), 3);
    EXPECT_EQ(slots.free(), 0);
    EXPECT_FALSE(slots.try_reserve("c4", "dave"));
    // Only when the active count is back under the limit is a slot free again.
    slots.on_game_finish("g3");
    EXPECT_FALSE(slots.try_reserve("c4", "dave"));
    slots.on_game_finish("g2");
    EXPECT_TRUE(slots.try_reserve("c4", "dave"));
}

TEST(GameSlots, UnreservedGameWithAFreeSlotIsAdmitted) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(2, 30s, clock.fn());
    ASSERT_TRUE(slots.try_reserve("c1", "alice"));
    // A tournament game or a challenge accepted on the website: it takes the free slot.
    EXPECT_EQ(slots.on_game_start("t1", "bob"), Admission::Admitted);
    EXPECT_EQ(slots.free(), 0);
    EXPECT_EQ(slots.on_game_start("c1", "alice"), Admission::Admitted);
    EXPECT_EQ(slots.active(), 2);
}

TEST(GameSlots, SnapshotCountsPerUserCaseInsensitively) {
    using namespace std::chrono_literals;
    test_support::ManualClock clock;
    GameSlots slots(4, 30s, clock.fn());
    ASSERT_TRUE(slots.try_reserve("c1", "Alice"));
    ASSERT_EQ(slots.on_game_start("g1", "alice"), Admission::Admitted);
    ASSERT_TRUE(slots.try_reserve("c2", "bob"));
    const SlotSnapshot s = slots.snapshot();
    EXPECT_EQ(s.limit, 4);
    EXPECT_EQ(s.active, 1);
    EXPECT_EQ(s.reserved, 2);
    EXPECT_EQ(s.free(), 1);
    EXPECT_EQ(s.games_with("ALICE"), 2);
    EXPECT_EQ(s.games_with("bob"), 1);
    EXPECT_EQ(s.games_with("carol"), 0);
}

TEST(GameSlots, ZeroConcurrencyReservesNothing) {
    using namespace std::chrono_literals;
    GameSlots slots(0, 30s);
    EXPECT_FALSE(slots.try_reserve("c1", "alice"));
    EXPECT_EQ(slots.on_game_start("g1", "alice"), Admission::OverLimit);
}

// Threads race to reserve, start and finish games; a watcher checks that reservations never
// push the count over the limit (only OverLimit admissions may, and this test makes none).
TEST(GameSlots, ManyThreadsNeverExceedTheLimit) {
    using namespace std::chrono_literals;
    constexpr int kLimit = 3, kThreads = 8, kRounds = 400;
    GameSlots slots(kLimit, 30s);
    std::atomic<bool> stop{false};
    std::atomic<int> violations{0}, started{0}, over{0};

    std::thread watcher([&] {
        while (!stop.load()) {
            const SlotSnapshot s = slots.snapshot();
            if (s.active + s.reserved > kLimit) ++violations;
        }
    });
    std::vector<std::thread> workers;
    for (int t = 0; t < kThreads; ++t) {
        workers.emplace_back([&, t] {
            for (int i = 0; i < kRounds; ++i) {
                const std::string id = "g" + std::to_string(t) + "_" + std::to_string(i);
                const std::string user = "u" + std::to_string(i % 5);
                if (!slots.try_reserve(id, user)) continue;
                if (i % 7 == 0) {  // some challenges are canceled before their game starts
                    slots.release_reservation(id);
                    continue;
                }
                const Admission a = slots.on_game_start(id, user);
                if (a == Admission::OverLimit) ++over;
                ++started;
                (void)slots.on_game_start(id, user);  // replayed gameStart
                slots.on_game_finish(id);
            }
        });
    }
    for (auto& w : workers) w.join();
    stop = true;
    watcher.join();

    EXPECT_EQ(violations.load(), 0);
    EXPECT_EQ(over.load(), 0);
    EXPECT_GT(started.load(), 0);
    EXPECT_EQ(slots.active(), 0);
    EXPECT_EQ(slots.reserved(), 0);
}

}  // namespace
}  // namespace service
