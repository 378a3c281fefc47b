// EnginePool: lends engines to games and clears them when they come back.
#include "service/daemon/engine_pool.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "engine/nnue.hpp"

namespace service {

EnginePool::EnginePool(int warm_engines, engine::EngineOptions options, int full_size_limit)
    : warm_(warm_engines),
      full_limit_(std::max(warm_engines, full_size_limit)),
      options_(std::move(options)) {
    for (int i = 0; i < warm_engines; ++i)
        idle_.push_back(std::make_unique<engine::Engine>(options_));
    live_ = peak_live_ = created_ = full_live_ = peak_full_live_ = int(idle_.size());
}

EnginePool::Lease::~Lease() {
    if (pool_ && engine_) pool_->give_back(std::move(engine_), full_size_);
}

EnginePool::Lease EnginePool::acquire() {
    std::unique_ptr<engine::Engine> e;
    bool full_size = true;
    {
        std::lock_guard lock(mutex_);
        if (!idle_.empty()) {
            e = std::move(idle_.back());
            idle_.pop_back();
        } else {
            // Counted before it is made, so the peak is never under what really existed.
            peak_live_ = std::max(peak_live_, ++live_);
            ++created_;
            full_size = full_live_ < full_limit_;
            if (full_size) peak_full_live_ = std::max(peak_full_live_, ++full_live_);
        }
    }
    // A new engine is born clear; an idle one was cleared when it came back. Either way no
    // hash table is cleared here: acquire runs at gameFull, on the path to the first move.
    if (!e) {
        engine::EngineOptions options = options_;
        if (!full_size) options.hash_mb = kOverflowHashMb;
        e = std::make_unique<engine::Engine>(options);
    }
    return Lease(this, std::move(e), full_size);
}

void EnginePool::give_back(std::unique_ptr<engine::Engine> engine, bool full_size) {
    {
        std::lock_guard lock(mutex_);
        // Engines made beyond the warm count are freed, so memory returns to its resting size;
        // small ones never join the warm engines.
        if (!full_size || int(idle_.size()) >= warm_) {
            --live_;
            if (full_size) --full_live_;
            return;  // `engine` is freed on the way out, outside the lock
        }
    }
    // Cleared now, on the thread of the game that just ended (clearing a 64 MB table takes
    // tens of milliseconds), and outside the lock.
    engine->new_game();
    engine->set_strength(std::nullopt);  // the next game chooses its own level
    std::lock_guard lock(mutex_);
    if (int(idle_.size()) < warm_) {
        idle_.push_back(std::move(engine));
    } else {
        --live_;
        --full_live_;
    }
}

int EnginePool::full_size_live() const {
    std::lock_guard lock(mutex_);
    return full_live_;
}

int EnginePool::peak_full_size_live() const {
    std::lock_guard lock(mutex_);
    return peak_full_live_;
}

int EnginePool::idle() const {
    std::lock_guard lock(mutex_);
    return int(idle_.size());
}

int EnginePool::live() const {
    std::lock_guard lock(mutex_);
    return live_;
}

int EnginePool::peak_live() const {
    std::lock_guard lock(mutex_);
    return peak_live_;
}

int EnginePool::created() const {
    std::lock_guard lock(mutex_);
    return created_;
}

std::shared_ptr<const engine::Tablebase> load_tablebase(const config::TablebaseConfig& config) {
    if (config.gaviota_paths.empty()) return nullptr;
    auto tb = engine::Tablebase::load(config.gaviota_paths);
    if (!tb) throw std::runtime_error("engine.tablebases.gaviota_paths: " + tb.error());
    spdlog::info("Gaviota tablebases: {}; probed up to {} pieces", (*tb)->describe(),
                 std::min(config.max_pieces, (*tb)->max_pieces()));
    return std::move(*tb);
}

std::shared_ptr<const engine::Syzygy> load_syzygy(const config::TablebaseConfig& config) {
    if (config.syzygy_paths.empty()) return nullptr;
    auto tb = engine::Syzygy::load(config.syzygy_paths);
    if (!tb) {
        spdlog::warn("engine.tablebases.syzygy_paths: {}; playing without Syzygy tables",
                     tb.error());
        return nullptr;
    }
    for (const std::string& problem : (*tb)->problems())
        spdlog::warn("engine.tablebases.syzygy_paths: {}", problem);
    spdlog::info("Syzygy tablebases: {}; probed up to {} pieces", (*tb)->describe(),
                 std::min(config.syzygy_max_pieces, (*tb)->max_pieces()));
    return std::move(*tb);
}

engine::EngineOptions engine_options(const config::EngineConfig& config,
                                     std::shared_ptr<const engine::Tablebase> tablebase,
                                     std::shared_ptr<const engine::Syzygy> syzygy) {
    const bool nnue = config.evaluation == "nnue";
    if (nnue && !engine::nnue::embedded_network())
        throw std::runtime_error(
            "engine.evaluation: nnue, but this build's embedded net cannot be read");
    spdlog::info("evaluation: {}", nnue ? "NNUE (the embedded net)" : "hand-crafted (HCE)");
    return engine::EngineOptions{.hash_mb = config.hash_mb,
                                 .threads = config.threads,
                                 .nnue = nnue,
                                 .tablebase = std::move(tablebase),
                                 .tablebase_max_pieces = config.tablebases.max_pieces,
                                 .syzygy = std::move(syzygy),
                                 .syzygy_probe_limit = config.tablebases.syzygy_max_pieces};
}

}  // namespace service
