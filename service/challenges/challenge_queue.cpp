// ChallengeQueue and RecentBotChallenges: ordering and bookkeeping only, no I/O.
#include "service/challenges/challenge_queue.hpp"

#include <algorithm>

#include "common/text.hpp"

namespace service {

ChallengeQueue::ChallengeQueue(std::string sort_by, std::string preference, std::size_t max_size)
    : best_(sort_by != "first"),
      prefer_bots_(preference == "bot"     ? 1
                   : preference == "human" ? -1
                                           : 0),
      max_size_(max_size) {}

ChallengeQueue::ChallengeQueue(const config::ChallengeConfig& config)
    : ChallengeQueue(config.sort_by, config.preference,
                     std::size_t(std::max(0, config.max_queued))) {}

int ChallengeQueue::score(const lichess::ChallengeInfo& c) {
    const bool titled_human = c.challenger.title && !c.challenger.is_bot();
    return c.challenger.rating.value_or(0) + (c.rated ? 200 : 0) + (titled_human ? 200 : 0);
}

void ChallengeQueue::sort() {
    std::stable_sort(entries_.begin(), entries_.end(), [this](const Entry& a, const Entry& b) {
        if (prefer_bots_ != 0) {
            const bool ab = a.challenge.challenger.is_bot(), bb = b.challenge.challenger.is_bot();
            if (ab != bb) return prefer_bots_ > 0 ? ab : bb;
        }
        if (best_) {
            const int sa = score(a.challenge), sb = score(b.challenge);
            if (sa != sb) return sa > sb;
        }
        return a.seq < b.seq;
    });
}

bool ChallengeQueue::push(const lichess::ChallengeInfo& challenge, Clock::time_point now) {
    for (Entry& e : entries_) {
        if (e.challenge.id != challenge.id) continue;
        e.challenge = challenge;
        sort();
        return true;
    }
    if (full()) return false;
    entries_.push_back({challenge, now, next_seq_++});
    sort();
    return true;
}

bool ChallengeQueue::remove(std::string_view challenge_id) {
    const auto it = std::find_if(entries_.begin(), entries_.end(),
                                 [&](const Entry& e) { return e.challenge.id == challenge_id; });
    if (it == entries_.end()) return false;
    entries_.erase(it);
    return true;
}

std::vector<lichess::ChallengeInfo> ChallengeQueue::drain() {
    std::vector<lichess::ChallengeInfo> out;
    for (Entry& e : entries_) out.push_back(std::move(e.challenge));
    entries_.clear();
    return out;
}

std::vector<lichess::ChallengeInfo> ChallengeQueue::expire(Clock::time_point cutoff) {
    std::vector<lichess::ChallengeInfo> out;
    for (auto it = entries_.begin(); it != entries_.end();) {
        if (it->queued_at < cutoff) {
            out.push_back(std::move(it->challenge));
            it = entries_.erase(it);
        } else {
            ++it;
        }
    }
    return out;
}

bool ChallengeQueue::contains(std::string_view challenge_id) const {
    return std::any_of(entries_.begin(), entries_.end(),
                       [&](const Entry& e) { return e.challenge.id == challenge_id; });
}

std::vector<std::string> ChallengeQueue::names() const {
    std::vector<std::string> out;
    for (const Entry& e : entries_)
        out.push_back(e.challenge.challenger.name.empty() ? e.challenge.challenger.id
                                                          : e.challenge.challenger.name);
    return out;
}

std::map<std::string, int, std::less<>> ChallengeQueue::per_user() const {
    std::map<std::string, int, std::less<>> out;
    for (const Entry& e : entries_) ++out[common::lowercase(e.challenge.challenger.id)];
    return out;
}

void RecentBotChallenges::record(std::string_view user_id, Clock::time_point now) {
    if (age_.count() <= 0) return;
    times_[common::lowercase(user_id)].push_back(now);
}

int RecentBotChallenges::count(std::string_view user_id, Clock::time_point now) {
    const auto it = times_.find(common::lowercase(user_id));
    if (it == times_.end()) return 0;
    auto& times = it->second;
    std::erase_if(times, [&](Clock::time_point t) { return now - t >= age_; });
    const int n = int(times.size());
    if (times.empty()) times_.erase(it);
    return n;
}

}  // namespace service
