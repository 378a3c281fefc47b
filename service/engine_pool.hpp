// EnginePool: one engine (with its own hash table) per concurrent game slot, lent to a
// real-time game for its whole length so its transposition table keeps what it learned between
// moves, and to a correspondence game for one search at a time.
#pragma once

#include <memory>
#include <mutex>
#include <vector>

#include "engine/search.hpp"

namespace service {

class EnginePool {
  public:
    EnginePool(int warm_engines, int hash_mb, int threads);

    // An engine on loan; returns itself to the pool when destroyed.
    class Lease {
      public:
        Lease(EnginePool* pool, std::unique_ptr<engine::Engine> engine)
            : pool_(pool), engine_(std::move(engine)) {}
        Lease(Lease&&) = default;
        Lease& operator=(Lease&&) = default;
        ~Lease();
        engine::Engine& operator*() { return *engine_; }
        engine::Engine* operator->() { return engine_.get(); }

      private:
        EnginePool* pool_;
        std::unique_ptr<engine::Engine> engine_;
    };

    // Never blocks: when every warm engine is lent out (a game beyond the limit that Lichess
    // started anyway) a new one is made, so a game is never left without an engine. It comes
    // with a clear hash table and histories (new, or cleared when it was given back), so
    // acquiring clears nothing on the way to a game's first move.
    Lease acquire();
    int idle() const;
    // Engines that exist now (idle and lent), the most that ever existed at once, and how many
    // were ever made (the warm ones included): what bounds the daemon's memory.
    int live() const;
    int peak_live() const;
    int created() const;

  private:
    void give_back(std::unique_ptr<engine::Engine> engine);

    mutable std::mutex mutex_;
    std::vector<std::unique_ptr<engine::Engine>> idle_;
    int warm_;
    int hash_mb_;
    int threads_;
    int live_ = 0;  // under mutex_, like the two below
    int peak_live_ = 0;
    int created_ = 0;
};

}  // namespace service
