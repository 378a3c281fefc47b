// CorrespondenceDesk: parked games, the line for sessions, check-ins through the playing list.
#include "service/daemon/correspondence.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <set>

#include "common/text.hpp"

namespace service {

DeskSettings DeskSettings::from(const config::CorrespondenceConfig& config,
                                const config::DrawOrResignConfig& draw_or_resign,
                                int max_takebacks_accepted) {
    DeskSettings s;
    s.draw_or_resign = draw_or_resign;
    s.max_takebacks_accepted = max_takebacks_accepted;
    s.checkin_period = std::chrono::seconds(std::max(1, config.checkin_period_s));
    s.max_sessions = std::max(1, config.max_concurrent_searches);
    s.linger = std::chrono::seconds(std::max(0, config.disconnect_time_s));
    return s;
}

CorrespondenceDesk::CorrespondenceDesk(DeskSettings settings, DeskHooks hooks)
    : settings_(settings),
      hooks_(std::move(hooks)),
      // The Bot lists ongoing games at start-up and passes them on: the first check-in of
      // our own is one period later.
      next_checkin_(hooks_.now() + settings_.checkin_period) {}

CorrespondenceDesk::~CorrespondenceDesk() { stop(); }

void CorrespondenceDesk::on_game_start(const lichess::GameEventInfo& game) {
    std::lock_guard lock(mutex_);
    sighted_locked(game);
}

void CorrespondenceDesk::on_game_finish(const std::string& game_id) {
    std::lock_guard lock(mutex_);
    const auto it = games_.find(game_id);
    if (it == games_.end()) return;
    // A waiting game's session will see the end, and so will a running one unless it is just
    // parking (then reaping lines the game up again); a parked game gets one last session for
    // the result, the PGN and the goodbye.
    it->second.ending = true;
    line_up_locked(it->first, it->second);
}

std::optional<correspondence::CheckIn> CorrespondenceDesk::tick() {
    std::vector<std::unique_ptr<DeskSession>> ended;
    bool check_in_now = false;
    {
        std::lock_guard lock(mutex_);
        ended = reap_locked();
        const auto now = hooks_.now();
        if (!stopped_ && !checking_in_ && now >= next_checkin_) {
            next_checkin_ = now + settings_.checkin_period;
            check_in_now = checking_in_ = true;
        }
    }
    ended.clear();  // joins the ended sessions' threads, outside the lock
    std::lock_guard lock(mutex_);
    start_waiting_locked();
    if (check_in_now) return correspondence::CheckIn{};
    return std::nullopt;
}

void CorrespondenceDesk::on(const correspondence::CheckedIn& answer) {
    std::lock_guard lock(mutex_);
    checking_in_ = false;
    if (!answer.games) {
        spdlog::warn("correspondence check-in: listing ongoing games failed: {}", answer.error);
        return;
    }
    check_in_locked(*answer.games);
    start_waiting_locked();
}

void CorrespondenceDesk::check_in_locked(const std::vector<lichess::GameEventInfo>& games) {
    std::set<std::string, std::less<>> listed;
    int our_turn = 0;
    for (const auto& g : games) {
        listed.insert(g.game_id);
        if (!is_correspondence(g)) continue;
        our_turn += g.is_my_turn.value_or(false) ? 1 : 0;
        sighted_locked(g);
    }
    // A whole list (shorter than a page) that lacks a parked game: it ended and the gameFinish
    // was missed (the event stream was down). One last session sees how.
    if (int(games.size()) < settings_.playing_page) {
        for (auto& [id, game] : games_) {
            if (game.state != State::Parked || listed.contains(id)) continue;
            game.ending = true;
            line_up_locked(id, game);
        }
    }
    spdlog::debug("correspondence check-in: {} listed, {} on our turn, {} waiting", listed.size(),
                  our_turn, line_.size());
}

void CorrespondenceDesk::sighted_locked(const lichess::GameEventInfo& g) {
    auto it = games_.find(g.game_id);
    if (it == games_.end()) {
        Game game;
        if (g.opponent && g.opponent->id) game.opponent = *g.opponent->id;
        it = games_.emplace(g.game_id, std::move(game)).first;
        // A new game gets a session even on the opponent's move: it greets, and answers an
        // opponent who moves at once without waiting for a check-in.
        const bool fresh = !g.has_moved.value_or(false);
        spdlog::info("correspondence game {}: {}", common::printable(g.game_id),
                     g.is_my_turn.value_or(true) || fresh ? "in line for a session" : "parked");
        if (g.is_my_turn.value_or(true) || fresh) line_up_locked(it->first, it->second);
        return;
    }
    if (g.is_my_turn.value_or(false)) line_up_locked(it->first, it->second);
}

void CorrespondenceDesk::line_up_locked(const std::string& id, Game& game) {
    if (game.state != State::Parked) return;
    game.state = State::Waiting;
    line_.push_back(id);
    *waiting_ = int(line_.size());
}

std::vector<std::unique_ptr<DeskSession>> CorrespondenceDesk::reap_locked() {
    std::vector<std::unique_ptr<DeskSession>> ended;
    for (auto it = games_.begin(); it != games_.end();) {
        Game& game = it->second;
        if (game.state != State::Running || !game.session->finished()) {
            ++it;
            continue;
        }
        const bool over = game.session->game_over();
        if (auto policies = game.session->policies()) game.policies = std::move(policies);
        ended.push_back(std::move(game.session));
        --running_;
        if (over || game.last_call) {
            spdlog::info("correspondence game {}: {}", common::printable(it->first),
                         over ? "over" : "gone from the ongoing games");
            it = games_.erase(it);
            continue;
        }
        game.state = State::Parked;
        // It ended (gameFinish) while its session was parking: one last session sees how.
        if (game.ending) line_up_locked(it->first, game);
        ++it;
    }
    return ended;
}

void CorrespondenceDesk::start_waiting_locked() {
    while (!stopped_ && running_ < settings_.max_sessions && !line_.empty()) {
        const std::string id = line_.front();
        line_.pop_front();
        *waiting_ = int(line_.size());
        const auto it = games_.find(id);
        if (it == games_.end() || it->second.state != State::Waiting) continue;
        Game& game = it->second;
        if (!game.policies)
            game.policies =
                GamePolicies::from(settings_.draw_or_resign, settings_.max_takebacks_accepted);
        ParkingRules rules{.linger = settings_.linger,
                           .games_waiting = waiting_,
                           .first_visit = !game.visited,
                           .policies = game.policies};
        game.visited = true;
        game.last_call = game.ending;
        // The desk's round runs on the Bot's event loop: a session whose threads cannot start
        // (the process at its task limit) leaves the game parked, and the loop plays on.
        try {
            game.session = hooks_.start_session(id, std::move(rules));
        } catch (const std::exception& e) {
            spdlog::error("correspondence game {}: its session could not start: {}",
                          common::printable(id), e.what());
        }
        if (!game.session) {
            game.state = State::Parked;  // nothing to run it with; a later check-in tries again
            continue;
        }
        game.state = State::Running;
        ++sessions_started_;
        peak_running_ = std::max(peak_running_, ++running_);
    }
}

void CorrespondenceDesk::stop() {
    std::vector<std::unique_ptr<DeskSession>> sessions;
    {
        std::lock_guard lock(mutex_);
        stopped_ = true;
        for (auto& [id, game] : games_) {
            if (game.state != State::Running) continue;
            sessions.push_back(std::move(game.session));
            game.state = State::Parked;
        }
        running_ = 0;
    }
    sessions.clear();  // each destructor stops its session and joins its threads
}

std::map<std::string, int, std::less<>> CorrespondenceDesk::games_per_user() const {
    std::lock_guard lock(mutex_);
    std::map<std::string, int, std::less<>> per_user;
    for (const auto& [id, game] : games_)
        if (!game.opponent.empty()) ++per_user[game.opponent];
    return per_user;
}

DeskCounts CorrespondenceDesk::counts() const {
    std::lock_guard lock(mutex_);
    DeskCounts c;
    c.games = int(games_.size());
    for (const auto& [id, game] : games_) {
        c.parked += game.state == State::Parked ? 1 : 0;
        c.waiting += game.state == State::Waiting ? 1 : 0;
        c.running += game.state == State::Running ? 1 : 0;
    }
    c.peak_running = peak_running_;
    c.sessions_started = sessions_started_;
    return c;
}

}  // namespace service
