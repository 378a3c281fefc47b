// FEN parsing and printing: round trips, Chess960 castling notations, and clear errors for
// every kind of malformed or illegal FEN.
#include <gtest/gtest.h>

#include "engine/fen.hpp"
#include "engine/fen_placement.hpp"
#include "engine/perft.hpp"
#include "test_util.hpp"

namespace engine {
namespace {

TEST(Fen, StartPositionRoundTrip) {
    auto b = parse_fen(START_FEN);
    ASSERT_TRUE(b.ok()) << b.error();
    EXPECT_EQ(to_fen(*b), START_FEN);
    EXPECT_FALSE(b->chess960);
    EXPECT_EQ(b->castling, ALL_CASTLING);
}

TEST(Fen, PlacementFromSquaresCountsEmptyRunsFromRankEight) {
    std::string squares(64, '.');
    EXPECT_EQ(fen_placement(squares, '.'), "8/8/8/8/8/8/8/8");
    squares[0] = 'R';   // a1
    squares[4] = 'K';   // e1
    squares[60] = 'k';  // e8
    squares[63] = 'r';  // h8
    squares[27] = 'P';  // d4
    EXPECT_EQ(fen_placement(squares, '.'), "4k2r/8/8/8/3P4/8/8/R3K3");
    // Any character can stand for an empty square; the data generator's records use NUL.
    std::string nul(64, '\0');
    nul[7] = 'N';
    EXPECT_EQ(fen_placement(nul, '\0'), "8/8/8/8/8/8/8/7N");
}

TEST(Fen, ParsedBoardKnowsItsCheckers) {
    auto quiet = parse_fen(START_FEN);
    ASSERT_TRUE(quiet.ok());
    EXPECT_EQ(quiet->checkers(), 0u);
    // A rook on h1 and a knight on d3 both check the white king on e1.
    auto twice = parse_fen("4k3/8/8/8/8/3n4/8/4K2r w - - 0 1");
    ASSERT_TRUE(twice.ok()) << twice.error();
    EXPECT_EQ(twice->checkers(), square_bb(H1) | square_bb(D3));
    EXPECT_TRUE(twice->in_check());
}

TEST(Fen, EveryStandardSuiteFenRoundTrips) {
    for (const auto& line : test_util::read_lines("perft/standard.epd")) {
        const auto c = **parse_perft_line(line);
        auto b = parse_fen(c.fen);
        ASSERT_TRUE(b.ok()) << c.fen << ": " << b.error();
        // The suite writes an en-passant square only where a capture is possible, as we do.
        EXPECT_EQ(to_fen(*b), c.fen);
        EXPECT_EQ(b->key, b->compute_key());
    }
}

TEST(Fen, Chess960ShredderAndXfenDescribeTheSamePosition) {
    const auto shredder = test_util::read_lines("perft/fischer.epd");
    const auto xfen = test_util::read_lines("perft/frc_perftsuite.epd");
    ASSERT_EQ(xfen.size(), 1000u);
    for (std::size_t i = 0; i < shredder.size(); ++i) {
        auto a = parse_fen((**parse_perft_line(shredder[i])).fen);
        ASSERT_TRUE(a.ok()) << a.error();
        EXPECT_EQ(a->chess960, a->castling != NO_CASTLING);  // Shredder letters imply Chess960
        // Printing then parsing again gives the same position, rights and rooks included.
        auto again = parse_fen(to_fen(*a), true);
        ASSERT_TRUE(again.ok()) << to_fen(*a) << ": " << again.error();
        EXPECT_EQ(again->key, a->key);
        for (int r = 0; r < 4; ++r)
            if (a->castling & (1 << r)) {
                EXPECT_EQ(again->castling_rook[r], a->castling_rook[r]);
            }
    }
}

TEST(Fen, XfenKqkqMeansTheOutermostRook) {
    auto b = parse_fen("rqnkbrnb/1pppp1pp/8/5p2/p1P5/3P1N2/PP2PPPP/RQNKBR1B w KQkq - 0 4");
    ASSERT_TRUE(b.ok()) << b.error();
    EXPECT_TRUE(b->chess960);
    EXPECT_EQ(b->castling_rook[castling_index(WHITE, true)], F1);
    EXPECT_EQ(b->castling_rook[castling_index(WHITE, false)], A1);
    EXPECT_EQ(b->castling_rook[castling_index(BLACK, true)], F8);
}

TEST(Fen, ShredderLettersPickTheNamedRook) {
    // Two rooks on the king side: 'G' must choose g1, not the outermost h1.
    auto b = parse_fen("4k3/8/8/8/8/8/8/R3K1RR w G - 0 1");
    ASSERT_TRUE(b.ok()) << b.error();
    EXPECT_TRUE(b->chess960);
    EXPECT_EQ(b->castling_rook[castling_index(WHITE, true)], G1);
    EXPECT_EQ(to_fen(*b), "4k3/8/8/8/8/8/8/R3K1RR w G - 0 1");
}

TEST(Fen, FourFieldEpdFormGetsDefaultCounters) {
    auto b = parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    ASSERT_TRUE(b.ok()) << b.error();
    EXPECT_EQ(b->halfmove_clock, 0);
    EXPECT_EQ(b->fullmove_number, 1);
}

TEST(Fen, EnPassantSquareKeptOnlyWhenACaptureIsPossible) {
    auto with = parse_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    ASSERT_TRUE(with.ok()) << with.error();
    EXPECT_EQ(with->en_passant, F6);
    auto without = parse_fen("rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 2");
    ASSERT_TRUE(without.ok()) << without.error();
    EXPECT_EQ(without->en_passant, SQ_NONE);
    auto same = parse_fen("rnbqkbnr/ppp1pppp/8/3p4/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 2");
    EXPECT_EQ(without->key, same->key);
}

struct BadFen {
    const char* fen;
    const char* message_part;  // the error must name the problem
};

// Shown in test names and failure messages instead of the struct's bytes.
void PrintTo(const BadFen& p, std::ostream* os) { *os << '"' << p.fen << '"'; }

class MalformedFen : public ::testing::TestWithParam<BadFen> {};

TEST_P(MalformedFen, IsRejectedWithAMessageNamingTheProblem) {
    const auto& p = GetParam();
    auto b = parse_fen(p.fen);
    ASSERT_FALSE(b.ok()) << "accepted: " << p.fen;
    EXPECT_NE(b.error().find(p.message_part), std::string::npos)
        << "message '" << b.error() << "' should mention '" << p.message_part << "'";
}

INSTANTIATE_TEST_SUITE_P(
    Fen, MalformedFen,
    ::testing::Values(
        BadFen{"", "0 fields"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0", "5 fields"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra", "7 fields"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",
               "invalid piece letter 'X'"},
        BadFen{"rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
               "invalid piece letter '9'"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1", "more than 8 squares"},
        BadFen{"rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 squares"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "7 ranks"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "more than 8 ranks"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1", "2 white kings"},
        BadFen{"rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", "0 black kings"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side to move"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqZ - 0 1", "invalid letter 'Z'"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1", "no rook"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1BNR w kq - 0 1", "0 white kings"},
        BadFen{"4k3/8/8/8/8/8/8/R3K2R w KK - 0 1", "repeats"},
        BadFen{"4k3/8/8/8/8/8/4K3/R6R w K - 0 1", "not on its back rank"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "not a square"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "impossible"},
        BadFen{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1", "impossible"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove clock"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", "fullmove number"},
        BadFen{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 999 1", "out of range"},
        BadFen{"4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1", "not to move is in check"},
        BadFen{"P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn on the first or last rank"},
        BadFen{"4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "pawn on the first or last rank"},
        BadFen{"4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "more than 8 white pawns"},
        BadFen{"4k3/8/8/4r3/1b6/3n4/8/4K3 w - - 0 1", "more than two pieces"}));

TEST(Fen, GarbageNeverCrashes) {
    const char* inputs[] = {"/",
                            "////////",
                            "8/8/8/8/8/8/8/8 w - - 0 1",
                            "k w",
                            "\xff\xfe",
                            "8/8/8/8/8/8/8/8/",
                            "KKKKKKKK/8/8/8/8/8/8/kkkkkkkk w - - 0 1",
                            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 99999999999 1"};
    for (const char* s : inputs) EXPECT_FALSE(parse_fen(s).ok()) << s;
}

}  // namespace
}  // namespace engine
