// Variant FENs in and out (pockets in both forms, promoted marks, both three-check forms), the
// variants' setup rules, bad FENs, and the incremental key against one computed from scratch
// along random walks in every variant.
#include <gtest/gtest.h>

#include "engine/fen.hpp"
#include "engine/position.hpp"
#include "variant_moves.hpp"

namespace engine {
namespace {

TEST(VariantFen, StartPositionsPrintAsLichessWritesThem) {
    for (const Variant v : ALL_VARIANTS) {
        const Position pos = Position::start(v);
        EXPECT_EQ(pos.fen(), start_fen(v)) << lichess_key(v);
        EXPECT_EQ(pos.variant(), v);
    }
    EXPECT_EQ(Position::start(Variant::THREE_CHECK).fen(),
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +0+0");
    // The same pieces in two variants are two positions: one TT never mixes their scores.
    EXPECT_NE(Position::start(Variant::ATOMIC).key(), Position().key());
    EXPECT_NE(Position::start(Variant::ATOMIC).key(),
              Position::start(Variant::KING_OF_THE_HILL).key());
}

TEST(VariantFen, PocketsInBracketsOrAsANinthRankAreTheSame) {
    const auto brackets = parse_variant_fen<Variant::CRAZYHOUSE>(
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[Qpnn] b KQkq - 0 1");
    const auto ninth = parse_variant_fen<Variant::CRAZYHOUSE>(
        "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R/Qpnn b KQkq - 0 1");
    ASSERT_TRUE(brackets.ok()) << brackets.error();
    ASSERT_TRUE(ninth.ok()) << ninth.error();
    EXPECT_EQ(brackets->key, ninth->key);
    EXPECT_EQ(brackets->state.pockets.of(WHITE, QUEEN), 1);
    EXPECT_EQ(brackets->state.pockets.of(BLACK, KNIGHT), 2);
    EXPECT_EQ(brackets->state.pockets.of(BLACK, PAWN), 1);
    // White's pieces, then black's, pawns first (scalachess FenWriter).
    EXPECT_EQ(to_fen(*ninth),
              "r1bqk2r/pppp1ppp/2n1p3/4P3/1b1Pn3/2NB1N2/PPP2PPP/R1BQK2R[Qpnn] b KQkq - 0 1");
    // An empty ninth rank is an empty pocket.
    const auto empty = parse_variant_fen<Variant::CRAZYHOUSE>(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1");
    ASSERT_TRUE(empty.ok()) << empty.error();
    EXPECT_EQ(to_fen(*empty), start_fen(Variant::CRAZYHOUSE));
}

TEST(VariantFen, PromotedMarksRoundTripAndChangeTheKey) {
    const char* fen = "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1";
    const auto b = parse_variant_fen<Variant::CRAZYHOUSE>(fen);
    ASSERT_TRUE(b.ok()) << b.error();
    EXPECT_EQ(b->state.promoted, square_bb(B7));
    EXPECT_EQ(to_fen(*b), fen);
    const auto plain =
        parse_variant_fen<Variant::CRAZYHOUSE>("4k3/1Q6/8/8/4b3/8/Kpp5/8[] b - - 0 1");
    ASSERT_TRUE(plain.ok());
    EXPECT_NE(plain->key, b->key);  // scalachess Hash.scala hashes the promoted squares
}

TEST(VariantFen, ThreeCheckCountsInBothForms) {
    // "W+B" after en passant: checks still to give; "+W+B" after the counters: checks given.
    const auto remaining =
        parse_variant_fen<Variant::THREE_CHECK>("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+2 0 1");
    const auto given =
        parse_variant_fen<Variant::THREE_CHECK>("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 +2+1");
    const auto epd =
        parse_variant_fen<Variant::THREE_CHECK>("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 1+2");
    ASSERT_TRUE(remaining.ok()) << remaining.error();
    ASSERT_TRUE(given.ok()) << given.error();
    ASSERT_TRUE(epd.ok()) << epd.error();
    EXPECT_EQ(remaining->state.checks_given[WHITE], 2);
    EXPECT_EQ(remaining->state.checks_given[BLACK], 1);
    EXPECT_EQ(remaining->key, given->key);
    EXPECT_EQ(epd->key, given->key);
    EXPECT_EQ(to_fen(*remaining), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 +2+1");
    const auto none =
        parse_variant_fen<Variant::THREE_CHECK>("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    ASSERT_TRUE(none.ok());
    EXPECT_NE(none->key, given->key);
}

TEST(VariantFen, EachVariantsSetupRules) {
    // The horde: no white king, pawns on its first rank, more than 8 of them.
    EXPECT_TRUE(Position::from_fen(start_fen(Variant::HORDE), Variant::HORDE).ok());
    EXPECT_FALSE(Position::from_fen(start_fen(Variant::HORDE), Variant::STANDARD).ok());
    // Antichess: any number of kings, none at all too.
    EXPECT_TRUE(Position::from_fen("8/1p6/8/8/8/8/P7/8 w - - 0 1", Variant::ANTICHESS).ok());
    EXPECT_TRUE(Position::from_fen("k7/8/8/8/8/8/8/KKK5 w - - 0 1", Variant::ANTICHESS).ok());
    // Atomic: touching kings are no check; the side to move may have lost its king.
    EXPECT_TRUE(Position::from_fen("8/8/8/3kK3/8/8/8/8 w - - 0 1", Variant::ATOMIC).ok());
    EXPECT_FALSE(Position::from_fen("8/8/8/3kK3/8/8/8/8 w - - 0 1", Variant::STANDARD).ok());
    EXPECT_TRUE(Position::from_fen("4k3/8/8/8/8/8/8/8 w - - 0 1", Variant::ATOMIC).ok());
    // Racing kings allows no check at all.
    EXPECT_FALSE(Position::from_fen("8/8/8/8/8/1r6/8/1K5k w - - 0 1", Variant::RACING_KINGS).ok());
}

struct BadFen {
    Variant variant;
    const char* fen;
    const char* message_part;
};

class VariantBadFen : public ::testing::TestWithParam<BadFen> {};

TEST_P(VariantBadFen, IsRejectedWithAMessageNamingTheProblem) {
    const auto& p = GetParam();
    const auto pos = Position::from_fen(p.fen, p.variant);
    ASSERT_FALSE(pos.ok()) << "accepted: " << p.fen;
    EXPECT_NE(pos.error().find(p.message_part), std::string::npos)
        << "message '" << pos.error() << "' should mention '" << p.message_part << "'";
}

INSTANTIATE_TEST_SUITE_P(
    Variants, VariantBadFen,
    ::testing::Values(
        BadFen{Variant::CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[Qx] w - - 0 1", "pocket has an invalid"},
        BadFen{Variant::CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[K] w - - 0 1", "pocket has an invalid"},
        BadFen{Variant::CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[Q w - - 0 1", "does not end with ']'"},
        BadFen{Variant::CRAZYHOUSE, "4k3/8/8/8/8/8/8/~4K3[] w - - 0 1",
               "'~' that follows no piece"},
        BadFen{Variant::STANDARD, "4k3/8/8/8/8/8/8/4K3[Q] w - - 0 1", "only crazyhouse"},
        BadFen{Variant::ATOMIC, "4k3/8/8/8/8/8/8/4K3/Q w - - 0 1", "more than 8 ranks"},
        BadFen{Variant::THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 w - - 4+0 0 1", "outside 0..3"},
        BadFen{Variant::THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 +1+", "not like '3+3'"},
        BadFen{Variant::THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1 +0+0", "two check fields"},
        BadFen{Variant::STANDARD, "4k3/8/8/8/8/8/8/4K3 w - - 3+3 0 1", "only three-check"},
        BadFen{Variant::HORDE, "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "gives the horde (white) a king"},
        BadFen{Variant::HORDE, "rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP w KQkq - 0 1",
               "that side has no king"},
        BadFen{Variant::ANTICHESS, "8/8/8/8/8/8/8/K7 w - - 0 1", "antichess needs 2 to 32"},
        BadFen{Variant::ANTICHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
               "has no castling"},
        BadFen{Variant::RACING_KINGS, "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w KQ - 0 1",
               "has no castling"},
        BadFen{Variant::ATOMIC, "8/8/8/8/8/8/8/4K3 w - - 0 1", "0 only for the side to move"},
        BadFen{Variant::KING_OF_THE_HILL, "8/8/8/8/8/8/8/4K3 w - - 0 1", "0 black kings"}),
    [](const auto& info) { return "case" + std::to_string(info.index); });

// Every variant: after each move of a random walk the incremental key equals the key computed
// from scratch, and the FEN printed reparses to the same key and text.
TEST(VariantFen, KeysAndFenRoundTripAlongRandomWalks) {
    variant_test::Rng rng{20261127};
    for (const Variant v : ALL_VARIANTS) {
        int positions = 0;
        for (int walk = 0; walk < 20; ++walk) {
            Position pos = Position::start(v);
            for (int ply = 0; ply < 80; ++ply) {
                const std::string fen = pos.fen();
                pos.visit([&](const auto& b) {
                    ASSERT_EQ(b.key, b.compute_key()) << lichess_key(v) << " " << fen;
                    ASSERT_EQ(b.checkers_bb, b.compute_checkers()) << fen;
                });
                const auto again = Position::from_fen(fen, v);
                ASSERT_TRUE(again.ok()) << lichess_key(v) << " " << fen << ": " << again.error();
                EXPECT_EQ(again->key(), pos.key()) << fen;
                EXPECT_EQ(again->fen(), fen);
                ++positions;
                const auto legal = pos.legal_moves();
                if (legal.empty()) break;
                pos.play(legal[rng.below(legal.size())]);
            }
        }
        EXPECT_GE(positions, 400) << lichess_key(v);
    }
}

}  // namespace
}  // namespace engine
