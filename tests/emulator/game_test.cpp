// Unit tests of the game model: clocks, increments, flag, noStart, game end (mate, stalemate,
// repetition, fifty moves, insufficient material), castling text, illegal moves and takebacks,
// with explicit timestamps (no threads, no HTTP).
#include "game.hpp"

#include <gtest/gtest.h>

#include "game_json.hpp"

namespace emu {
namespace {

Game make(int limit_s, int inc_s, int clock_start_ply = 2, bool king_to_rook = true,
          std::string fen = "", std::string moves = "") {
    GameSetup s;
    s.id = "testgame";
    s.bot = {"bot", "Bot", std::string("BOT"), 1500, false};
    s.opponent = {"opp", "Opp", std::nullopt, 1500, false};
    s.time_control.limit_s = limit_s;
    s.time_control.increment_s = inc_s;
    s.clock_start_ply = clock_start_ply;
    s.first_move_timeout_ms = 1000;
    s.source = "arena";  // a mandatory game: the first-move timer ends it as noStart
    s.king_to_rook = king_to_rook;
    s.initial_fen = fen;
    auto g = Game::create(s, moves, 0);
    EXPECT_TRUE(g) << g.error();
    return std::move(*g);
}

TEST(Game, ClockTicksOnlyForTheSideToMoveAfterBothFirstMoves) {
    Game g = make(60, 2);
    EXPECT_FALSE(g.clock_running());
    ASSERT_FALSE(g.play(engine::WHITE, "e2e4", 500, true));
    ASSERT_FALSE(g.play(engine::BLACK, "e7e5", 900, false));
    EXPECT_TRUE(g.clock_running());
    EXPECT_EQ(g.remaining(engine::WHITE, 900), 60000);
    EXPECT_EQ(g.remaining(engine::WHITE, 3900), 57000);
    EXPECT_EQ(g.remaining(engine::BLACK, 3900), 60000);
    ASSERT_FALSE(g.play(engine::WHITE, "g1f3", 3900, true));
    EXPECT_EQ(g.remaining(engine::WHITE, 5000), 59000);  // 57 s + 2 s increment
    EXPECT_EQ(g.remaining(engine::BLACK, 5000), 58900);
}

TEST(Game, FlagsTheSideToMove) {
    Game g = make(2, 0);
    ASSERT_FALSE(g.play(engine::WHITE, "e2e4", 10, true));
    ASSERT_FALSE(g.play(engine::BLACK, "e7e5", 20, false));
    EXPECT_FALSE(g.check_time(1000));
    EXPECT_TRUE(g.check_time(2020));
    EXPECT_EQ(g.status(), "outoftime");
    EXPECT_EQ(g.winner(), engine::BLACK);
    EXPECT_EQ(g.remaining(engine::WHITE, 3000), 0);
    EXPECT_TRUE(g.play(engine::BLACK, "d7d5", 3000, false));  // over: rejected
}

TEST(Game, NoStartWhenTheFirstMoveNeverComes) {
    Game g = make(60, 0);
    ASSERT_FALSE(g.play(engine::WHITE, "e2e4", 100, true));
    EXPECT_FALSE(g.check_time(1000));
    EXPECT_TRUE(g.check_time(1100));
    EXPECT_EQ(g.status(), "noStart");
    EXPECT_EQ(g.winner(), engine::WHITE);
}

TEST(Game, MateEndsTheGame) {
    Game g = make(60, 0);
    for (const char* m : {"f2f3", "e7e5", "g2g4"})
        ASSERT_FALSE(g.play(g.position().side_to_move(), m, 0, false));
    ASSERT_FALSE(g.play(engine::BLACK, "d8h4", 0, false));
    EXPECT_EQ(g.status(), "mate");
    EXPECT_EQ(g.winner(), engine::BLACK);
    EXPECT_EQ(game_state_json(g, 0)["winner"], "black");
}

// A drawn ending as Lichess reports it: the status name (stalemate, or draw for repetition, fifty
// moves and insufficient material) and its id on gameState and gameFinish, and no winner.
void expect_drawn_end(const Game& g, const std::string& status, int id) {
    EXPECT_TRUE(g.over());
    EXPECT_EQ(g.status(), status);
    EXPECT_FALSE(g.winner().has_value());
    const auto state = game_state_json(g, 0);
    EXPECT_EQ(state["status"], status);
    EXPECT_FALSE(state.contains("winner"));
    const auto finish = game_event_json(g, "gameFinish", 0);
    EXPECT_EQ(finish["game"]["status"]["name"], status);
    EXPECT_EQ(finish["game"]["status"]["id"], id);
    EXPECT_FALSE(finish["game"].contains("winner"));
}

TEST(Game, StalemateIsADrawWithStatusStalemate) {
    Game g = make(60, 0, 2, true, "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1");
    ASSERT_FALSE(g.over());
    ASSERT_FALSE(g.play(engine::WHITE, "f1f7", 0, true));  // Kh8: g8, g7, h7 all covered, no check
    expect_drawn_end(g, "stalemate", 32);
    EXPECT_TRUE(g.play(engine::BLACK, "h8g8", 0, false));
}

TEST(Game, ThreefoldRepetitionIsADraw) {
    Game g = make(60, 0);
    // The start position occurs again after plies 4 and 8: the third time ends the game.
    for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"})
        ASSERT_FALSE(g.play(g.position().side_to_move(), m, 0, false));
    ASSERT_FALSE(g.over());
    ASSERT_FALSE(g.play(engine::BLACK, "f6g8", 0, false));
    expect_drawn_end(g, "draw", 34);
    EXPECT_TRUE(g.play(engine::WHITE, "e2e4", 0, true));
}

TEST(Game, FiftyMoveRuleIsADraw) {
    Game g = make(60, 0, 2, true, "7k/8/8/8/8/8/8/R6K w - - 99 80");
    ASSERT_FALSE(g.over());
    ASSERT_FALSE(
        g.play(engine::WHITE, "a1a2", 0, true));  // the 100th ply without capture or pawn move
    expect_drawn_end(g, "draw", 34);
    EXPECT_TRUE(g.play(engine::BLACK, "h8g8", 0, false));
}

TEST(Game, InsufficientMaterialIsADraw) {
    Game g = make(60, 0, 2, true, "7k/8/8/8/8/8/1r6/K6N w - - 0 1");
    ASSERT_FALSE(g.over());
    ASSERT_FALSE(
        g.play(engine::WHITE, "a1b2", 0, true));  // takes the last rook: king and knight vs king
    expect_drawn_end(g, "draw", 34);
    EXPECT_TRUE(g.play(engine::BLACK, "h8g8", 0, false));
}

// A game of a Lichess variant, refereed by the engine's rules of that variant.
Game variant_game(const std::string& key, std::string fen = "") {
    GameSetup s;
    s.id = "variant1";
    s.variant = key;
    s.time_control.limit_s = 60;
    s.initial_fen = std::move(fen);
    auto g = Game::create(s, "", 0);
    EXPECT_TRUE(g) << g.error();
    return std::move(*g);
}

TEST(Game, EveryVariantIsRefereedByItsOwnRulesAndEndsAsScalachessSays) {
    // Crazyhouse: a capture fills the pocket, a drop is written N@f3 and a wrong one refused.
    Game zh = variant_game("crazyhouse");
    for (const char* m : {"e2e4", "d7d5", "e4d5", "d8d5"})
        ASSERT_FALSE(zh.play(zh.position().side_to_move(), m, 0, false)) << m;
    EXPECT_TRUE(zh.play(engine::WHITE, "N@e4", 0, true)) << "no knight in White's pocket";
    ASSERT_FALSE(zh.play(engine::WHITE, "P@e6", 0, true));
    EXPECT_EQ(zh.uci_moves(), "e2e4 d7d5 e4d5 d8d5 P@e6");

    // King of the Hill: a king on the hill ends the game, winner the king's side.
    Game koth = variant_game("kingOfTheHill", "4k3/8/8/8/8/4K3/8/8 w - - 0 1");
    ASSERT_FALSE(koth.play(engine::WHITE, "e3e4", 0, true));
    EXPECT_EQ(koth.status(), "variantEnd");
    EXPECT_EQ(koth.winner(), engine::WHITE);
    EXPECT_EQ(status_json(koth.status())["id"], 60);

    // Racing kings: both kings home is a draw; the horde starts from its own position.
    Game race = variant_game("racingKings", "8/1K5k/8/8/8/8/8/8 w - - 0 1");
    ASSERT_FALSE(race.play(engine::WHITE, "b7b8", 0, true));
    ASSERT_FALSE(race.over()) << "Black may still reach the eighth rank";
    ASSERT_FALSE(race.play(engine::BLACK, "h7h8", 0, false));
    expect_drawn_end(race, "draw", 34);
    Game horde = variant_game("horde");
    EXPECT_FALSE(horde.play(engine::WHITE, "b5b6", 0, true));

    // Antichess: a skipped capture is refused, and the king promotion keeps its 'k'.
    Game anti = variant_game("antichess", "8/4P3/8/8/8/8/8/k7 w - - 0 1");
    ASSERT_FALSE(anti.play(engine::WHITE, "e7e8k", 0, true));
    EXPECT_EQ(anti.uci_moves(), "e7e8k");

    // A key Lichess does not have is no game.
    GameSetup unknown;
    unknown.id = "variant2";
    unknown.variant = "duckChess";
    EXPECT_FALSE(Game::create(unknown, "", 0));
}

TEST(Game, RejectsIllegalAndOutOfTurnMoves) {
    Game g = make(60, 0);
    EXPECT_EQ(*g.play(engine::BLACK, "e7e5", 0, false), "Not your turn, or game already over");
    EXPECT_TRUE(g.play(engine::WHITE, "e2e5", 0, true));
    EXPECT_TRUE(g.play(engine::WHITE, "zz", 0, true));
    EXPECT_EQ(g.ply(), 0);
}

TEST(Game, CastlingIsWrittenKingToRookOrKingTwoSquares) {
    const std::string fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    Game a = make(60, 0, 2, true, fen);
    ASSERT_FALSE(a.play(engine::WHITE, "e1g1", 0, true));   // accepts the two-squares form
    ASSERT_FALSE(a.play(engine::BLACK, "e8a8", 0, false));  // and the king-to-rook form
    EXPECT_EQ(a.uci_moves(), "e1h1 e8a8");
    Game b = make(60, 0, 2, false, fen);
    ASSERT_FALSE(b.play(engine::WHITE, "e1h1", 0, true));
    ASSERT_FALSE(b.play(engine::BLACK, "e8c8", 0, false));
    EXPECT_EQ(b.uci_moves(), "e1g1 e8c8");
}

TEST(Game, TakebackRemovesTheProposersLastMove) {
    Game g = make(60, 0, 2, true, "", "e2e4 e7e5 g1f3");
    ASSERT_EQ(g.ply(), 3);
    EXPECT_TRUE(g.take_back(engine::WHITE, 0));  // black to move: one ply
    EXPECT_EQ(g.uci_moves(), "e2e4 e7e5");
    EXPECT_TRUE(g.take_back(engine::WHITE, 0));  // white to move: two plies
    EXPECT_EQ(g.uci_moves(), "");
}

TEST(Game, WireFormsFollowTheSpec) {
    Game g = make(180, 2, 2, true, "", "e2e4");
    const auto full = game_full_json(g, 0);
    EXPECT_EQ(full["type"], "gameFull");
    EXPECT_EQ(full["initialFen"], "startpos");
    EXPECT_EQ(full["clock"]["initial"], 180000);
    EXPECT_EQ(full["clock"]["increment"], 2000);
    EXPECT_EQ(full["speed"], "blitz");
    EXPECT_EQ(full["state"]["moves"], "e2e4");
    EXPECT_EQ(full["state"]["winc"], 2000);
    EXPECT_TRUE(full["white"]["title"].is_string());
    EXPECT_TRUE(full["black"]["title"].is_null());
    const auto start = game_event_json(g, "gameStart", 0);
    EXPECT_EQ(start["game"]["gameId"], "testgame");
    EXPECT_EQ(start["game"]["status"]["name"], "started");
    EXPECT_EQ(start["game"]["status"]["id"], 20);
    EXPECT_EQ(start["game"]["isMyTurn"], false);
    EXPECT_EQ(start["game"]["fullId"].get<std::string>().size(), 12u);
}

TEST(Game, CorrespondenceHasDaysAndNoTickingClock) {
    GameSetup s;
    s.id = "corresp1";
    s.time_control.days = 3;
    auto g = Game::create(s, "e2e4 e7e5", 0);
    ASSERT_TRUE(g);
    EXPECT_FALSE(g->clock_running());
    EXPECT_EQ(g->remaining(engine::WHITE, 10'000'000), 3 * 86'400'000LL);
    const auto full = game_full_json(*g, 0);
    EXPECT_EQ(full["daysPerTurn"], 3);
    EXPECT_FALSE(full.contains("clock"));
    EXPECT_EQ(full["speed"], "correspondence");
}

}  // namespace
}  // namespace emu
