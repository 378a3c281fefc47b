// A channel of NDJSON lines from the emulated server to one open stream connection; the
// server pushes, the connection's writer thread pops, and either side can close it.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "scenario.hpp"

namespace emu {

// One line without its '\n'. Game-stream lines say which ply they describe and whether they
// put the bot on move, so the server can time the bot's answer from the moment of sending.
struct Line {
    std::string text;
    std::string game_id;
    int ply = -1;
    bool bot_turn = false;
};

class LineQueue {
  public:
    void push(Line line) {
        {
            std::lock_guard lock(mutex_);
            if (closed_) return;
            lines_.push_back(std::move(line));
        }
        cv_.notify_all();
    }
    // Closes after the lines already queued; the writer sends them, then ends the stream.
    void close(std::string reason) {
        {
            std::lock_guard lock(mutex_);
            if (closed_) return;
            closed_ = true;
            reason_ = std::move(reason);
        }
        cv_.notify_all();
    }
    // Waits up to `wait` for lines or a close; returns what is queued (maybe nothing).
    std::vector<Line> pop_all(std::chrono::milliseconds wait) {
        std::unique_lock lock(mutex_);
        cv_.wait_for(lock, wait, [&] { return closed_ || !lines_.empty(); });
        std::vector<Line> out(std::make_move_iterator(lines_.begin()),
                              std::make_move_iterator(lines_.end()));
        lines_.clear();
        return out;
    }
    bool closed_and_empty() const {
        std::lock_guard lock(mutex_);
        return closed_ && lines_.empty();
    }
    bool closed() const {
        std::lock_guard lock(mutex_);
        return closed_;
    }
    std::string reason() const {
        std::lock_guard lock(mutex_);
        return reason_;
    }

  private:
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<Line> lines_;
    bool closed_ = false;
    std::string reason_;
};

}  // namespace emu
