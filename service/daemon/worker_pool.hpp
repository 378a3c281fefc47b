// WorkerPool: where the Bot's requests to Lichess run, off the event loop, so that a request the
// server holds never delays a gameStart or another challenge's answer. A job runs on an idle
// thread, or on a new one while fewer than `max_threads` exist; beyond that it waits its turn.
// An urgent job (an accept: a game waits on it) goes before the others and may start a thread
// up to twice `max_threads`, so that requests the server holds on every thread (a burst of
// declines, each tried for a few seconds) never hold it up.
// Threads are jthreads that watch their own stop tokens; the destructor stops and joins them (a
// request in flight ends with the Api's shutdown, or with its own short deadline).
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <stop_token>
#include <thread>
#include <vector>

namespace service {

class WorkerPool {
  public:
    using Job = std::function<void(std::stop_token)>;
    enum class Priority { Normal, Urgent };

    explicit WorkerPool(std::size_t max_threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // Queues `job` (an urgent one first). When no thread can be started at all (the system
    // refuses), it runs here.
    void post(Job job, Priority priority = Priority::Normal);
    // Waits until every job posted so far has finished, at most until `deadline`; false when
    // some still run then.
    bool wait_idle_until(std::chrono::steady_clock::time_point deadline);
    // Threads started so far (they stay for the next jobs).
    [[nodiscard]] std::size_t threads() const;

  private:
    void run(std::stop_token stop);

    const std::size_t max_threads_;
    mutable std::mutex mutex_;
    std::condition_variable_any work_;
    std::condition_variable_any idle_;
    std::deque<Job> jobs_;
    std::size_t waiting_threads_ = 0;  // threads waiting for a job
    std::size_t running_ = 0;          // jobs running now
    std::vector<std::jthread> threads_;
};

}  // namespace service
