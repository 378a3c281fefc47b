// Elo from match results: the logistic model and the normal approximation of the mean score,
// as fastchess and cutechess report it.
#include "tools/match/elo.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace match {

namespace {

constexpr double Z95 = 1.959963984540054;

// The mean and the interval of a score that is the average of `n` samples of `values` taken
// with `counts` frequencies.
template <std::size_t N>
EloEstimate estimate(const double (&values)[N], const int (&counts)[N]) {
    double n = 0, sum = 0;
    for (std::size_t i = 0; i < N; ++i) {
        n += counts[i];
        sum += counts[i] * values[i];
    }
    EloEstimate e;
    if (n == 0) return e;
    e.score = sum / n;
    double variance = 0;
    for (std::size_t i = 0; i < N; ++i)
        variance += counts[i] * (values[i] - e.score) * (values[i] - e.score);
    variance /= n;
    const double spread = Z95 * std::sqrt(variance / n);
    e.elo = elo_from_score(e.score);
    // An interval that reaches 0% or 100% is cut there (+-1320 Elo), to stay a number.
    auto bound = [](double s) { return std::clamp(s, 0.0005, 0.9995); };
    e.error =
        (elo_from_score(bound(e.score + spread)) - elo_from_score(bound(e.score - spread))) / 2;
    return e;
}

}  // namespace

double elo_from_score(double score) {
    if (score <= 0) return -std::numeric_limits<double>::infinity();
    if (score >= 1) return std::numeric_limits<double>::infinity();
    return -400.0 * std::log10(1.0 / score - 1.0);
}

EloEstimate trinomial_elo(int wins, int losses, int draws) {
    const double values[3] = {1.0, 0.0, 0.5};
    const int counts[3] = {wins, losses, draws};
    return estimate(values, counts);
}

EloEstimate pentanomial_elo(const std::array<int, 5>& pairs) {
    const double values[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    const int counts[5] = {pairs[0], pairs[1], pairs[2], pairs[3], pairs[4]};
    return estimate(values, counts);
}

}  // namespace match
