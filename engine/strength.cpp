// The level table and the seeded choice among scored moves.
#include "strength.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace engine {

namespace {

struct Row {
    int elo;
    double depth, nodes, candidates, sight, margin, temperature, time_share;
};

// Anchors of the levels; between two rows every column is interpolated (nodes on a log scale).
// Set by hand from the design in docs/STRENGTH.md and adjusted from the matches measured there
// against Stockfish 15.1's UCI_Elo.
constexpr std::array<Row, 8> kRows{{
    {800, 1, 250, 7, 0, 380, 200, 0.35},
    {1100, 1, 360, 6, 0, 290, 145, 0.40},
    {1400, 2, 2000, 5, 0, 150, 70, 0.45},
    {1700, 4, 20000, 5, 5000, 55, 25, 0.55},
    {2000, 8, 250000, 3, 250000, 10, 4, 0.85},
    {2300, 12, 1000000, 2, 1500000, 4, 2, 1.00},
    {2600, 16, 5000000, 2, 5000000, 2, 1, 1.00},
    {2800, 20, 20000000, 2, 20000000, 1, 1, 1.00},
}};

double lerp(double a, double b, double t) { return a + (b - a) * t; }

// Node counts grow by factors between rows, so they are interpolated on a log scale; from a row
// without any (0) they grow linearly.
double lerp_nodes(double a, double b, double t) {
    if (a <= 0 || b <= 0) return lerp(a, b, t);
    return std::exp(lerp(std::log(a), std::log(b), t));
}

}  // namespace

StrengthParams strength_params(int elo) {
    elo = std::clamp(elo, MIN_LEVEL_ELO, MAX_LEVEL_ELO);
    std::size_t i = 0;
    while (i + 2 < kRows.size() && elo > kRows[i + 1].elo) ++i;
    const Row& a = kRows[i];
    const Row& b = kRows[i + 1];
    const double t = double(elo - a.elo) / double(b.elo - a.elo);
    StrengthParams p;
    p.depth = int(std::lround(lerp(a.depth, b.depth, t)));
    p.nodes = std::uint64_t(std::llround(lerp_nodes(a.nodes, b.nodes, t)));
    p.sight_nodes = std::uint64_t(std::llround(lerp_nodes(a.sight, b.sight, t)));
    p.candidates = int(std::lround(lerp(a.candidates, b.candidates, t)));
    p.margin_cp = int(std::lround(lerp(a.margin, b.margin, t)));
    p.temperature_cp = std::max(1, int(std::lround(lerp(a.temperature, b.temperature, t))));
    p.time_share = lerp(a.time_share, b.time_share, t);
    return p;
}

std::uint64_t mix_seed(std::uint64_t a, std::uint64_t b) {
    std::uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::size_t choose_scored(std::span<const int> scores, int margin_cp, int temperature_cp,
                          std::uint64_t seed) {
    if (scores.size() <= 1) return 0;
    const int best = *std::max_element(scores.begin(), scores.end());
    const double temperature = std::max(1, temperature_cp);
    double total = 0;
    for (const int s : scores)
        if (best - s <= margin_cp) total += std::exp(double(s - best) / temperature);
    // A uniform draw in [0, total) from the seed's top 53 bits.
    const double u = double(mix_seed(seed, 0x5eed) >> 11) / double(1ULL << 53) * total;
    double acc = 0;
    std::size_t last = 0;
    for (std::size_t i = 0; i < scores.size(); ++i) {
        if (best - scores[i] > margin_cp) continue;
        acc += std::exp(double(scores[i] - best) / temperature);
        last = i;
        if (u < acc) return i;
    }
    return last;  // rounding at the top end
}

std::uint64_t seed_from_text(std::string_view text) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (const char c : text) {
        h ^= std::uint8_t(c);
        h *= 0x100000001b3ULL;
    }
    return h;
}

}  // namespace engine
