// End-to-end games: a blitz game, a Chess960 game and a fromPosition game, each played by the
// whole daemon against the emulator to a legal end.
#include <gtest/gtest.h>

#include "bot_fixture.hpp"

namespace e2e {
namespace {

TEST(E2eGame, BlitzGameAgainstARandomMoverEndsLegally) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: blitz\nseed: 3\nkeepalive_ms: 500\n");
    BotRunner bot(fx);
    ASSERT_TRUE(wait_event_stream(fx));
    // 3+0 is blitz; the opponent resigns on its turn at ply 14 so the test stays short (the
    // bot thinks seconds per move at this clock). Challenger plays black: the bot is white.
    send_challenges(fx, R"(
challenges:
  - id: blitz001
    at_ms: 0
    challenger: {name: Randy, rating: 1500}
    clock: {limit: 180, increment: 0}
    color: black
    opponent: {kind: random, think_ms: 30, resign_at_ply: 14}
)");
    const auto g = fx.wait_game_over("blitz001", 150s);
    ASSERT_TRUE(g.over) << describe(game(fx, "blitz001"));
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_EQ(g.bot_color, "white");
    EXPECT_GE(bot_moves(g), 3) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "blitz001"), 0);
    EXPECT_EQ(challenge(fx, "blitz001").status, "accepted");
    EXPECT_EQ(fx->report()["games"][0]["speed"], "blitz");

    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }, 10s));
    auto& m = bot.metrics();
    EXPECT_EQ(m.challenges_accepted.load(), 1u);
    EXPECT_EQ(m.games_started.load(), 1u);
    EXPECT_EQ(m.moves_played.load(), std::uint64_t(bot_moves(g)));
    EXPECT_EQ(m.time_forfeits.load(), 0u);
    if (g.status == "resign" || g.status == "mate") {
        EXPECT_EQ(m.games_finished_count(service::GameResult::Win), 1u) << describe(g);
    }
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eGame, Chess960AndFromPositionGamesFinish) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: variants\nseed: 9\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{concurrency: 2}"));
    ASSERT_TRUE(wait_event_stream(fx));
    // A random Chess960 start (castling king-to-rook), and a K+Q vs K position the bot must
    // convert: both need the initial FEN, not the standard start.
    send_challenges(fx, R"(
challenges:
  - id: ch960001
    at_ms: 0
    challenger: {name: Fischer, rating: 1700}
    variant: chess960
    clock: {limit: 60, increment: 1}
    opponent: {kind: random, think_ms: 20, resign_at_ply: 30}
  - id: chfen001
    at_ms: 50
    challenger: {name: Composer, rating: 1500}
    variant: fromPosition
    initial_fen: "7k/8/5K2/8/8/8/8/1Q6 w - - 0 1"
    clock: {limit: 60, increment: 1}
    color: black
    opponent: {kind: random, think_ms: 20}
)");
    const auto g960 = fx.wait_game_over("ch960001", 150s);
    const auto gfen = fx.wait_game_over("chfen001", 60s);
    ASSERT_TRUE(g960.over) << describe(game(fx, "ch960001"));
    ASSERT_TRUE(gfen.over) << describe(game(fx, "chfen001"));
    EXPECT_TRUE(legal_end(g960)) << describe(g960);
    EXPECT_TRUE(legal_end(gfen)) << describe(gfen);
    EXPECT_EQ(rejected_moves(fx, "ch960001"), 0);
    EXPECT_EQ(rejected_moves(fx, "chfen001"), 0);
    EXPECT_GE(bot_moves(g960), 2) << describe(g960);
    // K+Q vs K with the bot to move: mate, never a draw thrown away or a flag.
    EXPECT_EQ(gfen.status, "mate") << describe(gfen);
    EXPECT_EQ(gfen.winner.value_or(""), "white");

    const auto report = fx->report();
    for (const auto& g : report["games"]) {
        if (g["id"] == "ch960001") {
            EXPECT_EQ(g["variant"], "chess960");
            EXPECT_NE(g["initial_fen"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        } else {
            EXPECT_EQ(g["variant"], "fromPosition");
        }
    }
    EXPECT_EQ(bot.metrics().time_forfeits.load(), 0u);
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
