// Pondering in the service (engine.ponder): after its move the bot searches on the reply it
// expects, and when the opponent plays that reply the search carries on (a ponder hit) instead
// of starting again.
#include <gtest/gtest.h>

#include <sstream>

#include "bot_fixture.hpp"
#include "tests/support/log_capture.hpp"

namespace e2e {
namespace {

// The log line of the bot's move at `ply` in `game_id` ("game X ply N move ..."), or "".
std::string move_line(const std::string& log, const std::string& game_id, int ply) {
    std::istringstream in(log);
    const std::string prefix = "game " + game_id + " ply " + std::to_string(ply) + " move ";
    for (std::string line; std::getline(in, line);)
        if (line.find(prefix) != std::string::npos) return line;
    return "";
}

TEST(E2ePonder, AnExpectedReplyIsAPonderHit) {
    using namespace std::chrono_literals;
    // Two rooks against a bare king. Every first move the engine comes to after its first
    // iteration (1. Rg2, mate in 3; 1. Ra7 or 1. Rb7, mate in 2) leaves Black one legal move
    // (Kh7 or Kg8), so the reply the bot ponders on is the only one there is and any opponent
    // plays it: the hit does not depend on luck.
    test_support::LogCapture log;  // outlives the daemon
    emu::EmulatorFixture fx(R"(
name: ponder
seed: 51
keepalive_ms: 500
games:
  - {id: pond0001, at_ms: 0, bot_color: white, variant: fromPosition,
     initial_fen: "7k/8/8/8/8/8/R7/1R2K3 w - - 0 1", clock: {limit: 60, increment: 1},
     opponent: {kind: random, think_ms: 100}}
)");
    BotSettings s = settings("{concurrency: 1}");
    s.engine = "ponder: true";
    BotRunner bot(fx, s);

    const auto g = fx.wait_game_over("pond0001", 30s);
    ASSERT_TRUE(g.over) << describe(game(fx, "pond0001")) << log.text();
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_EQ(g.status, "mate") << describe(g);
    EXPECT_EQ(g.winner.value_or(""), "white") << describe(g);
    EXPECT_EQ(rejected_moves(fx, "pond0001"), 0);
    ASSERT_GE(g.moves.size(), 3u) << describe(g);
    const std::string reply = g.moves[1].uci;
    EXPECT_TRUE(reply == "h8g8" || reply == "h8h7") << describe(g);

    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }, 10s));
    const std::string text = log.text();
    EXPECT_NE(text.find("game pond0001: ponder hit on " + reply), std::string::npos) << text;
    // The bot's second move came out of the ponder search, and its log line says so.
    EXPECT_NE(move_line(text, "pond0001", 3).find(", ponder hit"), std::string::npos) << text;
    EXPECT_EQ(move_line(text, "pond0001", 1).find("ponder hit"), std::string::npos) << text;
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
