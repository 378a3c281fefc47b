// The weights of the hand-crafted evaluation as one flat table of (middlegame, endgame) pairs,
// plus the traced evaluation the Texel tuner uses to read and rewrite every one of them.
#pragma once

#include <algorithm>
#include <cstdint>

#include "board.hpp"

namespace engine {

// A middlegame and an endgame value, blended by game phase at the end of the evaluation.
struct ScorePair {
    int mg = 0;
    int eg = 0;

    constexpr ScorePair& operator+=(ScorePair o) {
        mg += o.mg;
        eg += o.eg;
        return *this;
    }
    constexpr ScorePair& operator-=(ScorePair o) {
        mg -= o.mg;
        eg -= o.eg;
        return *this;
    }
    friend constexpr ScorePair operator+(ScorePair a, ScorePair b) { return a += b; }
    friend constexpr ScorePair operator-(ScorePair a, ScorePair b) { return a -= b; }
    friend constexpr ScorePair operator*(ScorePair a, int n) { return {a.mg * n, a.eg * n}; }
    friend constexpr bool operator==(ScorePair, ScorePair) = default;
};

// Term categories, for the printed breakdown.
enum class EvalTerm : std::uint8_t {
    MATERIAL,
    PSQT,
    PAWNS,
    PASSED,
    MOBILITY,
    KING,
    PIECES,
    THREATS,
    TEMPO,
    COUNT
};

// Every group of weights: name, number of entries, category. The KS_ groups are king-danger
// units (squared into a penalty, so not linear); they must stay contiguous.
// clang-format off
#define OUTPOST_EVAL_PARAMS(X)                 \
    X(MATERIAL, 6, MATERIAL)                   \
    X(PSQT, 384, PSQT)                         \
    X(PAWN_ISOLATED, 1, PAWNS)                 \
    X(PAWN_DOUBLED, 1, PAWNS)                  \
    X(PAWN_BACKWARD, 1, PAWNS)                 \
    X(PAWN_SUPPORTED, 8, PAWNS)                \
    X(PAWN_PHALANX, 8, PAWNS)                  \
    X(PASSED_RANK, 8, PASSED)                  \
    X(PASSED_FREE, 8, PASSED)                  \
    X(PASSED_SAFE, 8, PASSED)                  \
    X(PASSED_KING_OWN, 8, PASSED)              \
    X(PASSED_KING_THEIR, 8, PASSED)            \
    X(PASSED_PROTECTED, 1, PASSED)             \
    X(PASSED_UNSTOPPABLE, 1, PASSED)           \
    X(MOBILITY_KNIGHT, 9, MOBILITY)            \
    X(MOBILITY_BISHOP, 14, MOBILITY)           \
    X(MOBILITY_ROOK, 15, MOBILITY)             \
    X(MOBILITY_QUEEN, 28, MOBILITY)            \
    X(KING_SHIELD, 4, KING)                    \
    X(KING_STORM, 8, KING)                     \
    X(KING_OPEN_FILE, 1, KING)                 \
    X(KS_ATTACKER, 4, KING)                    \
    X(KS_ZONE_ATTACK, 1, KING)                 \
    X(KS_SAFE_CHECK, 4, KING)                  \
    X(KS_WEAK_ZONE, 1, KING)                   \
    X(KS_NO_QUEEN, 1, KING)                    \
    X(KS_OFFSET, 1, KING)                      \
    X(BISHOP_PAIR, 1, PIECES)                  \
    X(BISHOP_PAWNS, 1, PIECES)                 \
    X(KNIGHT_OUTPOST, 1, PIECES)               \
    X(BISHOP_OUTPOST, 1, PIECES)               \
    X(MINOR_BEHIND_PAWN, 1, PIECES)            \
    X(ROOK_OPEN, 1, PIECES)                    \
    X(ROOK_SEMIOPEN, 1, PIECES)                \
    X(ROOK_SEVENTH, 1, PIECES)                 \
    X(THREAT_BY_PAWN, 6, THREATS)              \
    X(THREAT_BY_MINOR, 6, THREATS)             \
    X(THREAT_BY_ROOK, 6, THREATS)              \
    X(THREAT_BY_KING, 1, THREATS)              \
    X(HANGING, 1, THREATS)                     \
    X(TEMPO, 1, TEMPO)
// clang-format on

// Offsets of each group in the flat table; PARAM_COUNT is the table size.
enum ParamIndex : int {
#define OUTPOST_X(name, n, cat) name, name##_LAST_ = name + (n)-1,
    OUTPOST_EVAL_PARAMS(OUTPOST_X)
#undef OUTPOST_X
        PARAM_COUNT
};

// The nonlinear king-danger weights occupy [KS_BEGIN, KS_END).
inline constexpr int KS_BEGIN = KS_ATTACKER;
inline constexpr int KS_END = KS_OFFSET + 1;
// King danger units u become a penalty of u*u/KS_MG_DIV (mg) and u/KS_EG_DIV (eg).
inline constexpr int KS_MG_DIV = 720;
inline constexpr int KS_EG_DIV = 20;
// Game phase: knights and bishops count 1, rooks 2, queens 4; 24 is the opening.
inline constexpr int PHASE_MAX = 24;

// A board's game phase, 0 (bare kings and pawns) to PHASE_MAX, on any variant's board.
template <class B>
int game_phase(const B& b) {
    return std::min(PHASE_MAX, popcount(b.pieces(KNIGHT) | b.pieces(BISHOP)) +
                                   2 * popcount(b.pieces(ROOK)) + 4 * popcount(b.pieces(QUEEN)));
}
// Endgame scale factors are out of 64.
inline constexpr int SCALE_NORMAL = 64;

struct ParamGroup {
    const char* name;
    int offset;
    int count;
    EvalTerm term;
};

inline constexpr ParamGroup PARAM_GROUPS[] = {
#define OUTPOST_X(name, n, cat) {#name, name, n, EvalTerm::cat},
    OUTPOST_EVAL_PARAMS(OUTPOST_X)
#undef OUTPOST_X
};

struct EvalParams {
    ScorePair v[PARAM_COUNT];
    constexpr const ScorePair& operator[](int i) const { return v[i]; }
    constexpr ScorePair& operator[](int i) { return v[i]; }
};

// The weights the engine plays with (engine/eval_params.cpp, written by the tuner).
extern const EvalParams DEFAULT_EVAL_PARAMS;

// What one evaluation did, for the tuner and the printed breakdown: how many times each weight
// was applied for each colour, and the parts that are not linear in the weights.
struct EvalTrace {
    int coef[COLOR_NB][PARAM_COUNT] = {};
    ScorePair king_danger[COLOR_NB] = {};  // the (negative) king-safety penalty of each side
    int phase = 0;                         // 0 (bare kings) .. PHASE_MAX (all pieces)
    int scale = SCALE_NORMAL;              // endgame scale factor applied to the eg part
    bool special = false;                  // a dedicated endgame rule gave the value
    int white_eval = 0;                    // the final score from white's point of view
};

// The evaluation with any weights (the tuner's candidates); side-to-move point of view.
int evaluate_with(const Board& board, const EvalParams& params);
// The same, filling a trace.
int evaluate_traced(const Board& board, const EvalParams& params, EvalTrace& trace);

}  // namespace engine
