// How a game of a match ends: by the variant's rules (the engine library's perft-verified
// Position decides), by a fault (an illegal move, a fallen flag, an engine that died), or by
// adjudication on the engines' own scores as fastchess does it (resign, draw, a ply limit).
#pragma once

#include <optional>
#include <string>

#include "engine/position.hpp"

namespace match {

enum class Outcome { WHITE_WINS, BLACK_WINS, DRAW };

struct GameEnd {
    Outcome outcome = Outcome::DRAW;
    std::string reason;  // "checkmate", "king of the hill", "adjudication", "time forfeit", ...
};

// The PGN result text: "1-0", "0-1", "1/2-1/2".
const char* result_text(Outcome o);
// The game lost by `loser` (an illegal move, a flag, a crash).
GameEnd loss_of(engine::Color loser, std::string reason);
// The end the variant's rules give the current position, if any.
std::optional<GameEnd> rules_end(const engine::Position& pos);

// An engine's score for its own move, from its own point of view ("score cp 35", "score mate -3").
struct EngineScore {
    bool mate = false;
    int value = 0;  // centipawns, or moves to mate (negative: being mated)
    // Centipawns, with a mate counted as far beyond any evaluation.
    [[nodiscard]] int centipawns() const {
        return !mate ? value : value > 0 ? 100000 - value : -100000 - value;
    }
};

// fastchess's rules (0 turns a rule off):
//   resign: for `resign_moves` moves of each side in a row, one engine scored at least
//           `resign_score` and the other at most -`resign_score`: the first wins;
//   draw:   from move number `draw_after_move`, both engines scored within +-`draw_score` for
//           `draw_moves` moves each in a row;
//   max_plies: the game is drawn after that many plies.
struct Adjudication {
    int resign_moves = 0;
    int resign_score = 1000;
    int draw_after_move = 0;
    int draw_moves = 0;
    int draw_score = 0;
    int max_plies = 0;
};

// Follows the scores of one game; after_move is called after every move played.
class Adjudicator {
  public:
    explicit Adjudicator(const Adjudication& rules) : rules_(rules) {}
    // `mover` just played ply number `plies` (1 for the first move of the game) and reported
    // `score` (none from an engine that prints none: it breaks every streak).
    std::optional<GameEnd> after_move(engine::Color mover, std::optional<EngineScore> score,
                                      int plies);

  private:
    Adjudication rules_;
    int winning_[2] = {}, losing_[2] = {}, level_[2] = {};
};

}  // namespace match
