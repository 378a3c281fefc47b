// SAN printing and parsing: disambiguation, castling, promotion, check marks, and a round
// trip over every legal move of the perft suite positions.
#include <gtest/gtest.h>

#include "engine/fen.hpp"
#include "engine/movegen.hpp"
#include "engine/perft.hpp"
#include "engine/position.hpp"
#include "engine/san.hpp"
#include "test_util.hpp"

namespace engine {
namespace {

std::string san(const char* fen, const char* uci) {
    auto p = Position::from_fen(fen);
    EXPECT_TRUE(p.ok()) << p.error();
    auto m = p->parse_uci(uci);
    EXPECT_TRUE(m.ok()) << uci << ": " << m.error();
    return move_to_san(p->board(), *m);
}

TEST(San, PrintsTheUsualForms) {
    EXPECT_EQ(san(START_FEN.data(), "g1f3"), "Nf3");
    EXPECT_EQ(san(START_FEN.data(), "e2e4"), "e4");
    EXPECT_EQ(san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"), "O-O");
    EXPECT_EQ(san("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1c1"), "O-O-O");
    EXPECT_EQ(san("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6"), "exf6");
    EXPECT_EQ(san("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"), "b8=Q+");
    EXPECT_EQ(san("4k3/8/8/8/R6R/8/8/4K3 w - - 0 1", "a4d4"), "Rad4");
    EXPECT_EQ(san("4k3/8/8/8/R7/8/8/R3K3 w - - 0 1", "a1a2"), "R1a2");
    EXPECT_EQ(san("4k3/8/8/8/8/Q1Q5/8/Q3K3 w - - 0 1", "a3b2"), "Qa3b2");
    EXPECT_EQ(san("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "a1a8"), "Ra8#");
}

TEST(San, ParsesLenientForms) {
    auto b = *parse_fen(START_FEN);
    EXPECT_EQ(*parse_san(b, "Nf3"), Move(G1, F3));
    EXPECT_EQ(*parse_san(b, "Nf3!?"), Move(G1, F3));
    EXPECT_EQ(*parse_san(b, "Ng1f3"), Move(G1, F3));
    auto c = *parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    EXPECT_EQ(*parse_san(c, "0-0"), Move(E1, H1, MoveKind::CASTLING));
    EXPECT_EQ(*parse_san(c, "O-O-O+"), Move(E1, A1, MoveKind::CASTLING));
    auto d = *parse_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    EXPECT_EQ(parse_san(d, "b8Q")->promotion(), QUEEN);
    EXPECT_FALSE(parse_san(b, "Nf4").ok());
    EXPECT_FALSE(parse_san(b, "").ok());
    EXPECT_FALSE(parse_san(b, "Zz9").ok());
}

TEST(San, RoundTripsEveryLegalMoveOfTheSuitePositions) {
    int moves = 0;
    for (const auto& line : test_util::read_lines("perft/standard.epd")) {
        auto b = parse_fen((**parse_perft_line(line)).fen);
        ASSERT_TRUE(b.ok());
        for (const Move m : legal_moves(*b)) {
            const std::string text = move_to_san(*b, m);
            auto back = parse_san(*b, text);
            ASSERT_TRUE(back.ok()) << text << " in " << to_fen(*b) << ": " << back.error();
            EXPECT_EQ(*back, m) << text << " in " << to_fen(*b);
            ++moves;
        }
    }
    EXPECT_GT(moves, 1000);
}

}  // namespace
}  // namespace engine
