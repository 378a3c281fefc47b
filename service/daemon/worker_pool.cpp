// WorkerPool: jobs on threads started as needed, up to a limit.
#include "service/daemon/worker_pool.hpp"

#include <spdlog/spdlog.h>

#include <system_error>

namespace service {

WorkerPool::WorkerPool(std::size_t max_threads)
    : max_threads_(max_threads == 0 ? 1 : max_threads) {}

WorkerPool::~WorkerPool() {
    std::vector<std::jthread> threads;
    {
        std::lock_guard lock(mutex_);
        threads.swap(threads_);
        for (auto& t : threads) t.request_stop();
    }
    work_.notify_all();
    // Joined here, outside the lock (each thread takes it once more to leave).
}

void WorkerPool::post(Job job, Priority priority) {
    std::unique_lock lock(mutex_);
    const bool urgent = priority == Priority::Urgent;
    if (urgent)
        jobs_.push_front(std::move(job));
    else
        jobs_.push_back(std::move(job));
    const std::size_t cap = urgent ? 2 * max_threads_ : max_threads_;
    if (waiting_threads_ >= jobs_.size() || threads_.size() >= cap) {
        lock.unlock();
        work_.notify_one();
        return;
    }
    try {
        threads_.emplace_back([this](std::stop_token stop) { run(stop); });
    } catch (const std::system_error& e) {
        if (!threads_.empty()) {
            spdlog::warn("worker pool: cannot start another thread ({}); the job waits", e.what());
            lock.unlock();
            work_.notify_one();
            return;
        }
        // No thread at all: run it here rather than never.
        spdlog::error("worker pool: cannot start a thread ({}); running the job on the caller's",
                      e.what());
        Job now = std::move(urgent ? jobs_.front() : jobs_.back());
        if (urgent)
            jobs_.pop_front();
        else
            jobs_.pop_back();
        ++running_;
        lock.unlock();
        now(std::stop_token{});
        lock.lock();
        --running_;
        idle_.notify_all();
    }
}

void WorkerPool::run(std::stop_token stop) {
    std::unique_lock lock(mutex_);
    for (;;) {
        ++waiting_threads_;
        const bool got = work_.wait(lock, stop, [&] { return !jobs_.empty(); });
        --waiting_threads_;
        if (!got) return;  // stopped
        Job job = std::move(jobs_.front());
        jobs_.pop_front();
        ++running_;
        lock.unlock();
        try {
            job(stop);
        } catch (const std::exception& e) {
            spdlog::error("worker pool: a job failed: {}", e.what());
        }
        lock.lock();
        --running_;
        if (running_ == 0 && jobs_.empty()) idle_.notify_all();
    }
}

bool WorkerPool::wait_idle_until(std::chrono::steady_clock::time_point deadline) {
    std::unique_lock lock(mutex_);
    return idle_.wait_until(lock, deadline, [&] { return running_ == 0 && jobs_.empty(); });
}

std::size_t WorkerPool::threads() const {
    std::lock_guard lock(mutex_);
    return threads_.size();
}

}  // namespace service
