// EnginePool: lends engines to games and clears them between games.
#include "service/engine_pool.hpp"

namespace service {

EnginePool::EnginePool(int warm_engines, int hash_mb, int threads)
    : warm_(warm_engines), hash_mb_(hash_mb), threads_(threads) {
    for (int i = 0; i < warm_engines; ++i)
        idle_.push_back(std::make_unique<engine::Engine>(
            engine::EngineOptions{.hash_mb = hash_mb, .threads = threads}));
}

EnginePool::Lease::~Lease() {
    if (pool_ && engine_) pool_->give_back(std::move(engine_));
}

EnginePool::Lease EnginePool::acquire() {
    std::unique_ptr<engine::Engine> e;
    {
        std::lock_guard lock(mutex_);
        if (!idle_.empty()) {
            e = std::move(idle_.back());
            idle_.pop_back();
        }
    }
    if (!e)
        e = std::make_unique<engine::Engine>(
            engine::EngineOptions{.hash_mb = hash_mb_, .threads = threads_});
    e->new_game();
    return Lease(this, std::move(e));
}

void EnginePool::give_back(std::unique_ptr<engine::Engine> engine) {
    std::lock_guard lock(mutex_);
    // Engines made beyond the warm count are freed, so memory returns to its resting size.
    if (int(idle_.size()) < warm_) idle_.push_back(std::move(engine));
}

int EnginePool::idle() const {
    std::lock_guard lock(mutex_);
    return int(idle_.size());
}

}  // namespace service
