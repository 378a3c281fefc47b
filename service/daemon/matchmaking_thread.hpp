// MatchmakingThread: the Matchmaker on a thread of its own, so that listing the online bots or
// creating a challenge (requests lila may hold) never delays the event loop. The loop hands it
// what it must know (declines, cancels, gameStarts, our daily bot limit) and reads its pause;
// everything else the Matchmaker reads itself (GameSlots, the block lists) is thread-safe.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <thread>

#include "lichess_client/events.hpp"
#include "service/challenges/matchmaking.hpp"
#include "service/daemon/blocking_queue.hpp"

namespace service {

class MatchmakingThread {
  public:
    // Ticks `matchmaker` every `tick` (and after each message) until stopped.
    MatchmakingThread(Matchmaker& matchmaker, std::chrono::milliseconds tick);
    ~MatchmakingThread();  // stops (cancelling a pending challenge) and joins
    MatchmakingThread(const MatchmakingThread&) = delete;
    MatchmakingThread& operator=(const MatchmakingThread&) = delete;

    void on_declined(const lichess::ChallengeInfo& challenge);
    void on_canceled(const std::string& challenge_id);
    void on_game_start(const std::string& game_id);
    void pause_bot_games(std::chrono::milliseconds wait);
    // Shutdown: the matchmaker cancels its pending challenge and sends no more (on its thread).
    void stop();

    // The matchmaker's pause after our daily bot limit, as of its last round.
    [[nodiscard]] std::optional<std::chrono::milliseconds> paused_for() const;

  private:
    using Message = std::function<void(Matchmaker&)>;
    void main(std::stop_token stop);
    void publish();

    Matchmaker& matchmaker_;
    const std::chrono::milliseconds tick_;
    BlockingQueue<Message> inbox_;
    std::atomic<std::int64_t> paused_until_ns_{0};  // steady clock; 0: not paused
    std::jthread thread_;
};

}  // namespace service
