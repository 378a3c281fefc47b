// Game ends for the match runner: the variant's rules, faults and score adjudication.
#include "tools/match/referee.hpp"

#include <cstdlib>

namespace match {

const char* result_text(Outcome o) {
    return o == Outcome::WHITE_WINS ? "1-0" : o == Outcome::BLACK_WINS ? "0-1" : "1/2-1/2";
}

GameEnd loss_of(engine::Color loser, std::string reason) {
    return {loser == engine::WHITE ? Outcome::BLACK_WINS : Outcome::WHITE_WINS, std::move(reason)};
}

std::optional<GameEnd> rules_end(const engine::Position& pos) {
    const engine::GameResult r = pos.result();
    if (r.status == engine::PositionStatus::ONGOING) return std::nullopt;
    const Outcome o = !r.winner                    ? Outcome::DRAW
                      : *r.winner == engine::WHITE ? Outcome::WHITE_WINS
                                                   : Outcome::BLACK_WINS;
    return GameEnd{o, std::string(r.reason)};
}

std::optional<GameEnd> Adjudicator::after_move(engine::Color mover,
                                               std::optional<EngineScore> score, int plies) {
    const int us = mover, them = ~mover;
    const int cp = score ? score->centipawns() : 0;
    winning_[us] = score && cp >= rules_.resign_score ? winning_[us] + 1 : 0;
    losing_[us] = score && cp <= -rules_.resign_score ? losing_[us] + 1 : 0;
    const int move_number = (plies + 1) / 2;
    level_[us] = score && std::abs(cp) <= rules_.draw_score && move_number >= rules_.draw_after_move
                     ? level_[us] + 1
                     : 0;

    const int n = rules_.resign_moves;
    if (n > 0) {
        if (winning_[us] >= n && losing_[them] >= n)
            return loss_of(engine::Color(them), "adjudication: resigned");
        if (losing_[us] >= n && winning_[them] >= n)
            return loss_of(engine::Color(us), "adjudication: resigned");
    }
    if (rules_.draw_moves > 0 && level_[us] >= rules_.draw_moves &&
        level_[them] >= rules_.draw_moves)
        return GameEnd{Outcome::DRAW, "adjudication: drawn"};
    if (rules_.max_plies > 0 && plies >= rules_.max_plies)
        return GameEnd{Outcome::DRAW, "adjudication: ply limit"};
    return std::nullopt;
}

}  // namespace match
