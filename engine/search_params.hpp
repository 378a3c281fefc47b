// The search's tunables in one place: pruning and reduction margins, depth limits, aspiration
// windows, move-ordering weights and history limits. Changing any of them changes the bench
// signature (tests/engine/bench_test.cpp); such a commit says "Bench: N" (docs/STRENGTH.md).
#pragma once

namespace engine {

// --- Late-move reductions --------------------------------------------------------------------
// The base reduction is LMR_BASE + ln(depth) * ln(move number) / LMR_DIVISOR.
inline constexpr double LMR_BASE = 0.75;
inline constexpr double LMR_DIVISOR = 2.25;
// Reduce only from this depth on (and never the first move, nor the second at the root).
inline constexpr int LMR_MIN_DEPTH = 3;
// A quiet move's history adjusts its reduction by history / LMR_HISTORY_DIVISOR plies, at most
// LMR_HISTORY_MAX_ADJUST either way.
inline constexpr int LMR_HISTORY_DIVISOR = 8000;
inline constexpr int LMR_HISTORY_MAX_ADJUST = 2;
// One ply more when the moves searched before at this node met more than this many cutoffs
// among their replies (a cutoff without a TT move counts twice).
inline constexpr int CUTOFF_COUNT_REDUCE_ABOVE = 3;

// --- Transposition table ---------------------------------------------------------------------
// No TT cutoffs from this halfmove clock on: a stored score may not know the fifty-move draw.
inline constexpr int TT_CUTOFF_HALFMOVE_LIMIT = 90;

// --- Tablebases --------------------------------------------------------------------------------
// A tablebase verdict is stored in the TT this many plies deeper than the node's depth: it is
// worth more than any search of that depth.
inline constexpr int TB_PROBE_DEPTH_BONUS = 6;

// --- Reverse futility pruning (static null move) ---------------------------------------------
// At depth <= RFP_MAX_DEPTH a node whose static eval is RFP_MARGIN per ply (of depth, less one
// when improving) above beta returns without searching.
inline constexpr int RFP_MAX_DEPTH = 8;
inline constexpr int RFP_MARGIN = 150;

// --- Null-move pruning -----------------------------------------------------------------------
// Tried from NMP_MIN_DEPTH on when the static eval is at least
// beta - NMP_EVAL_DEPTH_SLOPE * depth + NMP_EVAL_MARGIN.
inline constexpr int NMP_MIN_DEPTH = 3;
inline constexpr int NMP_EVAL_DEPTH_SLOPE = 20;
inline constexpr int NMP_EVAL_MARGIN = 180;
// The reduction R = NMP_BASE_R + depth / NMP_DEPTH_DIVISOR
//                   + min((eval - beta) / NMP_EVAL_DIVISOR, NMP_EVAL_MAX_R).
inline constexpr int NMP_BASE_R = 3;
inline constexpr int NMP_DEPTH_DIVISOR = 3;
inline constexpr int NMP_EVAL_DIVISOR = 200;
inline constexpr int NMP_EVAL_MAX_R = 3;
// From this depth a null-move cutoff is verified by a search without null moves for our side
// in the next NMP_VERIFY_PLY_NUM / NMP_VERIFY_PLY_DEN of the reduced depth.
inline constexpr int NMP_VERIFY_MIN_DEPTH = 14;
inline constexpr int NMP_VERIFY_PLY_NUM = 3;
inline constexpr int NMP_VERIFY_PLY_DEN = 4;

// --- Internal iterative reduction ------------------------------------------------------------
// A PV or cut node without a TT move is searched one ply shallower from this depth on.
inline constexpr int IIR_MIN_DEPTH = 4;

// --- Shallow move pruning --------------------------------------------------------------------
// Late-move pruning: quiet moves after (LMP_BASE + depth^2) / (2 - improving) are skipped;
// after SKIP_QUIETS_FACTOR * (LMP_BASE + depth^2) moves the picker stops generating quiets.
inline constexpr int LMP_BASE = 3;
inline constexpr int SKIP_QUIETS_FACTOR = 3;
// Futility: at depth <= FUTILITY_MAX_DEPTH a quiet move is skipped when the static eval plus
// FUTILITY_BASE + FUTILITY_PER_DEPTH * depth cannot reach alpha.
inline constexpr int FUTILITY_MAX_DEPTH = 8;
inline constexpr int FUTILITY_BASE = 150;
inline constexpr int FUTILITY_PER_DEPTH = 120;
// History pruning: at depth <= HISTORY_PRUNE_MAX_DEPTH a quiet move whose history is below
// -HISTORY_PRUNE_MARGIN * depth is skipped.
inline constexpr int HISTORY_PRUNE_MAX_DEPTH = 4;
inline constexpr int HISTORY_PRUNE_MARGIN = 3000;
// SEE pruning: at depth <= SEE_PRUNE_MAX_DEPTH a quiet move losing more than
// SEE_QUIET_MARGIN * depth, or a capture losing more than SEE_NOISY_MARGIN * depth, is skipped.
inline constexpr int SEE_PRUNE_MAX_DEPTH = 8;
inline constexpr int SEE_QUIET_MARGIN = 60;
inline constexpr int SEE_NOISY_MARGIN = 100;

// --- Extensions ------------------------------------------------------------------------------
// Check and singular extensions stop at EXTENSION_PLY_FACTOR * the iteration's depth, so
// perpetual-check lines cannot run away.
inline constexpr int EXTENSION_PLY_FACTOR = 2;
// Singular extension: from SE_MIN_DEPTH, with a TT entry at most SE_TT_DEPTH_MARGIN shallower;
// the TT move is singular when every other move fails low against
// tt_score - SE_BETA_MARGIN_PER_DEPTH * depth.
inline constexpr int SE_MIN_DEPTH = 8;
inline constexpr int SE_TT_DEPTH_MARGIN = 3;
inline constexpr int SE_BETA_MARGIN_PER_DEPTH = 2;
// A TT move that is not singular while its TT score beats beta is searched a ply shallower.

// --- Quiescence ------------------------------------------------------------------------------
// Delta pruning: a capture is skipped when even winning the captured piece plus this margin
// leaves the static eval at or below alpha.
inline constexpr int QS_DELTA_MARGIN = 200;
// Quiescence searches only captures whose static exchange gains at least this much.
inline constexpr int QS_SEE_THRESHOLD = 0;

// --- Iterative deepening ---------------------------------------------------------------------
// The aspiration window: +-ASPIRATION_DELTA around the last score from ASPIRATION_MIN_DEPTH on,
// growing by half on each fail; beyond ASPIRATION_MAX_DELTA the window is fully open.
inline constexpr int ASPIRATION_DELTA = 20;
inline constexpr int ASPIRATION_MIN_DEPTH = 4;
inline constexpr int ASPIRATION_MAX_DELTA = 1000;
// Each iteration keeps this share of the best-move changes counted so far (time management).
inline constexpr double BEST_MOVE_CHANGES_DECAY = 0.5;
// With a clock, a found mate stops the search once the depth exceeds its length by this much.
inline constexpr int MATE_STOP_EXTRA_DEPTH = 4;
// The main thread checks the clock, the node limit and the stop flag every this many nodes
// (a power of two).
inline constexpr int LIMITS_CHECK_INTERVAL = 1024;

// --- Variants ----------------------------------------------------------------------------------
// The horde (pawns only) prunes late quiet moves like a side with pieces while it has at least
// this many pawns: only a few pawns make a pawn ending, where every tempo counts.
inline constexpr int HORDE_PRUNE_MIN_PAWNS = 8;

// --- History ---------------------------------------------------------------------------------
// History entries saturate at +-HISTORY_MAX.
inline constexpr int HISTORY_MAX = 16384;
// The bonus for a cutoff at `depth`: HISTORY_BONUS_QUADRATIC * depth^2 + HISTORY_BONUS_LINEAR *
// depth, and HISTORY_BONUS_MAX beyond HISTORY_BONUS_MAX_DEPTH.
inline constexpr int HISTORY_BONUS_QUADRATIC = 10;
inline constexpr int HISTORY_BONUS_LINEAR = 40;
inline constexpr int HISTORY_BONUS_MAX_DEPTH = 13;
inline constexpr int HISTORY_BONUS_MAX = 1900;

// --- Static-eval correction ----------------------------------------------------------------
// Three tables per side to move, CORRECTION_SIZE entries each (a power of two), indexed by a
// hash of the pawns, of white's pieces and of black's pieces: the average of (search score -
// static eval) at nodes with those pawns or pieces, in 1/CORRECTION_GRAIN centipawns, at most
// CORRECTION_MAX either way. A node of depth d moves its entries min(d + 1,
// CORRECTION_MAX_WEIGHT) / CORRECTION_GRAIN of the way to its own difference. The eval is
// corrected by the pawns' entry plus the mean of the two pieces' entries.
inline constexpr int CORRECTION_SIZE = 16384;
static_assert((CORRECTION_SIZE & (CORRECTION_SIZE - 1)) == 0);
inline constexpr int CORRECTION_GRAIN = 256;
inline constexpr int CORRECTION_MAX = 64 * CORRECTION_GRAIN;
inline constexpr int CORRECTION_MAX_WEIGHT = 16;

// --- Move ordering (movepick.cpp) ------------------------------------------------------------
// Captures are ordered by MVV_SCALE * victim value plus capture history / CAPTURE_HISTORY_DIVISOR.
inline constexpr int MVV_SCALE = 16;
inline constexpr int CAPTURE_HISTORY_DIVISOR = 16;
// Under-promotions go to the back of the noisy moves, behind every capture.
inline constexpr int UNDERPROMOTION_SCORE = -100000;
// A noisy move is "bad" (tried after the quiets) when scored below BAD_NOISY_SCORE or when its
// static exchange loses more than its score / GOOD_NOISY_SEE_DIVISOR.
inline constexpr int BAD_NOISY_SCORE = -50000;
inline constexpr int GOOD_NOISY_SEE_DIVISOR = 64;
// Quiet moves: butterfly history + QUIET_CONT1_WEIGHT * the one-ply continuation history + the
// two-ply continuation history.
inline constexpr int QUIET_CONT1_WEIGHT = 2;
// In check, captures and promotions come before every quiet evasion.
inline constexpr int EVASION_NOISY_BONUS = 1 << 24;

}  // namespace engine
