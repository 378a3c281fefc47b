// OurRatings: our own Lichess ratings per perf ("blitz", "chess960", ...), as /api/account gave
// them, and when: challenge.rating_difference and matchmaking's rating window both judge by them.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "lichess_client/payloads.hpp"

namespace service {

class OurRatings {
  public:
    using TimePoint = std::chrono::steady_clock::time_point;

    // Never read, forgotten, or read longer than `max_age` before `now`: read them again.
    [[nodiscard]] bool stale(TimePoint now, std::chrono::milliseconds max_age) const {
        return !read_at_ || now - *read_at_ >= max_age;
    }
    [[nodiscard]] bool known() const { return read_at_.has_value(); }
    void read(const std::map<std::string, lichess::PerfRating>& perfs, TimePoint now) {
        ratings_.clear();
        for (const auto& [perf, p] : perfs) ratings_[perf] = p.rating;
        read_at_ = now;
    }
    // A game just ended and moved them: the next look reads them again (the old ones stay in
    // use until then).
    void forget() { read_at_.reset(); }
    // Our rating in `perf`; none before the first read or for a perf we never played.
    [[nodiscard]] std::optional<int> in(std::string_view perf) const {
        const auto it = ratings_.find(perf);
        if (it == ratings_.end()) return std::nullopt;
        return it->second;
    }

  private:
    std::map<std::string, int, std::less<>> ratings_;
    std::optional<TimePoint> read_at_;
};

}  // namespace service
