// Nothing waits behind anything: a request lila holds (a decline, the list of online bots, a
// challenge creation, all held 40 s; twelve declines, more than the bot's request threads; the
// ongoing games' list at start, 20 s)
// delays neither the answer to the next challenge nor the first move of the game it starts. Each
// test prints what it measured.
#include <gtest/gtest.h>

#include <iostream>

#include "bot_fixture.hpp"
#include "tests/support/time_scale.hpp"

namespace e2e {
namespace {

// A human's 1+0 challenge, the bot to play white, sent now; the opponent plays on slowly.
constexpr const char* kHumansBullet = R"(
challenges:
  - {id: human001, at_ms: 0, challenger: {name: Alice, rating: 1500}, clock: {limit: 60, increment: 0},
     color: black, opponent: {kind: line, moves: [e7e5, b8c6, g8f6], then: random, think_ms: 300}}
)";

struct Measured {
    emu::Ms accept_ms = -1;      // from the challenge's arrival to the accept request
    emu::Ms first_move_ms = -1;  // from the game's start to the bot's first move
};

// Waits for the human's game and the bot's first move in it; what it took.
Measured accept_and_first_move(emu::EmulatorFixture& fx) {
    using namespace std::chrono_literals;
    Measured m;
    EXPECT_TRUE(fx.wait_until([&] { return bot_moves(game(fx, "human001")) >= 1; }, 20s))
        << describe(game(fx, "human001"));
    const auto accepts = requests_with(fx, "/api/challenge/human001/accept");
    const auto c = challenge(fx, "human001");
    if (!accepts.empty()) m.accept_ms = accepts.front().t_ms - c.created_ms;
    const auto g = game(fx, "human001");
    for (const auto& move : g.moves)
        if (move.by_bot) {
            m.first_move_ms = move.at_ms - g.started_ms;
            break;
        }
    return m;
}

void expect_fast(const Measured& m, const char* held) {
    std::cout << "[measured] " << held << " held: accept " << m.accept_ms
              << " ms after the challenge, first move " << m.first_move_ms
              << " ms after the game's start\n";
    EXPECT_GE(m.accept_ms, 0);
    // (the holds are 20 s and more, above the slower builds' margin too)
    EXPECT_LT(m.accept_ms, test_time::scaled_ms(3000)) << held;
    EXPECT_GE(m.first_move_ms, 0);
    EXPECT_LT(m.first_move_ms, test_time::scaled_ms(3000)) << held;
}

TEST(E2eResponsive, ADeclineHeldFortySecondsDelaysNoOtherChallenge) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: held-decline
seed: 11
keepalive_ms: 500
faults: [{kind: delay, target: challenge, path: /decline, count: 1, delay_ms: 40000}]
)");
    BotRunner bot(fx, settings("{concurrency: 1, variants: [standard]}"));
    ASSERT_TRUE(wait_event_stream(fx));
    // A challenge the bot declines: lila holds that decline for 40 s.
    send_challenges(fx, R"(
challenges:
  - {id: zh000001, at_ms: 0, challenger: {name: Zed, rating: 1500}, variant: crazyhouse, clock: {limit: 180, increment: 0}}
)");
    ASSERT_TRUE(fx.wait_until([&] { return !fx->faults_fired().empty(); }, 10s));
    std::this_thread::sleep_for(500ms);
    send_challenges(fx, kHumansBullet);
    expect_fast(accept_and_first_move(fx), "a decline");
    // The held decline was given up after its deadline and sent again: declined all the same.
    EXPECT_TRUE(fx.wait_until([&] { return challenge(fx, "zh000001").status == "declined"; }, 15s));
    EXPECT_EQ(challenge(fx, "zh000001").decline_reason_key, "variant");
    EXPECT_EQ(bot.stop(), 0);
}

// More held declines than the bot has threads for its requests: at most four are on their way
// at once (the others wait in the desk's outbox), and an accept still goes at once.
TEST(E2eResponsive, TwelveHeldDeclinesDelayNoAccept) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: held-declines
seed: 15
keepalive_ms: 500
faults: [{kind: delay, target: challenge, path: /decline, count: -1, delay_ms: 40000}]
)");
    BotRunner bot(fx, settings("{concurrency: 1, variants: [standard]}"));
    ASSERT_TRUE(wait_event_stream(fx));
    std::string declined = "challenges:\n";
    for (int i = 0; i < 12; ++i)
        declined += "  - {id: zh0000" + std::string(i < 10 ? "0" : "") + std::to_string(i) +
                    ", at_ms: 0, challenger: {name: Zed" + std::to_string(i) +
                    ", rating: 1500}, variant: crazyhouse, clock: {limit: 180, increment: 0}}\n";
    send_challenges(fx, declined);
    ASSERT_TRUE(fx.wait_until([&] { return fx->faults_fired().size() >= 4; }, 10s));
    std::this_thread::sleep_for(500ms);
    // Each held decline is given up after 3 s and tried again: until then, four went out.
    EXPECT_EQ(fx->faults_fired().size(), 4u);
    send_challenges(fx, kHumansBullet);
    expect_fast(accept_and_first_move(fx), "twelve declines");
    EXPECT_EQ(bot.stop(), 0);
}

// The matchmaker idle at once, its request held 40 s (the fault in `scenario`): a human's
// challenge half a second later is answered and played all the same.
void expect_no_delay_while_matchmaking_is_held(const std::string& scenario, const char* held) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(scenario);
    BotSettings s = settings("{concurrency: 1}",
                             "matchmaking: {enabled: true, time_controls: [\"1+0\"], "
                             "opponent_rating_difference: 0}\n");
    s.matchmaking.idle = 100ms;
    BotRunner bot(fx, s);
    ASSERT_TRUE(wait_event_stream(fx));
    ASSERT_TRUE(fx.wait_until([&] { return !fx->faults_fired().empty(); }, 10s));
    std::this_thread::sleep_for(500ms);
    send_challenges(fx, kHumansBullet);
    expect_fast(accept_and_first_move(fx), held);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eResponsive, TheOnlineBotsListHeldFortySecondsDelaysNoChallenge) {
    expect_no_delay_while_matchmaking_is_held(R"(
name: held-bot-list
seed: 12
keepalive_ms: 500
online_bots: [{name: OtherBot, rating: 1500}]
faults: [{kind: delay, target: users, path: /api/bot/online, count: 1, delay_ms: 40000}]
)",
                                              "the online bots' list");
}

TEST(E2eResponsive, AChallengeCreationHeldFortySecondsDelaysNoChallenge) {
    expect_no_delay_while_matchmaking_is_held(R"(
name: held-creation
seed: 13
keepalive_ms: 500
online_bots: [{name: OtherBot, rating: 1500}]
outgoing: [{user: "*", response: ignore}]
faults: [{kind: delay, target: challenge, path: /api/challenge/OtherBot, count: 1, delay_ms: 40000}]
)",
                                              "a challenge creation");
}

// The list of ongoing games at start held 20 s (each try given up after 3 s and tried again):
// the event stream opens at once, and a challenge meanwhile is answered and played.
TEST(E2eResponsive, TheOngoingGamesListHeldAtStartDelaysNeitherTheEventStreamNorAGame) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: held-playing
seed: 16
keepalive_ms: 500
faults: [{kind: delay, target: account, path: /api/account/playing, count: 1, delay_ms: 20000}]
)");
    const auto started = std::chrono::steady_clock::now();
    BotRunner bot(fx, settings("{concurrency: 1}"));
    ASSERT_TRUE(wait_event_stream(fx, 10s));
    const auto stream_after = std::chrono::steady_clock::now() - started;
    std::cout << "[measured] ongoing games' list held 20 s: event stream open after "
              << std::chrono::duration_cast<std::chrono::milliseconds>(stream_after).count()
              << " ms\n";
    EXPECT_LT(stream_after, test_time::scaled(3s));
    ASSERT_TRUE(fx.wait_until([&] { return !fx->faults_fired().empty(); }, 10s));
    send_challenges(fx, kHumansBullet);
    expect_fast(accept_and_first_move(fx), "the ongoing games' list");
    EXPECT_EQ(bot.stop(), 0);
}

// Four block lists the server holds 30 s each: the event stream opens at once and a stop is quick.
TEST(E2eResponsive, SlowBlockListsHoldUpNeitherTheEventStreamNorShutdown) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: slow-block-lists
seed: 14
keepalive_ms: 500
block_lists:
  - {path: /lists/a.txt, names: [SpamBot]}
  - {path: /lists/b.txt, names: [SpamBot]}
  - {path: /lists/c.txt, names: [SpamBot]}
  - {path: /lists/d.txt, names: [SpamBot]}
faults: [{kind: delay, target: any, path: /lists/, count: -1, delay_ms: 30000}]
)");
    std::string lists;
    for (const char* name : {"a", "b", "c", "d"})
        lists += std::string(lists.empty() ? "" : ", ") + "\"" + fx.base_url() + "/lists/" + name +
                 ".txt\"";
    const auto started = std::chrono::steady_clock::now();
    auto bot = std::make_unique<BotRunner>(
        fx, settings("{concurrency: 1, online_block_list: [" + lists + "]}"));
    ASSERT_TRUE(wait_event_stream(fx, 10s));
    const auto stream_after = std::chrono::steady_clock::now() - started;
    ASSERT_TRUE(fx.wait_until([&] { return !fx->faults_fired().empty(); }, 10s));
    const auto stop_at = std::chrono::steady_clock::now();
    EXPECT_EQ(bot->stop(), 0);
    const auto stop_took = std::chrono::steady_clock::now() - stop_at;
    std::cout << "[measured] four block lists held 30 s: event stream open after "
              << std::chrono::duration_cast<std::chrono::milliseconds>(stream_after).count()
              << " ms, stop took "
              << std::chrono::duration_cast<std::chrono::milliseconds>(stop_took).count()
              << " ms\n";
    EXPECT_LT(stream_after, test_time::scaled(5s));
    EXPECT_LT(stop_took, test_time::scaled(5s));
}

}  // namespace
}  // namespace e2e
