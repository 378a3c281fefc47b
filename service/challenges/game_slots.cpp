// GameSlots: reservations with deadlines plus started games, counted under one mutex.
#include "service/challenges/game_slots.hpp"
#include "common/text.hpp"

#include <algorithm>
#include <cctype>

namespace service {

int SlotSnapshot::free() const { return std::max(0, limit - active - reserved); }

int SlotSnapshot::free_for_bots() const {
    const int bots = bot_limit < 0 ? limit : bot_limit;
    return std::min(free(), std::max(0, bots - bot_games));
}

int SlotSnapshot::games_with(std::string_view user_id) const {
    const auto it = per_user.find(common::lowercase(user_id));
    return it == per_user.end() ? 0 : it->second;
}

const char* to_string(Admission a) {
    switch (a) {
        case Admission::Admitted:
            return "admitted";
        case Admission::AlreadyRunning:
            return "already running";
        case Admission::OverLimit:
            return "over the limit";
    }
    return "?";
}

GameSlots::GameSlots(int limit, std::chrono::milliseconds reservation_ttl, Clock now)
    : limit_(std::max(0, limit)), ttl_(reservation_ttl), now_(std::move(now)), bot_limit_(limit_) {}

void GameSlots::reserve_for_humans(int slots) {
    std::lock_guard lock(mutex_);
    bot_limit_ = std::max(0, limit_ - std::max(0, slots));
}

int GameSlots::bot_limit() const {
    std::lock_guard lock(mutex_);
    return bot_limit_;
}

int GameSlots::bot_games_locked() const {
    int n = 0;
    for (const auto& [id, r] : reservations_) n += r.bot;
    for (const auto& [id, g] : games_) n += bot_games_.contains(id);
    return n;
}

std::vector<std::string> GameSlots::expire_locked() const {
    std::vector<std::string> expired;
    const auto t = now_();
    for (auto it = reservations_.begin(); it != reservations_.end();) {
        if (it->second.deadline <= t) {
            expired.push_back(it->first);
            it = reservations_.erase(it);
        } else {
            ++it;
        }
    }
    return expired;
}

int GameSlots::free_locked() const {
    return std::max(0, limit_ - int(games_.size()) - int(reservations_.size()));
}

int GameSlots::games_with_locked(std::string_view user) const {
    const std::string u = common::lowercase(user);
    int n = 0;
    for (const auto& [id, r] : reservations_) n += r.user == u;
    for (const auto& [id, g] : games_) n += g == u;
    return n;
}

bool GameSlots::try_reserve(std::string_view challenge_id, std::string_view user_id,
                            std::optional<std::chrono::milliseconds> ttl, bool bot) {
    std::lock_guard lock(mutex_);
    expire_locked();
    if (games_.contains(challenge_id) || reservations_.contains(challenge_id)) return true;
    if (free_locked() <= 0) return false;
    if (bot && bot_games_locked() >= bot_limit_) return false;
    reservations_.emplace(std::string(challenge_id), Reservation{common::lowercase(user_id),
                                                                 now_() + ttl.value_or(ttl_), bot});
    return true;
}

void GameSlots::release_reservation(std::string_view challenge_id) {
    std::lock_guard lock(mutex_);
    if (const auto it = reservations_.find(challenge_id); it != reservations_.end())
        reservations_.erase(it);
    expire_locked();
}

Admission GameSlots::on_game_start(std::string_view game_id, std::string_view user_id,
                                   std::string_view in_place_of) {
    std::lock_guard lock(mutex_);
    expire_locked();
    if (games_.contains(game_id)) return Admission::AlreadyRunning;
    if (const auto it = in_place_of.empty() ? reservations_.end() : reservations_.find(in_place_of);
        it != reservations_.end() && !reservations_.contains(game_id)) {
        reservations_.erase(it);  // its slot is the game's now
        games_.emplace(std::string(game_id), common::lowercase(user_id));
        return Admission::Admitted;
    }
    if (const auto it = reservations_.find(game_id); it != reservations_.end()) {
        // The reservation's slot becomes the game's: the count does not change.
        std::string user = user_id.empty() ? it->second.user : common::lowercase(user_id);
        if (it->second.bot) bot_games_.emplace(game_id);
        reservations_.erase(it);
        games_.emplace(std::string(game_id), std::move(user));
        return Admission::Admitted;
    }
    const bool had_room = free_locked() > 0;
    // Recorded even over the limit: the game exists on Lichess whatever we think, and a replay
    // or its finish must find it.
    games_.emplace(std::string(game_id), common::lowercase(user_id));
    return had_room ? Admission::Admitted : Admission::OverLimit;
}

bool GameSlots::on_game_finish(std::string_view game_id) {
    std::lock_guard lock(mutex_);
    expire_locked();
    // A game that ends before its gameStart arrived (aborted at once) still frees its slot.
    if (const auto it = reservations_.find(game_id); it != reservations_.end()) {
        reservations_.erase(it);
        return false;
    }
    const auto it = games_.find(game_id);
    if (it == games_.end()) return false;
    games_.erase(it);
    bot_games_.erase(std::string(game_id));
    return true;
}

int GameSlots::active() const {
    std::lock_guard lock(mutex_);
    return int(games_.size());
}

int GameSlots::reserved() const {
    std::lock_guard lock(mutex_);
    expire_locked();
    return int(reservations_.size());
}

int GameSlots::free() const {
    std::lock_guard lock(mutex_);
    expire_locked();
    return free_locked();
}

bool GameSlots::is_active(std::string_view game_id) const {
    std::lock_guard lock(mutex_);
    return games_.contains(game_id);
}

bool GameSlots::holds(std::string_view id) const {
    std::lock_guard lock(mutex_);
    expire_locked();
    return games_.contains(id) || reservations_.contains(id);
}

int GameSlots::games_with(std::string_view user_id) const {
    std::lock_guard lock(mutex_);
    expire_locked();
    return games_with_locked(user_id);
}

SlotSnapshot GameSlots::snapshot() const {
    std::lock_guard lock(mutex_);
    expire_locked();
    SlotSnapshot s;
    s.limit = limit_;
    s.active = int(games_.size());
    s.reserved = int(reservations_.size());
    s.bot_limit = bot_limit_;
    s.bot_games = bot_games_locked();
    for (const auto& [id, r] : reservations_) ++s.per_user[r.user];
    for (const auto& [id, g] : games_) ++s.per_user[g];
    return s;
}

std::vector<std::string> GameSlots::expire_now() {
    std::lock_guard lock(mutex_);
    return expire_locked();
}

void SlotsView::publish_queue(std::vector<std::string> names) {
    std::lock_guard lock(mutex_);
    queued_ = std::move(names);
}

SlotSnapshot SlotsView::snapshot() const {
    SlotSnapshot s = slots_.snapshot();
    std::lock_guard lock(mutex_);
    s.queued = queued_;
    return s;
}

}  // namespace service
