// End-to-end matchmaking: the idle daemon challenges an online bot and plays the game; declines
// are not repeated, the daily bot-vs-bot limit pauses matchmaking (but not accepting), and a
// challenge nobody answers is cancelled and gives its slot back.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>

#include "bot_fixture.hpp"
#include "tests/support/time_scale.hpp"

namespace e2e {
namespace {

// Matchmaking on, casual standard at `time_controls`, with `more` keys (YAML flow, starting with
// a comma), and timings shortened for a test: idle after 300 ms, a challenge every 200 ms at most,
// no rating difference limit (the emulator's bots are rated 1500 to 1600).
BotSettings matchmaking_settings(const std::string& time_controls = R"(["1+0"])",
                                 const std::string& more = "") {
    using namespace std::chrono_literals;
    BotSettings s = settings("{concurrency: 1}",
                             "matchmaking: {enabled: true, variants: [standard], rated: false, "
                             "opponent_rating_difference: 0, time_controls: " +
                                 time_controls + more + "}\n");
    s.matchmaking.idle = 300ms;
    s.matchmaking.between_challenges = 200ms;
    return s;
}

std::vector<emu::ChallengeView> outgoing(emu::EmulatorFixture& fx) {
    std::vector<emu::ChallengeView> out;
    for (auto& c : fx->challenges())
        if (c.direction == "out") out.push_back(c);
    return out;
}

// POSTs that created (or tried to create) a challenge to `user`.
std::vector<emu::RequestRecord> challenge_posts(emu::EmulatorFixture& fx, const std::string& user) {
    std::vector<emu::RequestRecord> out;
    for (auto& r : fx->requests())
        if (r.method == "POST" && r.path == "/api/challenge/" + user) out.push_back(r);
    return out;
}

TEST(E2eMatchmaking, IdleBotChallengesAnOnlineBotAndPlaysTheGame) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: matchmaking-play
seed: 11
keepalive_ms: 500
online_bots: [{name: Partner, rating: 1600}, {name: Blocked, rating: 1600}, {name: Weak, rating: 400}]
outgoing:
  - {user: Partner, response: accept, delay_ms: 100, max_uses: 1,
     opponent: {kind: random, think_ms: 20, resign_at_ply: 12}}
  - {user: "*", response: decline, decline_reason: later}
)");
    BotRunner bot(fx, matchmaking_settings(R"(["1+0"])", ", block_list: [blocked]"));
    ASSERT_TRUE(wait_event_stream(fx));
    ASSERT_TRUE(fx.wait_until(
        [&] {
            const auto out = outgoing(fx);
            return !out.empty() && out.front().status == "accepted";
        },
        20s));
    const auto first = outgoing(fx).front();
    EXPECT_EQ(first.opponent, "Partner");
    EXPECT_EQ(first.speed, "bullet");
    EXPECT_EQ(first.variant, "standard");
    EXPECT_FALSE(first.rated);

    const auto g = fx.wait_game_over(first.id, 90s);
    ASSERT_TRUE(g.over) << describe(game(fx, first.id));
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_GT(bot_moves(g), 0);
    EXPECT_EQ(rejected_moves(fx, first.id), 0);
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().slots().active == 0; }, 10s));

    // The bot list was read as the bridges read it: the first 512 online bots.
    bool listed_512 = false;
    for (const auto& r : fx->requests())
        if (r.path == "/api/bot/online") listed_512 = listed_512 || r.query == "nb=512";
    EXPECT_TRUE(listed_512);

    // Never ourselves, never the blocked bot, never one outside the rating window.
    for (const auto& c : outgoing(fx)) EXPECT_EQ(c.opponent, "Partner") << c.id;
    EXPECT_TRUE(challenge_posts(fx, "OutpostBot").empty());
    EXPECT_TRUE(challenge_posts(fx, "Blocked").empty());
    EXPECT_TRUE(challenge_posts(fx, "Weak").empty());
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eMatchmaking, ADeclineIsNotRepeatedForThatSpeedAndVariant) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: matchmaking-declines
seed: 12
keepalive_ms: 500
online_bots: [{name: Picky, rating: 1600}, {name: Choosy, rating: 1550}]
outgoing:
  - {user: "*", response: decline, decline_reason: later, delay_ms: 50}
)");
    BotRunner bot(fx, matchmaking_settings(R"(["1+0", "3+0"])"));
    ASSERT_TRUE(wait_event_stream(fx));
    // Two bots x two speeds: four different challenges, each declined once.
    ASSERT_TRUE(fx.wait_until(
        [&] {
            const auto out = outgoing(fx);
            return out.size() >= 4 && std::all_of(out.begin(), out.end(), [](const auto& c) {
                       return c.status == "declined";
                   });
        },
        20s));
    // Ten times the pause between challenges: nothing more to ask anyone.
    std::this_thread::sleep_for(2s);
    const auto out = outgoing(fx);
    ASSERT_EQ(out.size(), 4u);
    std::set<std::pair<std::string, std::string>> asked;
    for (const auto& c : out) {
        EXPECT_EQ(c.decline_reason_key, "later");
        EXPECT_TRUE(asked.insert({c.opponent, c.speed}).second)
            << c.opponent << " was asked twice for " << c.speed;
    }
    EXPECT_EQ(
        asked,
        (std::set<std::pair<std::string, std::string>>{
            {"Picky", "bullet"}, {"Picky", "blitz"}, {"Choosy", "bullet"}, {"Choosy", "blitz"}}));
    EXPECT_EQ(bot.bot().slots().reserved, 0);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eMatchmaking, DailyBotLimitPausesMatchmakingButNotAccepting) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: matchmaking-limit
seed: 13
keepalive_ms: 500
online_bots: [{name: Rival, rating: 1600}]
outgoing:
  - {user: "*", response: rate_limit, ratelimit_seconds: 6, max_uses: 1}
  - {user: "*", response: decline, decline_reason: later, delay_ms: 50}
)");
    BotSettings s = matchmaking_settings();
    s.rate_limit_pause = 200ms;  // so that only the server's 6 s can explain a longer pause
    BotRunner bot(fx, s);
    ASSERT_TRUE(wait_event_stream(fx));
    ASSERT_TRUE(fx.wait_until([&] { return !challenge_posts(fx, "Rival").empty(); }, 20s));
    const auto limited = challenge_posts(fx, "Rival").front();
    EXPECT_EQ(limited.status, 429);

    // A challenge to us during the pause is still accepted and played (it resigns at once).
    send_challenges(fx, R"(
challenges:
  - {id: human001, at_ms: 0, challenger: {name: Human, rating: 1500}, clock: {limit: 60, increment: 0},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 1}}
)");
    ASSERT_TRUE(fx.wait_until([&] { return challenge(fx, "human001").status == "accepted"; }, 5s));
    const auto g = fx.wait_game_over("human001", 30s);
    EXPECT_TRUE(legal_end(g)) << describe(g);
    emu::Ms game_ended = -1;
    const auto report = fx->report();  // named: a range-for over report()["games"] dangles
    for (const auto& rg : report["games"])
        if (rg["id"] == "human001") game_ended = rg["ended_ms"].get<emu::Ms>();
    // Idle again well before the pause ends: only the pause can hold the next challenge back.
    EXPECT_LT(game_ended + 1500, limited.t_ms + 6000) << "the game took too long to tell";

    // Matchmaking asks again only once the 6 s have passed, and then gets its answer.
    ASSERT_TRUE(fx.wait_until([&] { return challenge_posts(fx, "Rival").size() >= 2; }, 20s));
    const auto posts = challenge_posts(fx, "Rival");
    EXPECT_GE(posts[1].t_ms - limited.t_ms, 6000) << "asked again during the pause";
    EXPECT_LT(posts[1].t_ms - limited.t_ms, 6000 + test_time::scaled_ms(3000))
        << "the pause lasted too long";
    EXPECT_EQ(posts[1].status, 200);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eMatchmaking, UnansweredChallengeIsCancelledAndItsSlotFreed) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: matchmaking-ignored
seed: 14
keepalive_ms: 500
online_bots: [{name: Sleepy, rating: 1600}]
outgoing:
  - {user: Sleepy, response: ignore}
)");
    BotSettings s = matchmaking_settings();
    s.challenge = "{concurrency: 1, max_queued: 0}";  // no queue: a challenge finds no slot
    s.matchmaking.answer_timeout = 1500ms;            // 25 s in the daemon
    BotRunner bot(fx, s);
    ASSERT_TRUE(wait_event_stream(fx));
    ASSERT_TRUE(fx.wait_until([&] { return !outgoing(fx).empty(); }, 20s));
    const auto sent = outgoing(fx).front();
    EXPECT_EQ(sent.opponent, "Sleepy");

    // While it waits for an answer it holds the only slot: a challenge to us finds none. (The
    // emulator lists the challenge before the create call has returned to the bot, which then
    // reserves: wait for the reservation rather than race it.)
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().slots().reserved == 1; }, 5s));
    send_challenges(fx, R"(
challenges:
  - {id: human002, at_ms: 0, challenger: {name: Human, rating: 1500}, clock: {limit: 60, increment: 0}}
)");
    ASSERT_TRUE(fx.wait_until([&] { return challenge(fx, "human002").status == "declined"; }, 5s));
    EXPECT_EQ(challenge(fx, "human002").decline_reason, "later");

    ASSERT_TRUE(fx.wait_until([&] { return challenge(fx, sent.id).status == "canceled"; }, 10s));
    int cancels = 0;
    for (const auto& r : fx->requests()) {
        if (r.path != "/api/challenge/" + sent.id + "/cancel") continue;
        ++cancels;
        EXPECT_GE(r.t_ms - sent.created_ms, 1400) << "cancelled before the answer timeout";
        EXPECT_LT(r.t_ms - sent.created_ms, 1500 + test_time::scaled_ms(3500)) << "cancelled late";
        EXPECT_EQ(r.status, 200);
    }
    EXPECT_EQ(cancels, 1);
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().slots().reserved == 0; }, 5s));
    EXPECT_EQ(bot.bot().slots().active, 0);
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
