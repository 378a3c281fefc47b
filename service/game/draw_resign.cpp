// DrawResignPolicy: streaks of our search scores against the draw_or_resign settings.
#include "service/game/draw_resign.hpp"

#include <cstdlib>

#include "engine/bitboard.hpp"

namespace service {

int to_centipawns(const engine::Score& score) {
    if (!score.is_mate) return score.value;
    // Mate 0 only comes from a root already mated: as lost as it gets.
    if (score.value > 0) return kMateCentipawns - score.value;
    return -kMateCentipawns - score.value;
}

DrawResignDecision DrawResignPolicy::after_search(int score_cp, int pieces, int fullmove) {
    losing_ = score_cp <= config_.resign_score ? losing_ + 1 : 0;
    drawish_ = std::abs(score_cp) <= config_.offer_draw_score ? drawish_ + 1 : 0;
    if (since_offer_ >= 0) ++since_offer_;

    DrawResignDecision d;
    d.resign =
        config_.resign_enabled && losing_ >= config_.resign_moves && fullmove >= kFirstResignMove;
    if (!d.resign && draw_condition(pieces) &&
        (since_offer_ < 0 || since_offer_ >= kReofferMoves)) {
        d.offer_draw = true;
        since_offer_ = 0;
    }
    return d;
}

int piece_count(const engine::Position& position) {
    return position.visit([](const auto& board) { return engine::popcount(board.pieces()); });
}

DrawResignDecision DrawResignPolicy::after_search(const engine::Score& score,
                                                  const engine::Position& position) {
    const int fullmove =
        position.visit([](const auto& board) { return int(board.fullmove_number); });
    return after_search(to_centipawns(score), piece_count(position), fullmove);
}

bool DrawResignPolicy::draw_condition(int pieces) const {
    return config_.offer_draw_enabled && drawish_ >= config_.offer_draw_moves &&
           pieces <= config_.offer_draw_pieces;
}

}  // namespace service
