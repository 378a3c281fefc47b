// The engine's own games of a variant, for the tuner.
#include "engine/tools/tuner/variant_selfplay.hpp"

#include <cstdlib>

namespace tuner {

using namespace engine;

namespace {

constexpr int DECISIVE = 1500;
constexpr int DECISIVE_PLIES = 6;
constexpr int MAX_PLIES = 400;

}  // namespace

VariantGame play_variant_game(Variant variant, const std::vector<std::string>& opening,
                              Engine& white, Engine& black, std::uint64_t nodes, bool record) {
    VariantGame game;
    Position pos = Position::start(variant);
    for (const std::string& m : opening)
        if (!pos.play_uci(m)) break;
    for (Engine* e : {&white, &black}) e->new_game();
    SearchLimits limits;
    limits.nodes = nodes;
    const std::atomic<bool> stop{false};
    int decisive = 0;
    while (true) {
        const GameResult r = pos.result();
        if (r.status != PositionStatus::ONGOING) {
            game.result = !r.winner ? 0.5f : *r.winner == WHITE ? 1.0f : 0.0f;
            break;
        }
        if (pos.game_ply() >= MAX_PLIES) break;
        const Color us = pos.side_to_move();
        const SearchResult s = (us == WHITE ? white : black).search(pos, limits, stop);
        const int white_score = us == WHITE ? s.raw_score : -s.raw_score;
        decisive = std::abs(white_score) >= DECISIVE &&
                           (decisive == 0 || (white_score > 0) == (decisive > 0))
                       ? decisive + (white_score > 0 ? 1 : -1)
                       : 0;
        if (std::abs(decisive) >= DECISIVE_PLIES) {
            game.result = decisive > 0 ? 1.0f : 0.0f;
            break;
        }
        const bool quiet = pos.visit([&](const auto& b) {
            return !b.in_check() && !b.is_capture(s.best) && !b.is_promotion(s.best);
        });
        if (record && quiet && std::abs(s.raw_score) < DECISIVE) game.fens.push_back(pos.fen());
        pos.play(s.best);
        game.plies = pos.game_ply();
    }
    return game;
}

}  // namespace tuner
