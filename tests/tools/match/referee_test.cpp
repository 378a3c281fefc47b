// The runner's referee: game ends by the variant's rules and by fastchess-style adjudication.
#include "tools/match/referee.hpp"

#include "tools/match/uci_engine.hpp"

#include <gtest/gtest.h>

namespace match {
namespace {

engine::Position play(engine::Variant v, std::initializer_list<const char*> moves) {
    engine::Position pos = engine::Position::start(v);
    for (const char* m : moves) EXPECT_TRUE(pos.play_uci(m)) << m;
    return pos;
}

TEST(MatchReferee, RulesEndEachVariantsGame) {
    EXPECT_FALSE(match::rules_end(engine::Position::start(engine::Variant::CRAZYHOUSE)));
    const auto mate =
        match::rules_end(play(engine::Variant::STANDARD, {"f2f3", "e7e5", "g2g4", "d8h4"}));
    ASSERT_TRUE(mate);
    EXPECT_EQ(mate->outcome, Outcome::BLACK_WINS);
    EXPECT_EQ(mate->reason, "checkmate");

    const auto hill =
        match::rules_end(play(engine::Variant::KING_OF_THE_HILL,
                              {"e2e4", "a7a6", "e1e2", "a6a5", "e2e3", "a5a4", "e3d4"}));
    ASSERT_TRUE(hill);
    EXPECT_EQ(hill->outcome, Outcome::WHITE_WINS);
    EXPECT_EQ(hill->reason, "king of the hill");

    // White has one check left to give (chessops's remaining-checks field): Bb5+ wins.
    auto pos = engine::Position::from_fen(
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1+3 0 3",
        engine::Variant::THREE_CHECK);
    ASSERT_TRUE(pos) << pos.error();
    EXPECT_FALSE(match::rules_end(*pos));
    ASSERT_TRUE(pos->play_uci("f1b5"));
    const auto third = match::rules_end(*pos);
    ASSERT_TRUE(third);
    EXPECT_EQ(third->outcome, Outcome::WHITE_WINS);
    EXPECT_EQ(third->reason, "third check");
}

TEST(MatchReferee, LossOfNamesTheWinner) {
    EXPECT_EQ(match::loss_of(engine::WHITE, "time forfeit").outcome, Outcome::BLACK_WINS);
    EXPECT_EQ(match::loss_of(engine::BLACK, "illegal move a1a1").outcome, Outcome::WHITE_WINS);
    EXPECT_STREQ(match::result_text(Outcome::DRAW), "1/2-1/2");
}

TEST(MatchReferee, MateScoresCountBeyondAnyEvaluation) {
    EXPECT_EQ((EngineScore{false, -35}).centipawns(), -35);
    EXPECT_GT((EngineScore{true, 5}).centipawns(), 90000);
    EXPECT_LT((EngineScore{true, -2}).centipawns(), -90000);
    EXPECT_GT((EngineScore{true, 2}).centipawns(), (EngineScore{true, 5}).centipawns());
}

TEST(MatchReferee, ResignsWhenBothAgreeForEnoughMoves) {
    Adjudication rules;
    rules.resign_moves = 2;
    rules.resign_score = 600;
    Adjudicator a(rules);
    int ply = 10;
    EXPECT_FALSE(a.after_move(engine::WHITE, EngineScore{false, 700}, ++ply));
    EXPECT_FALSE(a.after_move(engine::BLACK, EngineScore{false, -650}, ++ply));
    EXPECT_FALSE(a.after_move(engine::WHITE, EngineScore{false, 900}, ++ply));
    const auto end = a.after_move(engine::BLACK, EngineScore{true, -4}, ++ply);
    ASSERT_TRUE(end);
    EXPECT_EQ(end->outcome, Outcome::WHITE_WINS);
}

TEST(MatchReferee, OneSidedOrBrokenStreaksDoNotResign) {
    Adjudication rules;
    rules.resign_moves = 2;
    rules.resign_score = 600;
    Adjudicator a(rules);
    int ply = 0;
    for (int i = 0; i < 3; ++i) {
        EXPECT_FALSE(a.after_move(engine::WHITE, EngineScore{false, 900}, ++ply));
        EXPECT_FALSE(
            a.after_move(engine::BLACK, EngineScore{false, 100}, ++ply));  // black disagrees
    }
    Adjudicator b(rules);
    EXPECT_FALSE(b.after_move(engine::WHITE, EngineScore{false, 900}, ++ply));
    EXPECT_FALSE(b.after_move(engine::BLACK, EngineScore{false, -900}, ++ply));
    EXPECT_FALSE(
        b.after_move(engine::WHITE, std::nullopt, ++ply));  // no score: the streak restarts
    EXPECT_FALSE(b.after_move(engine::BLACK, EngineScore{false, -900}, ++ply));
}

TEST(MatchReferee, DrawsLevelGamesOnlyFromTheMoveNumber) {
    Adjudication rules;
    rules.draw_after_move = 26;
    rules.draw_moves = 3;
    rules.draw_score = 10;
    Adjudicator a(rules);
    int ply = 40;  // moves 21 to 25: too early to count
    for (int i = 0; i < 5; ++i) {
        EXPECT_FALSE(a.after_move(engine::WHITE, EngineScore{false, 5}, ++ply));
        EXPECT_FALSE(a.after_move(engine::BLACK, EngineScore{false, -3}, ++ply));
    }
    // From move 26: three level moves each.
    EXPECT_FALSE(a.after_move(engine::WHITE, EngineScore{false, 0}, ++ply));
    EXPECT_FALSE(a.after_move(engine::BLACK, EngineScore{false, 0}, ++ply));
    EXPECT_FALSE(a.after_move(engine::WHITE, EngineScore{false, 8}, ++ply));
    EXPECT_FALSE(a.after_move(engine::BLACK, EngineScore{false, 0}, ++ply));
    EXPECT_FALSE(a.after_move(engine::WHITE, EngineScore{false, -10}, ++ply));
    const auto end = a.after_move(engine::BLACK, EngineScore{false, 2}, ++ply);
    ASSERT_TRUE(end);
    EXPECT_EQ(end->outcome, Outcome::DRAW);
}

TEST(MatchReferee, PlyLimitDraws) {
    Adjudication rules;
    rules.max_plies = 6;
    Adjudicator a(rules);
    for (int ply = 1; ply < 6; ++ply)
        EXPECT_FALSE(a.after_move(ply % 2 ? engine::WHITE : engine::BLACK, std::nullopt, ply));
    const auto end = a.after_move(engine::BLACK, std::nullopt, 6);
    ASSERT_TRUE(end);
    EXPECT_EQ(end->reason, "adjudication: ply limit");
}

TEST(MatchReferee, InfoScoresAreRead) {
    const auto cp =
        match::parse_info_score("info depth 12 seldepth 18 score cp -35 nodes 1 pv e2e4");
    ASSERT_TRUE(cp);
    EXPECT_FALSE(cp->mate);
    EXPECT_EQ(cp->value, -35);
    const auto mate = match::parse_info_score("info depth 9 score mate 3 lowerbound pv a1a2");
    ASSERT_TRUE(mate);
    EXPECT_TRUE(mate->mate);
    EXPECT_EQ(mate->value, 3);
    EXPECT_FALSE(match::parse_info_score("info string score cp 10"));
    EXPECT_FALSE(match::parse_info_score("info depth 3 pv e2e4 score cp 10"));
    EXPECT_FALSE(match::parse_info_score("info depth 3 score cp ten"));
    EXPECT_FALSE(match::parse_info_score("bestmove e2e4"));
}

}  // namespace
}  // namespace match
