// What a match's results say about the difference in strength: the score, the Elo difference
// it implies and its 95% interval, from single games (W-L-D) and from game pairs (the
// pentanomial count of a pair's points, 0 to 2, which removes the openings' own bias).
#pragma once

#include <array>

namespace match {

struct EloEstimate {
    double score = 0.5;  // points per game, 0..1
    double elo = 0;
    double error = 0;  // half the width of the 95% interval, in Elo
};

// The Elo difference that scores `score` (0 < score < 1); +-inf at the ends.
double elo_from_score(double score);

// From wins, losses and draws (the first player's view).
EloEstimate trinomial_elo(int wins, int losses, int draws);
// From the number of game pairs that scored 0, 1/2, 1, 3/2 and 2 points.
EloEstimate pentanomial_elo(const std::array<int, 5>& pairs);

}  // namespace match
