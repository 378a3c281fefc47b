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

}  // namespace engine
