// End-to-end challenge handling: a mixed batch judged with the exact Lichess decline reasons,
// and a burst of acceptable challenges that must never exceed the concurrency limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <map>

#include "bot_fixture.hpp"

namespace e2e {
namespace {

TEST(E2eChallenges, MixedBatchIsJudgedWithTheRightReasons) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: batch\nseed: 5\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{concurrency: 1, accept_bot: false, variants: [standard, "
                               "chess960], time_controls: [bullet, blitz, rapid], modes: "
                               "[casual], max_increment: 10, min_rating: 1000, max_rating: "
                               "2500, block_list: [Troll], max_queued: 0}"));
    ASSERT_TRUE(wait_event_stream(fx));
    // Each challenge breaks exactly one rule; the first is acceptable and takes the only slot,
    // so the last (acceptable too) finds none.
    send_challenges(fx, R"(
challenges:
  - {id: acc00001, at_ms: 0, challenger: {name: Alice, rating: 1500}, clock: {limit: 60, increment: 0},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 8}}
  - {id: zh000001, at_ms: 30, challenger: {name: Zed, rating: 1500}, variant: crazyhouse, clock: {limit: 180, increment: 0}}
  - {id: cor00001, at_ms: 60, challenger: {name: Slow, rating: 1500}, days: 3}
  - {id: ub000001, at_ms: 90, challenger: {name: Quick, rating: 1500}, clock: {limit: 15, increment: 0}}
  - {id: inc00001, at_ms: 120, challenger: {name: Incy, rating: 1500}, clock: {limit: 180, increment: 15}}
  - {id: rat00001, at_ms: 150, challenger: {name: Ranked, rating: 1500}, clock: {limit: 180, increment: 0}, rated: true}
  - {id: low00001, at_ms: 180, challenger: {name: Newbie, rating: 800}, clock: {limit: 180, increment: 0}}
  - {id: blk00001, at_ms: 210, challenger: {name: Troll, rating: 1500}, clock: {limit: 180, increment: 0}}
  - {id: bot00001, at_ms: 240, challenger: {name: SomeBot, title: BOT, rating: 1500}, clock: {limit: 180, increment: 0}}
  - {id: lat00001, at_ms: 270, challenger: {name: Bob, rating: 1500}, clock: {limit: 60, increment: 0}}
)");
    const std::map<std::string, std::string> expected{
        {"zh000001", "variant"},     {"cor00001", "tooSlow"}, {"ub000001", "tooFast"},
        {"inc00001", "timeControl"}, {"rat00001", "casual"},  {"low00001", "generic"},
        {"blk00001", "generic"},     {"bot00001", "noBot"},   {"lat00001", "later"}};
    ASSERT_TRUE(fx.wait_until(
        [&] {
            return std::all_of(expected.begin(), expected.end(), [&](const auto& e) {
                return challenge(fx, e.first).status == "declined";
            });
        },
        30s));
    for (const auto& [id, reason] : expected) {
        const auto c = challenge(fx, id);
        EXPECT_EQ(c.status, "declined") << id;
        EXPECT_EQ(c.decline_reason, reason) << id;
    }
    EXPECT_EQ(challenge(fx, "acc00001").status, "accepted");

    const auto g = fx.wait_game_over("acc00001", 90s);
    ASSERT_TRUE(g.over) << describe(game(fx, "acc00001"));
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "acc00001"), 0);
    EXPECT_EQ(fx->games().size(), 1u);  // nothing else was accepted

    auto& m = bot.metrics();
    EXPECT_EQ(m.challenges_accepted.load(), 1u);
    EXPECT_EQ(m.challenges_declined.get("generic"), 2u);
    EXPECT_EQ(m.challenges_declined.get("later"), 1u);
    EXPECT_EQ(m.challenges_declined.get("noBot"), 1u);
    EXPECT_EQ(m.challenges_declined.get("tooFast"), 1u);
    EXPECT_EQ(m.challenges_declined.get("tooSlow"), 1u);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eChallenges, BurstOfEightNeverExceedsConcurrencyTwo) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: burst\nseed: 8\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{concurrency: 2, max_queued: 0}"));  // no queue: `later`
    ASSERT_TRUE(wait_event_stream(fx));

    // Sample both sides while the games run: the emulator's running games and the Bot's own.
    std::atomic<int> max_running{0}, max_active{0};
    std::jthread sampler([&](std::stop_token stop) {
        while (!stop.stop_requested()) {
            int running = 0;
            for (const auto& g : fx->games()) running += g.over ? 0 : 1;
            max_running = std::max(max_running.load(), running);
            max_active = std::max(max_active.load(), bot.bot().active_games());
            std::this_thread::sleep_for(5ms);
        }
    });

    std::string yaml = "challenges:\n";
    for (int i = 0; i < 8; ++i)
        yaml += "  - {id: burst00" + std::to_string(i) + ", at_ms: " + std::to_string(i * 25) +
                ", challenger: {name: Player" + std::to_string(i) +
                ", rating: 1500}, clock: {limit: 60, increment: 0}, opponent: {kind: random, "
                "think_ms: 20, resign_at_ply: 10}}\n";
    send_challenges(fx, yaml);

    ASSERT_TRUE(fx.wait_until(
        [&] {
            const auto cs = fx->challenges();
            return cs.size() == 8 && std::none_of(cs.begin(), cs.end(), [](const auto& c) {
                       return c.status == "created";
                   });
        },
        30s));
    int accepted = 0, later = 0;
    for (const auto& c : fx->challenges()) {
        if (c.status == "accepted") ++accepted;
        if (c.status == "declined" && c.decline_reason == "later") ++later;
    }
    EXPECT_EQ(accepted, 2);
    EXPECT_EQ(later, 6);

    ASSERT_TRUE(fx.wait_until(
        [&] {
            const auto gs = fx->games();
            return gs.size() == 2 &&
                   std::all_of(gs.begin(), gs.end(), [](const auto& g) { return g.over; });
        },
        120s));
    sampler.request_stop();
    sampler.join();
    for (const auto& g : fx->games()) {
        EXPECT_TRUE(legal_end(g)) << describe(g);
        EXPECT_EQ(rejected_moves(fx, g.id), 0) << g.id;
    }
    EXPECT_LE(max_running.load(), 2);
    EXPECT_LE(max_active.load(), 2);
    EXPECT_GE(max_running.load(), 1);
    EXPECT_EQ(bot.metrics().challenges_accepted.load(), 2u);
    EXPECT_EQ(bot.metrics().challenges_declined.get("later"), 6u);
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
