// The random mover speaks enough UCI for a match, in the variant it is given.
#include "tools/match/random_mover.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "engine/position.hpp"

namespace {

std::string run(const std::string& script) {
    std::istringstream in(script);
    std::ostringstream out;
    match::run_random_mover(in, out, 7);
    return out.str();
}

std::string last_bestmove(const std::string& out) {
    const auto at = out.rfind("bestmove ");
    return at == std::string::npos ? "" : out.substr(at + 9, out.find('\n', at) - at - 9);
}

TEST(MatchRandomMover, HandshakeAndALegalDrop) {
    const std::string out =
        run("uci\nsetoption name UCI_Variant value crazyhouse\nisready\n"
            "position fen r1bqkbnr/pppp1ppp/2n5/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3\ngo wtime "
            "10\n");
    EXPECT_NE(out.find("uciok"), std::string::npos);
    EXPECT_NE(out.find("readyok"), std::string::npos);
    auto pos =
        engine::Position::from_fen("r1bqkbnr/pppp1ppp/2n5/8/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq - 0 3",
                                   engine::Variant::CRAZYHOUSE);
    ASSERT_TRUE(pos);
    EXPECT_TRUE(pos->parse_uci(last_bestmove(out))) << out;
}

TEST(MatchRandomMover, PlaysOnlyLegalMovesInEveryVariant) {
    for (const engine::Variant v : engine::ALL_VARIANTS) {
        engine::Position pos = engine::Position::start(v);
        std::string moves;
        for (int ply = 0; ply < 40 && pos.result().status == engine::PositionStatus::ONGOING;
             ++ply) {
            const std::string out =
                run("setoption name UCI_Variant value " + std::string(engine::uci_name(v)) +
                    "\nposition startpos moves" + moves + "\ngo movetime 1\n");
            const std::string m = last_bestmove(out);
            ASSERT_TRUE(pos.play_uci(m)) << engine::uci_name(v) << " " << m;
            moves += " " + m;
        }
    }
}

TEST(MatchRandomMover, NoMoveLeftIsNullMove) {
    const std::string out = run("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1\ngo\n");
    EXPECT_EQ(last_bestmove(out), "0000");
}

}  // namespace
