// End-to-end robustness: bullet under a slow move endpoint without losing on time, a game
// whose stream drops (once mid-line) with a 429 and a 5xx burst that is still finished, and a
// move waiting out a 429 that states with an unchanged move list do not search over again; an
// hour-long 429 hint on one game's moves costs neither of two 1+0 games.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "bot_fixture.hpp"
#include "engine/position.hpp"
#include "tests/support/log_capture.hpp"

namespace e2e {
namespace {

int faults_of(emu::EmulatorFixture& fx, const std::string& kind) {
    const auto fs = fx->faults_fired();
    return int(std::count_if(fs.begin(), fs.end(), [&](const auto& f) { return f.kind == kind; }));
}

TEST(E2eFaults, BulletPairWithSlowMoveEndpointNeverFlags) {
    using namespace std::chrono_literals;
    // Every move POST is answered 80 ms late; two 1+0 games run at once.
    emu::EmulatorFixture fx(R"(
name: bullet
seed: 21
keepalive_ms: 500
faults:
  - {kind: delay, target: move, count: -1, delay_ms: 80}
)");
    BotRunner bot(fx, settings("{concurrency: 2}"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: bullet01, at_ms: 0, challenger: {name: Fast, title: BOT, rating: 1600}, clock: {limit: 60, increment: 0},
     color: black, opponent: {kind: random, think_ms: 20, resign_at_ply: 90}}
  - {id: bullet02, at_ms: 50, challenger: {name: Faster, title: BOT, rating: 1600}, clock: {limit: 60, increment: 0},
     color: white, opponent: {kind: random, think_ms: 50, resign_at_ply: 90}}
)");
    for (const std::string id : {"bullet01", "bullet02"}) {
        const auto g = fx.wait_game_over(id, 150s);
        ASSERT_TRUE(g.over) << describe(game(fx, id));
        EXPECT_TRUE(legal_end(g)) << describe(g);
        EXPECT_FALSE(bot_forfeited_on_time(g)) << describe(g);
        EXPECT_EQ(rejected_moves(fx, id), 0) << id;
        EXPECT_GE(bot_moves(g), 2) << describe(g);
        // The bot's clock never ran out: every recorded clock of its side stayed positive.
        for (const auto& mv : g.moves)
            if (mv.by_bot) {
                EXPECT_GT(g.bot_color == "white" ? mv.wtime : mv.btime, 0) << id;
            }
    }
    EXPECT_GE(faults_of(fx, "delay"), 4);
    EXPECT_EQ(bot.metrics().time_forfeits.load(), 0u);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eFaults, AnHourLong429OnOneGamesMovesLosesNeitherBulletGame) {
    using namespace std::chrono_literals;
    // lila's hint on a move's 429 says an hour; six moves of one of two 1+0 games in a row get
    // it. The client pauses moves at most 3 s, the game's rules retry within a quarter of what
    // is left on our clock: the game goes on, and so does the other.
    emu::EmulatorFixture fx(R"(
name: hour-long-429
seed: 23
keepalive_ms: 500
faults:
  - {kind: http_429, target: move, game: hint0001, skip: 3, count: 6, ratelimit_seconds: 3600}
)");
    test_support::LogCapture logs;
    BotRunner bot(fx, settings("{concurrency: 2}"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: hint0001, at_ms: 0, challenger: {name: Hinted, title: BOT, rating: 1600}, clock: {limit: 60, increment: 0},
     color: black, opponent: {kind: engine, depth: 1, think_ms: 20, resign_at_ply: 70}}
  - {id: hint0002, at_ms: 50, challenger: {name: Bystander, title: BOT, rating: 1600}, clock: {limit: 60, increment: 0},
     color: white, opponent: {kind: random, think_ms: 20, resign_at_ply: 70}}
)");
    for (const std::string id : {"hint0001", "hint0002"}) {
        const auto g = fx.wait_game_over(id, 200s);
        ASSERT_TRUE(g.over) << describe(game(fx, id));
        EXPECT_TRUE(legal_end(g)) << describe(g);
        EXPECT_FALSE(bot_forfeited_on_time(g)) << describe(g);
        EXPECT_EQ(rejected_moves(fx, id), 0) << id;
    }
    EXPECT_EQ(faults_of(fx, "http_429"), 6);
    EXPECT_GE(bot_moves(game(fx, "hint0001")), 10);
    // Each retry waited 3 s at most, never the hour.
    int retries = 0;
    for (const auto& line : logs.lines()) {
        const auto at = line.find("failed: ");
        const auto in = line.find("; trying again in ");
        if (line.find("game hint0001: posting move") == std::string::npos ||
            at == std::string::npos || in == std::string::npos)
            continue;
        ++retries;
        EXPECT_LE(std::atoi(line.c_str() + in + 18), 3000) << line;
    }
    EXPECT_EQ(retries, 6) << logs.text();
    EXPECT_EQ(bot.metrics().time_forfeits.load(), 0u);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eFaults, GameSurvivesDropsA429AndA5xxBurst) {
    using namespace std::chrono_literals;
    // Drops: after 4 lines on the first game-stream connection, then half a line on the second
    // (stream faults are bound to a connection when it opens, hence skip: 1). One move gets a
    // 429 (1 s hint); a later move gets two 503s in a row.
    emu::EmulatorFixture fx(R"(
name: faults
seed: 11
keepalive_ms: 500
faults:
  - {kind: drop, target: game_stream, game: fault001, after_lines: 4, count: 1}
  - {kind: drop, target: game_stream, game: fault001, after_lines: 6, mid_line: true, skip: 1, count: 1}
  - {kind: http_429, target: move, skip: 5, count: 1, ratelimit_seconds: 1}
  - {kind: http_5xx, target: move, skip: 9, count: 2, status: 503}
)");
    BotRunner bot(fx);
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: fault001, at_ms: 0, challenger: {name: Nasty, title: BOT, rating: 1800}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: engine, depth: 2, think_ms: 30, resign_at_ply: 40}}
)");
    const auto g = fx.wait_game_over("fault001", 150s);
    ASSERT_TRUE(g.over) << describe(game(fx, "fault001"));
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "fault001"), 0);
    EXPECT_GE(bot_moves(g), 10) << describe(g);

    // Every scripted fault fired.
    EXPECT_EQ(faults_of(fx, "drop"), 2);
    EXPECT_EQ(faults_of(fx, "http_429"), 1);
    EXPECT_EQ(faults_of(fx, "http_5xx"), 2);
    int dropped = 0, game_streams = 0;
    for (const auto& s : fx->streams()) {
        if (s.family != "game_stream" || s.game_id != "fault001") continue;
        ++game_streams;
        dropped += s.end == "dropped" ? 1 : 0;
    }
    EXPECT_EQ(dropped, 2);
    EXPECT_GE(game_streams, 3);
    EXPECT_EQ(bot.metrics().time_forfeits.load(), 0u);
    EXPECT_GE(bot.metrics().rate_limited_429.load(), 1u);   // /metrics shows the 429
    EXPECT_GE(bot.metrics().http_errors.load(), 2u);        // and the two 503s
    EXPECT_GE(bot.metrics().stream_reconnects.load(), 2u);  // and the game stream's two drops
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eFaults, AStateThatMovesNothingStartsNoSearchWhileAMoveWaitsForItsRetry) {
    using namespace std::chrono_literals;
    // The bot's 4th move (to ply 8) gets a 429 with a 5 s pause. Right after its move to ply 7
    // the opponent asks for a takeback, and the bot's decline brings one more state: both carry
    // the move list the bot is already answering. Neither may start a search of its own (whose
    // move would be posted, and refused locally, while the pause lasts): the one move that got
    // the 429 is posted again once the pause is over, and it is the move played at ply 8.
    test_support::LogCapture logs;
    emu::EmulatorFixture fx(R"(
name: unchanged
seed: 12
keepalive_ms: 500
faults:
  - {kind: http_429, target: move, skip: 3, count: 1, ratelimit_seconds: 5}
)");
    BotRunner bot(fx);
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: same0001, at_ms: 0, challenger: {name: Asker, title: BOT, rating: 1800}, clock: {limit: 60, increment: 0},
     color: white, opponent: {kind: engine, depth: 2, think_ms: 30, takeback_at_ply: 7, resign_at_ply: 16}}
)");
    const auto g = fx.wait_game_over("same0001", 120s);
    ASSERT_TRUE(g.over) << describe(game(fx, "same0001"));
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "same0001"), 0);
    EXPECT_EQ(faults_of(fx, "http_429"), 1);
    EXPECT_TRUE(has_event(g, "takeback_offer_opponent@7")) << describe(g);
    EXPECT_TRUE(has_event(g, "takeback_declined_by_bot@7")) << describe(g);
    ASSERT_GE(g.moves.size(), 8u) << describe(g);
    ASSERT_TRUE(g.moves[7].by_bot) << describe(g);
    // The emulator writes castling king-to-rook as Lichess does (e8h8); the bot's log writes the
    // move as its position does (e8g8): compare in the bot's notation.
    engine::Position replay;
    for (std::size_t i = 0; i < 7; ++i) ASSERT_TRUE(replay.play_uci(g.moves[i].uci)) << describe(g);
    const auto eighth = replay.parse_uci(g.moves[7].uci);
    ASSERT_TRUE(eighth) << describe(g);
    const std::string text = logs.text();
    EXPECT_EQ(occurrences(text, "game same0001: posting move "), 1) << text;
    EXPECT_EQ(
        occurrences(text, "game same0001: posting move " + replay.to_uci(*eighth) + " failed"), 1)
        << text;
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
