// RateLimiter: one request at a time per endpoint family, and 429 pauses visible to callers.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>

namespace lichess {

// Endpoint families: calls in one family are paused together after a 429, and serialised
// except for the per-game families (see acquire). Moves have their own family so that chat or
// challenge traffic can never delay them.
enum class Family {
    Move,             // POST /api/bot/game/{id}/move
    GameAction,       // abort, resign, draw, takeback, claims
    Chat,             // POST /api/bot/game/{id}/chat
    Challenge,        // accept, decline, cancel
    ChallengeCreate,  // create (matchmaking): a day-long bot-vs-bot pause must not stop accepts
    Account,          // account, playing, token test, upgrade, user status, bots online
    EventStream,      // opening /api/stream/event
    GameStream,       // opening /api/bot/game/stream/{id}
};
inline constexpr std::size_t kFamilyCount = 8;
[[nodiscard]] const char* to_string(Family f);

struct RateLimitConfig {
    // Lichess asks clients to wait at least a minute after a 429. Tests shorten it.
    std::chrono::milliseconds min_pause{60000};
    // Except for the move path (moves, and opening a game stream): a move that waited a minute
    // would lose the game on time, so a 429 there pauses only briefly (what the Python
    // lichess-bot does for moves too). A server hint (`ratelimit.seconds`) still applies in full.
    std::chrono::milliseconds move_min_pause{1000};
};

class RateLimiter {
  public:
    using Clock = std::chrono::steady_clock;

    explicit RateLimiter(RateLimitConfig config = {}) : config_(config) {}

    // Held for the duration of one request in `family`. Streams do not take it (a stream lives
    // as long as its game or the session, and each game has its own); a 429 on opening one
    // still pauses its family, which open_stream checks before connecting. Moves and game
    // actions take no shared slot either: each game's session sends its own one at a time, and
    // a request of one game that the server holds must never delay another game's move.
    [[nodiscard]] std::unique_lock<std::mutex> acquire(Family family) {
        if (family == Family::Move || family == Family::GameAction) return {};
        return std::unique_lock(slots_[static_cast<std::size_t>(family)].request);
    }

    // Records a 429: pauses the family for max(min_pause, server_hint). Logs once per pause.
    // Returns the pause length that now applies.
    std::chrono::milliseconds on_rate_limited(Family family,
                                              std::optional<std::chrono::milliseconds> hint);
    // Counts a 429 that is a quota rather than a request rate (lila's daily bot-game limit,
    // `bot.vsBot.day`): nothing is paused, since requests of the family still work (a human's
    // challenge can be accepted at once); the caller decides what the quota stops.
    void count_quota_refusal();

    // Time left on the family's pause, or nullopt when it is not paused.
    [[nodiscard]] std::optional<std::chrono::milliseconds> paused_for(Family family) const;
    [[nodiscard]] bool is_paused(Family family) const { return paused_for(family).has_value(); }
    // Number of 429 replies seen, all families together.
    [[nodiscard]] std::size_t rate_limit_count() const;

    [[nodiscard]] const RateLimitConfig& config() const { return config_; }

  private:
    struct Slot {
        std::mutex request;
        Clock::time_point paused_until{};
    };
    RateLimitConfig config_;
    mutable std::mutex state_;  // guards paused_until and count_
    std::array<Slot, kFamilyCount> slots_;
    std::size_t count_ = 0;
};

}  // namespace lichess
