// EnginePool: one engine (with its own hash table) per concurrent game slot, lent to a
// real-time game for its whole length so its transposition table keeps what it learned between
// moves, and to a correspondence game for one search at a time.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "config/config.hpp"
#include "engine/search.hpp"
#include "engine/syzygy.hpp"
#include "engine/tablebase.hpp"

namespace service {

class EnginePool {
  public:
    // Every engine is made with `options` (hash, threads, evaluation, tablebases), except the
    // hash of one lent beyond `full_size_limit`: the most engines with the configured hash
    // that may exist at once (games plus correspondence searches). Default: warm.
    EnginePool(int warm_engines, engine::EngineOptions options, int full_size_limit = -1);

    // The hash of an engine lent beyond full_size_limit (a game Lichess started beyond the
    // concurrency limit that could no longer be aborted): it plays, but costs little memory.
    static constexpr int kOverflowHashMb = 1;

    // An engine on loan; returns itself to the pool when destroyed.
    class Lease {
      public:
        Lease(EnginePool* pool, std::unique_ptr<engine::Engine> engine, bool full_size = true)
            : pool_(pool), engine_(std::move(engine)), full_size_(full_size) {}
        Lease(Lease&&) = default;
        Lease& operator=(Lease&&) = default;
        ~Lease();
        engine::Engine& operator*() { return *engine_; }
        engine::Engine* operator->() { return engine_.get(); }

      private:
        EnginePool* pool_;
        std::unique_ptr<engine::Engine> engine_;
        bool full_size_ = true;
    };

    // Never blocks: when every warm engine is lent out a new one is made, so a game is never
    // left without an engine: full-size while fewer than full_size_limit exist, else a small
    // one (kOverflowHashMb), so that memory stays bounded whatever Lichess starts. It comes
    // with a clear hash table and histories (new, or cleared when it was given back), so
    // acquiring clears nothing on the way to a game's first move.
    Lease acquire();
    int idle() const;
    // Engines that exist now (idle and lent), the most that ever existed at once, and how many
    // were ever made (the warm ones included): what bounds the daemon's memory.
    int live() const;
    int peak_live() const;
    int created() const;
    // Engines with the configured hash that exist now, and the most that ever did at once.
    int full_size_live() const;
    int peak_full_size_live() const;

  private:
    void give_back(std::unique_ptr<engine::Engine> engine, bool full_size);

    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<engine::Engine>> idle_;
    int warm_;
    int full_limit_;
    engine::EngineOptions options_;
    int live_ = 0;  // under mutex_, like the two below
    int peak_live_ = 0;
    int created_ = 0;
    int full_live_ = 0;
    int peak_full_live_ = 0;
};

// The Gaviota tables of engine.tablebases, shared by every engine; null when none are named.
// Tables that cannot be loaded throw std::runtime_error naming the folder or file, so the daemon
// does not start with them.
[[nodiscard]] std::shared_ptr<const engine::Tablebase> load_tablebase(
    const config::TablebaseConfig& config);

// The Syzygy tables of engine.tablebases.syzygy_paths, shared by every engine; null when none
// are named or none can be used. Never throws: the set's size and every skipped file or folder
// are logged (a warning naming it), and the bot plays on without them.
[[nodiscard]] std::shared_ptr<const engine::Syzygy> load_syzygy(
    const config::TablebaseConfig& config);

// What every engine of the pool is made with (engine.*). engine.evaluation "nnue" needs the
// embedded net; one that does not parse throws rather than let the engines fall back to the HCE
// unannounced.
[[nodiscard]] engine::EngineOptions engine_options(
    const config::EngineConfig& config, std::shared_ptr<const engine::Tablebase> tablebase,
    std::shared_ptr<const engine::Syzygy> syzygy = nullptr);

}  // namespace service
