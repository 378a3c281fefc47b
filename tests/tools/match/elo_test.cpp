// Elo from match results, checked against figures fastchess printed for the same counts.
#include "tools/match/elo.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace {

TEST(MatchElo, ScoreToElo) {
    EXPECT_DOUBLE_EQ(match::elo_from_score(0.5), 0.0);
    EXPECT_NEAR(match::elo_from_score(0.75), 190.85, 0.01);
    EXPECT_NEAR(match::elo_from_score(0.25), -190.85, 0.01);
    EXPECT_TRUE(std::isinf(match::elo_from_score(1.0)));
    EXPECT_LT(match::elo_from_score(0.0), 0);
}

// docs/STRENGTH.md: 115-109-176 in 400 games, pairs [17, 43, 74, 49, 17]; fastchess reported
// +5.21 +- 25.75 (it uses the pairs).
TEST(MatchElo, PentanomialMatchesFastchess) {
    const auto e = match::pentanomial_elo({17, 43, 74, 49, 17});
    EXPECT_NEAR(e.score, 0.5075, 1e-9);
    EXPECT_NEAR(e.elo, 5.21, 0.01);
    EXPECT_NEAR(e.error, 25.75, 0.01);
}

TEST(MatchElo, TrinomialOfTheSameGames) {
    const auto e = match::trinomial_elo(115, 109, 176);
    EXPECT_NEAR(e.elo, 5.21, 0.01);
    EXPECT_NEAR(e.error, 25.53, 0.01);  // single games: a little narrower here
}

TEST(MatchElo, MoreGamesNarrowTheInterval) {
    const auto few = match::trinomial_elo(12, 6, 2);
    const auto many = match::trinomial_elo(120, 60, 20);
    EXPECT_NEAR(few.elo, many.elo, 1e-9);
    EXPECT_GT(few.error, 2.5 * many.error);
    EXPECT_LT(few.error, 3.5 * many.error);
}

TEST(MatchElo, LopsidedResultsKeepAFiniteInterval) {
    const auto e = match::trinomial_elo(4, 16, 0);
    EXPECT_NEAR(e.elo, -240.82, 0.01);
    EXPECT_TRUE(std::isfinite(e.error));
    EXPECT_GT(e.error, 200);
}

TEST(MatchElo, NoGamesIsEven) {
    const auto e = match::trinomial_elo(0, 0, 0);
    EXPECT_EQ(e.elo, 0);
    EXPECT_EQ(e.error, 0);
}

}  // namespace
