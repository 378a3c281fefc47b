// Self-play for tuning data and quick weight comparisons: a small fixed-depth alpha-beta over
// any evaluation weights, openings from EPD or PGN files, and whole games with adjudication.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/board.hpp"
#include "engine/eval_params.hpp"

namespace tuner {

// Fixed-depth alpha-beta with quiescence, a small TT, killers and null-move pruning. One per
// thread; not the engine's real search (that one always uses the compiled-in weights).
class MiniSearch {
  public:
    explicit MiniSearch(const engine::EvalParams& params, int tt_bits = 18);

    struct Result {
        engine::Move best;
        int score = 0;  // side to move's view; beyond +-MATE_BOUND is a mate
    };
    // `history`: keys of the game's earlier positions, for repetition draws.
    Result search(const engine::Board& board, int depth, const std::vector<engine::Key>& history);
    // The quiescence value of a position (side to move's view).
    int quiescence(const engine::Board& board);
    int static_eval(const engine::Board& board) const {
        return engine::evaluate_with(board, params_);
    }
    std::uint64_t nodes() const { return nodes_; }

    static constexpr int MATE = 30000;
    static constexpr int MATE_BOUND = MATE - 256;

  private:
    struct TTEntry {
        engine::Key key = 0;
        std::int16_t score = 0;
        std::uint16_t move = 0;
        std::int8_t depth = -1;
        std::uint8_t bound = 0;
    };
    int negamax(const engine::Board& b, int depth, int alpha, int beta, int ply, bool null_ok);
    int qsearch(const engine::Board& b, int alpha, int beta, int ply);
    bool repeated(engine::Key key, int halfmove_clock) const;

    const engine::EvalParams& params_;
    std::vector<TTEntry> tt_;
    std::uint64_t tt_mask_;
    std::vector<engine::Key> path_;  // game history then the search path
    engine::Move killers_[128][2] = {};
    std::uint64_t nodes_ = 0;
    engine::Move root_best_;
};

// Openings: one FEN per line (EPD) or the games of a PGN file (their final positions).
std::vector<engine::Board> load_openings(const std::string& path);

struct GameRecord {
    float result = 0.5f;             // white's score
    std::vector<std::string> quiet;  // FENs of quiet positions met in the game
    int plies = 0;
};

// Plays one game from `start`; `white` and `black` may be the same searcher.
GameRecord play_game(const engine::Board& start, MiniSearch& white, MiniSearch& black, int depth,
                     bool record);

}  // namespace tuner
