// DrawResignPolicy: resigning lost games and offering or accepting draws in dead-equal ones,
// from our own search scores (the `draw_or_resign` config section).
#pragma once

#include "config/config.hpp"
#include "engine/position.hpp"
#include "engine/search.hpp"

namespace service {

// Centipawns a mate score counts as: far beyond any evaluation and any resign_score.
inline constexpr int kMateCentipawns = 100000;

// A search score as centipawns: mate in n is kMateCentipawns - n, being mated in n its negative.
// A variant's own win (a king on the hill, a third check, an explosion) is a mate-like score in
// the search, so it counts the same.
[[nodiscard]] int to_centipawns(const engine::Score& score);

// Pieces on the board, kings and pawns included (any variant), for offer_draw_pieces.
[[nodiscard]] int piece_count(const engine::Position& position);

// What to do with the move just searched.
struct DrawResignDecision {
    bool resign = false;      // resign instead of playing it
    bool offer_draw = false;  // post it with offeringDraw=true
};

// Fed one score per searched move of ours, in order. Book moves have no score: they are not
// fed, so they neither count towards a streak nor break one. One policy per game.
class DrawResignPolicy {
  public:
    // Lichess ignores a repeated offer within 20 plies of the last one: offer again only after
    // this many of our scored moves.
    static constexpr int kReofferMoves = 10;
    // Never resign before this full move (in a fromPosition game, the FEN's move number counts).
    static constexpr int kFirstResignMove = 10;

    explicit DrawResignPolicy(const config::DrawOrResignConfig& config) : config_(config) {}

    // score_cp: from our side; pieces: on the board, kings and pawns included; fullmove: the
    // full-move number of the position searched.
    DrawResignDecision after_search(int score_cp, int pieces, int fullmove);
    // The same from a search result and the position it searched (any variant).
    DrawResignDecision after_search(const engine::Score& score, const engine::Position& position);

    // Accept the opponent's draw offer: the policy would offer a draw itself now, with
    // `pieces_now` on the board (the opponent's move may have captured).
    [[nodiscard]] bool accept_draw(int pieces_now) const { return draw_condition(pieces_now); }

    [[nodiscard]] int losing_streak() const { return losing_; }
    [[nodiscard]] int drawish_streak() const { return drawish_; }

  private:
    [[nodiscard]] bool draw_condition(int pieces) const;

    config::DrawOrResignConfig config_;
    int losing_ = 0;        // our last scored moves in a row at or below resign_score
    int drawish_ = 0;       // ... within ± offer_draw_score
    int since_offer_ = -1;  // scored moves since our last offer; -1: never offered
};

}  // namespace service
