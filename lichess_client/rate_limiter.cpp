// RateLimiter: per-family pauses after HTTP 429.
#include "lichess_client/rate_limiter.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace lichess {

const char* to_string(Family f) {
    switch (f) {
        case Family::Move:
            return "move";
        case Family::GameAction:
            return "game-action";
        case Family::Chat:
            return "chat";
        case Family::Challenge:
            return "challenge";
        case Family::ChallengeCreate:
            return "challenge-create";
        case Family::Account:
            return "account";
        case Family::EventStream:
            return "event-stream";
        case Family::GameStream:
            return "game-stream";
        case Family::Tournament:
            return "tournament";
    }
    return "?";
}

std::chrono::milliseconds RateLimiter::on_rate_limited(
    Family family, std::optional<std::chrono::milliseconds> hint) {
    // A game stream that stays shut for a minute loses a bullet game on time (found by the soak).
    const bool game_path = is_per_game(family) || family == Family::GameStream;
    const auto minimum = game_path ? config_.move_min_pause : config_.min_pause;
    const auto asked = std::max(minimum, hint.value_or(std::chrono::milliseconds{0}));
    const auto pause = std::min(asked, max_pause(family));
    const auto now = Clock::now();
    bool fresh = false;
    {
        std::lock_guard lock(state_);
        ++count_;
        auto& until = slots_[static_cast<std::size_t>(family)].paused_until;
        fresh = until <= now;  // a 429 during a pause extends it silently
        until = std::max(until, now + pause);
    }
    if (fresh) {
        const auto seconds = [](std::chrono::milliseconds ms) {
            return std::chrono::duration_cast<std::chrono::duration<double>>(ms).count();
        };
        if (asked > pause) {
            spdlog::warn(
                "lichess: rate limited (429) on {} requests; the server asks for {} s, pausing "
                "them for {} s (the most a pause of {} requests lasts)",
                to_string(family), seconds(asked), seconds(pause), to_string(family));
        } else {
            spdlog::warn("lichess: rate limited (429) on {} requests; pausing them for {} s",
                         to_string(family), seconds(pause));
        }
    }
    return pause;
}

void RateLimiter::count_quota_refusal() {
    std::lock_guard lock(state_);
    ++count_;
}

std::optional<std::chrono::milliseconds> RateLimiter::paused_for(Family family) const {
    const auto until = paused_until(family);
    if (!until) return std::nullopt;
    return std::max(std::chrono::milliseconds{1},
                    std::chrono::ceil<std::chrono::milliseconds>(*until - Clock::now()));
}

std::optional<RateLimiter::Clock::time_point> RateLimiter::paused_until(Family family) const {
    const auto now = Clock::now();
    std::lock_guard lock(state_);
    const auto until = slots_[static_cast<std::size_t>(family)].paused_until;
    if (until <= now) return std::nullopt;
    return until;
}

std::size_t RateLimiter::rate_limit_count() const {
    std::lock_guard lock(state_);
    return count_;
}

}  // namespace lichess
