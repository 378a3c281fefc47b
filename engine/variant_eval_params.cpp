// The variants' evaluation weights; outpost-tune --variant (tools/tuner) prints this
// file with tuned values. Starting values were set by hand; antichess's, three-check's and
// racing kings' are tuned on game results, the horde's (but for the white pieces promotions
// make) on Fairy-Stockfish's judgement of each position (outpost-tune label), and crazyhouse's
// king-danger units tripled (the tuner's crazyhouse weights raised them three- to fivefold),
// and the king danger on top of crazyhouse's net fitted to Fairy-Stockfish's judgement with the net
// as its base, each kept for its score in a match (docs/VARIANTS.md, "Strength against
// Fairy-Stockfish 11.1").
#include "variant_eval_params.hpp"

#include <iterator>

namespace engine {

namespace {

// clang-format off
// Crazyhouse: on-board corrections to the standard material, pieces in hand, the side to move
constexpr int CH_BOARD_W[] = {20, -40, -50, -120, -300};
constexpr int CH_HAND_W[] = {110, 290, 290, 380, 700};
constexpr int CH_TEMPO_W[] = {25};
// Crazyhouse king danger (units): enemy pieces in hand, holes next to the king, attacked
// squares next to the king, safe drop checks (per piece type, at most 2 each), enemy pieces
// attacking the squares next to the king (pawn..queen), the enemy to move, offset
constexpr int CH_KD_HAND_W[] = {9, 18, 15, 18, 30};
constexpr int CH_KD_HOLE_W[] = {12};
constexpr int CH_KD_RING_ATTACK_W[] = {12};
constexpr int CH_KD_DROP_CHECK_W[] = {12, 24, 18, 24, 30};
constexpr int CH_KD_ATTACKER_W[] = {9, 15, 12, 15, 21};
constexpr int CH_KD_TO_MOVE_W[] = {15};
constexpr int CH_KD_OFFSET_W[] = {-24};
// The same king danger on top of crazyhouse's net, which judges the board but cannot see what
// the enemy holds: fitted on Fairy-Stockfish's judgement with the net's as the base
constexpr int CH_NET_KD_HAND_W[] = {-1, -2, -3, -3, -18};
constexpr int CH_NET_KD_HOLE_W[] = {1};
constexpr int CH_NET_KD_RING_ATTACK_W[] = {1};
constexpr int CH_NET_KD_DROP_CHECK_W[] = {12, 7, 4, 6, 6};
constexpr int CH_NET_KD_ATTACKER_W[] = {2, 1, 2, 4, 1};
constexpr int CH_NET_KD_TO_MOVE_W[] = {1};
constexpr int CH_NET_KD_OFFSET_W[] = {140};
// Antichess: each piece one still has (pawn..king), own pieces the opponent attacks, tempo
constexpr int AC_PIECE_W[] = {-55, -63, -113, -3, -116, -84};
constexpr int AC_EN_PRISE_W[] = {37};
constexpr int AC_TEMPO_W[] = {39};
// Atomic: own pieces next to the own king that the enemy attacks (at most 2), material
// corrections
constexpr int AT_EXPOSED_W[] = {-200};
constexpr int AT_MATERIAL_W[] = {0, 0, 0, 0, 0};
// Horde: material of each side, white pawns by rank and passed pawns by rank, pawns defended
// by pawns, isolated, attacked and undefended, doubled, side by side; black pieces a white pawn
// attacks, black pieces behind a white pawn of their file; black's mobility (knight..queen),
// files without a white pawn, white pawns near black's king, squares next to black's king the
// pawns attack, and those its king could step to; tempo
constexpr int HD_WHITE_PIECE_W[] = {70, -179, 412, 520, 1275};
constexpr int HD_BLACK_PIECE_W[] = {159, 287, 339, 534, 1061};
constexpr int HD_PAWN_RANK_W[] = {-26, -42, -30, 5, 43, 92, 82, 0};
constexpr int HD_PASSED_RANK_W[] = {-12, -9, 6, 16, 32, 62, 144, 0};
constexpr int HD_CHAIN_W[] = {11};
constexpr int HD_ISOLATED_W[] = {-42};
constexpr int HD_HANGING_W[] = {-55};
constexpr int HD_DOUBLED_W[] = {52};
constexpr int HD_PHALANX_W[] = {41};
constexpr int HD_PAWN_THREAT_W[] = {60};
constexpr int HD_INFILTRATED_W[] = {2};
constexpr int HD_BLACK_MOBILITY_W[] = {16, 7, 4, 4};
constexpr int HD_OPEN_FILE_W[] = {27};
constexpr int HD_KING_PRESSURE_W[] = {34};
constexpr int HD_KING_RING_ATTACK_W[] = {-50};
constexpr int HD_KING_ESCAPES_W[] = {-5};
constexpr int HD_TEMPO_W[] = {38};
// King of the hill: the king's distance to the hill (1 to 5 steps, each enemy guard of a hill
// square and our own piece on it a step more), free hill squares next to it
constexpr int KH_DISTANCE_W[] = {700, 300, 120, 50, 20};
constexpr int KH_FREE_HILL_W[] = {80};
// Racing kings: material (pawn..queen), the king's rank (the eighth wins), free safe steps
// forward
constexpr int RK_PIECE_W[] = {100, 240, 321, 493, 654};
constexpr int RK_RANK_W[] = {-198, -156, -7, 149, 353, 587, 765};
constexpr int RK_FREE_STEP_W[] = {31};
// Racing kings: the king steps to the eighth rank over squares the enemy leaves unattacked
// (1 to 7), or no such path (8)
constexpr int RK_RACE_W[] = {11, 42, 53, 20, 5, -25, -32, -75};
// Three-check: one and two checks given, tempo
constexpr int TC_CHECKS_W[] = {186, 414};
constexpr int TC_TEMPO_W[] = {50};
// Three-check: one and two checks given, more for each unit of game phase (24 at the start:
// knights and bishops 1, rooks 2, queens 4), for a check is worth more while the pieces that
// give the next are on the board
constexpr int TC_CHECKS_PHASE_W[] = {9, 48};
// Three-check king danger (units), scaled by the checks the enemy has given plus one: safe
// checks (knight..queen), any check; attacked squares next to the king, checks given, offset
constexpr int TC_KD_SAFE_CHECK_W[] = {1, 5, 3, 2};
constexpr int TC_KD_CHECK_W[] = {2};
constexpr int TC_KD_RING_ATTACK_W[] = {0};
constexpr int TC_KD_GIVEN_W[] = {-7};
// Three-check king danger (units): pawn checks the enemy can give (scaled as above), enemy
// knights..queens that attack the squares next to the king. (Files without a pawn of ours at
// and beside the king, and the squares a queen on the king's square would reach, were fitted
// to 0: the net's judgement of the board has them.)
constexpr int TC_KD_PAWN_CHECK_W[] = {4};
constexpr int TC_KD_ATTACKER_W[] = {3, 2, 2, 1};
constexpr int TC_KD_OFFSET_W[] = {161};
// clang-format on

constexpr VariantWeights make_weights() {
    VariantWeights w{};
#define OUTPOST_X(name, n, variant, danger)                                 \
    static_assert(std::size(name##_W) == (n), #name " has the wrong size"); \
    for (int k = 0; k < (n); ++k) w.v[name + k] = name##_W[k];
    OUTPOST_VARIANT_PARAMS(OUTPOST_X)
#undef OUTPOST_X
    return w;
}

}  // namespace

const VariantWeights DEFAULT_VARIANT_WEIGHTS = make_weights();

}  // namespace engine
