// The staged move picker: moves come out best-first and are generated only when needed, so
// a cutoff by the TT move or a good capture never pays for generating quiet moves.
#pragma once

#include "history.hpp"
#include "movegen.hpp"

namespace engine {

struct ScoredMove {
    Move move;
    int score;
};

// One picker type per variant (the board type and the size of its move lists).
template <Variant V>
class MovePicker {
  public:
    // Main search: every legal move. `cont` are the continuation-history rows of the moves one
    // and two plies back (never null; a zero row when there is none).
    MovePicker(const BasicBoard<V>& board, Move tt_move, const History& history,
               const Move killers[2], Move counter, const PieceToHistory* cont[2]);
    // Quiescence: captures and promotions; all evasions when in check.
    MovePicker(const BasicBoard<V>& board, Move tt_move, const History& history);

    // The next move, or Move::none() when done. With skip_quiets, quiet moves not yet returned
    // are passed over (late-move pruning); bad captures still come.
    Move next(bool skip_quiets = false);
    // True while the last returned move came from the "bad captures" stage.
    bool in_bad_captures() const { return stage_ == Stage::BAD_NOISY; }

  private:
    enum class Stage {
        TT_MOVE,
        GEN_NOISY,
        GOOD_NOISY,
        KILLER1,
        KILLER2,
        COUNTER,
        GEN_QUIET,
        QUIET,
        BAD_NOISY,
        QS_TT_MOVE,
        QS_GEN,
        QS_MOVES,
        DONE
    };

    void score_noisy();
    void score_quiet();
    void score_evasions();
    // Index of the best-scored move in [begin, end), swapped to `begin`.
    ScoredMove pick_best(int begin, int end);
    bool is_special(Move m) const {
        return m == tt_move_ || m == killers_[0] || m == killers_[1] || m == counter_;
    }

    const BasicBoard<V>& board_;
    const History& history_;
    const PieceToHistory* cont_[2] = {nullptr, nullptr};
    Move tt_move_, killers_[2], counter_;
    Stage stage_;
    bool qsearch_evasions_ = false;
    // Union members, so left uninitialised: a picker is built at every node, and zeroing these
    // 2.5 KB there (Move's default is none) is wasted; only [0, end_) and [0, bad_count_) are read.
    union {
        ScoredMove moves_[max_moves(V)];
    };
    int cur_ = 0, end_ = 0;
    union {
        Move bad_[max_moves(V)];
    };
    int bad_count_ = 0, bad_cur_ = 0;
};

// Cheap legality test for a move from the TT or the killer table: full checks only for the
// rare kinds (castling, en passant, king moves, in check), and for the variants whose legality
// is not standard chess's (atomic, antichess, horde, racing kings).
template <Variant V>
[[nodiscard]] bool is_plausible_legal(const BasicBoard<V>& board, Move m);

}  // namespace engine
