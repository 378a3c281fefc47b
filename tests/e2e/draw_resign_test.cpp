// End-to-end draw and resign by evaluation (draw_or_resign.*): the bot resigns a lost position,
// offers a draw with its move in a dead-drawn endgame, accepts the opponent's offer when its
// policy agrees and declines it when winning.
#include <gtest/gtest.h>

#include "bot_fixture.hpp"

namespace e2e {
namespace {

// Move POSTs for the game that carried offeringDraw=true.
int draw_offering_moves(emu::EmulatorFixture& fx, const std::string& game_id) {
    int n = 0;
    for (const auto& r : fx->requests())
        if (r.family == "move" && r.path.find(game_id) != std::string::npos &&
            r.query.find("offeringDraw=true") != std::string::npos)
            ++n;
    return n;
}

// Kings and one rook each, nothing hanging: as drawn as chess gets without being over.
constexpr const char* kRookEnding = "8/8/4k3/8/8/3K4/r7/7R w - - 0 40";

// One fromPosition challenge at 60+1 as a scenario list item; `color` is the challenger's.
std::string position_challenge(const std::string& id, const std::string& fen,
                               const std::string& color, const std::string& opponent) {
    return "  - {id: " + id + ", at_ms: 0, challenger: {name: Rival, rating: 1500}, " +
           "variant: fromPosition, initial_fen: \"" + fen +
           "\", clock: {limit: 60, increment: 1}, color: " + color + ", opponent: " + opponent +
           "}\n";
}

TEST(E2eDrawResign, ResignsAQueenAndRookDownFromMoveTen) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: resign\nseed: 21\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{}",
                               "draw_or_resign: {resign_enabled: true, resign_score: -1000, "
                               "resign_moves: 2, offer_draw_enabled: false}\n"));
    ASSERT_TRUE(wait_event_stream(fx));
    // Black (the bot) to move at full move 20 with only pawns against queen, rook and pawns.
    send_challenges(
        fx,
        "challenges:\n" + position_challenge("resign01", "4k3/pppp4/8/8/8/8/PPPP4/QR2K3 b - - 0 20",
                                             "white", "{kind: engine, depth: 1, think_ms: 20}"));
    const auto g = fx.wait_game_over("resign01", 60s);
    ASSERT_TRUE(g.over) << describe(game(fx, "resign01"));
    EXPECT_EQ(g.status, "resign") << describe(g);
    EXPECT_EQ(g.winner.value_or(""), "white") << describe(g);
    EXPECT_TRUE(has_event(g, "resigned_by_bot@")) << describe(g);
    // Two scored moves at or below -1000: the first is played, the second is a resignation.
    EXPECT_EQ(bot_moves(g), 1) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "resign01"), 0);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eDrawResign, OffersADrawWithItsMoveInADeadDrawnEnding) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: offer\nseed: 22\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{}",
                               "draw_or_resign: {offer_draw_score: 100, "
                               "offer_draw_moves: 2, offer_draw_pieces: 4}\n"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(
        fx, "challenges:\n" +
                position_challenge("offer001", kRookEnding, "black",
                                   "{kind: engine, depth: 2, think_ms: 20, accept_draw: true}"));
    const auto g = fx.wait_game_over("offer001", 60s);
    ASSERT_TRUE(g.over) << describe(game(fx, "offer001"));
    EXPECT_EQ(g.status, "draw") << describe(g);
    EXPECT_TRUE(has_event(g, "draw_offer_bot@")) << describe(g);
    EXPECT_TRUE(has_event(g, "draw_accepted_by_opponent@")) << describe(g);
    // The first move had one equal score, the second two: the offer went with the second.
    EXPECT_EQ(bot_moves(g), 2) << describe(g);
    EXPECT_EQ(draw_offering_moves(fx, "offer001"), 1);
    EXPECT_EQ(requests_to(fx, "/draw/"), 0);  // offered with the move, not on its own
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eDrawResign, AcceptsAnOfferWhenThePolicyAgreesAndDeclinesWhenWinning) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: answer\nseed: 23\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{concurrency: 2}",
                               "draw_or_resign: {offer_draw_score: 100, "
                               "offer_draw_moves: 1, offer_draw_pieces: 4}\n"));
    ASSERT_TRUE(wait_event_stream(fx));
    // Both opponents offer a draw with their first move. In the rook ending the bot's policy
    // would offer one itself (its own offer, with its first move, was declined): accept. With
    // a queen against a bare king (three pieces) the score is far from equal: decline.
    send_challenges(
        fx, "challenges:\n" +
                position_challenge("accept01", kRookEnding, "black",
                                   "{kind: engine, depth: 2, think_ms: 20, offer_draw_at_ply: 2}") +
                position_challenge(
                    "decline1", "4k3/8/8/8/8/8/3Q4/4K3 w - - 0 30", "black",
                    "{kind: random, think_ms: 20, offer_draw_at_ply: 2, resign_at_ply: 6}"));
    const auto accepted = fx.wait_game_over("accept01", 60s);
    const auto declined = fx.wait_game_over("decline1", 60s);
    ASSERT_TRUE(accepted.over) << describe(game(fx, "accept01"));
    ASSERT_TRUE(declined.over) << describe(game(fx, "decline1"));

    EXPECT_EQ(accepted.status, "draw") << describe(accepted);
    EXPECT_TRUE(has_event(accepted, "draw_offer_opponent@2")) << describe(accepted);
    EXPECT_TRUE(has_event(accepted, "draw_accepted_by_bot@2")) << describe(accepted);

    EXPECT_TRUE(has_event(declined, "draw_offer_opponent@")) << describe(declined);
    // Declined by the next move, as lila does it (no draw/no request).
    EXPECT_TRUE(has_event(declined, "draw_declined_by_bot_move@")) << describe(declined);
    EXPECT_EQ(requests_to(fx, "/api/bot/game/decline1/draw/"), 0);
    EXPECT_FALSE(has_event(declined, "draw_accepted_by_bot@")) << describe(declined);
    EXPECT_NE(declined.status, "draw") << describe(declined);
    EXPECT_TRUE(legal_end(declined)) << describe(declined);
    EXPECT_EQ(declined.winner.value_or(""), "white") << describe(declined);
    EXPECT_EQ(draw_offering_moves(fx, "decline1"), 0);
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
