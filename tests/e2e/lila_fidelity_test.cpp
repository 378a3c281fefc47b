// End-to-end, against the emulator behaving as lila does (docs/LICHESS.md): the daily bot-game
// limit, an opponent out of bot games, a held move request, a final 4xx, a claim made after our
// search, fast game-stream reconnects, games beyond the concurrency limit, no second greeting,
// and the PGN tags lila writes.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bot_fixture.hpp"
#include "service/ops/metrics.hpp"
#include "tests/support/log_capture.hpp"
#include "tests/support/time_scale.hpp"

namespace e2e {
namespace {

// Resident memory of this process (the daemon and the emulator run in it), in MB.
double rss_mb() {
    std::ifstream in("/proc/self/statm");
    long pages_total = 0, pages_resident = 0;
    in >> pages_total >> pages_resident;
    return double(pages_resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

TEST(E2eLila, DailyBotLimitStopsOnlyBotGames) {
    using namespace std::chrono_literals;
    // We have played our one bot game of this (12 s) window: lila answers the accept of a BOT's
    // challenge with 429 bot.vsBot.day. A human challenging 1 s later is accepted at once; a
    // second BOT is declined `later` without an accept; once the window has passed a BOT is
    // accepted again.
    test_support::LogCapture log;
    emu::EmulatorFixture fx(R"(
name: bot-limit
seed: 31
keepalive_ms: 500
bot_games_per_day: 1
bot_limit_window_ms: 12000
account: {bot_games_today: 1}
)");
    BotRunner bot(fx, settings("{concurrency: 2}"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: botlim01, at_ms: 0, challenger: {name: RivalBot, title: BOT, rating: 1600}, clock: {limit: 60, increment: 1}}
  - {id: human001, at_ms: 1000, challenger: {name: Human, rating: 1500}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 6}}
  - {id: botlim02, at_ms: 1500, challenger: {name: OtherBot, title: BOT, rating: 1600}, clock: {limit: 60, increment: 1}}
)");
    ASSERT_TRUE(fx.wait_until([&] { return challenge(fx, "botlim02").status == "declined"; }, 10s))
        << challenge(fx, "botlim02").status;
    const auto first = requests_with(fx, "/api/challenge/botlim01/accept");
    ASSERT_EQ(first.size(), 1u);
    EXPECT_EQ(first[0].status, 429);
    // The refused challenge is answered (declined), not left to expire.
    EXPECT_EQ(challenge(fx, "botlim01").status, "declined");
    EXPECT_EQ(challenge(fx, "botlim01").decline_reason, "later");
    // The human is accepted at once: the quota stops no request family.
    const auto human = requests_with(fx, "/api/challenge/human001/accept");
    ASSERT_EQ(human.size(), 1u);
    EXPECT_EQ(human[0].status, 200);
    EXPECT_EQ(challenge(fx, "human001").status, "accepted");
    // The second bot is declined without trying: no accept request for it.
    EXPECT_EQ(challenge(fx, "botlim02").status, "declined");
    EXPECT_EQ(challenge(fx, "botlim02").decline_reason, "later");
    EXPECT_TRUE(requests_with(fx, "/api/challenge/botlim02/accept").empty());
    // Logged once, counted, and the pause is visible in /metrics.
    EXPECT_EQ(occurrences(log.text(), "bot-vs-bot games for today are played"), 1) << log.text();
    EXPECT_EQ(bot.metrics().bot_game_limit_hits.load(), 1u);
    const std::string metrics = service::render_prometheus(bot.metrics());
    EXPECT_NE(metrics.find("outpost_bot_game_limit_total 1"), std::string::npos) << metrics;
    EXPECT_EQ(metrics.find("outpost_bot_games_paused_seconds 0\n"), std::string::npos) << metrics;

    const auto g = fx.wait_game_over("human001", 60s);
    EXPECT_TRUE(legal_end(g)) << describe(g);
    // After the window (12 s from the start) a bot is welcome again.
    ASSERT_TRUE(fx.wait_until([&] { return fx->world().now() > 12500; }, 30s));
    send_challenges(fx, R"(
challenges:
  - {id: botlim03, at_ms: 0, challenger: {name: LaterBot, title: BOT, rating: 1600}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 2}}
)");
    ASSERT_TRUE(fx.wait_until([&] { return challenge(fx, "botlim03").status == "accepted"; }, 10s))
        << challenge(fx, "botlim03").status;
    EXPECT_TRUE(fx.wait_game_over("botlim03", 30s).over);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eLila, AnOpponentOutOfBotGamesIsDeclinedLaterAndItsSlotFreedAtOnce) {
    using namespace std::chrono_literals;
    // The challenger has played its 100 bot games: lila answers our accept with 400 and its
    // OpponentLimit text. Its challenge is declined `later` rather than left open, and with one
    // slot, the next challenge is accepted straight away.
    test_support::LogCapture log;
    emu::EmulatorFixture fx("name: opponent-limit\nseed: 32\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{concurrency: 1}"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: tired001, at_ms: 0, challenger: {name: TiredBot, title: BOT, rating: 1600, bot_games_today: 100},
     clock: {limit: 60, increment: 1}}
  - {id: fresh001, at_ms: 300, challenger: {name: FreshBot, title: BOT, rating: 1600}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 4}}
)");
    ASSERT_TRUE(fx.wait_until([&] { return challenge(fx, "fresh001").status == "accepted"; }, 10s))
        << challenge(fx, "fresh001").status;
    const auto tired = requests_with(fx, "/api/challenge/tired001/accept");
    ASSERT_EQ(tired.size(), 1u);
    EXPECT_EQ(tired[0].status, 400);
    EXPECT_TRUE(log.contains("TiredBot played its bot games for today")) << log.text();
    EXPECT_EQ(bot.metrics().bot_game_limit_hits.load(), 0u);  // the opponent's, not ours
    ASSERT_TRUE(fx.wait_until([&] { return challenge(fx, "tired001").status == "declined"; }, 10s))
        << challenge(fx, "tired001").status;
    EXPECT_EQ(challenge(fx, "tired001").decline_reason_key, "later");
    EXPECT_TRUE(fx.wait_game_over("fresh001", 60s).over);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eLila, AMoveHeldTwentySecondsInOneGameNeverDelaysTheOther) {
    using namespace std::chrono_literals;
    // Two 1+0 games at once. The server takes one move of game A and holds its answer 20 s.
    // Game B keeps its pace meanwhile, A goes on after the client gives the request up, and
    // neither game loses on time. Both opponents play a quiet line, not random moves: a random
    // mover can walk into mate early, and a game over before or during the hold shows nothing.
    emu::EmulatorFixture fx(R"(
name: held-move
seed: 33
keepalive_ms: 500
faults:
  - {kind: delay, hold_reply: true, target: move, game: heldaaaa, skip: 3, count: 1, delay_ms: 20000}
)");
    BotRunner bot(fx, settings("{concurrency: 2}"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: heldaaaa, at_ms: 0, challenger: {name: SlowLane, title: BOT, rating: 1600}, clock: {limit: 60, increment: 0},
     color: black, opponent: {kind: line, moves: "e7e5 b8c6 g8f6 f8e7 e8g8 d7d6 h7h6 c8e6 d8d7 a7a6 f8e8 a8d8",
                              think_ms: 30, resign_at_ply: 60}}
  - {id: heldbbbb, at_ms: 50, challenger: {name: FastLane, title: BOT, rating: 1600}, clock: {limit: 60, increment: 0},
     color: black, opponent: {kind: line, moves: "e7e5 b8c6 g8f6 f8e7 e8g8 d7d6 h7h6 c8e6 d8d7 a7a6 f8e8 a8d8",
                              think_ms: 30, resign_at_ply: 60}}
)");
    for (const std::string id : {"heldaaaa", "heldbbbb"}) {
        const auto g = fx.wait_game_over(id, 150s);
        ASSERT_TRUE(g.over) << describe(game(fx, id));
        EXPECT_TRUE(legal_end(g)) << describe(g);
        EXPECT_FALSE(bot_forfeited_on_time(g)) << describe(g);
    }
    const auto faults = fx->faults_fired();
    const auto held =
        std::find_if(faults.begin(), faults.end(), [](const auto& f) { return f.kind == "hold"; });
    ASSERT_NE(held, faults.end());
    // Every move of B while A's answer was held came at B's normal pace (server-measured time
    // from B's turn to B's move well under the 20 s hold).
    const auto b = game(fx, "heldbbbb");
    int b_moves_during_hold = 0;
    for (const auto& mv : b.moves) {
        if (!mv.by_bot || mv.at_ms < held->t_ms || mv.at_ms > held->t_ms + 20000) continue;
        ++b_moves_during_hold;
        // (a 1+0 search takes a few seconds at most; the hold would add 20, so the slower
        // builds' margin stays below it)
        EXPECT_LT(mv.since_turn_ms, std::min<std::int64_t>(test_time::scaled_ms(8000), 19000))
            << "B waited at ply " << mv.ply;
    }
    EXPECT_GE(b_moves_during_hold, 3) << describe(b);
    // A's client gave the held request up after its 2 s deadline and went on.
    const auto a = game(fx, "heldaaaa");
    int a_moves_during_hold = 0;
    for (const auto& mv : a.moves)
        if (mv.by_bot && mv.at_ms > held->t_ms + 1000 && mv.at_ms < held->t_ms + 20000)
            ++a_moves_during_hold;
    EXPECT_GE(a_moves_during_hold, 1) << describe(a);
    EXPECT_EQ(bot.metrics().time_forfeits.load(), 0u);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eLila, A403OnAMoveIsFinalAndNotRetried) {
    using namespace std::chrono_literals;
    // lila's 4xx on a move will not change by asking again (a 401/403/404 was retried every
    // 250 ms for as long as it was our turn). The bot sends the move once and waits.
    emu::EmulatorFixture fx(R"(
name: final-4xx
seed: 34
keepalive_ms: 500
faults:
  - {kind: http_4xx, status: 403, target: move, game: four0403, skip: 2, count: 1}
)");
    BotRunner bot(fx, settings("{concurrency: 1}"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: four0403, at_ms: 0, challenger: {name: Gatekeeper, rating: 1600}, clock: {limit: 120, increment: 0},
     color: black, opponent: {kind: random, think_ms: 20}}
)");
    ASSERT_TRUE(fx.wait_until(
        [&] {
            for (const auto& r : requests_with(fx, "/api/bot/game/four0403/move/"))
                if (r.status == 403) return true;
            return false;
        },
        // Our third move comes after two searches of a 2-minute clock's budget: seconds each,
        // several times that in the sanitizer build on a loaded machine.
        90s));
    std::this_thread::sleep_for(3s);  // a retry loop would send a dozen requests by now
    const auto moves = requests_with(fx, "/api/bot/game/four0403/move/");
    EXPECT_EQ(moves.size(), 3u);  // two taken, the refused third, nothing after it
    EXPECT_EQ(moves.back().status, 403);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eLila, AnOpponentWhoLeavesDuringOurSearchIsClaimedAfterOurMove) {
    using namespace std::chrono_literals;
    // The opponent leaves right after its move, so opponentGone (claim in 0 s) arrives while
    // the bot is searching. lila ignores a claim on our own turn (200, nothing happens): the
    // claim must come after our move, and end the game as a win by timeout. The opponent plays
    // a fixed, sound line (a random one walked into mate at ply 7, and the game ended before
    // any claim): nothing mates 1...e5 2...Nc6 by white's third move.
    emu::EmulatorFixture fx("name: gone-mid-search\nseed: 35\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{concurrency: 1}"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: gonemid1, at_ms: 0, challenger: {name: Leaver, rating: 1500}, clock: {limit: 120, increment: 2},
     color: black, opponent: {kind: line, moves: "e7e5 b8c6", think_ms: 20, go_away_at_ply: 3,
                              go_away_on_bot_turn: true, claim_win_in_seconds: 0}}
)");
    const auto g = fx.wait_game_over("gonemid1", 60s);
    ASSERT_TRUE(g.over) << describe(game(fx, "gonemid1"));
    EXPECT_EQ(g.status, "timeout") << describe(g);
    ASSERT_TRUE(g.winner.has_value()) << describe(g);
    EXPECT_EQ(*g.winner, g.bot_color);
    // Claimed after our 3rd move (ply 5), not at ply 4 while we were to move.
    EXPECT_TRUE(has_event(g, "opponent_gone@4")) << describe(g);
    EXPECT_TRUE(has_event(g, "victory_claimed_by_bot@5")) << describe(g);
    EXPECT_EQ(g.moves.size(), 5u) << describe(g);
    EXPECT_FALSE(has_event(g, "claim_ignored@")) << describe(g);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eLila, ABulletGameStreamDroppedFiveTimesReconnectsWithinASecond) {
    using namespace std::chrono_literals;
    // The production reconnect timings of game streams (BotOptions::game_reconnect: 250 ms at
    // first, 3 s at most; the event stream's grow to a minute), five drops in a 1+0 game. The
    // game must outlast them: the opponent plays a quiet line, not random moves, which can walk
    // into mate within a few moves (1.f3 e5 2.g4 Qh4#).
    emu::EmulatorFixture fx(R"(
name: game-stream-drops
seed: 36
keepalive_ms: 500
faults:
  - {kind: drop, target: game_stream, game: drops001, after_ms: 1500, count: 5}
)");
    BotRunner bot(fx, settings("{concurrency: 1}"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: drops001, at_ms: 0, challenger: {name: Flaky, title: BOT, rating: 1600}, clock: {limit: 60, increment: 0},
     color: white, opponent: {kind: line, moves: "e2e4 g1f3 b1c3 f1e2 e1g1 d2d3 h2h3 c1e3 d1d2 a2a3 f1e1 a1d1",
                              think_ms: 300, resign_at_ply: 80}}
)");
    const auto g = fx.wait_game_over("drops001", 120s);
    ASSERT_TRUE(g.over) << describe(game(fx, "drops001"));
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_FALSE(bot_forfeited_on_time(g)) << describe(g);
    std::vector<emu::StreamRecord> conns;
    for (const auto& s : fx->streams())
        if (s.family == "game_stream" && s.game_id == "drops001") conns.push_back(s);
    ASSERT_GE(conns.size(), 6u);
    int dropped = 0;
    for (std::size_t i = 0; i + 1 < conns.size(); ++i) {
        if (conns[i].end != "dropped") continue;
        ++dropped;
        EXPECT_LT(conns[i + 1].opened_ms - conns[i].closed_ms, test_time::scaled_ms(1000))
            << "reconnect " << i + 1 << " took too long";
    }
    EXPECT_EQ(dropped, 5);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eLila, GamesBeyondTheConcurrencyLimitAreAbortedAndMemoryStaysBounded) {
    using namespace std::chrono_literals;
    // 40 gameStarts at once with concurrency 1 (a burst, or another client on the token): the
    // bot plays one and aborts the 36 that can still be aborted; the three already past ply 2
    // are played with small engines. Full-size engines never exceed the configured games.
    std::ostringstream scenario;
    scenario << "name: burst\nseed: 37\nkeepalive_ms: 500\ngames:\n";
    for (int i = 0; i < 40; ++i) {
        std::string id = std::to_string(i);
        id = "burst" + std::string(3 - id.size(), '0') + id;
        scenario << "  - {id: " << id
                 << ", at_ms: 0, bot_color: white, clock: {limit: 300, increment: 0}"
                 << (i >= 37 ? ", moves: \"e2e4 e7e5\"" : "")
                 << ", opponent: {kind: random, think_ms: 20, resign_at_ply: 8}}\n";
    }
    const double rss_before = rss_mb();
    emu::EmulatorFixture fx(scenario.str());
    BotSettings s = settings("{concurrency: 1}");
    s.engine = "hash_mb: 64";  // a full-size engine is worth seeing in the RSS
    BotRunner bot(fx, s);
    ASSERT_TRUE(fx.wait_until(
        [&] {
            int over = 0;
            for (const auto& g : fx->games()) over += g.over ? 1 : 0;
            return over == 40;
        },
        120s));
    int aborted = 0, played = 0;
    for (const auto& g : fx->games()) {
        if (g.status == "aborted") ++aborted;
        if (g.status != "aborted") {
            ++played;
            EXPECT_TRUE(legal_end(g)) << describe(g);
        }
        // The three past ply 2 cannot be aborted: they are played (one of them may take the
        // slot, as /api/account/playing lists the games on our move first).
        if (g.id >= "burst037") {
            EXPECT_NE(g.status, "aborted") << describe(g);
        }
    }
    EXPECT_GE(aborted, 36);
    EXPECT_LE(played, 4);
    EXPECT_EQ(aborted + played, 40);
    EXPECT_EQ(bot.metrics().games_aborted_over_limit.load(), std::uint64_t(aborted));
    // At most the configured games plus correspondence.max_concurrent_searches (1) full size.
    EXPECT_LE(bot.bot().engines().peak_full_size_live(), 2);
    const double grown = rss_mb() - rss_before;
    std::printf("RSS grew %.0f MB for 40 gameStarts with concurrency 1\n", grown);
#if defined(__SANITIZE_ADDRESS__)
    const double bound = 1200.0;  // ASan's shadow memory and quarantine; 40 engines were 2.7 GB
#else
    const double bound = 400.0;
#endif
    EXPECT_LT(grown, bound) << "40 sessions used to take 2.7 GB";
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eLila, AGameResumedAfterItsFirstMovesGetsNoSecondHello) {
    using namespace std::chrono_literals;
    // A restart mid-game: the session finds 4 plies played. lichess-bot greets only while
    // fewer than 2 plies are played; so must we, or every restart says hello again.
    emu::EmulatorFixture fx(R"(
name: resume-quietly
seed: 38
keepalive_ms: 500
games:
  - {id: resume01, at_ms: 0, bot_color: white, clock: {limit: 120, increment: 1}, moves: "e2e4 e7e5 g1f3 b8c6",
     opponent: {kind: random, think_ms: 20, resign_at_ply: 10}}
  - {id: fresh002, at_ms: 0, bot_color: white, clock: {limit: 120, increment: 1},
     opponent: {kind: random, think_ms: 20, resign_at_ply: 6}}
)");
    BotRunner bot(fx, settings("{concurrency: 2}"));
    const auto resumed = fx.wait_game_over("resume01", 60s);
    const auto fresh = fx.wait_game_over("fresh002", 60s);
    ASSERT_TRUE(resumed.over && fresh.over);
    const auto hellos = [](const emu::GameView& g) {
        int n = 0;
        for (const auto& c : g.chat) n += c.text.rfind("Hi", 0) == 0 ? 1 : 0;
        return n;
    };
    EXPECT_EQ(hellos(resumed), 0) << describe(resumed);
    EXPECT_EQ(hellos(fresh), 2) << describe(fresh);  // player and spectator rooms, once each
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eLila, ThePgnHasLilasSiteAndTermination) {
    using namespace std::chrono_literals;
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("outpost-pgn-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    emu::EmulatorFixture fx(R"(
name: pgn-tags
seed: 39
keepalive_ms: 500
games:
  - {id: pgntag01, at_ms: 0, bot_color: white, clock: {limit: 120, increment: 1},
     opponent: {kind: random, think_ms: 20, resign_at_ply: 5}}
)");
    BotRunner bot(fx, settings("{concurrency: 1}", "pgn_directory: \"" + dir.string() + "\"\n"));
    ASSERT_TRUE(fx.wait_game_over("pgntag01", 60s).over);
    std::string pgn;
    (void)fx.wait_until(
        [&] {
            if (!std::filesystem::exists(dir)) return false;
            for (const auto& e : std::filesystem::directory_iterator(dir))
                if (e.path().extension() == ".pgn") {
                    std::ifstream in(e.path());
                    pgn.assign(std::istreambuf_iterator<char>(in), {});
                }
            return !pgn.empty();
        },
        10s);
    EXPECT_NE(pgn.find("[Site \"" + fx.base_url() + "/pgntag01\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[Termination \"Normal\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[Result \"1-0\"]"), std::string::npos) << pgn;
    EXPECT_EQ(bot.stop(), 0);
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace e2e
