// The search: iterative deepening, PVS with aspiration windows, quiescence, pruning and
// reductions, draw detection against the game history, and lazy SMP helper threads.
#include "search.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <thread>

#include "evaluate.hpp"
#include "history.hpp"
#include "level_search.hpp"
#include "movepick.hpp"
#include "score.hpp"
#include "search_params.hpp"
#include "see.hpp"
#include "variant_eval.hpp"

namespace engine {

namespace {

using Clock = std::chrono::steady_clock;

std::int64_t ms_since(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

// Late-move reductions grow with the log of both depth and move number.
struct Reductions {
    int table[64][64];
    Reductions() {
        for (int d = 0; d < 64; ++d)
            for (int m = 0; m < 64; ++m)
                table[d][m] = d && m ? int(LMR_BASE + std::log(d) * std::log(m) / LMR_DIVISOR) : 0;
    }
    int operator()(int depth, int move_count) const {
        return table[std::min(depth, 63)][std::min(move_count, 63)];
    }
};
const Reductions reductions;

template <Variant V>
bool has_non_pawn_material(const BasicBoard<V>& b) {
    return (b.pieces(b.side) & ~b.pieces(PAWN) & ~b.pieces(KING)) != 0;
}

// Antichess: how many captures the side to move must choose among (0: no capture is forced).
// When there is a capture the generator gives the captures alone, which are then every move.
template <Variant V>
int forced_captures(const BasicBoard<V>& b) {
    MoveListOf<V> noisy;
    generate_moves(b, noisy, GenType::NOISY);
    return !noisy.empty() && b.is_capture(noisy[0]) ? noisy.size() : 0;
}

// Whether late quiet moves may be pruned: not in pawn endings, where every tempo counts, but
// the horde's mass of pawns is no ending (HORDE_PRUNE_MIN_PAWNS or more).
template <Variant V>
bool may_prune_quiets(const BasicBoard<V>& b) {
    if constexpr (V == Variant::HORDE)
        if (b.side == WHITE) return popcount(b.pieces(WHITE, PAWN)) >= HORDE_PRUNE_MIN_PAWNS;
    return has_non_pawn_material(b);
}

// The root's value from the tables: a mate in their distance to mate (a tablebase score when it
// is too long to be a mate score), or a draw.
int tablebase_score(const TbResult& r) {
    if (r.wdl == Wdl::DRAW) return 0;
    const bool near = r.plies_to_mate < MAX_PLY;
    if (r.wdl == Wdl::WIN) return near ? mate_in(r.plies_to_mate) : SCORE_TB_WIN;
    return near ? mated_in(r.plies_to_mate) : -SCORE_TB_WIN;
}

// The root's value from the Syzygy tables: a win or loss as a tablebase score the nearer the
// fewer plies to the next capture or pawn move, a draw (cursed wins and blessed losses too) 0.
int syzygy_score(const SyzygyRoot& r) {
    const int plies = std::clamp(r.dtz, 1, MAX_PLY - 1);
    if (r.wdl == SyzygyWdl::WIN) return tb_win_in(plies);
    if (r.wdl == SyzygyWdl::LOSS) return tb_loss_in(plies);
    return 0;
}

// A game the variant's rules ended before the side to move moves, as a mate-like score: a win
// or loss in "zero moves" from here (a king on the hill, a third check, an exploded king).
template <Variant V>
std::optional<int> variant_end_score(const BasicBoard<V>& b, int ply) {
    if constexpr (!has_variant_end(V)) return std::nullopt;
    switch (variant_end(b)) {
        case VariantEnd::LOSS:
            return mated_in(ply);
        case VariantEnd::WIN:
            return mate_in(ply);
        case VariantEnd::DRAW:
            return 0;
        case VariantEnd::NONE:
            break;
    }
    return std::nullopt;
}

// King of the hill: colour c's king can step onto a centre square that neither holds a piece
// of its own nor is attacked by the other side, and so win with that move.
template <Variant V>
bool hill_step(const BasicBoard<V>& b, Color c) {
    const Square k = b.king_square(c);
    const Bitboard without_king = b.pieces() ^ square_bb(k);
    for (Bitboard s = king_attacks(k) & HILL_BB & ~b.pieces(c); s;)
        if (!b.attacked_by(~c, pop_lsb(s), without_king)) return true;
    return false;
}

// A win the side to move takes with its next move, seen without searching it: a king step onto
// a free, unattacked centre square (king of the hill), or any check when two were given
// (three-check). Quiescence cannot see these quiet moves, so it asks here first.
template <Variant V>
bool wins_next_move(const BasicBoard<V>& b) {
    if constexpr (has_hill(V)) {
        return hill_step(b, b.side);
    } else if constexpr (counts_checks(V)) {
        if (b.state.checks_given[b.side] < 2) return false;
        const CheckInfo ci = b.check_info();
        for (const Move m : legal_moves(b))
            if (b.gives_check(m, ci)) return true;
    }
    return false;
}

// The side that just moved threatens such a win: a step onto the hill, or a third check.
// Like a check, that must be answered, so the side to move may neither stand pat in
// quiescence nor be judged by its static evaluation alone.
template <Variant V>
bool win_threatened(const BasicBoard<V>& b) {
    if constexpr (has_hill(V)) {
        return hill_step(b, ~b.side);
    } else if constexpr (counts_checks(V)) {
        if (b.state.checks_given[~b.side] < 2 || b.in_check()) return false;
        BasicBoard<V> passed = b;
        passed.make_null_move();
        return wins_next_move(passed);
    }
    return false;
}

// The score of a node without a legal move: mated or stalemated, and the variants' own
// meanings (antichess's stalemate wins; racing kings' black who cannot follow home loses).
template <Variant V>
int no_moves_score(const BasicBoard<V>& b, int ply) {
    if constexpr (V == Variant::STANDARD) return b.in_check() ? mated_in(ply) : 0;
    const VariantEnd r = no_moves_result(b);
    return r == VariantEnd::LOSS ? mated_in(ply) : r == VariantEnd::WIN ? mate_in(ply) : 0;
}

// State of one search shared by all threads.
struct SharedState {
    TranspositionTable* tt = nullptr;
    SearchLimits limits;
    const std::atomic<bool>* external_stop = nullptr;
    std::atomic<bool>* ponderhit = nullptr;
    std::atomic<bool> stop{false};
    Clock::time_point start;
    TimeBudget budget{NO_TIME_LIMIT, NO_TIME_LIMIT};
    bool pondering = false;  // only the main thread writes it
    int thread_count = 1;
    const nnue::Network* net = nullptr;  // null: the hand-crafted evaluation
    const VariantWeights* variant_weights = &DEFAULT_VARIANT_WEIGHTS;
    const Tablebase* tb = nullptr;   // null: no tablebase probes
    int tb_pieces = 0;               // probe positions with at most this many pieces
    const Syzygy* syzygy = nullptr;  // null: no Syzygy probes
    int syzygy_pieces = 0;           // probe positions with at most this many pieces
    std::vector<Move> root_moves;    // the root moves the tables keep; empty: every move
    int root_tb_score = SCORE_NONE;  // the root's value from the tables, if they cover it
};

}  // namespace

Score uci_score(int s) {
    if (is_mate_score(s)) return {true, mate_moves(s)};
    // A tablebase result: centipawns above every evaluation, fewer the further away it is.
    if (is_tb_score(s))
        return {false, s > 0 ? EVAL_MAX + MAX_PLY - (SCORE_TB_WIN - s)
                             : -(EVAL_MAX + MAX_PLY - (SCORE_TB_WIN + s))};
    return {false, s};
}

struct Engine::Worker {
    struct Stack {
        Move move;
        Piece piece = NO_PIECE;
        int static_eval = SCORE_NONE;
        Move excluded;
        // Beta cutoffs so far among the siblings at this ply (children of one parent), two
        // for a cutoff without a TT move; the parent resets it before its first move.
        int cutoff_count = 0;
        PieceToHistory* cont = nullptr;
        int ply = 0;
    };

    int id = 0;
    std::unique_ptr<History> history = std::make_unique<History>();
    std::atomic<std::uint64_t> nodes{0};
    std::atomic<std::uint64_t> tb_hits{0};
    SharedState* shared = nullptr;
    std::vector<Engine::Worker*>* all = nullptr;

    std::vector<Key> keys;  // game history, then the current search path
    int game_len = 0;       // keys before the search path (the root's key is keys[game_len-1])
    Stack stack[MAX_PLY + 8];
    // NNUE accumulators along the search path, by ply: a node marks its own stale on entry
    // and evaluation brings it up to date from the nearest ready ancestor. The boards are the
    // searched variant's BasicBoard<V> (standard chess, or a variant whose board the net
    // judges: net_judges_board).
    nnue::Accumulator acc[MAX_PLY + 8];
    const void* path_boards[MAX_PLY + 8] = {};
    bool acc_ready[MAX_PLY + 8] = {};
    Move pv[MAX_PLY + 2][MAX_PLY + 2];
    int pv_len[MAX_PLY + 2] = {};
    int seldepth = 0;
    int root_depth = 0;
    int nmp_min_ply = 0;

    // Best move of the iteration in progress (updated whenever the root raises alpha).
    Move iter_best;
    std::vector<Move> iter_pv;
    int iter_score = 0;
    double best_move_changes = 0;

    // Result of the last completed iteration.
    int completed_depth = 0;
    int completed_score = 0;
    std::vector<Move> completed_pv;

    Worker() { history->clear(); }

    void count_node() {
        nodes.store(nodes.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
    bool stopped() const { return shared->stop.load(std::memory_order_relaxed); }

    std::uint64_t total_nodes() const {
        std::uint64_t n = 0;
        for (const Worker* w : *all) n += w->nodes.load(std::memory_order_relaxed);
        return n;
    }
    std::uint64_t total_tb_hits() const {
        std::uint64_t n = 0;
        for (const Worker* w : *all) n += w->tb_hits.load(std::memory_order_relaxed);
        return n;
    }

    // The tables' verdict on a node below the root: a win scores tb_win_in(ply) (a lower bound:
    // a mate may be nearer), a loss tb_loss_in(ply) (an upper bound), a draw 0. Nullopt when no
    // table covers the position or the bound does not settle the window.
    // Syzygy first, where it answers: just after a capture or pawn move (the only clock its WDL
    // tables know; a cursed win or blessed loss is a draw, as lila scores it), then Gaviota.
    std::optional<int> probe_tablebase(const Board& b, int alpha, int beta, int depth, int ply) {
        const SharedState& s = *shared;
        if (b.castling != NO_CASTLING) return std::nullopt;
        const int pieces = popcount(b.pieces());
        std::optional<Wdl> wdl;
        if (s.syzygy && b.halfmove_clock == 0 && pieces <= s.syzygy_pieces)
            if (const auto w = s.syzygy->probe_wdl(b)) wdl = lichess_wdl(*w);
        if (!wdl && s.tb && pieces <= s.tb_pieces) wdl = s.tb->probe_wdl(b);
        if (!wdl) return std::nullopt;
        tb_hits.store(tb_hits.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
        const int value = *wdl == Wdl::WIN    ? tb_win_in(ply)
                          : *wdl == Wdl::LOSS ? tb_loss_in(ply)
                                              : 0;
        const Bound bound = *wdl == Wdl::WIN    ? BOUND_LOWER
                            : *wdl == Wdl::LOSS ? BOUND_UPPER
                                                : BOUND_EXACT;
        if (bound == BOUND_LOWER && value < beta) return std::nullopt;
        if (bound == BOUND_UPPER && value > alpha) return std::nullopt;
        s.tt->store(b.key, Move::none(), score_to_tt(value, ply), SCORE_NONE,
                    std::min(depth + TB_PROBE_DEPTH_BONUS, MAX_PLY - 1), bound);
        return value;
    }

    bool root_move_allowed(Move m) const {
        const auto& keep = shared->root_moves;
        return keep.empty() || std::find(keep.begin(), keep.end(), m) != keep.end();
    }

    // Main thread only: stop on the external flag, the hard time limit or the node limit.
    void check_limits() {
        SharedState& s = *shared;
        if (s.external_stop->load(std::memory_order_relaxed)) {
            s.stop = true;
            return;
        }
        if (s.pondering && s.ponderhit->load(std::memory_order_relaxed)) {
            s.pondering = false;
            s.start = Clock::now();  // our clock starts running now
        }
        if (s.limits.nodes && total_nodes() >= s.limits.nodes) s.stop = true;
        if (!s.pondering && !s.limits.infinite && ms_since(s.start) >= s.budget.hard_ms)
            s.stop = true;
    }

    void poll() {
        count_node();
        if (id != 0) return;
        const std::uint64_t n = nodes.load(std::memory_order_relaxed);
        // A node limit with one thread is checked exactly so such searches are reproducible.
        if (shared->limits.nodes && shared->thread_count == 1 && n >= shared->limits.nodes)
            shared->stop = true;
        if ((n & (LIMITS_CHECK_INTERVAL - 1)) == 0) check_limits();
    }

    template <Variant V>
    bool is_draw(const BasicBoard<V>& b, int ply) const {
        if ((has_fifty_move_rule(V) && b.halfmove_clock >= 100) || insufficient_material_fast(b))
            return true;
        const int idx = game_len - 1 + ply;
        // Crazyhouse positions repeat across captures (Crazyhouse.scala isIrreversible: only
        // castling, whose lost rights change the key anyway): the whole game is looked at.
        const int limit = has_drops(V) ? idx : std::min<int>(b.halfmove_clock, idx);
        int before_root = 0;
        for (int i = 4; i <= limit; i += 2) {
            if (keys[std::size_t(idx - i)] != b.key) continue;
            // A repetition inside the tree is a draw by itself (the side repeating could
            // repeat again); one only in the game history needs to be a third occurrence.
            if (i <= ply || ++before_root == 2) return true;
        }
        return false;
    }

    template <Variant V>
    void enter(const BasicBoard<V>& b, int ply) {
        if constexpr (uses_net(V)) {
            path_boards[ply] = &b;
            if (ply > 0) acc_ready[ply] = false;
        }
    }

    static constexpr bool uses_net(Variant v) {
        return v == Variant::STANDARD || net_judges_board(v);
    }

    // The NNUE (or the HCE) for standard chess; a variant's own hand-crafted evaluation, on
    // the NNUE's judgement of the board where the variant takes it.
    template <Variant V>
    int evaluate_at(const BasicBoard<V>& b, int ply) {
        if constexpr (V == Variant::STANDARD) {
            return shared->net ? net_eval_at(b, ply) : evaluate(b);
        } else if constexpr (uses_net(V)) {
            return evaluate_variant(b, *shared->variant_weights,
                                    shared->net ? net_eval_at(b, ply) : SCORE_NONE);
        } else {
            return evaluate_variant(b, *shared->variant_weights);
        }
    }

    template <Variant V>
    int net_eval_at(const BasicBoard<V>& b, int ply) {
        const nnue::Network& net = *shared->net;
        auto board = [this](int i) -> const BasicBoard<V>& {
            return *static_cast<const BasicBoard<V>*>(path_boards[i]);
        };
        int q = ply;
        while (!acc_ready[q]) --q;  // the root (ply 0) is always ready
        for (int i = q + 1; i <= ply; ++i) {
            nnue::update(net, board(i - 1), board(i), acc[i - 1], acc[i]);
            acc_ready[i] = true;
        }
        return nnue::evaluate(net, acc[ply], b);
    }

    // The static eval corrected by what earlier searches of similar positions found: an
    // evaluation that misjudges a pawn structure, or a set of pieces, does so at every node
    // that has it. Three entries: the pawns', and each side's pieces (king included).
    static std::size_t correction_index(std::initializer_list<Bitboard> sets) {
        std::uint64_t h = 0x243F6A8885A308D3ULL;
        for (const Bitboard s : sets) {
            h = (h ^ s) * 0x9E3779B97F4A7C15ULL;
            h ^= h >> 29;
        }
        return std::size_t(h >> (64 - std::countr_zero(std::uint64_t(CORRECTION_SIZE))));
    }
    struct CorrectionEntries {
        std::int16_t* pawns;
        std::int16_t* pieces[COLOR_NB];
    };
    template <Variant V>
    CorrectionEntries correction_entries(const BasicBoard<V>& b) {
        History& h = *history;
        auto pieces_of = [&](Color c) -> std::int16_t* {
            return &h.piece_correction[b.side][c][correction_index(
                {b.pieces(c, KNIGHT), b.pieces(c, BISHOP), b.pieces(c, ROOK), b.pieces(c, QUEEN),
                 b.pieces(c, KING)})];
        };
        return {&h.pawn_correction[b.side][correction_index(
                    {b.pieces(WHITE, PAWN), b.pieces(BLACK, PAWN)})],
                {pieces_of(WHITE), pieces_of(BLACK)}};
    }
    template <Variant V>
    int corrected_eval(const BasicBoard<V>& b, int raw) {
        const CorrectionEntries c = correction_entries(b);
        const int sum = 2 * *c.pawns + *c.pieces[WHITE] + *c.pieces[BLACK];
        const int v = raw + sum / (2 * CORRECTION_GRAIN);
        return std::clamp(v, -TB_WIN_IN_MAX + 1, TB_WIN_IN_MAX - 1);
    }
    template <Variant V>
    void update_corrections(const BasicBoard<V>& b, int diff, int depth) {
        const CorrectionEntries c = correction_entries(b);
        update_correction(*c.pawns, diff, depth);
        update_correction(*c.pieces[WHITE], diff, depth);
        update_correction(*c.pieces[BLACK], diff, depth);
    }

    void update_pv(int ply, Move m) {
        pv[ply][ply] = m;
        for (int i = ply + 1; i < pv_len[ply + 1]; ++i) pv[ply][i] = pv[ply + 1][i];
        pv_len[ply] = std::max(pv_len[ply + 1], ply + 1);
    }

    PieceToHistory* sentinel() { return &history->continuation[NO_PIECE][0]; }

    template <Variant V>
    void update_quiet_stats(Stack* ss, const BasicBoard<V>& b, Move best, int depth,
                            const Move* quiets, int quiet_count) {
        History& h = *history;
        const int bonus = history_bonus(depth);
        auto update_one = [&](Move m, int delta) {
            update_history(h.butterfly[b.side][m.from() * 64 + m.to()], delta);
            const Piece pc = b.moved_piece(m);
            for (int back : {1, 2, 4}) {
                const Stack* prev = ss - back;
                if (prev->move && prev->move != Move::null())
                    update_history((*prev->cont)[pc][m.to()], delta);
            }
        };
        update_one(best, bonus);
        for (int i = 0; i < quiet_count; ++i)
            if (quiets[i] != best) update_one(quiets[i], -bonus);
        if (h.killers[ss->ply][0] != best) {
            h.killers[ss->ply][1] = h.killers[ss->ply][0];
            h.killers[ss->ply][0] = best;
        }
        const Stack* prev = ss - 1;
        if (prev->move && prev->move != Move::null())
            h.countermove[prev->piece][prev->move.to()] = best;
    }

    template <Variant V>
    void update_capture_stats(const BasicBoard<V>& b, Move best, int depth, const Move* captures,
                              int capture_count) {
        History& h = *history;
        const int bonus = history_bonus(depth);
        auto entry = [&](Move m) -> std::int16_t& {
            const Piece c = b.captured_piece(m);
            return h.capture[b.moved_piece(m)][m.to()][c == NO_PIECE ? PAWN : type_of(c)];
        };
        if (b.is_capture(best)) update_history(entry(best), bonus);
        for (int i = 0; i < capture_count; ++i)
            if (captures[i] != best) update_history(entry(captures[i]), -bonus);
    }

    // With `checks`, the quiet checks too (the first quiescence ply in crazyhouse).
    template <Variant V>
    int qsearch(const BasicBoard<V>& b, int alpha, int beta, Stack* ss, bool checks = false);
    template <Variant V>
    int search(const BasicBoard<V>& b, int alpha, int beta, int depth, Stack* ss, bool cut_node);
    template <Variant V>
    void iterate(const BasicBoard<V>& root);
    void report(int depth, int score, Bound bound, const InfoCallback& on_info);

    const InfoCallback* on_info = nullptr;
};

template <Variant V>
int Engine::Worker::qsearch(const BasicBoard<V>& b, int alpha, int beta, Stack* ss, bool checks) {
    const int ply = ss->ply;
    enter(b, ply);
    const bool pv_node = beta - alpha > 1;
    pv_len[ply] = ply;
    // Nodes reached after a stop are not counted, so a node limit is met exactly.
    if (stopped()) return 0;
    poll();
    if (ply > seldepth) seldepth = ply;
    // A variant's win ends the game before any draw rule is asked (Position.scala status).
    if (const std::optional<int> v = variant_end_score(b, ply)) return *v;
    if (is_draw(b, ply)) return 0;
    if (wins_next_move(b)) return mate_in(ply + 1);
    const bool in_check = b.in_check();
    if (ply >= MAX_PLY - 1) return in_check ? 0 : evaluate_at(b, ply);

    // Antichess.scala: a capture, when there is one, must be played; with no move at all the
    // side to move has won. A single forced capture is no choice, so it is played out rather
    // than stood pat on, and a chain of them costs no branching. With several captures to
    // choose from the side stands pat as anywhere: searching every capture of every capture
    // took nearly all of a search's nodes and held it to half the depth.
    bool forced = false;
    // (Bounded as the extensions are, so that answers to threats cannot run away.)
    const bool threatened =
        !in_check && ply < EXTENSION_PLY_FACTOR * root_depth && win_threatened(b);
    if constexpr (must_capture(V)) {
        const int captures = forced_captures(b);
        forced = captures == 1;
        if (captures == 0 && count_legal_moves(b) == 0) return mate_in(ply);
    }

    TranspositionTable& tt = *shared->tt;
    TTData tte;
    const bool tt_hit = tt.probe(b.key, tte);
    const int tt_score = tt_hit ? score_from_tt(tte.score, ply) : SCORE_NONE;
    if (tt_hit && !pv_node &&
        (tte.bound == BOUND_EXACT || (tte.bound == BOUND_LOWER && tt_score >= beta) ||
         (tte.bound == BOUND_UPPER && tt_score <= alpha)))
        return tt_score;

    int best = -SCORE_INF, static_eval = SCORE_NONE, raw_eval = SCORE_NONE;
    if (!in_check && !forced && !threatened) {
        raw_eval = tt_hit && tte.eval != SCORE_NONE ? tte.eval : evaluate_at(b, ply);
        best = static_eval = corrected_eval(b, raw_eval);
        // A TT score is a better guess than the static evaluation when its bound allows.
        if (tt_hit && ((tte.bound == BOUND_LOWER && tt_score > best) ||
                       (tte.bound == BOUND_UPPER && tt_score < best)))
            best = tt_score;
        if (best >= beta) {
            if (!tt_hit)
                tt.store(b.key, Move::none(), score_to_tt(best, ply), raw_eval, -1, BOUND_LOWER);
            return best;
        }
        alpha = std::max(alpha, best);
    }

    MovePicker<V> picker(b, tt_hit ? tte.move : Move::none(), *history);
    Move best_move;
    int move_count = 0;
    const int old_alpha = alpha;
    // Searches a move and keeps it if it is the best so far; true when it beats beta (or the
    // search was stopped, and its score means nothing).
    const auto search_move = [&](Move m) {
        tt.prefetch(b.key_after(m));
        BasicBoard<V> next = b;
        next.make_move(m);
        ss->move = m;
        ss->piece = b.moved_piece(m);
        ss->cont = &history->continuation[ss->piece][m.to()];
        keys[std::size_t(game_len + ply)] = next.key;
        const int score = -qsearch(next, -beta, -alpha, ss + 1);
        if (stopped()) return true;
        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (pv_node) update_pv(ply, m);
                if (score >= beta) return true;
                alpha = score;
            }
        }
        return false;
    };
    while (const Move m = picker.next()) {
        ++move_count;
        if (!in_check && !threatened && best > -TB_WIN_IN_MAX) {
            // Delta pruning: even winning the captured piece (plus a margin) cannot reach alpha.
            // (Not in atomic, where an explosion takes more than the captured piece.)
            const Piece captured = b.captured_piece(m);
            if (!has_explosions(V) && !b.is_promotion(m) && captured != NO_PIECE &&
                static_eval + PIECE_VALUE[type_of(captured)] + QS_DELTA_MARGIN <= alpha)
                continue;
            if (!see_ge(b, m, QS_SEE_THRESHOLD)) continue;
        }
        if (search_move(m)) break;
    }
    if (stopped()) return 0;
    if (in_check && move_count == 0) return no_moves_score(b, ply);

    // The threatened win must be stopped, by a quiet move if no capture did: a piece that
    // guards the hill square or stands on it, a king step out of reach of the third check.
    if (threatened && best < beta) {
        MoveListOf<V> quiets;
        generate_moves(b, quiets, GenType::QUIET);
        for (const Move m : quiets) {
            ++move_count;
            if (search_move(m)) break;
        }
        if (stopped()) return 0;
        if (move_count == 0) return no_moves_score(b, ply);
    }

    // Crazyhouse: at the first quiescence ply, the quiet checks that lose no material too, for
    // there a drop with check is what an attack is made of (a drop mate), and the captures alone
    // miss it. (Three-check, tried the same way, scored the same against Fairy-Stockfish.)
    if constexpr (has_drops(V)) {
        if (checks && !in_check && best < beta && best > -TB_WIN_IN_MAX) {
            MoveListOf<V> quiets;
            generate_moves(b, quiets, GenType::QUIET);
            const CheckInfo ci = b.check_info();
            for (const Move m : quiets) {
                if (b.is_promotion(m) || !b.gives_check(m, ci) || !see_ge(b, m, 0)) continue;
                if (search_move(m)) break;
            }
            if (stopped()) return 0;
        }
    }

    const Bound bound = best >= beta                    ? BOUND_LOWER
                        : (pv_node && best > old_alpha) ? BOUND_EXACT
                                                        : BOUND_UPPER;
    tt.store(b.key, best_move, score_to_tt(best, ply), raw_eval, 0, bound);
    return best;
}

template <Variant V>
int Engine::Worker::search(const BasicBoard<V>& b, int alpha, int beta, int depth, Stack* ss,
                           bool cut_node) {
    const int ply = ss->ply;
    const bool pv_node = beta - alpha > 1;
    const bool root = ply == 0;
    if (depth <= 0) return qsearch(b, alpha, beta, ss, has_drops(V));
    enter(b, ply);

    pv_len[ply] = ply;
    if (stopped()) return 0;
    poll();
    if (pv_node && ply > seldepth) seldepth = ply;

    const bool in_check = b.in_check();
    if (!root) {
        if (const std::optional<int> v = variant_end_score(b, ply)) return *v;
        if (is_draw(b, ply)) return 0;
        if (ply >= MAX_PLY - 1) return in_check ? 0 : evaluate_at(b, ply);
        // Mate-distance pruning: no result here can beat a mate already found nearer the root.
        // (An antichess side with no move wins here, a ply sooner than any mate.)
        alpha = std::max(alpha, mated_in(ply));
        beta = std::min(beta, mate_in(V == Variant::ANTICHESS ? ply : ply + 1));
        if (alpha >= beta) return alpha;
    }

    // Antichess: a node with one legal move (a forced capture, mostly) is searched a ply
    // deeper for free, and chains of forced captures are what its tactics are made of. Where
    // a capture is forced nothing is pruned (below): every capture there may be the one.
    bool capture_forced = false;
    if constexpr (must_capture(V)) {
        const int captures = forced_captures(b);
        capture_forced = captures > 0;
        const int legal = capture_forced ? captures : int(count_legal_moves(b));
        if (!root && ply < EXTENSION_PLY_FACTOR * root_depth && legal == 1) ++depth;
    }

    TranspositionTable& tt = *shared->tt;
    const Move excluded = ss->excluded;
    TTData tte;
    const bool tt_hit = !excluded && tt.probe(b.key, tte);
    const int tt_score = tt_hit ? score_from_tt(tte.score, ply) : SCORE_NONE;
    const Move tt_move = root     ? (iter_best ? iter_best
                                     : tt_hit  ? tte.move
                                               : Move::none())
                         : tt_hit ? tte.move
                                  : Move::none();
    if (!pv_node && tt_hit && tte.depth >= depth &&
        (tte.bound == BOUND_EXACT || (tte.bound == BOUND_LOWER && tt_score >= beta) ||
         (tte.bound == BOUND_UPPER && tt_score <= alpha)) &&
        b.halfmove_clock < TT_CUTOFF_HALFMOVE_LIMIT)
        return tt_score;

    if constexpr (V == Variant::STANDARD)
        if (!root && !excluded && (shared->tb || shared->syzygy))
            if (const std::optional<int> v = probe_tablebase(b, alpha, beta, depth, ply)) return *v;

    // Static evaluation, sharpened by the TT score when its bound points the right way.
    // The TT keeps the raw eval; the correction is applied afresh at every visit.
    int eval = SCORE_NONE, raw_eval = SCORE_NONE;
    if (in_check) {
        ss->static_eval = SCORE_NONE;
    } else if (excluded) {
        eval = ss->static_eval;
    } else {
        raw_eval = tt_hit && tte.eval != SCORE_NONE ? tte.eval : evaluate_at(b, ply);
        ss->static_eval = eval = corrected_eval(b, raw_eval);
        if (tt_hit && ((tte.bound == BOUND_LOWER && tt_score > eval) ||
                       (tte.bound == BOUND_UPPER && tt_score < eval)))
            eval = tt_score;
    }
    // A win threatened (king of the hill, three-check) leaves few moves that stop it, and the
    // static evaluation does not see it: it may not prune here (nor, in three-check, may move
    // counts: see the move loop).
    const bool threatened = !in_check && win_threatened(b);
    // Improving: our static eval rose since our previous move, so prune less.
    const bool improving =
        !in_check && (ss - 2)->static_eval != SCORE_NONE && ss->static_eval > (ss - 2)->static_eval;

    history->killers[ply + 1][0] = history->killers[ply + 1][1] = Move::none();
    (ss + 1)->excluded = Move::none();
    (ss + 1)->cutoff_count = 0;

    // Not where antichess forces a capture: the side may not pass, and a static evaluation
    // says little about a position that forced captures will transform.
    if (!capture_forced && !pv_node && !in_check && !excluded && !threatened) {
        // Reverse futility: far enough above beta that a shallow search will not fall below.
        // Not against a beta of being mated: a static eval cannot refute a mate.
        if (depth <= RFP_MAX_DEPTH && ss->static_eval - RFP_MARGIN * (depth - improving) >= beta &&
            eval >= beta && eval < TB_WIN_IN_MAX && beta > -TB_WIN_IN_MAX)
            return (eval + beta) / 2;

        // Null move: if passing still fails high, a real move will too. Not in pawn endings
        // (zugzwang), not twice in a row, and verified by a normal search when deep.
        if (depth >= NMP_MIN_DEPTH && eval >= beta &&
            ss->static_eval >= beta - NMP_EVAL_DEPTH_SLOPE * depth + NMP_EVAL_MARGIN &&
            (ss - 1)->move != Move::null() && ply >= nmp_min_ply && has_non_pawn_material(b)) {
            const int r = NMP_BASE_R + depth / NMP_DEPTH_DIVISOR +
                          std::min((eval - beta) / NMP_EVAL_DIVISOR, NMP_EVAL_MAX_R);
            BasicBoard<V> next = b;
            next.make_null_move();
            ss->move = Move::null();
            ss->piece = NO_PIECE;
            ss->cont = sentinel();
            keys[std::size_t(game_len + ply)] = next.key;
            int score = -search(next, -beta, -beta + 1, depth - r, ss + 1, !cut_node);
            if (stopped()) return 0;
            if (score >= beta) {
                if (score >= TB_WIN_IN_MAX) score = beta;  // a null-move "mate" is not proven
                if (depth < NMP_VERIFY_MIN_DEPTH || nmp_min_ply) return score;
                // Verification: search without null moves for our side in the next plies.
                nmp_min_ply = ply + NMP_VERIFY_PLY_NUM * (depth - r) / NMP_VERIFY_PLY_DEN;
                const int v = search(b, beta - 1, beta, depth - r, ss, false);
                nmp_min_ply = 0;
                if (v >= beta) return score;
            }
        }
    }

    // Internal iterative reduction: without a TT move this node is probably poorly ordered;
    // search it shallower now and let the next iteration do it properly.
    if (depth >= IIR_MIN_DEPTH && !tt_move && !excluded && (pv_node || cut_node)) --depth;

    const Move killers[2] = {history->killers[ply][0], history->killers[ply][1]};
    const Stack* prev = ss - 1;
    const Move counter = prev->move && prev->move != Move::null()
                             ? history->countermove[prev->piece][prev->move.to()]
                             : Move::none();
    const PieceToHistory* cont[2] = {(ss - 1)->cont, (ss - 2)->cont};
    MovePicker<V> picker(b, tt_move, *history, killers, counter, cont);

    Move quiets[64], captures[32];
    int quiet_count = 0, capture_count = 0;
    int best = -SCORE_INF, move_count = 0;
    Move best_move;
    const int old_alpha = alpha;
    bool skip_quiets = false;
    const CheckInfo check_info = b.check_info();

    while (const Move m = picker.next(skip_quiets)) {
        if (m == excluded || (root && !root_move_allowed(m))) continue;
        ++move_count;
        const bool capture = b.is_capture(m);
        const bool quiet = !capture && !b.is_promotion(m);
        const Piece pc = b.moved_piece(m);
        const int hist = quiet ? history->butterfly[b.side][m.from() * 64 + m.to()] +
                                     (*cont[0])[pc][m.to()] + (*cont[1])[pc][m.to()]
                               : 0;

        const bool gives_check = b.gives_check(m, check_info);
        // Antichess: a piece offered where the enemy must take it forces the reply, as a check
        // does elsewhere.
        const bool offer =
            must_capture(V) && quiet &&
            (b.attackers_to(m.to(), b.pieces() ^ square_bb(m.from())) & b.pieces(~b.side));

        // Shallow pruning of moves unlikely to matter, once a non-losing line exists. Checks
        // are spared the SEE and history tests: sacrifices with check are what tactics are.
        // Under a threatened third check nothing is pruned: any quiet move may be the one that
        // stops it. (King of the hill's threatened hill step, spared the same way, scored
        // worse against Fairy-Stockfish than with this pruning on.)
        // Antichess prunes only where no capture is forced, and never by SEE, whose exchange
        // values mean nothing where material is a burden.
        if (!capture_forced && !root && !(counts_checks(V) && threatened) &&
            best > -TB_WIN_IN_MAX && may_prune_quiets(b)) {
            if (quiet && !gives_check && !offer) {
                // Late-move pruning: after enough quiet moves the rest rarely matter. Checks
                // still come, so this prunes move by move rather than ending the quiet stage.
                const int lmp_limit = (LMP_BASE + depth * depth) / (2 - improving);
                if (move_count >= lmp_limit) continue;
                // Futility: a quiet move cannot lift a hopeless static eval to alpha.
                if (!in_check && depth <= FUTILITY_MAX_DEPTH && ss->static_eval != SCORE_NONE &&
                    ss->static_eval + FUTILITY_BASE + FUTILITY_PER_DEPTH * depth <= alpha)
                    continue;
                if (depth <= HISTORY_PRUNE_MAX_DEPTH && hist < -HISTORY_PRUNE_MARGIN * depth)
                    continue;
                if (!must_capture(V) && depth <= SEE_PRUNE_MAX_DEPTH &&
                    !see_ge(b, m, -SEE_QUIET_MARGIN * depth))
                    continue;
            } else if (!must_capture(V) && !quiet && !gives_check && depth <= SEE_PRUNE_MAX_DEPTH &&
                       !see_ge(b, m, -SEE_NOISY_MARGIN * depth)) {
                continue;
            }
            // Too many quiet moves tried: stop generating them (checks included).
            if (move_count >= SKIP_QUIETS_FACTOR * (LMP_BASE + depth * depth)) skip_quiets = true;
        }

        // Made only now: most late moves were pruned above without paying for it. The child's
        // TT line is asked for first, so that it arrives while the move is made.
        tt.prefetch(b.key_after(m));
        BasicBoard<V> next = b;
        next.make_move(m);

        // Check extension, limited so perpetual-check lines cannot run away.
        int extension = 0;
        // (King of the hill: a move that threatens the king's step onto the hill too.)
        if ((gives_check || (has_hill(V) && hill_step(next, b.side))) &&
            ply < EXTENSION_PLY_FACTOR * root_depth)
            extension = 1;

        // Singular extension: when the TT move is much better than every alternative at a
        // reduced depth, search it deeper.
        if (!root && m == tt_move && !excluded && depth >= SE_MIN_DEPTH && tt_hit &&
            tte.bound != BOUND_UPPER && tte.depth >= depth - SE_TT_DEPTH_MARGIN &&
            !is_decisive(tt_score) && ply < EXTENSION_PLY_FACTOR * root_depth) {
            const int singular_beta = tt_score - SE_BETA_MARGIN_PER_DEPTH * depth;
            ss->excluded = m;
            const int v =
                search(b, singular_beta - 1, singular_beta, (depth - 1) / 2, ss, cut_node);
            ss->excluded = Move::none();
            if (stopped()) return 0;
            if (v < singular_beta) {
                extension = 1;
            } else if (singular_beta >= beta) {
                return singular_beta;  // multi-cut: several moves beat beta
            } else if (tt_score >= beta) {
                // Not singular, and another move probably beats beta too: the TT move need
                // not be searched as deep.
                extension = -1;
            }
        }

        ss->move = m;
        ss->piece = pc;
        ss->cont = &history->continuation[pc][m.to()];
        keys[std::size_t(game_len + ply)] = next.key;

        const int new_depth = depth - 1 + extension;
        int score;
        if (depth >= LMR_MIN_DEPTH && move_count > 1 + root &&
            (quiet || (picker.in_bad_captures() && !gives_check))) {
            int r = reductions(depth, move_count);
            r += !pv_node;
            r += cut_node;
            r -= improving;
            r -= gives_check;
            r -= m == killers[0] || m == killers[1] || m == counter;
            // Earlier moves here were refuted again and again: probably a node where nothing
            // beats alpha, so the late moves need less depth.
            r += (ss + 1)->cutoff_count > CUTOFF_COUNT_REDUCE_ABOVE;
            if (quiet)
                r -= std::clamp(hist / LMR_HISTORY_DIVISOR, -LMR_HISTORY_MAX_ADJUST,
                                LMR_HISTORY_MAX_ADJUST);
            const int reduced = std::clamp(new_depth - r, 1, new_depth);
            score = -search(next, -alpha - 1, -alpha, reduced, ss + 1, true);
            if (score > alpha && reduced < new_depth)
                score = -search(next, -alpha - 1, -alpha, new_depth, ss + 1, !cut_node);
        } else if (!pv_node || move_count > 1) {
            score = -search(next, -alpha - 1, -alpha, new_depth, ss + 1, !cut_node);
        } else {
            score = alpha + 1;  // force the full-window search of the first PV move
        }
        if (pv_node && (move_count == 1 || (score > alpha && (root || score < beta))))
            score = -search(next, -beta, -alpha, new_depth, ss + 1, false);
        if (stopped()) return 0;

        if (score > best) {
            best = score;
            if (score > alpha) {
                best_move = m;
                if (pv_node) update_pv(ply, m);
                if (root) {
                    if (iter_best && m != iter_best && move_count > 1) best_move_changes += 1;
                    iter_best = m;
                    iter_score = score;
                    iter_pv.assign(pv[0], pv[0] + pv_len[0]);
                }
                if (score >= beta) {
                    ss->cutoff_count += 1 + !tt_move;
                    if (quiet) update_quiet_stats(ss, b, m, depth, quiets, quiet_count);
                    update_capture_stats(b, m, depth, captures, capture_count);
                    break;
                }
                alpha = score;
            }
        }
        if (quiet && quiet_count < 64) quiets[quiet_count++] = m;
        if (capture && capture_count < 32) captures[capture_count++] = m;
    }

    if (move_count == 0) return excluded ? alpha : no_moves_score(b, ply);

    if (!excluded) {
        const Bound bound = best >= beta                  ? BOUND_LOWER
                            : pv_node && best > old_alpha ? BOUND_EXACT
                                                          : BOUND_UPPER;
        tt.store(b.key, best_move, score_to_tt(best, ply), raw_eval, depth, bound);
        // Learn the correction from quiet outcomes whose bound says where the truth lies.
        if (!in_check && (!best_move || (!b.is_capture(best_move) && !b.is_promotion(best_move))) &&
            !is_decisive(best) && !(bound == BOUND_LOWER && best <= ss->static_eval) &&
            !(bound == BOUND_UPPER && best >= ss->static_eval))
            update_corrections(b, best - ss->static_eval, depth);
    }
    return best;
}

void Engine::Worker::report(int depth, int score, Bound bound, const InfoCallback& cb) {
    if (!cb) return;
    SearchInfo info;
    info.depth = depth;
    info.seldepth = std::max(seldepth, depth);
    // A root the tables cover has their exact value (a mate in the distance to mate they give).
    if (bound == BOUND_EXACT && shared->root_tb_score != SCORE_NONE) score = shared->root_tb_score;
    info.raw_score = score;
    info.score = uci_score(score);
    info.bound = bound;
    info.nodes = total_nodes();
    info.tbhits = total_tb_hits();
    info.time_ms = ms_since(shared->start);
    info.nps = info.nodes * 1000 / std::uint64_t(std::max<std::int64_t>(1, info.time_ms));
    info.hashfull = shared->tt->hashfull();
    info.pv = bound == BOUND_EXACT ? completed_pv : iter_pv;
    cb(info);
}

template <Variant V>
void Engine::Worker::iterate(const BasicBoard<V>& root) {
    SharedState& s = *shared;
    const bool main = id == 0;
    for (int i = 0; i < MAX_PLY + 8; ++i) {
        stack[i] = Stack{};
        stack[i].cont = sentinel();
        stack[i].ply = std::max(0, i - 4);
    }
    Stack* ss = &stack[4];
    if constexpr (uses_net(V)) {
        path_boards[0] = &root;
        acc_ready[0] = true;
        if (s.net) nnue::refresh(*s.net, root, acc[0]);
    }

    const int max_depth = s.limits.depth > 0 ? std::min(s.limits.depth, MAX_PLY - 2) : MAX_PLY - 2;
    const int root_moves =
        s.root_moves.empty() ? int(legal_moves(root).size()) : int(s.root_moves.size());
    int prev_score = 0, stable_iters = 0;
    Move prev_best;

    for (int depth = 1; depth <= max_depth; ++depth) {
        root_depth = depth;
        seldepth = 0;
        best_move_changes *= BEST_MOVE_CHANGES_DECAY;
        int delta = ASPIRATION_DELTA, alpha = -SCORE_INF, beta = SCORE_INF, score = 0;
        if (depth >= ASPIRATION_MIN_DEPTH) {
            alpha = std::max(completed_score - delta, -SCORE_INF);
            beta = std::min(completed_score + delta, SCORE_INF);
        }
        // Aspiration window: widen on the failing side until the score lies inside.
        while (true) {
            score = search(root, alpha, beta, depth, ss, false);
            if (stopped()) break;
            if (score <= alpha) {
                beta = (alpha + beta) / 2;
                alpha = std::max(score - delta, -SCORE_INF);
                if (main) report(depth, score, BOUND_UPPER, *on_info);
            } else if (score >= beta) {
                beta = std::min(score + delta, SCORE_INF);
                if (main) report(depth, score, BOUND_LOWER, *on_info);
            } else {
                break;
            }
            delta += delta / 2;
            if (delta > ASPIRATION_MAX_DELTA) alpha = -SCORE_INF, beta = SCORE_INF;
        }
        if (stopped()) {
            // A move that raised alpha in the unfinished iteration was searched fully and
            // beat the previous best, so it is the better choice.
            if (iter_best && iter_best != (completed_pv.empty() ? Move::none() : completed_pv[0]) &&
                !iter_pv.empty()) {
                completed_pv = iter_pv;
                completed_score = iter_score;
            }
            break;
        }
        completed_depth = depth;
        completed_score = score;
        completed_pv.assign(pv[0], pv[0] + pv_len[0]);
        if (completed_pv.empty() && iter_best) completed_pv.push_back(iter_best);
        iter_pv = completed_pv;
        if (!main) continue;
        report(depth, score, BOUND_EXACT, *on_info);

        // Stop conditions other than time.
        const int mate_plies = SCORE_MATE - std::abs(score);
        if (s.limits.mate && score >= MATE_IN_MAX && mate_moves(score) <= s.limits.mate) break;
        if (s.limits.nodes && total_nodes() >= s.limits.nodes) break;

        const Move best_now = completed_pv.empty() ? Move::none() : completed_pv[0];
        stable_iters = best_now == prev_best ? stable_iters + 1 : 0;
        prev_best = best_now;
        const int drop = depth > 1 ? prev_score - score : 0;
        prev_score = score;

        if (s.pondering || s.limits.infinite) continue;
        if (s.limits.uses_time(root.side)) {
            if (root_moves == 1) break;  // nothing to think about
            if (is_mate_score(score) && depth >= mate_plies + MATE_STOP_EXTRA_DEPTH) break;
            const std::int64_t soft =
                adjusted_soft_limit(s.budget, best_move_changes, drop, stable_iters);
            if (ms_since(s.start) >= soft) break;
        }
    }
}

Engine::Engine(EngineOptions options) : tt_(std::size_t(std::max(1, options.hash_mb))) {
    set_threads(options.threads);
    use_nnue_ = options.nnue;
    set_tablebase(std::move(options.tablebase), options.tablebase_max_pieces);
    set_syzygy(std::move(options.syzygy), options.syzygy_probe_limit);
}

Engine::~Engine() = default;

void Engine::set_threads(int threads) {
    threads = std::clamp(threads, 1, 256);
    workers_.clear();
    for (int i = 0; i < threads; ++i) {
        workers_.push_back(std::make_unique<Worker>());
        workers_.back()->id = i;
    }
}

void Engine::set_hash_mb(int mb) { tt_.resize(std::size_t(std::max(1, mb))); }
void Engine::clear_hash() { tt_.clear(); }

void Engine::new_game() {
    tt_.clear();
    for (auto& w : workers_) w->history->clear();
}

void Engine::ponderhit() { ponderhit_.store(true); }

void Engine::set_nnue(bool on) {
    if (on != use_nnue_) tt_.clear();
    use_nnue_ = on;
}

void Engine::set_tablebase(std::shared_ptr<const Tablebase> tablebase, int max_pieces) {
    tablebase_ = std::move(tablebase);
    tb_max_pieces_ = std::clamp(max_pieces, 3, 5);
}

void Engine::set_syzygy(std::shared_ptr<const Syzygy> syzygy, int probe_limit) {
    syzygy_ = std::move(syzygy);
    syzygy_limit_ = std::clamp(probe_limit, 0, kSyzygyProbeLimitMax);
}

bool Engine::tables_cover(const Position& pos) const {
    if (pos.variant() != Variant::STANDARD) return false;
    const Board& b = pos.board();
    if (b.castling != NO_CASTLING || legal_moves(b).empty()) return false;
    const int pieces = popcount(b.pieces());
    if (syzygy_ && pieces <= std::min(syzygy_limit_, syzygy_->max_pieces()) &&
        syzygy_->probe_wdl(b))
        return true;
    return tablebase_ && pieces <= std::min(tb_max_pieces_, tablebase_->max_pieces()) &&
           tablebase_->probe_wdl(b).has_value();
}

void Engine::set_net(std::shared_ptr<const nnue::Network> net) {
    net_ = std::move(net);
    tt_.clear();
}

void Engine::set_variant_weights(std::shared_ptr<const VariantWeights> weights) {
    variant_weights_ = std::move(weights);
    tt_.clear();
}

const nnue::Network* Engine::net_for(Variant v) const {
    if (!Worker::uses_net(v) || !use_nnue_ || !net_) return nullptr;
    if (net_ == nnue::embedded_network())
        if (const auto own = nnue::embedded_network(v)) return own.get();
    return net_.get();
}

Result<bool> Engine::load_net(const std::string& path) {
    if (path == "<embedded>") {
        if (!nnue::embedded_network()) return Result<bool>::failure("no net is embedded");
        net_ = nnue::embedded_network();
    } else {
        auto r = nnue::load_network_file(path);
        if (!r) return Result<bool>::failure(r.error());
        net_ = *r;
    }
    tt_.clear();
    return true;
}

SearchResult Engine::search(const Position& pos, const SearchLimits& limits,
                            const std::atomic<bool>& stop, const InfoCallback& on_info) {
    if (strength_) return search_at_level(*this, pos, limits, stop, *strength_, on_info);
    return search_full_strength(pos, limits, stop, on_info);
}

SearchResult Engine::search_full_strength(const Position& pos, const SearchLimits& limits,
                                          const std::atomic<bool>& stop,
                                          const InfoCallback& on_info) {
    return pos.visit(
        [&](const auto& root) { return search_variant(pos, root, limits, stop, on_info); });
}

template <Variant V>
SearchResult Engine::search_variant(const Position& pos, BasicBoard<V> root,
                                    const SearchLimits& limits, const std::atomic<bool>& stop,
                                    const InfoCallback& on_info) {
    SharedState shared;
    shared.start = Clock::now();
    shared.tt = &tt_;
    shared.limits = limits;
    shared.external_stop = &stop;
    shared.ponderhit = &ponderhit_;
    shared.pondering = limits.ponder;
    shared.thread_count = int(workers_.size());
    shared.net = net_for(V);
    if (variant_weights_) shared.variant_weights = variant_weights_.get();
    ponderhit_.store(false);

    SearchResult result;
    const MoveListOf<V> legal = legal_moves(root);
    if (legal.empty()) {
        // Mate or stalemate, or a game a variant's rule has ended (its status says which).
        const GameResult game = game_result(root, 0);
        result.root_status = game.status;
        result.raw_score = !game.winner ? 0 : *game.winner == root.side ? mate_in(0) : mated_in(0);
        result.score = uci_score(result.raw_score);
        return result;
    }

    tt_.new_search();
    shared.budget = allocate_time(limits, root.side);
    if constexpr (V == Variant::STANDARD) {  // the tables are standard chess's
        const bool no_castling = root.castling == NO_CASTLING;
        const int pieces = popcount(root.pieces());
        if (syzygy_) {
            shared.syzygy = syzygy_.get();
            shared.syzygy_pieces = std::min(syzygy_limit_, syzygy_->max_pieces());
            if (pieces <= shared.syzygy_pieces && no_castling)
                if (auto keep = syzygy_root_moves(*syzygy_, root)) {
                    shared.root_moves = std::move(keep->moves);
                    shared.root_tb_score = syzygy_score(*keep);
                    result.root_tables = RootTables::Syzygy;
                }
        }
        if (tablebase_) {
            shared.tb = tablebase_.get();
            shared.tb_pieces = std::min(tb_max_pieces_, tablebase_->max_pieces());
            if (result.root_tables == RootTables::None && pieces <= shared.tb_pieces && no_castling)
                if (auto keep = tablebase_root_moves(*tablebase_, root)) {
                    shared.root_moves = std::move(keep->moves);
                    shared.root_tb_score = tablebase_score(keep->result);
                    result.root_tables = RootTables::Gaviota;
                }
        }
    }

    // A fallback for a search stopped before depth 1 completes: the TT move, or any move.
    TTData tte;
    result.best = tt_.probe(root.key, tte) && legal.contains(tte.move) ? tte.move : legal[0];
    if (!shared.root_moves.empty() && std::find(shared.root_moves.begin(), shared.root_moves.end(),
                                                result.best) == shared.root_moves.end())
        result.best = shared.root_moves.front();

    const std::vector<Key> history_keys = pos.key_history();
    std::vector<Worker*> all;
    for (auto& w : workers_) all.push_back(w.get());
    for (Worker* w : all) {
        w->shared = &shared;
        w->all = &all;
        w->keys = history_keys;
        w->game_len = int(history_keys.size());
        w->keys.resize(history_keys.size() + MAX_PLY + 8);
        w->nodes.store(0);
        w->tb_hits.store(0);
        w->completed_depth = 0;
        w->completed_score = 0;
        w->completed_pv.clear();
        w->iter_best = Move::none();
        w->iter_pv.clear();
        w->best_move_changes = 0;
        w->nmp_min_ply = 0;
        w->on_info = &on_info;
    }

    if (!stop.load()) {
        std::vector<std::thread> helpers;
        for (std::size_t i = 1; i < all.size(); ++i)
            helpers.emplace_back([w = all[i], &root] { w->iterate(root); });
        all[0]->iterate(root);
        // Infinite and ponder searches wait for `stop` (or ponderhit) before answering.
        while (!shared.stop.load() && (limits.infinite || shared.pondering)) {
            all[0]->check_limits();
            if (shared.pondering || limits.infinite)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        shared.stop = true;
        for (auto& t : helpers) t.join();
    }

    const Worker& main = *all[0];
    if (!main.completed_pv.empty() && legal.contains(main.completed_pv[0])) {
        result.best = main.completed_pv[0];
        result.pv = main.completed_pv;
        if (main.completed_pv.size() > 1) result.ponder = main.completed_pv[1];
    } else {
        result.pv = {result.best};
    }
    if (!result.ponder) {
        // Ask the TT what the reply to our move would be.
        BasicBoard<V> next = root;
        next.make_move(result.best);
        if (tt_.probe(next.key, tte) && is_legal(next, tte.move)) result.ponder = tte.move;
    }
    result.depth = main.completed_depth;
    result.seldepth = std::max(main.seldepth, main.completed_depth);
    result.raw_score =
        shared.root_tb_score != SCORE_NONE ? shared.root_tb_score : main.completed_score;
    result.score = uci_score(result.raw_score);
    result.nodes = main.total_nodes();
    result.tbhits = main.total_tb_hits();
    result.time_ms = ms_since(shared.start);
    result.nps = result.nodes * 1000 / std::uint64_t(std::max<std::int64_t>(1, result.time_ms));
    result.hashfull = tt_.hashfull();
    return result;
}

}  // namespace engine
