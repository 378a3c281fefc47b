// StatusBoard: the publishers' values under one short lock, and the snapshot the page renders.
#include "service/ops/status_board.hpp"

#include <algorithm>
#include <utility>

#ifndef OUTPOST_VERSION
#define OUTPOST_VERSION "unknown"
#endif

namespace service {

namespace {

std::int64_t utc_day(WallTime t) {
    return std::chrono::floor<std::chrono::days>(t).time_since_epoch().count();
}

// A steady-clock instant (Metrics keep those) as the wall-clock time it will be.
WallTime wall_time_of(std::int64_t steady_ns, Metrics::Clock::time_point now, WallTime wall_now) {
    const auto at = Metrics::Clock::time_point(
        std::chrono::duration_cast<Metrics::Clock::duration>(std::chrono::nanoseconds(steady_ns)));
    return wall_now + std::chrono::duration_cast<WallTime::duration>(at - now);
}

void count_result(DayResults& day, GameResult result) {
    switch (result) {
        case GameResult::Win:
            ++day.wins;
            break;
        case GameResult::Draw:
            ++day.draws;
            break;
        case GameResult::Loss:
            ++day.losses;
            break;
        case GameResult::Aborted:
            ++day.aborted;
            break;
    }
}

}  // namespace

void StatusBoard::set_account(std::string name, std::string site) {
    auto account = std::make_shared<const std::string>(std::move(name));
    auto address = std::make_shared<const std::string>(std::move(site));
    std::lock_guard lock(mutex_);
    std::swap(account_, account);
    std::swap(site_, address);
}

void StatusBoard::set_online_enabled(const std::array<bool, kOnlineSourceCount>& enabled) {
    std::lock_guard lock(mutex_);
    online_enabled_ = enabled;
}

void StatusBoard::publish_slots(SlotsStatus slots) {
    std::shared_ptr<const SlotsStatus> value =
        std::make_shared<const SlotsStatus>(std::move(slots));
    std::lock_guard lock(mutex_);
    std::swap(slots_, value);
}

void StatusBoard::publish_arenas(std::vector<ArenaStatus> arenas) {
    std::sort(arenas.begin(), arenas.end(), [](const ArenaStatus& a, const ArenaStatus& b) {
        // Soonest end first; an end not known yet last.
        return a.ends_at.value_or(WallTime::max()) < b.ends_at.value_or(WallTime::max());
    });
    auto value = std::make_shared<const std::vector<ArenaStatus>>(std::move(arenas));
    std::lock_guard lock(mutex_);
    std::swap(arenas_, value);
}

std::uint64_t StatusBoard::enter(const std::string& game_id) {
    std::lock_guard lock(mutex_);
    const std::uint64_t serial = next_serial_++;
    games_[game_id] = Entry{serial, nullptr};
    return serial;
}

void StatusBoard::put(const std::string& game_id, std::uint64_t serial, GameStatus game) {
    auto shared = std::make_shared<const GameStatus>(std::move(game));  // built outside the lock
    std::shared_ptr<const GameStatus> old;                              // freed outside the lock
    std::lock_guard lock(mutex_);
    auto it = games_.find(game_id);
    if (it == games_.end() || it->second.serial != serial) return;
    old = std::exchange(it->second.game, std::move(shared));
}

void StatusBoard::remove(const std::string& game_id, std::uint64_t serial) {
    std::shared_ptr<const GameStatus> old;
    std::lock_guard lock(mutex_);
    auto it = games_.find(game_id);
    if (it == games_.end() || it->second.serial != serial) return;
    old = std::move(it->second.game);
    games_.erase(it);
}

void StatusBoard::add_finished(const std::string& game_id, std::uint64_t serial,
                               FinishedGameStatus game) {
    remove(game_id, serial);
    // Games end one at a time (each on its own session's thread): the lock is held across the
    // copy of the list so that two ends at once both land; readers only ever swap pointers.
    const std::int64_t day = utc_day(game.ended_at);
    std::shared_ptr<const Finished> old;
    std::lock_guard lock(mutex_);
    auto list = std::make_shared<Finished>();
    list->reserve(kFinishedKept);
    list->push_back(std::move(game));
    for (const FinishedGameStatus& f : *finished_) {
        if (list->size() == kFinishedKept) break;
        list->push_back(f);
    }
    if (day != today_) {
        today_ = day;
        today_results_ = {};
    }
    count_result(today_results_, list->front().result);
    old = std::exchange(finished_, std::move(list));
}

StatusBoard::GameEntry::GameEntry(StatusBoard* board, std::string game_id)
    : board_(board), game_id_(std::move(game_id)), serial_(board ? board->enter(game_id_) : 0) {}

StatusBoard::GameEntry::~GameEntry() {
    if (board_) board_->remove(game_id_, serial_);
}

void StatusBoard::GameEntry::publish(GameStatus game) {
    if (board_) board_->put(game_id_, serial_, std::move(game));
}

void StatusBoard::GameEntry::finished(FinishedGameStatus game) {
    if (board_) board_->add_finished(game_id_, serial_, std::move(game));
}

std::optional<std::string> StatusBoard::pgn_path(std::string_view game_id) const {
    std::shared_ptr<const Finished> finished;
    {
        std::lock_guard lock(mutex_);
        finished = finished_;
    }
    for (const FinishedGameStatus& f : *finished) {
        if (f.id == game_id && !f.pgn_path.empty()) return f.pgn_path;
    }
    return std::nullopt;
}

StatusSnapshot StatusBoard::snapshot(const Metrics& metrics, WallTime wall_now,
                                     Metrics::Clock::time_point now) const {
    constexpr auto relaxed = std::memory_order_relaxed;
    StatusSnapshot s;
    std::vector<std::shared_ptr<const GameStatus>> games;
    games.reserve(32);
    std::shared_ptr<const std::string> account, site;
    std::shared_ptr<const SlotsStatus> slots;
    std::shared_ptr<const std::vector<ArenaStatus>> arenas;
    std::shared_ptr<const Finished> finished;
    std::array<bool, kOnlineSourceCount> enabled{};
    const std::int64_t today = utc_day(wall_now);
    {
        std::lock_guard lock(mutex_);
        account = account_;
        site = site_;
        enabled = online_enabled_;
        for (const auto& [id, entry] : games_) {
            if (entry.game) games.push_back(entry.game);
        }
        slots = slots_;
        arenas = arenas_;
        finished = finished_;
        if (today_ == today) s.today = today_results_;
    }
    s.account = *account;
    s.site = *site;
    s.games.reserve(games.size());
    for (const auto& game : games) s.games.push_back(*game);
    s.slots = *slots;
    s.arenas = *arenas;
    s.finished = *finished;

    s.now = wall_now;
    s.version = OUTPOST_VERSION;
    s.uptime = std::chrono::duration_cast<std::chrono::seconds>(now - metrics.start_time);
    s.event_stream_connected = !metrics.event_stream_problem(now);
    if (const auto last = metrics.last_event_stream_activity())
        s.last_event_age = std::chrono::duration_cast<std::chrono::seconds>(now - *last);
    if (const std::int64_t until = metrics.bot_games_paused_until_ns.load(relaxed); until != 0) {
        const WallTime at = wall_time_of(until, now, wall_now);
        if (at > wall_now) s.bot_games_paused_until = at;
    }
    s.resident_bytes = resident_memory_bytes();
    for (std::size_t i = 0; i < kOnlineSourceCount; ++i) {
        const OnlineSourceMetrics& m = metrics.online[i];
        OnlineSourceStatus& o = s.online[i];
        o.name = kOnlineSourceNames[i];
        o.enabled = enabled[i];
        o.hits = m.hits.load(relaxed);
        o.errors = m.errors.load(relaxed);
        o.pauses = m.pauses.load(relaxed);
        if (m.paused.load(relaxed)) {
            const WallTime at = wall_time_of(m.paused_until_ns.load(relaxed), now, wall_now);
            if (at > wall_now) o.paused_until = at;
        }
    }
    return s;
}

}  // namespace service
