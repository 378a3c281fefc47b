// Arenas end to end: the bot joins an arena that allows bots shortly before it starts, plays the
// games lila pairs it in (its first move at once, none aborted, none forfeited, one of them
// started while a request of the bot's is held), until the arena ends; it skips an arena without
// bots, joins again after a noStart, withdraws at shutdown, waits out lila's pause after a
// restart, and never aborts an arena game joined elsewhere.
#include <gtest/gtest.h>

#include <iostream>

#include "bot_fixture.hpp"
#include "tests/support/log_capture.hpp"

namespace e2e {
namespace {

BotSettings arena_settings(const std::string& tournaments, const std::string& challenge = "{}") {
    using namespace std::chrono_literals;
    BotSettings s = settings(challenge, "tournaments: " + tournaments + "\n");
    s.arenas.read_every = 1s;
    s.arenas.retry_after_error = 1s;
    return s;
}

emu::ArenaView arena(emu::EmulatorFixture& fx, const std::string& id) {
    for (auto& a : fx->arenas())
        if (a.id == id) return a;
    return {};
}

TEST(E2eArena, PlaysAnArenaOfSeveralGamesToItsEnd) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: arena
seed: 21
keepalive_ms: 500
tournaments:
  - {id: arena001, name: Bot Bullet Arena, starts_at_ms: 3000, duration_ms: 30000,
     clock: {limit: 60, increment: 0}, pair_delay_ms: 400,
     opponent: {kind: random, think_ms: 40, resign_at_ply: 9, name: ArenaRival, title: BOT}}
faults:
  # The bot's requests about the arena held from 8 s on (five of them, 10 s each; the bot gives
  # each try up after 3 s): lila pairs it all the same, and its games go on regardless.
  - {kind: delay, target: tournament, path: /api/tournament/arena001, from_ms: 8000, count: 5, delay_ms: 10000}
)");
    test_support::LogCapture log;
    BotRunner bot(fx, arena_settings("[{id: arena001}]"));
    ASSERT_TRUE(wait_event_stream(fx));
    // Joined before the start, then every game lila pairs is played; the arena ends at 33 s.
    ASSERT_TRUE(fx.wait_until([&] { return arena(fx, "arena001").finished; }, 60s));
    ASSERT_TRUE(fx.wait_until(
        [&] {
            for (const auto& id : arena(fx, "arena001").games)
                if (!game(fx, id).over) return false;
            return true;
        },
        30s));
    const auto a = arena(fx, "arena001");
    EXPECT_GE(a.joins, 1);
    EXPECT_GE(a.games.size(), 3u) << "games paired in a 30 s arena";
    EXPECT_FALSE(a.withdrawn);
    const auto held = fx->faults_fired();
    ASSERT_EQ(held.size(), 5u);
    // A held request is in flight on the bot's side until its 3 s deadline.
    const emu::Ms held_from = held.front().t_ms, held_until = held.back().t_ms + 3000;
    bool one_during_the_hold = false;
    emu::Ms slowest_first_move = 0;
    for (const auto& id : a.games) {
        const auto g = game(fx, id);
        EXPECT_TRUE(legal_end(g)) << describe(g);
        EXPECT_FALSE(has_event(g, "aborted")) << describe(g);
        EXPECT_EQ(g.tournament_id, "arena001");
        if (g.started_ms >= held_from && g.started_ms < held_until) one_during_the_hold = true;
        for (const auto& m : g.moves)
            if (m.by_bot) {
                // White's first move: from the game's start; black's: from white's move.
                slowest_first_move = std::max(slowest_first_move, m.since_turn_ms);
                break;
            }
    }
    std::cout << "[measured] arena: " << a.games.size() << " games, slowest first move "
              << slowest_first_move << " ms after the bot's turn began\n";
    EXPECT_TRUE(one_during_the_hold) << "no game started while the request was held";
    EXPECT_LT(slowest_first_move, 2000);
    EXPECT_EQ(bot.metrics().tournament_games.load(), a.games.size());
    // The arena over, the bot is in none; the status page's list is empty again.
    ASSERT_TRUE(fx.wait_until([&] { return bot.metrics().tournaments_joined.load() == 0; }, 10s));
    EXPECT_TRUE(bot.bot().status().snapshot(bot.metrics()).arenas.empty());
    EXPECT_TRUE(log.contains("arena arena001 (Bot Bullet Arena): joined")) << log.text();
    EXPECT_TRUE(log.contains("arena arena001 (Bot Bullet Arena): it has ended")) << log.text();
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eArena, SkipsAnArenaWithoutBotsAndWithdrawsFromOneAtShutdown) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: arena-shutdown
seed: 22
keepalive_ms: 500
tournaments:
  - {id: nobots01, name: Humans Only, bots_allowed: false, starts_at_ms: 0, duration_ms: 600000,
     clock: {limit: 180, increment: 0}}
  - {id: arena002, name: Long Arena, starts_at_ms: 0, duration_ms: 600000,
     clock: {limit: 60, increment: 0}, pair_delay_ms: 200, max_games: 1,
     opponent: {kind: random, think_ms: 40, resign_at_ply: 6}}
)");
    test_support::LogCapture log;
    BotRunner bot(fx, arena_settings("[{id: nobots01}, {id: arena002}]"));
    ASSERT_TRUE(fx.wait_until([&] { return arena(fx, "arena002").games.size() == 1; }, 30s))
        << log.text();
    ASSERT_TRUE(fx.wait_until([&] { return bot.metrics().tournaments_joined.load() == 1; }, 10s));
    const auto joined = bot.bot().status().snapshot(bot.metrics()).arenas;
    ASSERT_EQ(joined.size(), 1u);
    EXPECT_EQ(joined[0].id, "arena002");
    EXPECT_EQ(joined[0].name, "Long Arena");
    ASSERT_TRUE(joined[0].ends_at.has_value());
    EXPECT_GT(*joined[0].ends_at, std::chrono::system_clock::now() + 9min);
    EXPECT_EQ(requests_to(fx, "/api/tournament/nobots01/join"), 0);
    EXPECT_TRUE(log.contains("arena nobots01 (Humans Only): it does not allow bots; skipped"))
        << log.text();
    // A minute's clock: the game (three moves of the bot's) is over within seconds, also under
    // the sanitizers on two loaded cores.
    const std::string played = arena(fx, "arena002").games[0];
    EXPECT_TRUE(fx.wait_until([&] { return game(fx, played).over; }, 60s))
        << describe(game(fx, played));
    EXPECT_EQ(bot.stop(), 0);
    EXPECT_EQ(requests_to(fx, "/api/tournament/arena002/withdraw"), 1) << log.text();
    EXPECT_EQ(arena(fx, "arena002").withdrawals, 1);
}

TEST(E2eArena, ANoStartLossJoinsAgainAndPlaysOn) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: arena-nostart
seed: 23
keepalive_ms: 500
tournaments:
  - {id: arena003, name: Strict Arena, starts_at_ms: 0, duration_ms: 600000, first_move_timeout_ms: 3000,
     clock: {limit: 60, increment: 0}, pair_delay_ms: 200,
     opponent: {kind: random, think_ms: 40, resign_at_ply: 6}}
faults:
  # lila refuses the bot's first move (as if it never came): the game ends as noStart.
  - {kind: http_4xx, target: move, status: 400, count: 1}
)");
    test_support::LogCapture log;
    BotRunner bot(fx, arena_settings("[{id: arena003}]"));
    ASSERT_TRUE(fx.wait_until([&] { return !arena(fx, "arena003").games.empty(); }, 20s));
    const std::string first = arena(fx, "arena003").games[0];
    ASSERT_TRUE(fx.wait_until([&] { return game(fx, first).over; }, 20s));
    ASSERT_EQ(game(fx, first).status, "noStart") << describe(game(fx, first));
    // lila withdrew the bot with no pause: it joins again, once, and lila pairs it again.
    ASSERT_TRUE(fx.wait_until([&] { return arena(fx, "arena003").games.size() >= 2; }, 20s))
        << log.text();
    const std::string second = arena(fx, "arena003").games[1];
    const auto g = fx.wait_game_over(second, 60s);
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_TRUE(log.contains("ended as noStart")) << log.text();
    EXPECT_EQ(arena(fx, "arena003").joins, 2);
    EXPECT_EQ(bot.stop(), 0);
}

// Stopped inside a running arena, the bot withdraws, and lila pauses it (10 s for a first pause).
// Started again inside that pause, it reads `me.pauseDelay`, waits it out, joins once and plays;
// lila is never asked to let it in early.
TEST(E2eArena, ARestartInsideLilasPauseWaitsItOutAndPlaysOn) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: arena-restart
seed: 25
keepalive_ms: 500
tournaments:
  - {id: arena005, name: Restart Arena, starts_at_ms: 0, duration_ms: 600000,
     clock: {limit: 60, increment: 0}, pair_delay_ms: 2000,
     opponent: {kind: random, think_ms: 40, resign_at_ply: 4}}
)");
    test_support::LogCapture log;
    {
        BotRunner bot(fx, arena_settings("[{id: arena005}]"));
        ASSERT_TRUE(fx.wait_until([&] { return arena(fx, "arena005").joins == 1; }, 20s));
        EXPECT_EQ(bot.stop(), 0);  // before lila pairs it (2 s after the join)
    }
    ASSERT_EQ(arena(fx, "arena005").withdrawals, 1);
    ASSERT_TRUE(arena(fx, "arena005").withdrawn);
    const std::size_t games_before = arena(fx, "arena005").games.size();
    BotRunner again(fx, arena_settings("[{id: arena005}]"));
    ASSERT_TRUE(
        fx.wait_until([&] { return arena(fx, "arena005").games.size() > games_before; }, 40s))
        << log.text();
    const auto g = fx.wait_game_over(arena(fx, "arena005").games.back(), 60s);
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_TRUE(log.contains("lila pauses us in it for")) << log.text();
    int refused = 0;
    for (const auto& r : requests_with(fx, "/api/tournament/arena005/join"))
        refused += r.status == 400 ? 1 : 0;
    EXPECT_EQ(refused, 0);
    EXPECT_EQ(arena(fx, "arena005").joins, 2);
    EXPECT_EQ(again.stop(), 0);
}

TEST(E2eArena, AnArenaGameJoinedElsewhereIsNeverAborted) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: arena-elsewhere
seed: 24
keepalive_ms: 500
first_move_timeout_ms: 9000
games:
  - {id: arenagm1, at_ms: 300, bot_color: black, source: arena, tournament: othr0001,
     clock: {limit: 60, increment: 0}, opponent: {kind: staller, stall_from_ply: 0}}
)");
    BotRunner bot(fx, settings("{concurrency: 1}", "abort_time: 5\n"));
    const auto g = fx.wait_game_over("arenagm1", 20s);
    // The opponent never moved: the bot's abort timer (5 s) did nothing; lila's first-move timer
    // ended it as noStart, a win for the bot.
    EXPECT_EQ(g.status, "noStart") << describe(g);
    EXPECT_EQ(g.winner, std::optional<std::string>("black"));
    EXPECT_EQ(requests_to(fx, "/arenagm1/abort"), 0);
    EXPECT_EQ(bot.metrics().tournament_games.load(), 1u);
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
