// DrawResignPolicy: resign and draw streaks, the move-10 rule, pieces, mates, re-offers.
#include "service/game/draw_resign.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "engine/position.hpp"

namespace service {
namespace {

config::DrawOrResignConfig settings() {
    config::DrawOrResignConfig c;
    c.resign_enabled = true;
    c.resign_score = -1000;
    c.resign_moves = 3;
    c.offer_draw_enabled = true;
    c.offer_draw_score = 20;
    c.offer_draw_moves = 4;
    c.offer_draw_pieces = 10;
    return c;
}

TEST(DrawResign, MateScoresAreLargeCentipawns) {
    EXPECT_EQ(to_centipawns({.is_mate = false, .value = -250}), -250);
    EXPECT_EQ(to_centipawns({.is_mate = true, .value = 3}), kMateCentipawns - 3);
    EXPECT_EQ(to_centipawns({.is_mate = true, .value = -2}), -kMateCentipawns + 2);
    EXPECT_EQ(to_centipawns({.is_mate = true, .value = 0}), -kMateCentipawns);
    // A nearer mate is worth more than a farther one, and any mate more than any evaluation.
    EXPECT_GT(to_centipawns({.is_mate = true, .value = 1}),
              to_centipawns({.is_mate = true, .value = 5}));
    EXPECT_LT(to_centipawns({.is_mate = true, .value = -30}), -40000);
}

TEST(DrawResign, ResignsAfterEnoughLostMovesInARow) {
    DrawResignPolicy p(settings());
    EXPECT_FALSE(p.after_search(-1200, 20, 30).resign);
    EXPECT_FALSE(p.after_search(-1000, 20, 31).resign);  // at the threshold counts
    EXPECT_TRUE(p.after_search(-5000, 20, 32).resign);
    EXPECT_EQ(p.losing_streak(), 3);
}

TEST(DrawResign, ABetterScoreStartsTheCountAgain) {
    DrawResignPolicy p(settings());
    (void)p.after_search(-1200, 20, 30);
    (void)p.after_search(-1200, 20, 31);
    EXPECT_FALSE(p.after_search(-999, 20, 32).resign);
    EXPECT_EQ(p.losing_streak(), 0);
    EXPECT_FALSE(p.after_search(-1200, 20, 33).resign);
    EXPECT_FALSE(p.after_search(-1200, 20, 34).resign);
    EXPECT_TRUE(p.after_search(-1200, 20, 35).resign);
}

TEST(DrawResign, NeverResignsBeforeMoveTen) {
    DrawResignPolicy p(settings());
    for (int move = 1; move < DrawResignPolicy::kFirstResignMove; ++move)
        EXPECT_FALSE(p.after_search(-9000, 30, move).resign) << "move " << move;
    // The streak built before move 10 counts once move 10 comes.
    EXPECT_TRUE(p.after_search(-9000, 30, 10).resign);
}

TEST(DrawResign, ResignDisabledNeverResigns) {
    auto c = settings();
    c.resign_enabled = false;
    DrawResignPolicy p(c);
    for (int move = 20; move < 40; ++move)
        EXPECT_FALSE(p.after_search(-kMateCentipawns, 4, move).resign);
}

TEST(DrawResign, BeingMatedCountsAsLost) {
    DrawResignPolicy p(settings());
    (void)p.after_search(to_centipawns({.is_mate = true, .value = -6}), 12, 40);
    (void)p.after_search(to_centipawns({.is_mate = true, .value = -5}), 12, 41);
    EXPECT_TRUE(p.after_search(to_centipawns({.is_mate = true, .value = -4}), 12, 42).resign);
}

TEST(DrawResign, OffersADrawAfterEnoughEqualMovesWithFewPieces) {
    DrawResignPolicy p(settings());
    EXPECT_FALSE(p.after_search(0, 6, 40).offer_draw);
    EXPECT_FALSE(p.after_search(-20, 6, 41).offer_draw);  // ± offer_draw_score counts
    EXPECT_FALSE(p.after_search(20, 6, 42).offer_draw);
    EXPECT_TRUE(p.after_search(5, 6, 43).offer_draw);
    EXPECT_EQ(p.drawish_streak(), 4);
}

TEST(DrawResign, NoOfferWithTooManyPiecesOrAScoreOutsideTheWindow) {
    DrawResignPolicy p(settings());
    for (int i = 0; i < 6; ++i) EXPECT_FALSE(p.after_search(0, 11, 40 + i).offer_draw);
    // Pieces came off: the equal streak is long enough already.
    EXPECT_TRUE(p.after_search(0, 10, 46).offer_draw);

    DrawResignPolicy q(settings());
    (void)q.after_search(0, 6, 40);
    (void)q.after_search(0, 6, 41);
    (void)q.after_search(0, 6, 42);
    EXPECT_FALSE(q.after_search(21, 6, 43).offer_draw);
    EXPECT_EQ(q.drawish_streak(), 0);
    EXPECT_FALSE(q.after_search(to_centipawns({.is_mate = true, .value = 2}), 6, 44).offer_draw);
}

// The policy wants a draw on every drawish move once its streak holds; GameRules spaces the
// offers as Lichess counts them (GameRules.ADrawIsOfferedAgainOnlyTwentyPliesAfterTheLast).
TEST(DrawResign, OnceTheStreakHoldsEveryDrawishMoveWantsADraw) {
    DrawResignPolicy p(settings());
    std::vector<int> wanted;
    for (int i = 0; i < 8; ++i)
        if (p.after_search(0, 4, 40 + i).offer_draw) wanted.push_back(i);
    EXPECT_EQ(wanted, (std::vector<int>{3, 4, 5, 6, 7}));
    EXPECT_FALSE(p.after_search(300, 4, 48).offer_draw);  // the streak broken
}

TEST(DrawResign, DrawsDisabledNeverOffersOrAccepts) {
    auto c = settings();
    c.offer_draw_enabled = false;
    DrawResignPolicy p(c);
    for (int i = 0; i < 20; ++i) EXPECT_FALSE(p.after_search(0, 3, 40 + i).offer_draw);
    EXPECT_FALSE(p.accept_draw(3));
}

TEST(DrawResign, AcceptsAnOfferWhenItWouldOfferOneNow) {
    DrawResignPolicy p(settings());
    EXPECT_FALSE(p.accept_draw(4));  // no score yet
    for (int i = 0; i < 3; ++i) (void)p.after_search(0, 8, 40 + i);
    EXPECT_FALSE(p.accept_draw(8));  // streak one short
    EXPECT_TRUE(p.after_search(0, 8, 43).offer_draw);
    EXPECT_TRUE(p.accept_draw(8));
    EXPECT_FALSE(p.accept_draw(11));  // pieces are counted on the board now
    // An offer we made is no reason to refuse theirs (GameRules spaces our own offers).
    p.offered_at(20);
    EXPECT_TRUE(p.after_search(0, 8, 44).offer_draw);
    EXPECT_TRUE(p.accept_draw(8));
    // Winning: declined.
    (void)p.after_search(400, 8, 45);
    EXPECT_FALSE(p.accept_draw(8));
}

TEST(DrawResign, ResigningWinsOverOffering) {
    auto c = settings();
    c.offer_draw_score = 2000;  // an operator who offers draws even when lost
    c.offer_draw_moves = 1;
    c.resign_moves = 1;
    DrawResignPolicy p(c);
    const auto d = p.after_search(-1500, 5, 30);
    EXPECT_TRUE(d.resign);
    EXPECT_FALSE(d.offer_draw);
    EXPECT_TRUE(p.accept_draw(5));  // still better than resigning
}

TEST(DrawResign, ReadsPiecesAndMoveNumberFromThePosition) {
    auto c = settings();
    c.resign_moves = 1;
    c.offer_draw_moves = 1;
    c.offer_draw_pieces = 4;
    // Kings and a rook each: four pieces, move 40.
    auto drawn = engine::Position::from_fen("8/8/4k3/8/8/3K4/r7/7R w - - 0 40");
    ASSERT_TRUE(drawn);
    DrawResignPolicy p(c);
    EXPECT_TRUE(p.after_search({.is_mate = false, .value = 3}, *drawn).offer_draw);

    // Queen and rook down at move 9: not yet; the same at move 10: resign.
    auto early = engine::Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/QR2K3 b - - 0 9");
    auto late = engine::Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/QR2K3 b - - 0 10");
    ASSERT_TRUE(early && late);
    DrawResignPolicy q(c);
    EXPECT_FALSE(q.after_search({.is_mate = false, .value = -1400}, *early).resign);
    EXPECT_TRUE(q.after_search({.is_mate = false, .value = -1400}, *late).resign);
}

TEST(DrawResign, AVariantGameCountsItsOwnBoard) {
    auto c = settings();
    c.resign_moves = 1;
    c.offer_draw_moves = 1;
    c.offer_draw_pieces = 40;
    // The horde: 36 white pawns and Black's 16 pieces, at move 30; the search's variant win (a
    // mate-like score) for the other side resigns, a dead-equal score offers only where few
    // enough pieces are left.
    auto horde = engine::Position::from_fen(
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 30",
        engine::Variant::HORDE);
    ASSERT_TRUE(horde) << horde.error();
    EXPECT_EQ(piece_count(*horde), 52);
    DrawResignPolicy p(c);
    EXPECT_FALSE(p.after_search({.is_mate = false, .value = 0}, *horde).offer_draw);
    EXPECT_TRUE(p.after_search({.is_mate = true, .value = -4}, *horde).resign);

    // Crazyhouse pockets are not on the board: two kings and a rook, however full the pockets.
    auto zh = engine::Position::from_fen("8/8/4k3/8/8/3K4/8/7R[QQqq] w - - 0 40",
                                         engine::Variant::CRAZYHOUSE);
    ASSERT_TRUE(zh) << zh.error();
    EXPECT_EQ(piece_count(*zh), 3);
}

// judge_move: the one verdict every scored move of ours gets, searched or from an online source.
TEST(DrawResign, AMovesVerdictResignsOffersOrPlaysAndSaysWhy) {
    auto c = settings();
    c.resign_moves = 1;
    c.offer_draw_moves = 1;
    const auto pos = engine::Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 20", false);
    ASSERT_TRUE(pos);

    DrawResignPolicy lost(c);
    const MoveVerdict resign =
        judge_move(lost, {.is_mate = true, .value = -3}, *pos, true, "e1d1", "tablebase");
    EXPECT_TRUE(resign.resign);
    EXPECT_FALSE(resign.offer_draw);
    EXPECT_EQ(resign.why, "resigning at tablebase score #-3 (1 moves at or below -1000cp)");

    DrawResignPolicy equal(c);
    const MoveVerdict offer =
        judge_move(equal, {.is_mate = false, .value = 5}, *pos, true, "e1d1", "");
    EXPECT_TRUE(offer.offer_draw);
    EXPECT_EQ(offer.why, "offering a draw with e1d1 (score 5cp, 1 moves within 20cp)");

    // An offer lila would not count (too soon after our last) is no offer: the move is played.
    DrawResignPolicy spaced(c);
    const MoveVerdict held =
        judge_move(spaced, {.is_mate = false, .value = 5}, *pos, false, "e1d1", "");
    EXPECT_FALSE(held.offer_draw);
    EXPECT_FALSE(held.resign);
    EXPECT_EQ(held.why, "");
    EXPECT_EQ(spaced.drawish_streak(), 1);  // the score still counts
}

}  // namespace
}  // namespace service
