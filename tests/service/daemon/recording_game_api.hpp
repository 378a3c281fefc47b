// RecordingGameApi: a game's calls to Lichess as the RequestRunner makes them, recorded in order
// ("move e2e4", "move e2e4 =" with a draw offer, "abort", "resign", "draw yes", "takeback yes",
// "claim") with the thread each ran on; a test can fail the next posts or the aborts, and play
// the server's part after a post is taken (`on_move`).
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "service/daemon/game_api.hpp"

namespace test_support {

class RecordingGameApi final : public service::GameApi {
  public:
    lichess::Result<lichess::Ok> post_move(std::string_view, std::string_view uci, bool offer_draw,
                                           const std::function<bool()>&) override {
        std::function<void(const std::string&)> then;
        {
            std::lock_guard lock(mutex_);
            record("move " + std::string(uci) + (offer_draw ? " =" : ""));
            if (failing_posts_ > 0) {
                --failing_posts_;
                return error("a network error made by the test");
            }
            then = on_move;
        }
        if (then) then(std::string(uci));
        return lichess::Ok{};
    }
    lichess::Result<lichess::Ok> abort(std::string_view) override {
        return answer("abort", abort_fails_);
    }
    lichess::Result<lichess::Ok> resign(std::string_view) override {
        return answer("resign", false);
    }
    lichess::Result<lichess::Ok> accept_draw(std::string_view) override {
        return answer("draw yes", false);
    }
    lichess::Result<lichess::Ok> answer_takeback(std::string_view, bool accept) override {
        return answer(accept ? "takeback yes" : "takeback no", false);
    }
    lichess::Result<lichess::Ok> claim_victory(std::string_view) override {
        return answer("claim", false);
    }

    std::vector<std::string> calls() const {
        std::lock_guard lock(mutex_);
        return calls_;
    }
    // The thread each call ran on, in the order of calls().
    std::vector<std::thread::id> threads() const {
        std::lock_guard lock(mutex_);
        return threads_;
    }
    // Waits (generously) until `n` calls were made; the test then checks which.
    bool wait_calls(std::size_t n) {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, std::chrono::seconds(30),
                                 [&] { return calls_.size() >= n; });
    }

    std::function<void(const std::string&)> on_move;  // set before the calls start
    int failing_posts_ = 0;
    bool abort_fails_ = false;

  private:
    static lichess::ApiError error(std::string message) {
        lichess::ApiError e;
        e.kind = lichess::ApiError::Kind::Network;
        e.message = std::move(message);
        return e;
    }
    void record(std::string call) {  // under mutex_
        calls_.push_back(std::move(call));
        threads_.push_back(std::this_thread::get_id());
        changed_.notify_all();
    }
    lichess::Result<lichess::Ok> answer(std::string call, bool fail) {
        std::lock_guard lock(mutex_);
        record(std::move(call));
        if (fail) return error("refused by the test");
        return lichess::Ok{};
    }

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::vector<std::string> calls_;
    std::vector<std::thread::id> threads_;
};

}  // namespace test_support
