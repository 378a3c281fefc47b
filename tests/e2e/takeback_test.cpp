// End-to-end takebacks (max_takebacks_accepted): the opponent asks, on its turn, to take back its
// last move. The bot grants requests until the configured number were granted in the game and
// declines the rest; after a granted one it plays on from the shorter move list.
#include <gtest/gtest.h>

#include "bot_fixture.hpp"

namespace e2e {
namespace {

// One standard 1+1 challenge; the challenger (white) plays a quiet developing line (a move the
// position refuses is skipped), asks for takebacks after the bot's moves at `takeback_plies` and
// resigns on its turn at `resign_ply`. Its 300 ms of thinking leave the bot time to answer before
// its move would cancel the request. Not a random mover: one plays into a quick mate now and then
// (1.f3 e5 2.g4 Qh4#), and a game that ends before the takeback plies tests nothing.
std::string takeback_challenge(const std::string& id, const std::string& takeback_plies,
                               int resign_ply) {
    return "challenges:\n  - {id: " + id +
           ", at_ms: 0, challenger: {name: Rival, rating: 1500}, clock: {limit: 60, increment: "
           "1}, color: white, opponent: {kind: line, moves: \"" +
           std::string(kQuietLineEitherColour) +
           "\", think_ms: 300, takeback_on_turn_at_plies: " + takeback_plies +
           ", resign_at_ply: " + std::to_string(resign_ply) + "}}\n";
}

int events_starting_with(const emu::GameView& g, const std::string& prefix) {
    int n = 0;
    for (const auto& e : g.events) n += e.rfind(prefix, 0) == 0 ? 1 : 0;
    return n;
}

TEST(E2eTakeback, GrantsTheFirstRequestPlaysOnAndDeclinesTheNext) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: takeback\nseed: 31\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{}", "max_takebacks_accepted: 1\n"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, takeback_challenge("takeb001", "[4, 8]", 14));
    const auto g = fx.wait_game_over("takeb001", 120s);
    ASSERT_TRUE(g.over) << describe(game(fx, "takeb001"));
    EXPECT_EQ(g.bot_color, "black");

    // Asked after the bot's move at ply 4; granting it took back two plies (white's and the
    // bot's last moves), so the move list went from 4 plies back to 2.
    EXPECT_TRUE(has_event(g, "takeback_offer_opponent@4")) << describe(g);
    EXPECT_TRUE(has_event(g, "takeback_accepted_by_bot@2")) << describe(g);
    // The bot moved again from the shorter list (else it would have lost on time), and the
    // second request, at ply 8, went past the one granted takeback: declined.
    EXPECT_TRUE(has_event(g, "takeback_offer_opponent@8")) << describe(g);
    EXPECT_TRUE(has_event(g, "takeback_declined_by_bot@8")) << describe(g);
    EXPECT_EQ(events_starting_with(g, "takeback_accepted_by_bot@"), 1) << describe(g);
    // One answer per request, however many gameStates carried the flag.
    EXPECT_EQ(requests_to(fx, "/takeback/yes"), 1);
    EXPECT_EQ(requests_to(fx, "/takeback/no"), 1);

    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_EQ(g.winner.value_or(""), "black") << describe(g);  // resigned (or mated)
    EXPECT_EQ(rejected_moves(fx, "takeb001"), 0);
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eTakeback, DeclinesEveryRequestByDefault) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: notakeback\nseed: 32\nkeepalive_ms: 500\n");
    BotRunner bot(fx);  // max_takebacks_accepted left at 0
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, takeback_challenge("takeb002", "[4]", 8));
    const auto g = fx.wait_game_over("takeb002", 120s);
    ASSERT_TRUE(g.over) << describe(game(fx, "takeb002"));

    EXPECT_TRUE(has_event(g, "takeback_offer_opponent@4")) << describe(g);
    EXPECT_TRUE(has_event(g, "takeback_declined_by_bot@4")) << describe(g);
    EXPECT_EQ(events_starting_with(g, "takeback_accepted_by_bot@"), 0) << describe(g);
    EXPECT_EQ(requests_to(fx, "/takeback/yes"), 0);
    EXPECT_EQ(requests_to(fx, "/takeback/no"), 1);

    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_EQ(g.winner.value_or(""), "black") << describe(g);
    EXPECT_EQ(rejected_moves(fx, "takeb002"), 0);
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
