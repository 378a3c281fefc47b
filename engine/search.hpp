// The Engine: iterative-deepening alpha-beta search over a Position, with a shared
// transposition table and lazy-SMP helper threads. This is the API the daemon and UCI use.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "nnue.hpp"
#include "position.hpp"
#include "strength.hpp"
#include "syzygy.hpp"
#include "tablebase.hpp"
#include "timeman.hpp"
#include "tt.hpp"
#include "variant_eval_params.hpp"

namespace engine {

// The build's default evaluation (CMake option OUTPOST_NNUE_DEFAULT): 0 the hand-crafted one,
// 1 the embedded NNUE. UCI `UseNNUE` and EngineOptions::nnue override it.
#ifndef OUTPOST_NNUE_DEFAULT
#define OUTPOST_NNUE_DEFAULT 0
#endif

// UCI SyzygyProbeLimit's range, as Stockfish has it: the most pieces a probed position holds.
inline constexpr int kSyzygyProbeLimitMax = 7;

// Which tables chose the root's moves: the search then ranked only the moves they keep.
enum class RootTables : std::uint8_t { None, Syzygy, Gaviota };

struct EngineOptions {
    int hash_mb = 16;
    int threads = 1;
    bool nnue = OUTPOST_NNUE_DEFAULT != 0;  // the NNUE instead of the hand-crafted evaluation
    // Gaviota tables (shared by every engine of the process), probed at the root and in the tree
    // for positions with at most tablebase_max_pieces pieces; null: no tables.
    std::shared_ptr<const Tablebase> tablebase = nullptr;
    int tablebase_max_pieces = 5;
    // Syzygy tables (shared likewise), asked before the Gaviota ones: at the root by DTZ, in the
    // tree by WDL just after a capture or pawn move, for positions of at most
    // syzygy_probe_limit pieces; null: none.
    std::shared_ptr<const Syzygy> syzygy = nullptr;
    int syzygy_probe_limit = kSyzygyProbeLimitMax;
};

// A score as UCI reports it: centipawns, or full moves to mate (negative: being mated).
struct Score {
    bool is_mate = false;
    int value = 0;
    bool operator==(const Score&) const = default;
};

// One iteration's report (the `info` line) and, in SearchResult, the final answer.
struct SearchInfo {
    int depth = 0;
    int seldepth = 0;
    Score score;
    Bound bound = BOUND_EXACT;  // LOWER/UPPER for an aspiration-window fail high/low
    int raw_score = 0;          // internal score (mate scores count plies)
    std::uint64_t nodes = 0;
    std::uint64_t nps = 0;
    std::uint64_t tbhits = 0;  // positions the tablebases answered
    int hashfull = 0;          // permille
    std::int64_t time_ms = 0;
    std::vector<Move> pv;
};

struct SearchResult : SearchInfo {
    Move best;    // Move::none() only when the root has no legal move
    Move ponder;  // the expected reply, or none
    // ONGOING when a move was found; CHECKMATE or STALEMATE when the root has no legal move.
    PositionStatus root_status = PositionStatus::ONGOING;
    RootTables root_tables = RootTables::None;
};

using InfoCallback = std::function<void(const SearchInfo&)>;

// An internal score (engine/score.hpp) as UCI reports it.
[[nodiscard]] Score uci_score(int raw);

class Engine {
  public:
    explicit Engine(EngineOptions options = {});
    ~Engine();
    Engine(const Engine&) = delete;
    Engine& operator=(const Engine&) = delete;

    // Searches the position's current board, using the game history for repetitions. Blocks
    // until done: limits reached or `stop` set from another thread (checked every ~1024
    // nodes and at least every few milliseconds). Always returns a legal move when there is one.
    SearchResult search(const Position& pos, const SearchLimits& limits,
                        const std::atomic<bool>& stop, const InfoCallback& on_info = {});

    // The full-strength search, whatever the level: what Engine::search does with no level set,
    // and what the level's own search (engine/level_search.hpp) asks for each candidate move.
    SearchResult search_full_strength(const Position& pos, const SearchLimits& limits,
                                      const std::atomic<bool>& stop,
                                      const InfoCallback& on_info = {});

    // A level below full strength for later searches (engine/strength.hpp); none: full
    // strength, the default, where the search is exactly as without levels.
    void set_strength(std::optional<Strength> strength) { strength_ = strength; }
    const std::optional<Strength>& strength() const { return strength_; }
    // Whether ponderhit came since the last search started (a level's ponder search waits for it).
    bool ponderhit_pending() const { return ponderhit_.load(); }

    // During a `ponder` search: the opponent played the expected move, so the clock now runs
    // for us; the search continues under normal time control from this moment.
    void ponderhit();

    // Clears the TT and all histories (between games; makes searches reproducible).
    void new_game();
    void clear_hash();
    void set_hash_mb(int mb);
    void set_threads(int threads);
    int threads() const { return int(workers_.size()); }
    int hash_mb() const { return int(tt_.size_mb()); }

    // The evaluation: the NNUE (the embedded net unless another was loaded) or the HCE.
    // Switching clears the TT (its stored static evaluations belong to the other one).
    void set_nnue(bool on);
    bool nnue() const { return use_nnue_ && net_; }
    // Loads a net file (engine/nnue.hpp format) for later searches; on an error the current
    // net stays and the message names the file and the problem. "<embedded>" restores the
    // compiled-in net.
    Result<bool> load_net(const std::string& path);
    // Uses an already loaded net (shared between engines, e.g. one per generator thread).
    void set_net(std::shared_ptr<const nnue::Network> net);
    // The net a search of variant `v` judges with (null: the hand-crafted evaluation). With
    // the compiled-in nets, a variant that has its own (three-check) takes it; a net loaded
    // from a file serves every variant that uses a net.
    const nnue::Network* net_for(Variant v) const;

    // Gaviota tables for later searches (null: none). With tables, a root they cover plays only
    // the moves that keep its best result, mating fastest or being mated slowest
    // (tablebase_root_moves), and the tree scores the positions of at most `max_pieces` pieces
    // (clamped to 3..5) from the tables. Without them the search is exactly as before.
    void set_tablebase(std::shared_ptr<const Tablebase> tablebase, int max_pieces = 5);
    const std::shared_ptr<const Tablebase>& tablebase() const { return tablebase_; }
    int tablebase_max_pieces() const { return tb_max_pieces_; }

    // Syzygy tables for later searches (null: none). With tables, a root they cover (at most
    // `probe_limit` pieces, no castling right) plays only the moves syzygy_root_moves keeps, and
    // the tree scores positions within the limit just after a capture or pawn move by their WDL
    // (a bound in the TT). Without them the search is exactly as before. Standard chess only.
    void set_syzygy(std::shared_ptr<const Syzygy> syzygy, int probe_limit = kSyzygyProbeLimitMax);
    const std::shared_ptr<const Syzygy>& syzygy() const { return syzygy_; }
    int syzygy_probe_limit() const { return syzygy_limit_; }
    // Whether the local tables (Syzygy, else Gaviota) answer this position as a search would ask
    // them at its root: standard chess, no castling right, within the probe limits, a table.
    bool tables_cover(const Position& pos) const;

    // The variants' evaluation weights for later searches (the tuner compares candidates);
    // null restores the compiled-in ones. Clears the TT, whose evaluations were the old ones'.
    void set_variant_weights(std::shared_ptr<const VariantWeights> weights);

  private:
    struct Worker;
    // Engine::search for the position's variant: the one dispatch; everything below it is
    // compiled for that variant. The root board is a copy: the caller's position may change
    // while the threads search.
    template <Variant V>
    SearchResult search_variant(const Position& pos, BasicBoard<V> root, const SearchLimits& limits,
                                const std::atomic<bool>& stop, const InfoCallback& on_info);
    TranspositionTable tt_;
    std::vector<std::unique_ptr<Worker>> workers_;
    std::atomic<bool> ponderhit_{false};
    std::shared_ptr<const nnue::Network> net_ = nnue::embedded_network();
    bool use_nnue_ = false;
    std::shared_ptr<const Tablebase> tablebase_;
    int tb_max_pieces_ = 5;
    std::shared_ptr<const Syzygy> syzygy_;
    int syzygy_limit_ = kSyzygyProbeLimitMax;
    std::shared_ptr<const VariantWeights> variant_weights_;
    std::optional<Strength> strength_;
};

}  // namespace engine
