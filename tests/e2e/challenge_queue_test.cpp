// End-to-end challenge queue: a challenge that finds every slot busy waits (Lichess
// keeps it pending) and is accepted when a game ends; slots kept for humans; the queue's order;
// challenge.online_block_list served by the emulator, one list failing.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>

#include "bot_fixture.hpp"
#include "tests/support/log_capture.hpp"
#include "tests/support/time_scale.hpp"

namespace e2e {
namespace {

// When the emulator ended the game, in its clock (the one its requests are stamped with).
emu::Ms ended_ms(emu::EmulatorFixture& fx, const std::string& id) {
    const auto report = fx->report();  // named: a range-for over report()["games"] dangles
    for (const auto& rg : report["games"])
        if (rg["id"] == id) return rg["ended_ms"].get<emu::Ms>();
    return -1;
}

TEST(E2eQueue, AHumanWaitsForTheRunningGameAndIsAcceptedWhenItEnds) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: queue\nseed: 41\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{concurrency: 1}"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: first001, at_ms: 0, challenger: {name: Alice, rating: 1500}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 150, resign_at_ply: 14}}
  - {id: wait0001, at_ms: 400, challenger: {name: Bob, rating: 1500}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 6}}
  - {id: gone0001, at_ms: 600, challenger: {name: Carol, rating: 1900}, clock: {limit: 60, increment: 1},
     cancel_at_ms: 1500}
)");
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().slots().queued.size() == 2; }, 10s));
    // Ordered best first: Carol (1900) before Bob; shown in /metrics.
    EXPECT_EQ(bot.bot().slots().queued, (std::vector<std::string>{"Carol", "Bob"}));
    EXPECT_NE(service::render_prometheus(bot.metrics()).find("outpost_challenges_queued 2\n"),
              std::string::npos);
    // Carol withdraws: she leaves the queue, and is never accepted.
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().slots().queued.size() == 1; }, 10s));
    EXPECT_EQ(bot.bot().slots().queued, (std::vector<std::string>{"Bob"}));
    EXPECT_EQ(challenge(fx, "gone0001").status, "canceled");

    // Bob's challenge stays pending (no accept, no decline) while Alice's game runs...
    EXPECT_EQ(challenge(fx, "wait0001").status, "created");
    EXPECT_FALSE(game(fx, "first001").over);
    const auto first = fx.wait_game_over("first001", 90s);
    ASSERT_TRUE(first.over) << describe(game(fx, "first001"));
    EXPECT_TRUE(legal_end(first)) << describe(first);
    // ... and is accepted once it has ended, and played.
    ASSERT_TRUE(fx.wait_until([&] { return challenge(fx, "wait0001").status == "accepted"; }, 10s))
        << challenge(fx, "wait0001").status;
    // The emulator logs a request once its answer is made, after the status changed: wait for it.
    ASSERT_TRUE(fx.wait_until(
        [&] { return !requests_with(fx, "/api/challenge/wait0001/accept").empty(); }, 5s));
    const auto accepts = requests_with(fx, "/api/challenge/wait0001/accept");
    ASSERT_EQ(accepts.size(), 1u);
    EXPECT_GE(accepts[0].t_ms, ended_ms(fx, "first001"));
    EXPECT_LT(accepts[0].t_ms, ended_ms(fx, "first001") + test_time::scaled_ms(1000))
        << "accepted late";
    const auto g = fx.wait_game_over("wait0001", 60s);
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "wait0001"), 0);
    EXPECT_TRUE(requests_with(fx, "/api/challenge/gone0001/").empty());
    EXPECT_TRUE(requests_with(fx, "/decline").empty());
    EXPECT_EQ(bot.metrics().challenges_accepted.load(), 2u);
    EXPECT_EQ(bot.metrics().challenges_queued.load(), 0);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eQueue, GamesReservedForHumansDeclineASecondBotAndAcceptAHuman) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: reserved\nseed: 42\nkeepalive_ms: 500\n");
    // No queue, so the second bot is answered at once: `later`.
    BotRunner bot(fx, settings("{concurrency: 2, games_reserved_for_humans: 1, max_queued: 0}"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: botgame1, at_ms: 0, challenger: {name: FirstBot, title: BOT, rating: 1500}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 100, resign_at_ply: 16}}
  - {id: botgame2, at_ms: 400, challenger: {name: SecondBot, title: BOT, rating: 1500}, clock: {limit: 60, increment: 1}}
  - {id: human001, at_ms: 800, challenger: {name: Human, rating: 1500}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 6}}
)");
    ASSERT_TRUE(fx.wait_until([&] { return challenge(fx, "human001").status == "accepted"; }, 10s))
        << challenge(fx, "human001").status;
    EXPECT_EQ(challenge(fx, "botgame1").status, "accepted");
    EXPECT_EQ(challenge(fx, "botgame2").status, "declined");
    EXPECT_EQ(challenge(fx, "botgame2").decline_reason, "later");
    EXPECT_TRUE(requests_with(fx, "/api/challenge/botgame2/accept").empty());
    // The human's game ran beside the bot game.
    EXPECT_FALSE(game(fx, "botgame1").over) << describe(game(fx, "botgame1"));
    for (const char* id : {"botgame1", "human001"}) {
        const auto g = fx.wait_game_over(id, 90s);
        EXPECT_TRUE(legal_end(g)) << describe(g);
    }
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eQueue, TheQueueOrderFollowsSortByAndPreference) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: queue-order\nseed: 43\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{concurrency: 1, sort_by: best, preference: human}"));
    ASSERT_TRUE(wait_event_stream(fx));
    // While the first game runs: a strong bot, then a weak human, then a stronger human.
    // best + human first: Strong (1800), Weak (1200), then the bot (2400) last.
    send_challenges(fx, R"(
challenges:
  - {id: running1, at_ms: 0, challenger: {name: Starter, rating: 1500}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 150, resign_at_ply: 10}}
  - {id: bigbot01, at_ms: 300, challenger: {name: BigBot, title: BOT, rating: 2400}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 2}}
  - {id: weak0001, at_ms: 400, challenger: {name: Weak, rating: 1200}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 2}}
  - {id: strong01, at_ms: 500, challenger: {name: Strong, rating: 1800}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 2}}
)");
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().slots().queued.size() == 3; }, 10s));
    EXPECT_EQ(bot.bot().slots().queued, (std::vector<std::string>{"Strong", "Weak", "BigBot"}));
    // They are accepted in that order, one game after the other.
    for (const char* id : {"running1", "strong01", "weak0001", "bigbot01"}) {
        const auto g = fx.wait_game_over(id, 90s);
        ASSERT_TRUE(g.over) << id << ": " << describe(game(fx, id));
        EXPECT_TRUE(legal_end(g)) << describe(g);
    }
    const auto accepted_at = [&](const std::string& id) {
        const auto r = requests_with(fx, "/api/challenge/" + id + "/accept");
        return r.empty() ? emu::Ms{-1} : r.front().t_ms;
    };
    EXPECT_LT(accepted_at("running1"), accepted_at("strong01"));
    EXPECT_LT(accepted_at("strong01"), accepted_at("weak0001"));
    EXPECT_LT(accepted_at("weak0001"), accepted_at("bigbot01"));
    EXPECT_EQ(bot.metrics().challenges_accepted.load(), 4u);
    EXPECT_EQ(bot.stop(), 0);
}

// lila carries out an accept whose answer is lost (held past the client's 3 s try), and answers
// the next try 404 (Challenge.apiAccept: an accepted challenge, no rematch, notFoundJson); the
// gameStart comes late (the event stream silent for 6 s). The slot stays the game's: the
// challenger queued behind it waits for the game to end instead of taking it, and the game is
// played, never aborted as one beyond the limit.
TEST(E2eQueue, ALostAcceptAnswerKeepsTheSlotUntilTheGameStarts) {
    using namespace std::chrono_literals;
    test_support::LogCapture log;
    emu::EmulatorFixture fx(R"(
name: lost-accept
seed: 45
keepalive_ms: 500
faults:
  - {kind: delay, target: challenge, path: /late0001/accept, count: 1, delay_ms: 500}
  - {kind: delay, hold_reply: true, target: challenge, path: /late0001/accept, count: 1, delay_ms: 5000}
  - {kind: silence, target: event_stream, after_lines: 2, duration_ms: 6000, count: 1}
)");
    BotSettings s = settings("{concurrency: 1}");
    s.silence = 10s;  // the event stream's 6 s silence is no reason to reconnect
    BotRunner bot(fx, s);
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: late0001, at_ms: 0, challenger: {name: Alice, rating: 1500}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 50, resign_at_ply: 4}}
  - {id: next0001, at_ms: 150, challenger: {name: Bob, rating: 1500}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 2}}
)");
    const auto first = fx.wait_game_over("late0001", 90s);
    EXPECT_TRUE(legal_end(first)) << describe(first);
    const auto accepts = requests_with(fx, "/api/challenge/late0001/accept");
    ASSERT_EQ(accepts.size(), 2u);
    EXPECT_EQ(accepts[1].status, 404);
    EXPECT_TRUE(log.contains("it may be accepted already")) << log.text();
    // Bob was accepted only once Alice's game had ended, and played.
    const auto second = fx.wait_game_over("next0001", 60s);
    EXPECT_TRUE(legal_end(second)) << describe(second);
    const auto next = requests_with(fx, "/api/challenge/next0001/accept");
    ASSERT_EQ(next.size(), 1u);
    EXPECT_GE(next[0].t_ms, ended_ms(fx, "late0001"));
    EXPECT_EQ(requests_to(fx, "/abort"), 0);
    EXPECT_EQ(bot.stop(), 0);
}

// The event stream drops while an accept is on its way (lila holds it 2.5 s); the new connection
// sends the challenge again, still pending. It is not judged again: one accept, no decline, no
// stale entry in the queue.
TEST(E2eQueue, AChallengeSentAgainWhileItsAcceptIsPendingIsJudgedOnce) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: replayed-challenge
seed: 46
keepalive_ms: 500
faults:
  - {kind: delay, target: challenge, path: /again001/accept, count: 1, delay_ms: 2500}
  - {kind: drop, target: event_stream, after_lines: 1, count: 1}
)");
    BotRunner bot(fx, settings("{concurrency: 1}"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: again001, at_ms: 0, challenger: {name: Alice, rating: 1500}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 50, resign_at_ply: 6}}
)");
    // The stream dropped after the challenge and came back (it was sent again there).
    ASSERT_TRUE(fx.wait_until([&] { return fx->streams().size() >= 2; }, 10s));
    ASSERT_TRUE(fx.wait_until([&] { return challenge(fx, "again001").status == "accepted"; }, 10s))
        << challenge(fx, "again001").status;
    EXPECT_TRUE(bot.bot().slots().queued.empty());
    const auto g = fx.wait_game_over("again001", 60s);
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_EQ(requests_with(fx, "/api/challenge/again001/accept").size(), 1u);
    EXPECT_TRUE(requests_with(fx, "/api/challenge/again001/decline").empty());
    EXPECT_TRUE(bot.bot().slots().queued.empty());
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eQueue, OnlineBlockListServedBlocksAndAFailingOneCostsNoGame) {
    using namespace std::chrono_literals;
    test_support::LogCapture log;
    emu::EmulatorFixture fx(R"(
name: block-lists
seed: 44
keepalive_ms: 500
block_lists:
  - {path: /lists/blocked.txt, names: [SpamBot, "# a comment", rude_user]}
  - {path: /lists/broken.txt, status: 503}
)");
    const std::string lists =
        "[\"" + fx.base_url() + "/lists/blocked.txt\", \"" + fx.base_url() + "/lists/broken.txt\"]";
    BotRunner bot(fx, settings("{concurrency: 2, online_block_list: " + lists + "}"));
    ASSERT_TRUE(wait_event_stream(fx));
    // The lists are read on a thread of their own, never in the way of the event stream.
    ASSERT_TRUE(fx.wait_until(
        [&] {
            return log.contains("challenge.online_block_list: 2 names from") &&
                   log.contains("cannot read " + fx.base_url() + "/lists/broken.txt");
        },
        10s))
        << log.text();
    // Both lists were asked for, without our token (the emulator answers 400 to a token).
    EXPECT_EQ(requests_with(fx, "/lists/blocked.txt").size(), 1u);
    EXPECT_EQ(requests_with(fx, "/lists/broken.txt").size(), 1u);
    send_challenges(fx, R"(
challenges:
  - {id: spam0001, at_ms: 0, challenger: {name: SpamBot, title: BOT, rating: 1500}, clock: {limit: 60, increment: 1}}
  - {id: rude0001, at_ms: 100, challenger: {name: Rude_User, rating: 1500}, clock: {limit: 60, increment: 1}}
  - {id: fine0001, at_ms: 200, challenger: {name: Alice, rating: 1500}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 6}}
)");
    ASSERT_TRUE(fx.wait_until([&] { return challenge(fx, "fine0001").status == "accepted"; }, 10s))
        << challenge(fx, "fine0001").status;
    for (const char* id : {"spam0001", "rude0001"}) {
        EXPECT_EQ(challenge(fx, id).status, "declined") << id;
        EXPECT_EQ(challenge(fx, id).decline_reason, "generic") << id;
    }
    // The failing list blocks nobody: Alice plays her game to the end.
    const auto g = fx.wait_game_over("fine0001", 60s);
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_EQ(bot.metrics().challenges_accepted.load(), 1u);
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
