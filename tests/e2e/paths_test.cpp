// End-to-end game paths besides moving: declining the opponent's draw offer, claiming victory
// after the opponent leaves, and aborting a game whose opponent never makes a first move.
#include <gtest/gtest.h>

#include "bot_fixture.hpp"

namespace e2e {
namespace {

TEST(E2ePaths, DrawOfferIsDeclinedAndTheGameGoesOn) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: draw\nseed: 12\nkeepalive_ms: 500\n");
    BotRunner bot(fx);
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: draw0001, at_ms: 0, challenger: {name: Peaceful, rating: 1500}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: random, think_ms: 30, offer_draw_at_ply: 3, resign_at_ply: 12}}
)");
    const auto g = fx.wait_game_over("draw0001", 120s);
    ASSERT_TRUE(g.over) << describe(game(fx, "draw0001"));
    EXPECT_TRUE(has_event(g, "draw_offer_opponent@")) << describe(g);
    // Declined as lila and lichess-bot do it: by simply moving, with no draw/no request first.
    EXPECT_TRUE(has_event(g, "draw_declined_by_bot_move@")) << describe(g);
    EXPECT_FALSE(has_event(g, "draw_declined_by_bot@")) << describe(g);
    EXPECT_EQ(requests_to(fx, "/draw/"), 0);
    EXPECT_FALSE(has_event(g, "draw_accepted_by_bot@")) << describe(g);
    EXPECT_NE(g.status, "draw") << describe(g);
    EXPECT_TRUE(legal_end(g)) << describe(g);
    // The game went on after the offer: the opponent resigned later (or was mated).
    EXPECT_GT(g.moves.size(), 4u) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "draw0001"), 0);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2ePaths, OpponentGoneIsClaimedAsAWin) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: gone\nseed: 13\nkeepalive_ms: 500\n");
    BotRunner bot(fx);
    ASSERT_TRUE(wait_event_stream(fx));
    // The opponent leaves on its turn at ply 4. It plays a quiet line, not random moves, which
    // can walk into mate at ply 4 (1.f3 e5 2.g4 Qh4#): a game over before it leaves claims nothing.
    send_challenges(fx, R"(
challenges:
  - {id: gone0001, at_ms: 0, challenger: {name: Leaver, rating: 1500}, clock: {limit: 60, increment: 1},
     color: white, opponent: {kind: line, moves: "e2e4 g1f3 b1c3 f1e2 e1g1 d2d3 h2h3 c1e3 d1d2 a2a3 f1e1 a1d1",
                              think_ms: 30, go_away_at_ply: 4, claim_win_in_seconds: 2}}
)");
    const auto g = fx.wait_game_over("gone0001", 60s);
    ASSERT_TRUE(g.over) << describe(game(fx, "gone0001"));
    EXPECT_TRUE(has_event(g, "opponent_gone@")) << describe(g);
    EXPECT_TRUE(has_event(g, "victory_claimed_by_bot@")) << describe(g);
    EXPECT_EQ(g.status, "timeout") << describe(g);
    ASSERT_TRUE(g.winner.has_value()) << describe(g);
    EXPECT_EQ(*g.winner, g.bot_color);
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }, 10s));
    EXPECT_EQ(bot.metrics().games_finished_count(service::GameResult::Win), 1u);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2ePaths, NoShowOpponentIsAborted) {
    using namespace std::chrono_literals;
    // Two stallers that never move: one where the bot (white) moved first, one where the bot
    // is black and never gets a move. The emulator's own noStart timer is off.
    emu::EmulatorFixture fx("name: abort\nseed: 14\nkeepalive_ms: 500\nfirst_move_timeout_ms: 0\n");
    BotRunner bot(fx, settings("{concurrency: 2}", "abort_time: 5\n"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: stall001, at_ms: 0, challenger: {name: Sleepy, rating: 1500}, clock: {limit: 60, increment: 0},
     color: black, opponent: {kind: staller, stall_from_ply: 0}}
  - {id: stall002, at_ms: 50, challenger: {name: Dozy, rating: 1500}, clock: {limit: 60, increment: 0},
     color: white, opponent: {kind: staller, stall_from_ply: 0}}
)");
    for (const std::string id : {"stall001", "stall002"}) {
        const auto g = fx.wait_game_over(id, 40s);
        ASSERT_TRUE(g.over) << describe(game(fx, id));
        EXPECT_EQ(g.status, "aborted") << describe(g);
        EXPECT_TRUE(has_event(g, "aborted_by_bot@")) << describe(g);
        EXPECT_EQ(bot_moves(g), id == "stall001" ? 1 : 0) << describe(g);
    }
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }, 10s));
    EXPECT_EQ(bot.metrics().games_finished_count(service::GameResult::Aborted), 2u);
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
