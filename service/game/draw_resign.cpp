// DrawResignPolicy: streaks of our search scores against the draw_or_resign settings.
#include "service/game/draw_resign.hpp"

#include <spdlog/fmt/fmt.h>

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

    DrawResignDecision d;
    d.resign =
        config_.resign_enabled && losing_ >= config_.resign_moves && fullmove >= kFirstResignMove;
    // Lichess ignores an offer within 20 plies of our last one: GameRules spaces the offers by
    // plies (GameRights::kDrawOfferGap), which it counts and this policy does not.
    d.offer_draw = !d.resign && draw_condition(pieces);
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

std::string score_text(const engine::Score& s) {
    return s.is_mate ? "#" + std::to_string(s.value) : std::to_string(s.value) + "cp";
}

MoveVerdict judge_move(DrawResignPolicy& policy, const engine::Score& score,
                       const engine::Position& position, bool may_offer_draw, std::string_view uci,
                       std::string_view source) {
    const DrawResignDecision d = policy.after_search(score, position);
    const std::string from = source.empty() ? "" : fmt::format("{} ", source);
    MoveVerdict v{.resign = d.resign, .offer_draw = d.offer_draw && may_offer_draw, .why = {}};
    if (v.resign)
        v.why =
            fmt::format("resigning at {}score {} ({} moves at or below {}cp)", from,
                        score_text(score), policy.losing_streak(), policy.config().resign_score);
    else if (v.offer_draw)
        v.why = fmt::format("offering a draw with {} ({}score {}, {} moves within {}cp)", uci, from,
                            score_text(score), policy.drawish_streak(),
                            policy.config().offer_draw_score);
    return v;
}

}  // namespace service
