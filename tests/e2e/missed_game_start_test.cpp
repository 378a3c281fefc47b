// End-to-end: a gameStart lost with the event stream (dropped, then a 429 pauses the stream a
// minute) must not lose the accepted game by noStart: the daemon finds it among ongoing games.
#include <gtest/gtest.h>

#include "bot_fixture.hpp"
#include "tests/support/log_capture.hpp"

namespace e2e {
namespace {

TEST(E2eMissedGameStart, AcceptedGameIsFoundWhileTheEventStreamIsPaused) {
    using namespace std::chrono_literals;
    test_support::LogCapture log;  // outlives the daemon
    // The first connection is cut right after the challenge line, so the gameStart that follows
    // the accept is lost; the reconnect gets a 429 (a minute's pause, as Lichess asks). The
    // challenger plays a quiet line, not random moves, which can walk into mate at ply 4
    // (1.f3 e5 2.g4 Qh4#), before the bot's third move.
    emu::EmulatorFixture fx(R"(
name: missed-game-start
seed: 3
keepalive_ms: 400
faults:
  - {kind: drop, target: event_stream, after_lines: 1, count: 1}
  - {kind: http_429, target: event_stream, skip: 1, count: 1}
)");
    BotRunner bot(fx, settings("{concurrency: 1}"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: nostart1, at_ms: 0, challenger: {name: Quick, title: BOT, rating: 1600}, clock: {limit: 60, increment: 0},
     color: white, opponent: {kind: line, moves: "e2e4 g1f3 b1c3 f1e2 e1g1 d2d3 h2h3 c1e3 d1d2 a2a3 f1e1 a1d1",
                              think_ms: 20, resign_at_ply: 12}}
)");
    const auto g = fx.wait_game_over("nostart1", 90s);
    ASSERT_TRUE(g.over) << describe(game(fx, "nostart1"));
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_GE(bot_moves(g), 3) << describe(g);
    EXPECT_TRUE(log.contains("game nostart1: no gameStart on the event stream"));
    int refused = 0;
    for (const auto& r : fx->requests())
        refused += r.family == "event_stream" && r.status == 429 ? 1 : 0;
    EXPECT_EQ(refused, 1);  // the game was found while the event stream was paused
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
