// The weights of the variants' hand-crafted evaluation as one flat table, named by group, so
// the Texel tuner (outpost-tune --variant) can trace, tune and print them like the standard
// evaluation's. Every weight is in centipawns, or in king-danger units where the group is a
// danger group: a side's units u become a penalty of u*u / its variant's danger divisor.
#pragma once

#include "variant.hpp"

namespace engine {

// Every group: name, number of entries, the variant it belongs to, whether it counts
// king-danger units (squared) rather than centipawns (linear).
// clang-format off
#define OUTPOST_VARIANT_PARAMS(X)                  \
    X(CH_BOARD, 5, CRAZYHOUSE, false)              \
    X(CH_HAND, 5, CRAZYHOUSE, false)               \
    X(CH_TEMPO, 1, CRAZYHOUSE, false)              \
    X(CH_KD_HAND, 5, CRAZYHOUSE, true)             \
    X(CH_KD_HOLE, 1, CRAZYHOUSE, true)             \
    X(CH_KD_RING_ATTACK, 1, CRAZYHOUSE, true)      \
    X(CH_KD_DROP_CHECK, 5, CRAZYHOUSE, true)       \
    X(CH_KD_ATTACKER, 5, CRAZYHOUSE, true)         \
    X(CH_KD_TO_MOVE, 1, CRAZYHOUSE, true)          \
    X(CH_KD_OFFSET, 1, CRAZYHOUSE, true)           \
    X(CH_NET_KD_HAND, 5, CRAZYHOUSE, true)         \
    X(CH_NET_KD_HOLE, 1, CRAZYHOUSE, true)         \
    X(CH_NET_KD_RING_ATTACK, 1, CRAZYHOUSE, true)  \
    X(CH_NET_KD_DROP_CHECK, 5, CRAZYHOUSE, true)   \
    X(CH_NET_KD_ATTACKER, 5, CRAZYHOUSE, true)     \
    X(CH_NET_KD_TO_MOVE, 1, CRAZYHOUSE, true)      \
    X(CH_NET_KD_OFFSET, 1, CRAZYHOUSE, true)       \
    X(AC_PIECE, 6, ANTICHESS, false)               \
    X(AC_EN_PRISE, 1, ANTICHESS, false)            \
    X(AC_TEMPO, 1, ANTICHESS, false)               \
    X(AT_EXPOSED, 1, ATOMIC, false)                \
    X(AT_MATERIAL, 5, ATOMIC, false)               \
    X(HD_WHITE_PIECE, 5, HORDE, false)             \
    X(HD_BLACK_PIECE, 5, HORDE, false)             \
    X(HD_PAWN_RANK, 8, HORDE, false)               \
    X(HD_PASSED_RANK, 8, HORDE, false)             \
    X(HD_CHAIN, 1, HORDE, false)                   \
    X(HD_ISOLATED, 1, HORDE, false)                \
    X(HD_HANGING, 1, HORDE, false)                 \
    X(HD_DOUBLED, 1, HORDE, false)                 \
    X(HD_PHALANX, 1, HORDE, false)                 \
    X(HD_PAWN_THREAT, 1, HORDE, false)             \
    X(HD_INFILTRATED, 1, HORDE, false)             \
    X(HD_BLACK_MOBILITY, 4, HORDE, false)          \
    X(HD_OPEN_FILE, 1, HORDE, false)               \
    X(HD_KING_PRESSURE, 1, HORDE, false)           \
    X(HD_KING_RING_ATTACK, 1, HORDE, false)        \
    X(HD_KING_ESCAPES, 1, HORDE, false)            \
    X(HD_TEMPO, 1, HORDE, false)                   \
    X(KH_DISTANCE, 5, KING_OF_THE_HILL, false)     \
    X(KH_FREE_HILL, 1, KING_OF_THE_HILL, false)    \
    X(RK_PIECE, 5, RACING_KINGS, false)            \
    X(RK_RANK, 7, RACING_KINGS, false)             \
    X(RK_FREE_STEP, 1, RACING_KINGS, false)        \
    X(RK_RACE, 8, RACING_KINGS, false)             \
    X(TC_CHECKS, 2, THREE_CHECK, false)            \
    X(TC_CHECKS_PHASE, 2, THREE_CHECK, false)      \
    X(TC_TEMPO, 1, THREE_CHECK, false)             \
    X(TC_KD_SAFE_CHECK, 4, THREE_CHECK, true)      \
    X(TC_KD_CHECK, 1, THREE_CHECK, true)           \
    X(TC_KD_RING_ATTACK, 1, THREE_CHECK, true)     \
    X(TC_KD_GIVEN, 1, THREE_CHECK, true)           \
    X(TC_KD_PAWN_CHECK, 1, THREE_CHECK, true)      \
    X(TC_KD_ATTACKER, 4, THREE_CHECK, true)        \
    X(TC_KD_OFFSET, 1, THREE_CHECK, true)
// clang-format on

// Offsets of each group in the flat table; VARIANT_PARAM_COUNT is the table size.
enum VariantParamIndex : int {
#define OUTPOST_X(name, n, variant, danger) name, name##_LAST_ = name + (n)-1,
    OUTPOST_VARIANT_PARAMS(OUTPOST_X)
#undef OUTPOST_X
        VARIANT_PARAM_COUNT
};

struct VariantParamGroup {
    const char* name;
    int offset;
    int count;
    Variant variant;
    bool danger;
};

inline constexpr VariantParamGroup VARIANT_PARAM_GROUPS[] = {
#define OUTPOST_X(name, n, variant, danger) {#name, name, n, Variant::variant, danger},
    OUTPOST_VARIANT_PARAMS(OUTPOST_X)
#undef OUTPOST_X
};

// A side's king-danger units u cost it u*u / this many centipawns (crazyhouse, three-check).
constexpr int danger_divisor(Variant v) { return v == Variant::CRAZYHOUSE ? 24 : 16; }

struct VariantWeights {
    int v[VARIANT_PARAM_COUNT] = {};
    constexpr int operator[](int i) const { return v[i]; }
    constexpr int& operator[](int i) { return v[i]; }
};

// The weights the engine plays with (engine/variant_eval_params.cpp, written by the tuner).
extern const VariantWeights DEFAULT_VARIANT_WEIGHTS;

// What one evaluation did, for the tuner: how many times each weight was applied for each
// colour (danger weights: to that colour's own king-danger units), and the standard
// evaluation's part, which the variant weights do not change.
struct VariantEvalTrace {
    int coef[2][VARIANT_PARAM_COUNT] = {};
    int base_white = 0;  // the standard evaluation of the board, white's view (0 where unused)
};

}  // namespace engine
