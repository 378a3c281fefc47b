// DrawResignPolicy: resigning lost games and offering or accepting draws in dead-equal ones,
// from our own search scores (the `draw_or_resign` config section).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

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
    // Never resign before this full move (in a fromPosition game, the FEN's move number counts).
    static constexpr int kFirstResignMove = 10;

    explicit DrawResignPolicy(const config::DrawOrResignConfig& config) : config_(config) {}

    [[nodiscard]] const config::DrawOrResignConfig& config() const { return config_; }

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

    // The plies played when we last offered a draw in this game (kept here because a
    // correspondence game's policy outlives its sessions); GameRules spaces offers by it.
    void offered_at(std::size_t plies) { last_offer_plies_ = plies; }
    [[nodiscard]] std::optional<std::size_t> last_offer_plies() const { return last_offer_plies_; }

  private:
    [[nodiscard]] bool draw_condition(int pieces) const;

    config::DrawOrResignConfig config_;
    int losing_ = 0;   // our last scored moves in a row at or below resign_score
    int drawish_ = 0;  // ... within ± offer_draw_score
    std::optional<std::size_t> last_offer_plies_;
};

// What becomes of a move of ours that has a score (searched, or scored by an online source):
// the one place where every such move meets the policy.
struct MoveVerdict {
    bool resign = false;      // resign instead of playing it
    bool offer_draw = false;  // post it with offeringDraw=true
    std::string why;          // for the log (resigning, offering); empty when simply played
};

// Feeds `score` (from our side, of the move `uci` chosen in `position`) to `policy`.
// may_offer_draw: lila would count an offer with this move (GameRules spaces our offers);
// source: how the log names where the score came from ("" for our search).
[[nodiscard]] MoveVerdict judge_move(DrawResignPolicy& policy, const engine::Score& score,
                                     const engine::Position& position, bool may_offer_draw,
                                     std::string_view uci, std::string_view source);

// A score as the logs show it: "#-3", "25cp".
[[nodiscard]] std::string score_text(const engine::Score& score);

}  // namespace service
