// RateLimiter: one request at a time per endpoint family, and 429 pauses visible to callers,
// each capped per family so that no server hint can cost a game.
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
    Tournament,       // arenas: read one, join, withdraw
};
inline constexpr std::size_t kFamilyCount = 9;
[[nodiscard]] const char* to_string(Family f);

// The per-game families: a game's own requests, sent one at a time by its session. Their pause
// is advisory: it is reported (retry_after, paused_until) but a request is never refused for
// it, since only the caller knows how long its clock can wait.
[[nodiscard]] constexpr bool is_per_game(Family f) {
    return f == Family::Move || f == Family::GameAction;
}

// The longest pause a 429 imposes on each family, whatever the server asks (`ratelimit.seconds`
// in the body, Retry-After): a wait past it costs more than asking again does.
//   Move, GameAction, GameStream  3 s: lila has no rate limit on moves (BotPlayer); a game
//     waiting longer loses bullet games on time, and the caller may retry sooner still.
//   EventStream  3 min: lila allows 30 opens per 10 min per token; asking again after 3 min
//     costs one request, while challenges and game starts wait for the stream.
//   Chat, Challenge, Tournament  5 min: a challenger gives up long before a longer pause ends;
//     an arena is read again every minute anyway.
//   Account  10 min: lila allows 30 account requests per 5 min.
//   ChallengeCreate  1 h: lila's creation limits are 25 a minute and 200 a day (lichess-bot
//     backs off to 10 min); the daily bot-game quota is not a pause (count_quota_refusal).
[[nodiscard]] constexpr std::chrono::milliseconds default_max_pause(Family f) {
    using std::chrono::milliseconds;
    switch (f) {
        case Family::Move:
        case Family::GameAction:
        case Family::GameStream:
            return milliseconds{3'000};
        case Family::EventStream:
            return milliseconds{180'000};
        case Family::Chat:
        case Family::Challenge:
        case Family::Tournament:
            return milliseconds{300'000};
        case Family::Account:
            return milliseconds{600'000};
        case Family::ChallengeCreate:
            return milliseconds{3'600'000};
    }
    return milliseconds{60'000};
}

struct RateLimitConfig {
    // Lichess asks clients to wait at least a minute after a 429. Tests shorten it.
    std::chrono::milliseconds min_pause{60000};
    // Except for the game path (moves, game actions, opening a game stream): a move that
    // waited a minute would lose the game on time, so a 429 there pauses only briefly (what the
    // Python lichess-bot does for moves too).
    std::chrono::milliseconds move_min_pause{1000};
    // The cap on any pause, per family (index: Family); default_max_pause unless a test says.
    std::array<std::chrono::milliseconds, kFamilyCount> max_pause{
        default_max_pause(Family::Move),
        default_max_pause(Family::GameAction),
        default_max_pause(Family::Chat),
        default_max_pause(Family::Challenge),
        default_max_pause(Family::ChallengeCreate),
        default_max_pause(Family::Account),
        default_max_pause(Family::EventStream),
        default_max_pause(Family::GameStream),
        default_max_pause(Family::Tournament)};
    // One request at a time per family, but a request the server holds no longer holds up the
    // next one after this: a decline lila answers in 40 s must not delay an accept by 40 s.
    std::chrono::milliseconds max_slot_wait{500};
};

class RateLimiter {
  public:
    using Clock = std::chrono::steady_clock;

    explicit RateLimiter(RateLimitConfig config = {}) : config_(config) {}

    // Held for the duration of one request in `family`. Streams do not take it (a stream lives
    // as long as its game or the session, and each game has its own); a 429 on opening one
    // still pauses its family, which open_stream checks before connecting. Moves and game
    // actions take no shared slot either: each game's session sends its own one at a time, and
    // a request of one game that the server holds must never delay another game's move. A
    // request that waited max_slot_wait goes without the slot (the lock it returns owns none).
    [[nodiscard]] std::unique_lock<std::timed_mutex> acquire(Family family) {
        if (is_per_game(family)) return {};
        std::unique_lock lock(slots_[static_cast<std::size_t>(family)].request, std::defer_lock);
        if (!lock.try_lock_for(config_.max_slot_wait)) return {};
        return lock;
    }

    // Records a 429: pauses the family for the server's hint, at least the family's minimum
    // (min_pause, or move_min_pause on the game path) and at most its cap (max_pause). Logs
    // once per pause. Returns the pause length that now applies.
    std::chrono::milliseconds on_rate_limited(Family family,
                                              std::optional<std::chrono::milliseconds> hint);
    // Counts a 429 that is a quota rather than a request rate (lila's daily bot-game limit,
    // `bot.vsBot.day`): nothing is paused, since requests of the family still work (a human's
    // challenge can be accepted at once); the caller decides what the quota stops.
    void count_quota_refusal();

    // Time left on the family's pause, or nullopt when it is not paused.
    [[nodiscard]] std::optional<std::chrono::milliseconds> paused_for(Family family) const;
    // When the family's pause ends (steady clock), or nullopt when it is not paused: a game
    // compares it with its own clock to retry a move in time.
    [[nodiscard]] std::optional<Clock::time_point> paused_until(Family family) const;
    [[nodiscard]] bool is_paused(Family family) const { return paused_for(family).has_value(); }
    // The longest pause a 429 can impose on the family.
    [[nodiscard]] std::chrono::milliseconds max_pause(Family family) const {
        return config_.max_pause[static_cast<std::size_t>(family)];
    }
    // Number of 429 replies seen, all families together.
    [[nodiscard]] std::size_t rate_limit_count() const;

    [[nodiscard]] const RateLimitConfig& config() const { return config_; }

  private:
    struct Slot {
        std::timed_mutex request;
        Clock::time_point paused_until{};
    };
    RateLimitConfig config_;
    mutable std::mutex state_;  // guards paused_until and count_
    std::array<Slot, kFamilyCount> slots_;
    std::size_t count_ = 0;
};

}  // namespace lichess
