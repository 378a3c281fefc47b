// WorkerPool: a job that never ends (a request the server holds) delays neither the caller nor
// the jobs posted after it; threads stop at the cap; the destructor stops a held job.
#include "service/daemon/worker_pool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/time_scale.hpp"

namespace {

// A job that holds its thread until its stop token is set (a request lila never answers).
service::WorkerPool::Job held_until_stopped(std::atomic<int>& started) {
    return [&started](std::stop_token stop) {
        ++started;
        std::mutex m;
        std::condition_variable_any cv;
        std::unique_lock lock(m);
        cv.wait(lock, stop, [] { return false; });
    };
}

TEST(WorkerPool, AHeldJobDelaysNeitherTheCallerNorTheNextJob) {
    using namespace std::chrono_literals;
    std::atomic<int> held{0};
    std::promise<std::chrono::steady_clock::time_point> ran;
    auto ran_at = ran.get_future();
    std::chrono::steady_clock::time_point posted;
    {
        service::WorkerPool pool(4);
        const auto before = std::chrono::steady_clock::now();
        pool.post(held_until_stopped(held));
        // post() returns at once: a held job costs the caller nothing.
        EXPECT_LT(std::chrono::steady_clock::now() - before, test_time::scaled(1s));
        for (int i = 0; i < 1000 && held.load() < 1; ++i) std::this_thread::sleep_for(10ms);
        ASSERT_EQ(held.load(), 1);
        posted = std::chrono::steady_clock::now();
        pool.post([&ran](std::stop_token) { ran.set_value(std::chrono::steady_clock::now()); });
        ASSERT_EQ(ran_at.wait_for(10s), std::future_status::ready);
        // The second job ran on a thread of its own while the first was still held.
        EXPECT_LT(ran_at.get() - posted, test_time::scaled(2s));
        EXPECT_EQ(held.load(), 1);
        EXPECT_EQ(pool.threads(), 2u);
        EXPECT_FALSE(pool.wait_idle_until(std::chrono::steady_clock::now() + 50ms));
    }  // the destructor stops the held job and joins its thread
}

TEST(WorkerPool, AnUrgentJobGoesFirstAndPastTheCapWhenEveryThreadIsHeld) {
    using namespace std::chrono_literals;
    std::atomic<int> held{0};
    std::mutex order_mutex;
    std::vector<std::string> order;
    const auto record = [&](const char* what) {
        std::lock_guard lock(order_mutex);
        order.emplace_back(what);
    };
    std::promise<void> urgent_ran;
    auto urgent_done = urgent_ran.get_future();
    service::WorkerPool pool(2);
    pool.post(held_until_stopped(held));
    pool.post(held_until_stopped(held));
    for (int i = 0; i < 1000 && held.load() < 2; ++i) std::this_thread::sleep_for(10ms);
    ASSERT_EQ(held.load(), 2);
    pool.post([&](std::stop_token) { record("normal"); });
    const auto posted = std::chrono::steady_clock::now();
    pool.post(
        [&](std::stop_token) {
            record("urgent");
            urgent_ran.set_value();
        },
        service::WorkerPool::Priority::Urgent);
    // Both threads are held and a normal job waits: the urgent one starts a third thread.
    ASSERT_EQ(urgent_done.wait_for(10s), std::future_status::ready);
    EXPECT_LT(std::chrono::steady_clock::now() - posted, test_time::scaled(2s));
    EXPECT_EQ(pool.threads(), 3u);
    // The third thread serves the waiting normal job next.
    const auto both_ran = [&] {
        std::lock_guard lock(order_mutex);
        return order.size() == 2;
    };
    for (int i = 0; i < 1000 && !both_ran(); ++i) std::this_thread::sleep_for(10ms);
    std::lock_guard lock(order_mutex);
    EXPECT_EQ(order, (std::vector<std::string>{"urgent", "normal"}));
}

TEST(WorkerPool, BeyondTheCapJobsWaitTheirTurnAndAllRun) {
    using namespace std::chrono_literals;
    service::WorkerPool pool(2);
    std::atomic<int> done{0};
    for (int i = 0; i < 20; ++i) pool.post([&done](std::stop_token) { ++done; });
    ASSERT_TRUE(pool.wait_idle_until(std::chrono::steady_clock::now() + 10s));
    EXPECT_EQ(done.load(), 20);
    EXPECT_LE(pool.threads(), 2u);
    EXPECT_GE(pool.threads(), 1u);
}

TEST(WorkerPool, AFailingJobIsLoggedAndTheThreadServesTheNext) {
    using namespace std::chrono_literals;
    service::WorkerPool pool(1);
    std::atomic<bool> next_ran{false};
    pool.post([](std::stop_token) { throw std::runtime_error("lila said no"); });
    pool.post([&next_ran](std::stop_token) { next_ran = true; });
    ASSERT_TRUE(pool.wait_idle_until(std::chrono::steady_clock::now() + 10s));
    EXPECT_TRUE(next_ran.load());
    EXPECT_EQ(pool.threads(), 1u);
}

}  // namespace
