// Random openings for the match runner.
#include "tools/match/openings.hpp"

#include "engine/position.hpp"

namespace match {

std::uint64_t Rng::next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

std::vector<std::string> random_opening(engine::Variant variant, int plies, std::uint64_t seed) {
    Rng rng(seed);
    // A line that ends the game early (antichess can) is thrown away and drawn again.
    for (int attempt = 0; attempt < 1000; ++attempt) {
        engine::Position pos = engine::Position::start(variant);
        std::vector<std::string> line;
        while (int(line.size()) < plies) {
            const auto legal = pos.legal_moves();
            if (legal.empty()) break;
            const engine::Move m = legal[rng.below(legal.size())];
            line.push_back(pos.to_uci(m));
            pos.play(m);
            if (pos.result().status != engine::PositionStatus::ONGOING) break;
        }
        if (int(line.size()) == plies && pos.result().status == engine::PositionStatus::ONGOING)
            return line;
    }
    return {};
}

}  // namespace match
