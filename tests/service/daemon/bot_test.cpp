// Bot as a router, against the Lichess emulator in-process: each rule owner's requests reach
// Lichess through the one runner and each answer comes back to the owner that asked (the
// challenge desk's accept and decline, the arena desk's read then join, the matchmaker's round
// of ratings, online bots and challenge, the correspondence desk's check-ins), the local
// requests happen (a session for an accepted game), and shutdown sends what each owner asks
// last (the withdrawal, the cancel).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "tests/e2e/bot_fixture.hpp"

namespace {

int posts_to(emu::EmulatorFixture& fx, const std::string& path) {
    int n = 0;
    for (const auto& r : fx->requests()) n += r.method == "POST" && r.path == path ? 1 : 0;
    return n;
}

TEST(BotRouter, EachDesksRequestsGoOutAndTheirAnswersComeBack) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: router-desks
seed: 3
keepalive_ms: 500
tournaments:
  - {id: arena001, name: Later Arena, bots_allowed: true, clock: {limit: 180, increment: 0},
     starts_at_ms: 60000, duration_ms: 600000}
)");
    e2e::BotSettings s =
        e2e::settings("{concurrency: 2, variants: [standard], time_controls: [bullet, blitz]}",
                      "tournaments: [{id: arena001}]\n"
                      "correspondence: {checkin_period_s: 1}\n");
    s.arenas.read_every = 1s;
    e2e::BotRunner bot(fx, s);
    ASSERT_TRUE(e2e::wait_event_stream(fx));
    e2e::send_challenges(fx, R"(
challenges:
  - {id: zh000001, at_ms: 0, challenger: {name: Zed, rating: 1500}, variant: crazyhouse,
     clock: {limit: 180, increment: 0}}
)");

    // The challenge desk: a decline with its reason, counted once it was answered.
    ASSERT_TRUE(fx.wait_until([&] { return e2e::challenge(fx, "zh000001").status == "declined"; }));
    EXPECT_EQ(e2e::challenge(fx, "zh000001").decline_reason_key, "variant");
    EXPECT_TRUE(
        fx.wait_until([&] { return bot.metrics().challenges_declined.get("variant") == 1; }));
    // The arena desk: its read's answer came back, and it asked to join; the join's answer too.
    EXPECT_TRUE(fx.wait_until([&] { return posts_to(fx, "/api/tournament/arena001/join") == 1; }));
    EXPECT_TRUE(fx.wait_until([&] { return bot.metrics().tournaments_joined.load() == 1; }));
    // The correspondence desk: check-ins every second, after the start-up's list.
    EXPECT_TRUE(fx.wait_until([&] { return e2e::requests_to(fx, "/api/account/playing") >= 3; }));

    EXPECT_EQ(bot.stop(), 0);
    // Shutdown: the arena withdrawn from, once.
    EXPECT_EQ(posts_to(fx, "/api/tournament/arena001/withdraw"), 1);
    EXPECT_EQ(posts_to(fx, "/api/tournament/arena001/join"), 1);
}

TEST(BotRouter, TheMatchmakersRoundGoesOutOneRequestAtATime) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: router-matchmaking
seed: 5
keepalive_ms: 500
online_bots: [{name: Partner, rating: 1600}]
outgoing:
  - {user: Partner, response: ignore}
)");
    e2e::BotSettings s =
        e2e::settings("{concurrency: 1}",
                      "matchmaking: {enabled: true, variants: [standard], rated: false, "
                      "opponent_rating_difference: 0, time_controls: [\"1+0\"]}\n");
    s.matchmaking.idle = 300ms;
    s.matchmaking.answer_timeout = 60s;  // the challenge stays pending until shutdown
    e2e::BotRunner bot(fx, s);
    ASSERT_TRUE(e2e::wait_event_stream(fx));
    // Ratings, then the online bots, then the challenge: each asked once the one before it was
    // answered.
    ASSERT_TRUE(fx.wait_until([&] { return posts_to(fx, "/api/challenge/Partner") == 1; }));
    const auto& requests = fx->requests();
    std::vector<std::string> order;
    for (const auto& r : requests)
        if (r.path == "/api/account" || r.path == "/api/bot/online" ||
            r.path == "/api/challenge/Partner")
            order.push_back(r.path);
    ASSERT_GE(order.size(), 3u);
    EXPECT_EQ(std::vector<std::string>(order.end() - 2, order.end()),
              (std::vector<std::string>{"/api/bot/online", "/api/challenge/Partner"}));
    EXPECT_NE(std::find(order.begin(), order.end(), "/api/account"), order.end());
    // The challenge holds the only slot once its answer is back on the loop (a slow build may
    // read the slots before the answer is there: wait for it, do not race it).
    EXPECT_TRUE(fx.wait_until([&] { return bot.bot().slots().reserved == 1; }));

    EXPECT_EQ(bot.stop(), 0);
    // Shutdown: the pending challenge cancelled, once, and no second one sent.
    EXPECT_EQ(e2e::requests_to(fx, "/cancel"), 1);
    EXPECT_EQ(posts_to(fx, "/api/challenge/Partner"), 1);
}

TEST(BotRouter, AnAcceptedChallengeGetsItsSession) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: router-accept\nseed: 4\nkeepalive_ms: 500\n");
    e2e::BotRunner bot(fx, e2e::settings("{concurrency: 1, variants: [standard]}"));
    ASSERT_TRUE(e2e::wait_event_stream(fx));
    e2e::send_challenges(fx, R"(
challenges:
  - {id: acc00001, at_ms: 0, challenger: {name: Alice, rating: 1500}, clock: {limit: 60, increment: 0},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 4}}
)");
    const emu::GameView game = fx.wait_game_over("acc00001", 30s);
    EXPECT_TRUE(game.over) << e2e::describe(game);
    EXPECT_GE(e2e::bot_moves(game), 1) << e2e::describe(game);
    EXPECT_EQ(bot.metrics().challenges_accepted.load(), 1u);
    EXPECT_EQ(bot.metrics().games_started.load(), 1u);
    EXPECT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }));
}

}  // namespace
