// The variants through the Position API: drops and variant moves as UCI text and SAN, the
// rules a move makes happen (pockets, promoted pieces, explosions, checks counted), each
// variant's game end with its winner, and moves the variant does not allow.
#include <gtest/gtest.h>

#include "engine/position.hpp"

namespace engine {
namespace {

Position at(Variant v, const char* fen) {
    auto p = Position::from_fen(fen, v);
    EXPECT_TRUE(p.ok()) << fen << ": " << p.error();
    return p.ok() ? *p : Position::start(v);
}

std::string play_all(Position& pos, std::initializer_list<const char*> moves) {
    for (const char* m : moves) {
        const auto r = pos.play_uci(m);
        if (!r) return r.error();
    }
    return {};
}

TEST(VariantMoves, DropsAsUciTextAndSan) {
    Position pos = at(Variant::CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[QNPp] w - - 0 1");
    const auto drop = pos.parse_uci("N@f3");
    ASSERT_TRUE(drop.ok()) << drop.error();
    EXPECT_TRUE(drop->is_drop());
    EXPECT_EQ(pos.to_uci(*drop), "N@f3");
    EXPECT_EQ(pos.san(*drop), "N@f3");
    EXPECT_EQ(pos.san(*pos.parse_uci("Q@e7")), "Q@e7+");
    EXPECT_EQ(pos.san(*pos.parse_uci("P@d7")), "P@d7+");
    EXPECT_EQ(*pos.parse_san("N@f3"), *drop);
    EXPECT_EQ(*pos.parse_san("@d7"), *pos.parse_uci("P@d7"));  // a pawn drop without its P
    EXPECT_TRUE(pos.parse_uci("n@f3").ok());                   // either case
    pos.play(*drop);
    EXPECT_EQ(pos.fen(), "4k3/8/8/8/8/5N2/8/4K3[PQp] b - - 1 1");
}

TEST(VariantMoves, CapturedPiecesGoToThePocketAndPromotedOnesAsPawns) {
    // The queen on b7 was a pawn: taken, it is a pawn in black's pocket.
    Position pos = at(Variant::CRAZYHOUSE, "4k3/1Q~6/8/8/4b3/8/Kpp5/8[] b - - 0 1");
    ASSERT_EQ(play_all(pos, {"e4b7"}), "");
    EXPECT_EQ(pos.fen(), "4k3/1b6/8/8/8/8/Kpp5/8[p] w - - 0 2");
    // A promotion leaves a marked piece; a plain capture a piece of its own type.
    Position promo = at(Variant::CRAZYHOUSE, "4k3/8/8/8/8/8/Kpp5/8[] b - - 0 1");
    ASSERT_EQ(play_all(promo, {"c2c1q"}), "");
    EXPECT_EQ(promo.fen(), "4k3/8/8/8/8/8/Kp6/2q~5[] w - - 0 2");
    Position plain = at(Variant::CRAZYHOUSE, "4k3/8/8/8/8/8/1r6/K7[] w - - 0 1");
    ASSERT_EQ(play_all(plain, {"a1b2"}), "");
    EXPECT_EQ(plain.fen(), "4k3/8/8/8/8/8/1K6/8[R] b - - 0 1");
}

TEST(VariantMoves, AntichessKingPromotionAndForcedCaptures) {
    Position pos = at(Variant::ANTICHESS, "8/4P3/8/8/8/8/8/7r w - - 0 1");
    const auto king = pos.parse_uci("e7e8k");
    ASSERT_TRUE(king.ok()) << king.error();
    EXPECT_EQ(pos.to_uci(*king), "e7e8k");
    EXPECT_EQ(pos.san(*king), "e8=K");
    EXPECT_EQ(pos.legal_moves().size(), 5);  // N, B, R, Q and K
    // A capture is available, so the quiet moves are illegal.
    Position forced = at(Variant::ANTICHESS, "8/8/8/8/3p4/4P3/8/R7 w - - 0 1");
    EXPECT_EQ(forced.legal_moves().size(), 1);
    const auto quiet = forced.parse_uci("a1a2");
    ASSERT_FALSE(quiet.ok());
    EXPECT_NE(quiet.error().find("not legal"), std::string::npos) << quiet.error();
    EXPECT_NE(quiet.error().find("antichess"), std::string::npos) << quiet.error();
}

TEST(VariantMoves, AtomicExplosions) {
    Position pos = at(Variant::ATOMIC, "4k3/3p4/1n6/8/8/8/8/3RK3 w - - 0 1");
    const auto boom = pos.parse_uci("d1d7");
    ASSERT_TRUE(boom.ok()) << boom.error();
    EXPECT_EQ(pos.san(*boom), "Rxd7#");  // the black king next to d7 explodes: a win
    pos.play(*boom);
    EXPECT_EQ(pos.fen(), "8/8/1n6/8/8/8/8/4K3 b - - 0 1");  // the knight on b6 is out of reach
    const GameResult r = pos.result();
    EXPECT_EQ(r.status, PositionStatus::VARIANT_END);
    EXPECT_EQ(r.winner, WHITE);
    EXPECT_EQ(r.reason, "king exploded");
    // A king never captures, and a capture next to one's own king is suicide.
    Position kings = at(Variant::ATOMIC, "4k3/8/8/8/8/8/3p4/4K3 w - - 0 1");
    EXPECT_FALSE(kings.parse_uci("e1d2").ok());
}

TEST(VariantMoves, MovesAVariantForbids) {
    // Racing kings: a move that gives check is illegal.
    Position race = at(Variant::RACING_KINGS, "8/8/8/8/8/k7/8/1R5K w - - 0 1");
    EXPECT_FALSE(race.parse_uci("b1a1").ok());
    EXPECT_TRUE(race.parse_uci("b1c1").ok());
    // Drops: not in standard chess, not a piece one does not hold, not onto a piece, no pawn
    // on the first or last rank.
    Position standard;
    const auto in_standard = standard.parse_uci("N@f3");
    ASSERT_FALSE(in_standard.ok());
    EXPECT_NE(in_standard.error().find("only crazyhouse"), std::string::npos);
    Position zh = at(Variant::CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K3[Pn] w - - 0 1");
    const auto not_held = zh.parse_uci("N@f3");
    ASSERT_FALSE(not_held.ok());
    EXPECT_NE(not_held.error().find("not in the pocket"), std::string::npos) << not_held.error();
    const auto occupied = zh.parse_uci("P@e1");
    ASSERT_FALSE(occupied.ok());
    EXPECT_NE(occupied.error().find("occupied"), std::string::npos) << occupied.error();
    EXPECT_FALSE(zh.parse_uci("P@a8").ok());
    EXPECT_FALSE(zh.parse_uci("X@a3").ok());
    EXPECT_EQ(zh.fen(), "4k3/8/8/8/8/8/8/4K3[Pn] w - - 0 1");  // untouched by the errors
}

TEST(VariantEnd, EachVariantsWinWithItsWinnerAndReason) {
    struct Case {
        Variant variant;
        const char* fen;
        const char* move;
        PositionStatus status;
        std::optional<Color> winner;
        const char* reason;
        const char* san;
    };
    const Case cases[] = {
        {Variant::KING_OF_THE_HILL, "7k/8/8/8/8/3K4/8/8 w - - 0 1", "d3d4",
         PositionStatus::VARIANT_END, WHITE, "king of the hill", "Kd4#"},
        {Variant::THREE_CHECK, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +2+0", "a1a8",
         PositionStatus::VARIANT_END, WHITE, "third check", "Ra8#"},
        {Variant::HORDE, "4k3/8/8/8/8/8/3q4/4P3 b - - 0 1", "d2e1", PositionStatus::VARIANT_END,
         BLACK, "horde destroyed", "Qxe1#"},
        {Variant::ANTICHESS, "8/8/8/8/8/1p6/2R5/8 w - - 0 1", "c2b2", PositionStatus::VARIANT_END,
         BLACK, "stalemate", "Rb2#"},
        {Variant::ANTICHESS, "8/8/8/8/8/8/1p6/R7 b - - 0 1", "b2a1q", PositionStatus::VARIANT_END,
         WHITE, "no pieces left", "bxa1=Q#"},
        {Variant::RACING_KINGS, "8/5K2/8/8/8/8/8/k7 w - - 0 1", "f7f8", PositionStatus::VARIANT_END,
         WHITE, "king reached the eighth rank", "Kf8#"},
        {Variant::THREE_CHECK, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +1+0", "a1a8",
         PositionStatus::ONGOING, std::nullopt, "", "Ra8+"},
    };
    for (const Case& c : cases) {
        Position pos = at(c.variant, c.fen);
        const auto m = pos.parse_uci(c.move);
        ASSERT_TRUE(m.ok()) << c.fen << " " << c.move << ": " << m.error();
        EXPECT_EQ(pos.san(*m), c.san) << c.fen;
        pos.play(*m);
        const GameResult r = pos.result();
        EXPECT_EQ(r.status, c.status) << c.fen << " " << to_string(r.status);
        EXPECT_EQ(r.winner, c.winner) << c.fen;
        EXPECT_EQ(r.reason, c.reason) << c.fen;
        if (c.status != PositionStatus::ONGOING) {
            EXPECT_TRUE(pos.legal_moves().empty());
        }
    }
}

TEST(VariantEnd, RacingKingsGivesBlackOneMoveToDraw) {
    // White's king arrived; black's can arrive too: the game goes on. Arriving draws (both
    // kings home); any other move loses.
    Position pos = at(Variant::RACING_KINGS, "8/1k3K2/8/8/8/8/8/8 w - - 0 1");
    ASSERT_EQ(play_all(pos, {"f7f8"}), "");
    EXPECT_EQ(pos.result().status, PositionStatus::ONGOING);
    Position both = pos;
    ASSERT_EQ(play_all(both, {"b7b8"}), "");
    EXPECT_EQ(both.result().status, PositionStatus::VARIANT_DRAW);
    EXPECT_EQ(both.result().winner, std::nullopt);
    ASSERT_EQ(play_all(pos, {"b7a6"}), "");
    EXPECT_EQ(pos.result().status, PositionStatus::VARIANT_END);
    EXPECT_EQ(pos.result().winner, WHITE);
}

TEST(VariantEnd, DrawRulesPerVariant) {
    // Crazyhouse has no fifty-move rule; three-check's bare kings and atomic's lone knight
    // cannot win.
    EXPECT_EQ(at(Variant::CRAZYHOUSE, "4k3/8/8/8/8/8/8/4K2R[] w - - 120 80").status(),
              PositionStatus::ONGOING);
    EXPECT_EQ(at(Variant::STANDARD, "4k3/8/8/8/8/8/8/4K2R w - - 120 80").status(),
              PositionStatus::FIFTY_MOVES);
    EXPECT_EQ(at(Variant::THREE_CHECK, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 +1+2").status(),
              PositionStatus::INSUFFICIENT_MATERIAL);
    EXPECT_EQ(at(Variant::ATOMIC, "4k3/8/8/8/8/8/8/3NK3 w - - 0 1").status(),
              PositionStatus::INSUFFICIENT_MATERIAL);
    EXPECT_EQ(at(Variant::KING_OF_THE_HILL, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").status(),
              PositionStatus::ONGOING);  // a bare king can still walk to the hill
    // Antichess: bishops on squares of different colours can never take each other.
    EXPECT_EQ(at(Variant::ANTICHESS, "8/8/8/8/8/8/8/B6b w - - 0 1").status(),
              PositionStatus::INSUFFICIENT_MATERIAL);
    EXPECT_EQ(at(Variant::ANTICHESS, "8/8/8/8/8/8/8/B5b1 w - - 0 1").status(),
              PositionStatus::ONGOING);
}

TEST(VariantEnd, CrazyhouseRepetitionLooksPastCaptures) {
    // Knights trade on d5 and are dropped back: board and pockets repeat although each
    // cycle captures twice (which resets the halfmove clock).
    Position pos = at(Variant::CRAZYHOUSE, "4k3/8/1n6/3n4/8/2N5/8/4K3[] w - - 0 1");
    for (int cycle = 0; cycle < 2; ++cycle)
        ASSERT_EQ(play_all(pos, {"c3d5", "b6d5", "N@c3", "N@b6"}), "");
    EXPECT_EQ(pos.repetitions(), 2);
    EXPECT_EQ(pos.status(), PositionStatus::THREEFOLD_REPETITION);
    // The same placement with other pockets is another position.
    EXPECT_NE(at(Variant::CRAZYHOUSE, "4k3/8/1n6/3n4/8/2N5/8/4K3[P] w - - 0 1").key(), pos.key());
}

}  // namespace
}  // namespace engine
