// Whole games over HTTP with a scripted client: random play to a legal end, move rejection,
// clocks that flag, noStart, the scripted opponent events, and the report's per-move data.
#include <gtest/gtest.h>

#include <thread>

#include <atomic>

#include "emulator_fixture.hpp"
#include "engine/position.hpp"
#include "engine/search.hpp"
#include "test_helpers.hpp"

namespace emu {
namespace {

std::string one_game(const std::string& clock, const std::string& opponent,
                     const std::string& extra = "") {
    return "keepalive_ms: 200\nfirst_move_timeout_ms: 20000\n" + extra +
           "games: [{id: game0001, bot_color: white, " + clock + ", opponent: " + opponent + "}]\n";
}

TEST(Play, RandomGameThroughHttpReachesALegalEnd) {
    EmulatorFixture emu(
        one_game("clock: {limit: 600, increment: 5}", "{kind: random, think_ms: 0}"));
    emu_test::HttpClient http(emu.port(), emu.token());
    emu_test::StreamReader events(emu.port(), "/api/stream/event", emu.token());
    auto start = emu_test::next_of_type(events, "gameStart");
    ASSERT_FALSE(start.is_null());
    ASSERT_EQ(start["game"]["gameId"], "game0001");
    emu_test::StreamReader game(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    const auto played = emu_test::play_random(http, game, "game0001", 12345);
    ASSERT_FALSE(played.status.empty()) << "game did not end after " << played.plies << " plies";
    const std::set<std::string> legal_ends{"mate", "stalemate", "draw"};
    EXPECT_TRUE(legal_ends.count(played.status)) << played.status;
    EXPECT_TRUE(game.wait_end(5000));  // the server closes the game stream at the end
    EXPECT_TRUE(game.clean_end());
    auto finish = emu_test::next_of_type(events, "gameFinish");
    ASSERT_FALSE(finish.is_null());
    EXPECT_EQ(finish["game"]["status"]["name"], played.status);

    // The report: every move, think times of the bot's moves, clocks, result.
    const auto report = emu->report();
    const auto& g = report["games"][0];
    EXPECT_EQ(g["status"], played.status);
    EXPECT_EQ(int(g["moves"].size()), played.plies);
    EXPECT_EQ(int(g["bot_think_ms"].size()), played.bot_moves);
    for (const auto& m : g["moves"]) {
        EXPECT_TRUE(m.contains("wtime"));
        if (m["by"] == "bot") {
            ASSERT_TRUE(m.contains("think_ms")) << m.dump();
            EXPECT_GE(m["think_ms"].get<long long>(), 0);
            EXPECT_LT(m["think_ms"].get<long long>(), 10000);
        }
    }
    EXPECT_GE(report["traffic"]["requests"].size(), std::size_t(played.bot_moves));
}

TEST(Play, IllegalAndOutOfTurnMovesGet400) {
    EmulatorFixture emu(one_game("clock: {limit: 600, increment: 0}",
                                 "{kind: line, moves: [e7e5], then: staller, think_ms: 0}"));
    emu_test::HttpClient http(emu.port(), emu.token());
    ASSERT_TRUE(emu.wait_until([&] { return !emu->games().empty(); }));
    auto bad = http.post("/api/bot/game/game0001/move/e2e5");
    EXPECT_EQ(bad.status, 400);
    EXPECT_TRUE(emu_test::parse_json(bad.body)["error"].is_string());
    EXPECT_EQ(http.post("/api/bot/game/game0001/move/e7e5").status, 400);  // black's move
    EXPECT_EQ(http.post("/api/bot/game/game0001/move/xyz").status, 400);
    EXPECT_EQ(http.post("/api/bot/game/game0001/move/e2e4").status, 200);
    // Out of turn: the opponent has not answered yet or has answered; either way e2e4 again is
    // illegal.
    EXPECT_EQ(http.post("/api/bot/game/game0001/move/e2e4").status, 400);
    ASSERT_TRUE(emu.wait_until([&] { return emu->games()[0].uci_moves == "e2e4 e7e5"; }));
    EXPECT_EQ(http.post("/api/bot/game/game0001/move/g1f3").status, 200);
    EXPECT_EQ(http.post("/api/bot/game/game0001/move/b1c3").status, 400);  // not the bot's turn
    EXPECT_EQ(emu->games()[0].moves.size(), 3u);
}

TEST(Play, ClockFlagsTheBotWhenItStopsMoving) {
    EmulatorFixture emu(one_game("clock: {limit: 2, increment: 0}", "{kind: random, think_ms: 0}"));
    emu_test::HttpClient http(emu.port(), emu.token());
    emu_test::StreamReader game(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    ASSERT_FALSE(emu_test::next_of_type(game, "gameFull").is_null());
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/e2e4").status, 200);
    // Now the bot never moves again; the server's timer flags it without any request.
    nlohmann::json last;
    for (int i = 0; i < 20 && (last.is_null() || last["status"] == "started"); ++i)
        last = emu_test::next_of_type(game, "gameState", 1000);
    ASSERT_FALSE(last.is_null());
    EXPECT_EQ(last["status"], "outoftime");
    EXPECT_EQ(last["winner"], "black");
    EXPECT_EQ(last["wtime"], 0);
    const auto g = emu->games()[0];
    EXPECT_EQ(g.status, "outoftime");
    EXPECT_EQ(http.post("/api/bot/game/game0001/move/d2d4").status, 400);
}

TEST(Play, StallingOpponentLosesOnTimeAfterBothFirstMoves) {
    EmulatorFixture emu(one_game("clock: {limit: 2, increment: 0}",
                                 "{kind: staller, stall_from_ply: 2, think_ms: 0}"));
    emu_test::HttpClient http(emu.port(), emu.token());
    ASSERT_TRUE(emu.wait_until([&] { return !emu->games().empty(); }));
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/e2e4").status, 200);
    ASSERT_TRUE(emu.wait_until([&] { return emu->games()[0].moves.size() == 2; }));
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/d2d4").status, 200);
    const auto g = emu.wait_game_over("game0001");
    EXPECT_EQ(g.status, "outoftime");
    EXPECT_EQ(g.winner, "white");
}

TEST(Play, NoStartWhenTheFirstMoveIsNotMadeInAnArenaGame) {
    EmulatorFixture emu(
        "first_move_timeout_ms: 300\ngames: [{id: game0001, bot_color: white, source: arena, "
        "clock: {limit: 60, increment: 0}}]\n");
    emu_test::StreamReader game(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    auto full = emu_test::next_of_type(game, "gameFull");
    ASSERT_FALSE(full.is_null());
    EXPECT_FALSE(full["state"].contains("expiration"));  // BotJsonView writes none
    auto end = emu_test::next_of_type(game, "gameState", 5000);
    ASSERT_FALSE(end.is_null());
    EXPECT_EQ(end["status"], "noStart");
    EXPECT_EQ(end["winner"], "black");
}

TEST(Play, AnUnplayedLobbyGameIsAbortedAndAChallengeGameHasNoTimer) {
    EmulatorFixture emu(
        "first_move_timeout_ms: 300\ngames: [{id: lobby001, bot_color: white, source: lobby, "
        "clock: {limit: 60, increment: 0}}, {id: friend01, bot_color: white, "
        "clock: {limit: 60, increment: 0}}]\n");
    const auto lobby = emu.wait_game_over("lobby001", std::chrono::seconds(5));
    EXPECT_EQ(lobby.status, "aborted");
    EXPECT_FALSE(lobby.winner.has_value());
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    EXPECT_FALSE(emu->games()[1].over) << "lila gives challenge games no first-move timer";
}

TEST(Play, AbortBeforeMovesResignAfter) {
    EmulatorFixture emu(R"(
games:
  - {id: gameabrt, bot_color: white, clock: {limit: 60, increment: 0}}
  - {id: gamersgn, bot_color: white, clock: {limit: 60, increment: 0}, moves: "e2e4 e7e5"}
)");
    emu_test::HttpClient http(emu.port(), emu.token());
    ASSERT_TRUE(emu.wait_until([&] { return emu->games().size() == 2; }));
    EXPECT_EQ(http.post("/api/bot/game/gamersgn/abort").status, 400);
    EXPECT_EQ(http.post("/api/bot/game/gameabrt/abort").status, 200);
    EXPECT_EQ(http.post("/api/bot/game/gamersgn/resign").status, 200);
    EXPECT_EQ(http.post("/api/bot/game/gamersgn/resign").status, 400);
    const auto games = emu->games();
    EXPECT_EQ(games[0].status, "aborted");
    EXPECT_EQ(games[1].status, "resign");
    EXPECT_EQ(games[1].winner, "black");
}

TEST(Play, OpponentOffersDrawAndTheBotAccepts) {
    EmulatorFixture emu(one_game("clock: {limit: 600, increment: 0}",
                                 "{kind: random, think_ms: 0, offer_draw_at_ply: 2}"));
    emu_test::HttpClient http(emu.port(), emu.token());
    emu_test::StreamReader game(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    ASSERT_FALSE(emu_test::next_of_type(game, "gameFull").is_null());
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/e2e4").status, 200);
    nlohmann::json offer;
    for (int i = 0; i < 5 && (offer.is_null() || !offer.value("bdraw", false)); ++i)
        offer = emu_test::next_of_type(game, "gameState");
    ASSERT_FALSE(offer.is_null());
    EXPECT_EQ(offer["bdraw"], true);
    ASSERT_EQ(http.post("/api/bot/game/game0001/draw/yes").status, 200);
    EXPECT_EQ(emu_test::next_of_type(game, "gameState")["status"], "draw");
}

TEST(Play, BotDrawOfferWithAMoveIsAnsweredPerScript) {
    EmulatorFixture emu(one_game("clock: {limit: 600, increment: 0}",
                                 "{kind: random, think_ms: 40, accept_draw: true}"));
    emu_test::HttpClient http(emu.port(), emu.token());
    ASSERT_TRUE(emu.wait_until([&] { return !emu->games().empty(); }));
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/e2e4?offeringDraw=true").status, 200);
    const auto g = emu.wait_game_over("game0001");
    EXPECT_EQ(g.status, "draw");
}

TEST(Play, TakebackRequestedByTheOpponent) {
    EmulatorFixture emu(
        one_game("clock: {limit: 600, increment: 0}",
                 "{kind: line, moves: [e7e5, d7d5], think_ms: 0, takeback_at_ply: 2}"));
    emu_test::HttpClient http(emu.port(), emu.token());
    emu_test::StreamReader game(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    ASSERT_FALSE(emu_test::next_of_type(game, "gameFull").is_null());
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/e2e4").status, 200);
    nlohmann::json st;
    for (int i = 0; i < 5 && (st.is_null() || !st.value("btakeback", false)); ++i)
        st = emu_test::next_of_type(game, "gameState");
    ASSERT_FALSE(st.is_null());
    EXPECT_EQ(st["moves"], "e2e4 e7e5");
    ASSERT_EQ(http.post("/api/bot/game/game0001/takeback/yes").status, 200);
    auto back = emu_test::next_of_type(game, "gameState");
    EXPECT_EQ(back["moves"], "e2e4");
    // The opponent moves again, now with the next move of its line.
    ASSERT_TRUE(emu.wait_until([&] { return emu->games()[0].uci_moves == "e2e4 d7d5"; }));
}

TEST(Play, TakebackRequestedByTheOpponentOnItsTurnTakesBackTwoPlies) {
    // Its 500 ms of thinking keep its next move from cancelling the request before the answer.
    EmulatorFixture emu(one_game(
        "clock: {limit: 600, increment: 0}",
        "{kind: line, moves: [e7e5, d7d5], think_ms: 500, takeback_on_turn_at_plies: [3]}"));
    emu_test::HttpClient http(emu.port(), emu.token());
    emu_test::StreamReader game(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    ASSERT_FALSE(emu_test::next_of_type(game, "gameFull").is_null());
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/e2e4").status, 200);
    ASSERT_TRUE(emu.wait_until([&] { return emu->games()[0].moves.size() == 2; }));
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/g1f3").status, 200);
    nlohmann::json st;
    for (int i = 0; i < 5 && (st.is_null() || !st.value("btakeback", false)); ++i)
        st = emu_test::next_of_type(game, "gameState");
    ASSERT_FALSE(st.is_null());
    EXPECT_EQ(st["moves"], "e2e4 e7e5 g1f3");
    ASSERT_EQ(http.post("/api/bot/game/game0001/takeback/yes").status, 200);
    // On its turn its own last move and the bot's go: black to move after e2e4 again.
    EXPECT_EQ(emu_test::next_of_type(game, "gameState")["moves"], "e2e4");
    EXPECT_EQ(emu->games()[0].events.back(), "takeback_accepted_by_bot@1");
    ASSERT_TRUE(emu.wait_until([&] { return emu->games()[0].uci_moves == "e2e4 d7d5"; }));
}

// The opponent leaves on its turn at ply 3 (claimWinInSeconds 1). `claim` ("claim-victory" or
// "claim-draw") is ignored with a 200 before anyone left (lila: the game is still abortable and
// it is the bot's turn), refused with a 400 before the second passed, ends the game in between,
// and is ignored (200, no change) after the end. Returns the finished game.
GameView claim_after_the_opponent_leaves(const std::string& claim) {
    EmulatorFixture emu(
        one_game("clock: {limit: 600, increment: 0}",
                 "{kind: random, think_ms: 0, go_away_at_ply: 3, claim_win_in_seconds: 1}"));
    emu_test::HttpClient http(emu.port(), emu.token());
    emu_test::StreamReader game(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    EXPECT_FALSE(emu_test::next_of_type(game, "gameFull").is_null());
    const std::string url = "/api/bot/game/game0001/" + claim;
    EXPECT_EQ(http.post(url).status, 200);  // nobody has gone: nothing happens
    EXPECT_FALSE(emu->games()[0].over);
    EXPECT_EQ(http.post("/api/bot/game/game0001/move/e2e4").status, 200);
    EXPECT_TRUE(emu.wait_until([&] { return emu->games()[0].moves.size() == 2; }));
    EXPECT_EQ(http.post("/api/bot/game/game0001/move/d2d4").status, 200);
    const auto gone = emu_test::next_of_type(game, "opponentGone");
    EXPECT_TRUE(gone.is_object() && gone["gone"] == true) << gone.dump();
    EXPECT_TRUE(gone.is_object() && gone["claimWinInSeconds"] == 1) << gone.dump();
    EXPECT_EQ(http.post(url).status, 400);  // too early
    EXPECT_TRUE(
        emu.wait_until([&] { return http.post(url).status == 200; }, std::chrono::seconds(5)));
    const auto g = emu.wait_game_over("game0001");
    EXPECT_EQ(http.post(url).status, 200);  // over: nothing happens
    EXPECT_EQ(emu->games()[0].status, g.status);
    return g;
}

TEST(Play, OpponentGoesAwayAndTheBotClaimsVictory) {
    const auto g = claim_after_the_opponent_leaves("claim-victory");
    EXPECT_EQ(g.status, "timeout");
    EXPECT_EQ(g.winner, "white");
    ASSERT_FALSE(g.events.empty());
    EXPECT_EQ(g.events.back(), "victory_claimed_by_bot@3");
}

TEST(Play, OpponentGoesAwayAndTheBotClaimsADraw) {
    // lila's DrawForce ends the game with Finisher.rageQuit(game, None): timeout, no winner.
    const auto g = claim_after_the_opponent_leaves("claim-draw");
    EXPECT_EQ(g.status, "timeout");
    EXPECT_FALSE(g.winner.has_value());
    ASSERT_FALSE(g.events.empty());
    EXPECT_EQ(g.events.back(), "draw_claimed_by_bot@3");
}

TEST(Play, AClaimOnTheBotsOwnTurnIsIgnoredWithA200) {
    // The opponent leaves right after its move, so the bot is to move: lila's mightClaimWin is
    // false on our turn, and the claim answers 200 without ending the game.
    EmulatorFixture emu(
        one_game("clock: {limit: 600, increment: 0}",
                 "{kind: random, think_ms: 0, go_away_at_ply: 3, go_away_on_bot_turn: true, "
                 "claim_win_in_seconds: 0}"));
    emu_test::HttpClient http(emu.port(), emu.token());
    emu_test::StreamReader game(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    EXPECT_FALSE(emu_test::next_of_type(game, "gameFull").is_null());
    EXPECT_EQ(http.post("/api/bot/game/game0001/move/e2e4").status, 200);
    EXPECT_TRUE(emu.wait_until([&] { return emu->games()[0].moves.size() == 2; }));
    EXPECT_EQ(http.post("/api/bot/game/game0001/move/d2d4").status, 200);
    EXPECT_TRUE(emu.wait_until([&] { return emu->games()[0].moves.size() == 4; }));
    const auto gone = emu_test::next_of_type(game, "opponentGone");
    EXPECT_TRUE(gone.is_object() && gone["gone"] == true) << gone.dump();
    EXPECT_EQ(http.post("/api/bot/game/game0001/claim-victory").status, 200);
    EXPECT_FALSE(emu->games()[0].over);
    EXPECT_EQ(emu->games()[0].events.back(), "claim_ignored@4");
    // After the bot's move the gone opponent is on move: now the claim ends the game.
    EXPECT_EQ(http.post("/api/bot/game/game0001/move/g1f3").status, 200);
    EXPECT_EQ(http.post("/api/bot/game/game0001/claim-victory").status, 200);
    const auto g = emu.wait_game_over("game0001");
    EXPECT_EQ(g.status, "timeout");
    EXPECT_EQ(g.winner, "white");
}

TEST(Play, EngineOpponentSearchesToItsNodeLimit) {
    // Depth 64 would never end in a test: the 3000-node limit is what stops the opponent, and
    // one thread at a fixed node count is deterministic, so a fresh engine given the same
    // limits in the same position picks the same reply.
    EmulatorFixture emu(one_game("clock: {limit: 600, increment: 0}",
                                 "{kind: engine, search: outpost, depth: 64, nodes: 3000, "
                                 "think_ms: 0}"));
    emu_test::HttpClient http(emu.port(), emu.token());
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/e2e4").status, 200);
    ASSERT_TRUE(emu.wait_until([&] { return emu->games()[0].moves.size() == 2; },
                               std::chrono::seconds(60)));
    const std::string reply = emu->games()[0].moves[1].uci;

    engine::Position pos;
    ASSERT_TRUE(pos.play_uci("e2e4"));
    engine::Engine same(engine::EngineOptions{1, 1});
    engine::SearchLimits limits;
    limits.depth = 64;
    limits.nodes = 3000;
    const std::atomic<bool> stop{false};
    const auto r = same.search(pos, limits, stop);
    EXPECT_LE(r.nodes, 3000u + 1024u);
    EXPECT_EQ(reply, pos.to_uci(r.best));
}

TEST(Play, OpponentResignsAtPlyAndChats) {
    EmulatorFixture emu(one_game(
        "clock: {limit: 600, increment: 0}",
        "{kind: random, think_ms: 0, resign_at_ply: 3, chat: [{at_ply: 0, text: hello}]}"));
    emu_test::HttpClient http(emu.port(), emu.token());
    emu_test::StreamReader game(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    ASSERT_FALSE(emu_test::next_of_type(game, "gameFull").is_null());
    auto chat = emu_test::next_of_type(game, "chatLine");
    EXPECT_EQ(chat["text"], "hello");
    EXPECT_EQ(chat["room"], "player");
    ASSERT_EQ(http.post("/api/bot/game/game0001/chat", "room=player&text=good+luck%21").status,
              200);
    EXPECT_EQ(emu_test::next_of_type(game, "chatLine")["text"],
              "good luck!");  // own messages are echoed
    EXPECT_EQ(http.post("/api/bot/game/game0001/chat", "room=nowhere&text=x").status, 400);
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/e2e4").status, 200);
    ASSERT_TRUE(emu.wait_until([&] { return emu->games()[0].moves.size() == 2; }));
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/d2d4").status, 200);
    const auto g = emu.wait_game_over("game0001");
    EXPECT_EQ(g.status, "resign");
    EXPECT_EQ(g.winner, "white");
    ASSERT_EQ(g.chat.size(), 2u);
    EXPECT_EQ(g.chat[1].user, "OutpostBot");
    EXPECT_EQ(emu->report()["games"][0]["chat"].size(), 2u);
}

TEST(Play, CastlingArrivesKingToRookByDefault) {
    const std::string fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    EmulatorFixture emu(
        "games: [{id: game0001, bot_color: white, variant: fromPosition, initial_fen: \"" + fen +
        "\", opponent: {kind: line, moves: [e8c8], think_ms: 0}}]\n");
    emu_test::HttpClient http(emu.port(), emu.token());
    emu_test::StreamReader game(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    auto full = emu_test::next_of_type(game, "gameFull");
    ASSERT_FALSE(full.is_null());
    EXPECT_EQ(full["initialFen"], fen);
    EXPECT_FALSE(full.contains("clock"));  // unlimited
    EXPECT_EQ(full["state"]["wtime"], 2147483647);
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/e1g1").status, 200);
    ASSERT_TRUE(emu.wait_until([&] { return emu->games()[0].moves.size() == 2; }));
    EXPECT_EQ(emu->games()[0].uci_moves, "e1h1 e8a8");
}

TEST(Play, ExitWhenAllGamesFinished) {
    EmulatorFixture emu(R"(
exit_when: all_games_finished
exit_linger_ms: 100
games: [{id: game0001, bot_color: black, clock: {limit: 60, increment: 0}, opponent: {kind: random, think_ms: 0, resign_at_ply: 2}}]
)");
    emu_test::HttpClient http(emu.port(), emu.token());
    ASSERT_TRUE(emu.wait_until([&] { return emu->games()[0].moves.size() == 1; }));
    EXPECT_FALSE(emu->done());
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/e7e5").status, 200);
    EXPECT_TRUE(emu->wait_done(10000));
    EXPECT_EQ(emu->games()[0].status, "resign");
    EXPECT_EQ(emu->games()[0].winner, "black");
}

class EngineOpponent : public ::testing::TestWithParam<const char*> {};

TEST_P(EngineOpponent, TakesAHangingQueen) {
    // White's queen on d5 can be taken by the e6 pawn: any search must do it.
    EmulatorFixture emu(
        std::string(
            "games: [{id: game0001, bot_color: white, variant: fromPosition, initial_fen: "
            "\"4k3/8/4p3/8/8/8/8/3QK3 w - - 0 1\", opponent: {kind: engine, depth: 3, search: ") +
        GetParam() + ", think_ms: 0}}]\n");
    emu_test::HttpClient http(emu.port(), emu.token());
    ASSERT_TRUE(emu.wait_until([&] { return !emu->games().empty(); }));
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/d1d5").status, 200);
    ASSERT_TRUE(emu.wait_until([&] { return emu->games()[0].moves.size() == 2; }));
    EXPECT_EQ(emu->games()[0].moves[1].uci, "e6d5");
}

INSTANTIATE_TEST_SUITE_P(Searches, EngineOpponent, ::testing::Values("outpost", "material"));

}  // namespace
}  // namespace emu
