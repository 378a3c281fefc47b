// MatchmakingThread: the Matchmaker's messages and ticks on one thread.
#include "service/daemon/matchmaking_thread.hpp"

#include <spdlog/spdlog.h>

namespace service {

MatchmakingThread::MatchmakingThread(Matchmaker& matchmaker, std::chrono::milliseconds tick)
    : matchmaker_(matchmaker), tick_(tick), thread_([this](std::stop_token stop) { main(stop); }) {}

MatchmakingThread::~MatchmakingThread() {
    stop();
    thread_.request_stop();
    inbox_.close();
}

void MatchmakingThread::on_declined(const lichess::ChallengeInfo& challenge) {
    inbox_.push([challenge](Matchmaker& m) { m.on_declined(challenge); });
}

void MatchmakingThread::on_canceled(const std::string& challenge_id) {
    inbox_.push([challenge_id](Matchmaker& m) { m.on_canceled(challenge_id); });
}

void MatchmakingThread::on_game_start(const std::string& game_id) {
    inbox_.push([game_id](Matchmaker& m) { m.on_game_start(game_id); });
}

void MatchmakingThread::pause_bot_games(std::chrono::milliseconds wait) {
    inbox_.push([wait](Matchmaker& m) { m.pause_bot_games(wait); });
}

void MatchmakingThread::stop() {
    if (inbox_.closed()) return;
    inbox_.push([](Matchmaker& m) { m.stop(); });
    inbox_.close();  // the thread handles what is left, then ends
}

std::optional<std::chrono::milliseconds> MatchmakingThread::paused_for() const {
    const std::int64_t until = paused_until_ns_.load();
    if (until == 0) return std::nullopt;
    const auto left = std::chrono::steady_clock::time_point(std::chrono::nanoseconds(until)) -
                      std::chrono::steady_clock::now();
    if (left <= std::chrono::steady_clock::duration::zero()) return std::nullopt;
    return std::chrono::ceil<std::chrono::milliseconds>(left);
}

void MatchmakingThread::publish() {
    const auto left = matchmaker_.paused_for();
    paused_until_ns_ =
        left ? (std::chrono::steady_clock::now() + *left).time_since_epoch().count() : 0;
}

void MatchmakingThread::main(std::stop_token stop) {
    while (!stop.stop_requested()) {
        auto message = inbox_.pop_for(tick_);
        try {
            if (message) {
                (*message)(matchmaker_);
            } else if (inbox_.closed()) {
                return;  // stopped, and every message handled
            }
            matchmaker_.tick();
        } catch (const std::exception& e) {
            spdlog::error("matchmaking: {}", e.what());
        }
        publish();
    }
}

}  // namespace service
