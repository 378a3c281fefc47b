// Score constants shared by search, TT and UCI output: mate scores count plies from the root.
#pragma once

namespace engine {

inline constexpr int MAX_PLY = 128;
inline constexpr int SCORE_INF = 32001;
inline constexpr int SCORE_MATE = 32000;
inline constexpr int SCORE_NONE = 32002;
// Any score at least this big is a mate found within MAX_PLY.
inline constexpr int MATE_IN_MAX = SCORE_MATE - MAX_PLY;

constexpr int mated_in(int ply) { return -SCORE_MATE + ply; }
constexpr int mate_in(int ply) { return SCORE_MATE - ply; }
constexpr bool is_mate_score(int s) { return s >= MATE_IN_MAX || s <= -MATE_IN_MAX; }
// Full moves to mate as UCI reports it: positive when the side to move mates.
constexpr int mate_moves(int s) { return s > 0 ? (SCORE_MATE - s + 1) / 2 : -(SCORE_MATE + s) / 2; }

// Tablebase wins and losses (engine/tablebase.hpp): below every mate score, above every
// evaluation (|eval| < EVAL_MAX). Like mate scores they count plies from the root, so the search
// heads for the nearest won tablebase position, and the TT stores them relative to the node.
inline constexpr int SCORE_TB_WIN = MATE_IN_MAX - 1;
inline constexpr int TB_WIN_IN_MAX = SCORE_TB_WIN - MAX_PLY;

constexpr int tb_win_in(int ply) { return SCORE_TB_WIN - ply; }
constexpr int tb_loss_in(int ply) { return -SCORE_TB_WIN + ply; }
// A mate or a tablebase win or loss: a result no evaluation gives, proven or from the tables.
constexpr bool is_decisive(int s) { return s >= TB_WIN_IN_MAX || s <= -TB_WIN_IN_MAX; }
constexpr bool is_tb_score(int s) { return is_decisive(s) && !is_mate_score(s); }

}  // namespace engine
