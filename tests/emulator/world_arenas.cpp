// Arenas as lila runs them for a bot (modules/tournament): the JSON of GET /api/tournament/{id}
// (JsonView), joins and their refusals (TournamentApi.join, Tournament.JoinResult), withdrawals
// (TournamentApi.withdraw, Pause), pairing an active bot again after each game while the arena
// runs (StartedOrganizer.fetchWaitingBots), withdrawing a player who did not move
// (TournamentApi.withdrawNonMover), and the arena's end.
#include <algorithm>

#include "game_json.hpp"
#include "world.hpp"

namespace emu {

using json = nlohmann::json;

World::ArenaSlot* World::find_arena(const std::string& id) {
    const auto it = arenas_.find(id);
    return it == arenas_.end() ? nullptr : &it->second;
}

// Pause.scala: the first pause is 10 s; then the arena's estimated game length (limit + 40
// increments) / 15 per earlier pause, between 10 s and 120 s; remainingDelay counts only more
// than a second.
Ms World::pause_left(const TournamentSpec& t, Ms now) const {
    if (pauses_ == 0 || now - paused_at_ > 20 * 60'000) return 0;
    const Ms base = (*t.time_control.limit_s + 40 * t.time_control.increment_s) / 15;
    const Ms delay_s = std::clamp<Ms>(base * (pauses_ - 1), 10, 120);
    const Ms left = paused_at_ + delay_s * 1000 - now;
    return left > 1000 ? left : 0;
}

json World::arena_json(const ArenaSlot& a) const {
    const TournamentSpec& t = a.spec;
    const Ms t_now = now();
    const bool started = t_now >= t.starts_at_ms && !a.view.finished;
    const std::string speed = speed_of(t.time_control);
    json j{
        {"nbPlayers", a.view.joined ? 1 : 0},
        {"duels", json::array()},
        {"id", t.id},
        {"createdBy", "lichess"},
        {"startsAt", iso_utc(unix_start_ms_ + t.starts_at_ms, true)},
        {"system", "arena"},
        {"fullName", t.name},
        {"minutes", (t.duration_ms + 59'999) / 60'000},
        {"perf", {{"key", speed}, {"name", speed}}},
        {"clock", {{"limit", *t.time_control.limit_s}, {"increment", t.time_control.increment_s}}},
        {"variant", t.variant},
        {"rated", t.rated},
        {"berserkable", true}};
    // commonTournamentJson: each of these only when it holds.
    if (started) {
        j["isStarted"] = true;
        j["secondsToFinish"] = std::max<Ms>(0, (t.starts_at_ms + t.duration_ms - t_now) / 1000);
    } else if (!a.view.finished) {
        j["secondsToStart"] = (t.starts_at_ms - t_now + 999) / 1000;
    }
    if (a.view.finished) j["isFinished"] = true;
    if (t.bots_allowed) j["botsAllowed"] = true;  // JsonView: .add("botsAllowed", allowsBots)
    if (a.view.joined) {
        json me{{"rank", 1}};  // myInfoJson
        if (a.view.withdrawn) me["withdraw"] = true;
        if (!a.playing.empty()) me["gameId"] = a.playing;
        if (const Ms left = pause_left(t, t_now); left > 0) me["pauseDelay"] = (left + 999) / 1000;
        j["me"] = me;
    }
    return j;
}

Reply World::tournament(const std::string& id) {
    std::lock_guard lock(mutex_);
    const ArenaSlot* a = find_arena(id);
    if (!a) return error_reply(404, "No such tournament");
    return {200, "application/json", arena_json(*a).dump()};
}

Reply World::join_tournament(const std::string& id,
                             const std::map<std::string, std::string>& form) {
    std::lock_guard lock(mutex_);
    ArenaSlot* a = find_arena(id);
    if (!a) return error_reply(404, "No such tournament");
    const auto field = [&](const char* key) {
        const auto it = form.find(key);
        return it == form.end() ? std::string() : it->second;
    };
    const Ms t = now();
    const bool before = a->view.joined;  // a player already: no entry code or team asked again
    // Tournament.JoinResult's texts, in TournamentApi.join's order.
    if (a->view.finished) return error_reply(400, "This tournament no longer exists");
    if (!before && !a->spec.password.empty() && field("password") != a->spec.password)
        return error_reply(400, "Wrong entry code");
    if (!a->spec.bots_allowed) return error_reply(400, "Tournament restrictions");
    if (t >= a->spec.starts_at_ms && pause_left(a->spec, t) > 0)
        return error_reply(400, "Your pause is not over yet");
    if (!a->spec.team.empty() && !before && field("team") != a->spec.team)
        return error_reply(400, "Missing team");
    ++a->view.joins;
    if (field("pairMeAsap") == "true") ++a->view.pair_me_asap;
    a->view.joined = true;
    if (a->view.withdrawn) a->view.events.push_back("rejoined@" + std::to_string(t));
    a->view.withdrawn = false;  // PlayerRepo.join: a withdrawn player is active again
    if (a->playing.empty()) a->next_pair_at = std::max(a->next_pair_at, t + a->spec.pair_delay_ms);
    return ok_reply();
}

Reply World::withdraw_tournament(const std::string& id) {
    std::lock_guard lock(mutex_);
    ArenaSlot* a = find_arena(id);
    if (!a) return error_reply(404, "No such tournament");
    ++a->view.withdrawals;
    const Ms t = now();
    if (!a->view.joined || a->view.finished) return ok_reply();
    if (t < a->spec.starts_at_ms) {
        a->view.joined = false;  // not started: the player is removed
    } else {
        a->view.withdrawn = true;
        // selfPause near the top (rank < 7; the bot is first here): Pause.add.
        pauses_ = pauses_ > 0 && t - paused_at_ <= 20 * 60'000 ? pauses_ + 1 : 1;
        paused_at_ = t;
    }
    a->view.events.push_back("withdrawn_by_bot@" + std::to_string(t));
    return ok_reply();
}

void World::arena_tick(Ms t) {
    for (auto& [id, a] : arenas_) {
        if (!a.view.finished && t >= a.spec.starts_at_ms + a.spec.duration_ms) {
            a.view.finished = true;    // finish: no more pairings; games under way play on
            a.view.withdrawn = false;  // PlayerRepo.unWithdraw at the end
            a.view.events.push_back("finished@" + std::to_string(t));
        }
        if (!a.playing.empty()) {
            const GameSlot* s = find_game(a.playing);
            if (s && !s->game.over()) continue;
            // withdrawNonMover: the player who did not move is withdrawn (no pause).
            if (s && s->game.status() == "noStart" && s->game.winner() != s->game.bot_color()) {
                a.view.withdrawn = true;
                a.view.events.push_back("withdrawn_no_start@" + a.playing);
            }
            a.playing.clear();
            a.next_pair_at = t + a.spec.pair_delay_ms;
        }
        const bool runs = t >= a.spec.starts_at_ms && !a.view.finished;
        const bool more = a.spec.max_games < 0 || int(a.view.games.size()) < a.spec.max_games;
        if (!runs || !more || !a.view.joined || a.view.withdrawn || t < a.next_pair_at) continue;
        const std::string game_id = new_id();
        GameSetup setup = base_setup(game_id, a.spec.variant, a.spec.time_control, a.spec.rated, "",
                                     a.spec.opponent.user);
        setup.bot_color = a.view.games.size() % 2 == 0 ? engine::WHITE : engine::BLACK;
        setup.source = "arena";
        setup.tournament_id = id;
        setup.first_move_timeout_ms = a.spec.first_move_timeout_ms;
        std::string error;
        if (!create_game(setup, "", a.spec.opponent, &error)) {
            recorder_.fault({t, "scenario_error", "tournaments", id, error});
            a.view.finished = true;
            continue;
        }
        a.playing = game_id;
        a.view.games.push_back(game_id);
    }
}

std::vector<ArenaView> World::arenas() const {
    std::lock_guard lock(mutex_);
    std::vector<ArenaView> out;
    for (const auto& [id, a] : arenas_) out.push_back(a.view);
    return out;
}

}  // namespace emu
