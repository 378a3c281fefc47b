// The UCI front end driven through string streams: handshake, options, positions, go/stop,
// perft and bad input.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "engine/uci.hpp"
#include "uci_script.hpp"

namespace engine {
namespace {

std::string run_script(const std::string& script, std::ostringstream* log = nullptr) {
    return uci_script::run(script, log);
}

TEST(Uci, HandshakeListsIdentityAndOptions) {
    const std::string out = run_script("uci\nisready\nquit\n");
    EXPECT_NE(out.find("id name Outpost "), std::string::npos);
    EXPECT_NE(out.find("id author "), std::string::npos);
    for (const char* opt :
         {"Hash", "Threads", "Move Overhead", "UCI_Chess960", "Ponder", "Clear Hash"})
        EXPECT_NE(out.find(std::string("option name ") + opt + " type"), std::string::npos) << opt;
    EXPECT_LT(out.find("uciok"), out.find("readyok"));
}

TEST(Uci, ScriptedSessionGivesALegalBestMove) {
    const std::string out = run_script(
        "uci\nsetoption name Hash value 8\nsetoption name Threads value 1\nisready\n"
        "ucinewgame\nposition startpos moves e2e4 e7e5 g1f3\ngo depth 5\n");
    EXPECT_NE(out.find("info depth 5 "), std::string::npos);
    EXPECT_NE(out.find(" pv "), std::string::npos);
    EXPECT_NE(out.find("score cp "), std::string::npos);
    const std::string best = uci_script::bestmove_of(out);
    Position pos;
    for (const char* m : {"e2e4", "e7e5", "g1f3"}) ASSERT_TRUE(pos.play_uci(m));
    EXPECT_TRUE(pos.parse_uci(best)) << out;
}

TEST(Uci, PositionFenAndMovesAndMateScore) {
    const std::string out =
        run_script("position fen 3r2k1/5ppp/8/8/8/8/5PPP/3RR1K1 w - - 0 1\ngo depth 4\n");
    EXPECT_NE(out.find("score mate 1"), std::string::npos) << out;
    EXPECT_EQ(uci_script::bestmove_of(out), "d1d8");
}

TEST(Uci, NoLegalMoveAnswersNullMove) {
    const std::string out = run_script("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\ngo depth 3\n");
    EXPECT_EQ(uci_script::bestmove_of(out), "0000");
}

TEST(Uci, GoPerftPrintsStockfishStyle) {
    const std::string out = run_script("position startpos\ngo perft 3\n");
    EXPECT_NE(out.find("e2e4: 600\n"), std::string::npos);
    EXPECT_NE(out.find("\nNodes searched: 8902\n"), std::string::npos);
}

TEST(Uci, InfiniteSearchAnswersIsreadyAndStops) {
    std::ostringstream out;
    Uci uci(out);
    ASSERT_TRUE(uci.handle("position startpos"));
    ASSERT_TRUE(uci.handle("go infinite"));
    ASSERT_TRUE(uci.handle("isready"));
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
    ASSERT_TRUE(uci.handle("stop"));
    const std::string text = out.str();
    EXPECT_NE(text.find("readyok"), std::string::npos);
    EXPECT_TRUE(Position().parse_uci(uci_script::bestmove_of(text))) << text;
    EXPECT_FALSE(uci.handle("quit"));
}

TEST(Uci, PonderThenPonderhitThenBestmove) {
    std::ostringstream out;
    Uci uci(out);
    ASSERT_TRUE(uci.handle("position startpos moves e2e4"));
    ASSERT_TRUE(uci.handle("go ponder wtime 200 btime 200"));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_EQ(out.str().find("bestmove"), std::string::npos);  // no answer while pondering
    ASSERT_TRUE(uci.handle("ponderhit"));
    uci.wait_for_search();
    EXPECT_NE(out.str().find("bestmove"), std::string::npos);
}

TEST(Uci, MoveTimeAndClockLimits) {
    const std::string out = run_script(
        "position startpos\ngo movetime 50\nposition startpos moves d2d4\n"
        "go wtime 1000 btime 1000 winc 0 binc 0\nisready\n");
    // Each go finishes before the next command runs (a go while searching waits its turn).
    std::size_t count = 0;
    for (std::size_t at = out.find("bestmove"); at != std::string::npos;
         at = out.find("bestmove", at + 1))
        ++count;
    EXPECT_EQ(count, 2u);
}

TEST(Uci, UnknownAndBrokenInputIsIgnoredAndLogged) {
    std::ostringstream log;
    const std::string out = run_script(
        "hello world\nsetoption name NoSuchOption value 3\nposition fen not a fen\n"
        "position startpos moves e2e5\ngo depth 2 bogus\nisready\n",
        &log);
    EXPECT_NE(out.find("readyok"), std::string::npos);
    EXPECT_NE(out.find("bestmove"), std::string::npos);
    EXPECT_NE(log.str().find("hello world"), std::string::npos);
    EXPECT_NE(log.str().find("nosuchoption"), std::string::npos);
    EXPECT_NE(log.str().find("e2e5"), std::string::npos);
}

// std::cin is tied to std::cout; a tied input would flush the output from the reading thread,
// outside the lock the search thread writes under (a bestmove came out twice). The loop unties.
TEST(Uci, LoopUntiesItsInputFromTheOutput) {
    std::ostringstream out, tied;
    std::istringstream in("isready\n");
    in.tie(&tied);
    Uci uci(out);
    uci.loop(in);
    EXPECT_EQ(in.tie(), nullptr);
    EXPECT_NE(out.str().find("readyok"), std::string::npos);
}

// With UCI_Chess960 on, castling is written and read as the king taking its own rook: the
// divide lists e1h1 and e1a1 (never e1g1 or e1c1), e1h1 played puts the king on g1 and the rook
// on f1, and a searched Chess960 position answers with one of its legal moves.
TEST(Uci, Chess960CastlingIsKingToRook) {
    const std::string out = run_script(
        "setoption name UCI_Chess960 value true\n"
        "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1\ngo perft 1\n"
        "position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 moves e1h1\nd\n");
    EXPECT_NE(out.find("\ne1h1: 1\n"), std::string::npos) << out;
    EXPECT_NE(out.find("\ne1a1: 1\n"), std::string::npos) << out;
    EXPECT_EQ(out.find("e1g1:"), std::string::npos) << out;
    EXPECT_EQ(out.find("e1c1:"), std::string::npos) << out;
    EXPECT_NE(out.find("Nodes searched: 26\n"), std::string::npos) << out;
    EXPECT_NE(out.find("r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"), std::string::npos) << out;

    const std::string fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    const std::string searched = run_script(
        "setoption name UCI_Chess960 value true\nposition fen " + fen + "\ngo depth 3\n");
    const std::string best = uci_script::bestmove_of(searched);
    auto pos = Position::from_fen(fen, true);
    ASSERT_TRUE(pos);
    EXPECT_TRUE(pos->parse_uci(best)) << searched;
}

TEST(Uci, RepeatedFixedNodeSearchAfterUcinewgameIsIdentical) {
    const std::string script = "ucinewgame\nposition startpos moves e2e4 c7c5\ngo nodes 20000\n";
    auto nodes_line = [](const std::string& out) { return out.substr(out.rfind("info depth")); };
    const std::string a = run_script(script + "isready\n" + script);
    const auto first = a.find("bestmove");
    ASSERT_NE(first, std::string::npos);
    const auto second = a.find("bestmove", first + 1);
    ASSERT_NE(second, std::string::npos);
    const std::string one = nodes_line(a.substr(0, first));
    const std::string two = nodes_line(a.substr(first, second - first));
    // Same depth, score, nodes and pv (time and nps may differ).
    auto strip = [](std::string s) {
        s = s.substr(0, s.find(" nps ")) + s.substr(s.find(" hashfull "));
        return s.substr(0, s.find(" time ")) + s.substr(s.find(" pv "));
    };
    EXPECT_EQ(strip(one), strip(two));
}

}  // namespace
}  // namespace engine
