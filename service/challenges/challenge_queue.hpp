// ChallengeQueue: acceptable challenges waiting for a free slot, in the order lichess-bot
// accepts them (sort_by, preference); plus RecentBotChallenges for max_recent_bot_challenges.
#pragma once

#include <chrono>
#include <cstddef>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "lichess_client/events.hpp"

namespace service {

// Lichess keeps a real-time challenge pending while we wait (status `offline` after 20 s
// unseen, still acceptable, removed after hours): so a challenge can wait here and be accepted
// when a game ends. A challengeCanceled takes it out; an accept that fails drops it.
//
// Order, as lichess-bot's sort_challenges: with sort_by "best" the highest score first
// (rating, +200 rated, +200 for a title that is not BOT), else arrival order; then, with
// preference "human" or "bot", that kind first (a stable sort keeps the first order inside
// each kind). Equal scores keep arrival order.
//
// Plain class, no I/O, no lock: the Bot's event-loop thread owns it.
class ChallengeQueue {
  public:
    using Clock = std::chrono::steady_clock;

    struct Entry {
        lichess::ChallengeInfo challenge;
        Clock::time_point queued_at;
        std::uint64_t seq = 0;  // arrival order
    };

    // max_size: challenge.max_queued; 0 means nothing ever waits.
    ChallengeQueue(std::string sort_by, std::string preference, std::size_t max_size);
    explicit ChallengeQueue(const config::ChallengeConfig& config);

    // Adds a challenge; false (nothing changes) when the queue is full. A challenge already
    // queued (same id) is replaced in place and counts as added.
    bool push(const lichess::ChallengeInfo& challenge, Clock::time_point now = Clock::now());
    // Takes a challenge out (canceled, declined, accepted elsewhere); false if not queued.
    bool remove(std::string_view challenge_id);

    // The first challenge in order that `may_take` allows (e.g. "a bot slot is free"), taken
    // out of the queue; none when no entry fits. The others keep their places.
    template <typename Pred>
    std::optional<lichess::ChallengeInfo> pop_first(Pred may_take) {
        for (std::size_t i = 0; i < entries_.size(); ++i) {
            if (!may_take(entries_[i].challenge)) continue;
            lichess::ChallengeInfo c = std::move(entries_[i].challenge);
            entries_.erase(entries_.begin() + std::ptrdiff_t(i));
            return c;
        }
        return std::nullopt;
    }

    // Everything queued, in order, and taken out (shutdown: each is declined `later`).
    std::vector<lichess::ChallengeInfo> drain();
    // Drops entries queued before `cutoff` (Lichess has removed such a challenge by then without
    // a challengeCanceled); returns them.
    std::vector<lichess::ChallengeInfo> expire(Clock::time_point cutoff);

    [[nodiscard]] std::size_t size() const { return entries_.size(); }
    [[nodiscard]] bool empty() const { return entries_.empty(); }
    [[nodiscard]] bool full() const { return entries_.size() >= max_size_; }
    [[nodiscard]] bool contains(std::string_view challenge_id) const;
    // Challenger names in order (for !queue).
    [[nodiscard]] std::vector<std::string> names() const;
    // Queued challenges per lowercase challenger id (max_simultaneous_games_per_user counts them).
    [[nodiscard]] std::map<std::string, int, std::less<>> per_user() const;
    [[nodiscard]] const std::deque<Entry>& entries() const { return entries_; }

    // lichess-bot's Challenge.score(): the rating, +200 rated, +200 for a human's title.
    [[nodiscard]] static int score(const lichess::ChallengeInfo& challenge);

  private:
    void sort();

    bool best_;
    int prefer_bots_;  // -1: humans first, 0: none, 1: bots first
    std::size_t max_size_;
    std::uint64_t next_seq_ = 0;
    std::deque<Entry> entries_;
};

// lichess-bot's recent_bot_challenges: when each bot's challenges were taken (queued or
// accepted), to limit a bot to max_recent_bot_challenges within recent_bot_challenge_age.
class RecentBotChallenges {
  public:
    using Clock = std::chrono::steady_clock;

    explicit RecentBotChallenges(std::chrono::seconds age) : age_(age) {}

    void record(std::string_view user_id, Clock::time_point now = Clock::now());
    // Challenges recorded for this user within the age; forgets older ones.
    [[nodiscard]] int count(std::string_view user_id, Clock::time_point now = Clock::now());

  private:
    std::chrono::seconds age_;
    std::map<std::string, std::vector<Clock::time_point>, std::less<>> times_;
};

}  // namespace service
