// ArenaDesk: the rules of playing Lichess arenas (see arena_desk.hpp).
#include "service/challenges/arena_desk.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>

#include "common/text.hpp"
#include "config/time_control.hpp"

namespace service {

namespace {

// An arena lasts at most 12 hours (lila TournamentForm: minutes up to 720): its slot is held at
// most this long without being taken again.
constexpr std::chrono::hours kArenaSlotTtl{24};

void say(ArenaDesk::Requests& out, common::LogLevel level, std::string text) {
    out.push_back(arena::Log{level, std::move(text)});
}

bool listed(const std::vector<std::string>& list, std::string_view value) {
    return std::find(list.begin(), list.end(), value) != list.end();
}

}  // namespace

std::string arena_slot(const std::string& arena_id) { return "arena:" + arena_id; }

ArenaDesk::ArenaDesk(std::vector<config::TournamentConfig> arenas,
                     const config::ChallengeConfig& challenge, GameSlots& slots, ArenaTimes times)
    : challenge_(challenge), slots_(slots), times_(times) {
    for (auto& c : arenas) {
        Arena a;
        a.config = std::move(c);
        arenas_.push_back(std::move(a));
    }
}

ArenaDesk::Arena* ArenaDesk::find(const std::string& id) {
    for (Arena& a : arenas_)
        if (a.config.id == id) return &a;
    return nullptr;
}

std::string ArenaDesk::name_of(const Arena& a) const {
    if (!a.last || a.last->full_name.empty()) return a.config.id;
    return a.config.id + " (" + common::printable(a.last->full_name) + ")";
}

std::optional<std::string> ArenaDesk::unplayable(const lichess::Tournament& t) const {
    if (!listed(challenge_.variants, t.variant))
        return fmt::format("its variant {} is not in challenge.variants",
                           common::printable(t.variant));
    const std::string speed(config::speed_of({t.clock_limit_s, t.clock_increment_s}));
    if (!listed(challenge_.time_controls, speed))
        return fmt::format("its speed {} ({}+{}) is not in challenge.time_controls", speed,
                           t.clock_limit_s / 60.0, t.clock_increment_s);
    return std::nullopt;
}

ArenaDesk::Requests ArenaDesk::tick(TimePoint now, WallTime wall_now) {
    Requests out;
    if (stopped_) return out;
    for (Arena& a : arenas_) {
        if (a.stage == Stage::Dropped) continue;
        if (a.stage == Stage::Joined && a.ends_at && wall_now >= *a.ends_at) {
            drop(a, common::LogLevel::Info, "it has ended", out);
            continue;
        }
        if (!a.read_pending && now >= a.next_read) {
            a.read_pending = true;
            a.read_sent = now;
            out.push_back(arena::ReadArena{a.config.id});
        }
        if (a.join_wanted && !a.join_pending && a.game_id.empty() && now >= a.next_join)
            join(a, now, out);
    }
    return out;
}

ArenaDesk::Requests ArenaDesk::on(const arena::ArenaRead& answer, TimePoint now,
                                  WallTime wall_now) {
    Requests out;
    Arena* a = find(answer.id);
    if (a == nullptr || a->stage == Stage::Dropped || stopped_) return out;
    a->read_pending = false;
    if (!answer.arena) {
        const lichess::ApiError e = answer.error.value_or(lichess::ApiError{});
        if (e.kind == lichess::ApiError::Kind::Http && e.status == 404) {
            drop(*a, common::LogLevel::Warn, "Lichess has no such arena (404)", out);
            return out;
        }
        a->next_read = now + times_.retry_after_error;
        say(out, common::LogLevel::Warn,
            fmt::format("arena {}: could not read it ({}); trying again in {} s", name_of(*a),
                        e.describe(),
                        std::chrono::duration_cast<std::chrono::seconds>(times_.retry_after_error)
                            .count()));
        return out;
    }
    // A read and a join run side by side: a read asked for before our join was answered may
    // show us withdrawn or paused from before it. Acting on it would join twice; read again.
    if (a->read_sent < a->joined_at) {
        a->next_read = now;
        return out;
    }
    decide(*a, *answer.arena, now, wall_now, out);
    return out;
}

void ArenaDesk::decide(Arena& a, const lichess::Tournament& t, TimePoint now, WallTime wall_now,
                       Requests& out) {
    a.last = t;
    // lila's secondsToFinish while it runs (the end it keeps), else its start and length.
    if (t.seconds_to_finish)
        a.ends_at = wall_now + std::chrono::seconds(*t.seconds_to_finish);
    else if (t.starts_at_ms)
        a.ends_at =
            WallTime(std::chrono::milliseconds(*t.starts_at_ms)) + std::chrono::minutes(t.minutes);
    a.next_read = now + times_.read_every;
    const bool joined = a.stage == Stage::Joined;
    if (t.is_finished) return drop(a, common::LogLevel::Info, "it has ended", out);
    if (const auto why = unplayable(t)) return drop(a, common::LogLevel::Info, *why, out);
    if (!t.bots_allowed) {
        // lila's JsonView writes botsAllowed only when true. Before the start the creator may
        // still allow bots (TournamentForm: not once it started): watched until then.
        if (t.is_started || joined)
            return drop(a, common::LogLevel::Info, "it does not allow bots", out);
        if (!a.said_no_bots)
            say(out, common::LogLevel::Info,
                fmt::format("arena {}: does not allow bots (yet); watching it until it starts",
                            name_of(a)));
        a.said_no_bots = true;
        return;
    }
    // lila pauses a player who withdrew near the top (TournamentApi.selfPause, Pause: 10 s,
    // growing to 120 s, per user across arenas), as we do at shutdown: a restart inside the
    // pause waits it out (`me.pauseDelay`), then joins again.
    if (t.me && t.me->pause_delay_s && t.is_started) {
        const auto wait = std::chrono::seconds(*t.me->pause_delay_s + 1);
        if (!a.join_wanted || a.next_join < now + wait)
            say(out, common::LogLevel::Info,
                fmt::format("arena {}: lila pauses us in it for {} s (a withdrawal near the top); "
                            "joining again then",
                            name_of(a), *t.me->pause_delay_s));
        a.join_wanted = true;
        a.next_join = std::max(a.next_join, now + wait);
        return;
    }
    if (joined) {
        // lila withdraws a player who did not move in time (TournamentApi.withdrawNonMover), with
        // no pause: joined again (lila pairs active bots by itself, StartedOrganizer). A player
        // lila no longer lists was removed (a moderator): dropped.
        if (t.me && t.me->withdraw && t.is_started && !a.join_wanted) {
            say(out, common::LogLevel::Warn,
                fmt::format("arena {}: lila withdrew us from it (a game we did not start); "
                            "joining again",
                            name_of(a)));
            a.join_wanted = true;
            if (!a.join_pending && a.game_id.empty()) join(a, now, out);
            return;
        }
        if (!t.me && t.is_started)
            return drop(a, common::LogLevel::Warn, "lila no longer lists us in it", out);
        return;
    }
    const auto starts_in =
        t.seconds_to_start ? std::chrono::seconds(*t.seconds_to_start) : std::chrono::seconds(0);
    if (t.is_started || starts_in <= times_.join_before) {
        a.join_wanted = true;
        if (!a.join_pending && a.game_id.empty() && now >= a.next_join) join(a, now, out);
        return;
    }
    // Read again when the time to join comes, if that is before the next regular read.
    a.next_read = std::min(a.next_read, now + (starts_in - times_.join_before));
}

void ArenaDesk::join(Arena& a, TimePoint now, Requests& out) {
    if (!reserve(a, out)) {
        a.next_join = now + times_.retry_after_error / 10;  // a slot may free any moment
        return;
    }
    a.join_pending = true;
    a.next_join = now + times_.retry_after_error;  // the answer tells when, if ever, again
    const bool started = a.last && a.last->is_started;
    lichess::TournamentJoin join;
    if (!a.config.team.empty()) join.team = a.config.team;
    if (!a.config.password.empty()) join.password = a.config.password;
    join.pair_me_asap = started;
    out.push_back(arena::JoinArena{a.config.id, std::move(join)});
}

bool ArenaDesk::reserve(Arena& a, Requests& out) {
    if (a.reserved) return true;
    const std::string slot = arena_slot(a.config.id);
    if (!slots_.try_reserve(slot, slot, kArenaSlotTtl, false)) {
        if (!a.said_no_slot)
            say(out, common::LogLevel::Info,
                fmt::format("arena {}: no free game slot (challenge.concurrency {}); joining "
                            "when one frees",
                            name_of(a), slots_.limit()));
        a.said_no_slot = true;
        return false;
    }
    a.said_no_slot = false;
    a.reserved = true;
    return true;
}

void ArenaDesk::release(Arena& a) {
    if (!a.reserved) return;
    slots_.release_reservation(arena_slot(a.config.id));
    a.reserved = false;
}

void ArenaDesk::drop(Arena& a, common::LogLevel level, const std::string& why, Requests& out) {
    const bool joined = a.stage == Stage::Joined;
    release(a);
    a.stage = Stage::Dropped;
    a.join_wanted = false;
    say(out, level,
        fmt::format("arena {}: {}; {}", name_of(a), why, joined ? "leaving it" : "skipped"));
}

ArenaDesk::Requests ArenaDesk::on(const arena::JoinAnswered& answer, TimePoint now) {
    Requests out;
    Arena* a = find(answer.id);
    if (a == nullptr || stopped_) return out;
    a->join_pending = false;
    if (a->stage == Stage::Dropped) return out;
    if (!answer.error) {
        // Joined once: lila pairs every active bot by itself on each round (StartedOrganizer
        // fetchWaitingBots), so no join is spent again (30 per 10 minutes per user, all arenas
        // together) unless lila withdraws or pauses us.
        a->join_wanted = false;
        a->joined_at = now;
        if (a->stage != Stage::Joined) {
            a->stage = Stage::Joined;
            const bool started = a->last && a->last->is_started;
            say(out, common::LogLevel::Info,
                fmt::format("arena {}: joined{}", name_of(*a),
                            started ? "; lila pairs us as soon as it can"
                                    : "; lila pairs us once it starts"));
        }
        return out;
    }
    const lichess::ApiError& e = *answer.error;
    if (e.kind == lichess::ApiError::Kind::Http && e.status == 400 &&
        e.message == "Your pause is not over yet") {
        // Tournament.JoinResult.Paused: the arena's read says for how long (me.pauseDelay).
        a->next_read = now;
        a->next_join = now + times_.retry_after_error;
        say(out, common::LogLevel::Info,
            fmt::format("arena {}: lila says our pause is not over yet; joining again once it is",
                        name_of(*a)));
        return out;
    }
    if (e.kind == lichess::ApiError::Kind::RateLimited) {
        // lila's join allowance (limit.tourJoinOrResume) or our own pause after a 429: wait.
        const auto wait = std::max<std::chrono::milliseconds>(
            e.retry_after.value_or(times_.retry_after_error), times_.retry_after_error);
        a->next_join = now + wait;
        say(out, common::LogLevel::Warn,
            fmt::format("arena {}: joining was refused with a 429; trying again in {} s",
                        name_of(*a),
                        std::chrono::duration_cast<std::chrono::seconds>(wait).count()));
        return out;
    }
    if (e.kind == lichess::ApiError::Kind::Http && e.status >= 400 && e.status < 500) {
        drop(*a, common::LogLevel::Warn,
             "lila refused to let us join: " + common::printable(e.message), out);
        return out;
    }
    a->next_join = now + times_.retry_after_error;
    say(out, common::LogLevel::Warn,
        fmt::format(
            "arena {}: joining failed ({}); trying again in {} s", name_of(*a), e.describe(),
            std::chrono::duration_cast<std::chrono::seconds>(times_.retry_after_error).count()));
    return out;
}

bool ArenaDesk::on_game_start(const lichess::GameEventInfo& game) {
    if (!game.tournament_id) return false;
    Arena* a = find(*game.tournament_id);
    if (a == nullptr || a->stage == Stage::Dropped) return false;
    a->game_id = game.game_id;
    const std::string opponent = game.opponent && game.opponent->id ? *game.opponent->id : "";
    (void)slots_.on_game_start(game.game_id, opponent,
                               a->reserved ? arena_slot(a->config.id) : std::string());
    a->reserved = false;  // the reservation is the game's now (or the game had its slot)
    return true;
}

ArenaDesk::Requests ArenaDesk::on_game_finish(const lichess::GameEventInfo& game) {
    Requests out;
    if (!game.tournament_id || game.status != lichess::GameStatus::NoStart) return out;
    Arena* a = find(*game.tournament_id);
    if (a == nullptr || a->stage == Stage::Dropped) return out;
    // The player who did not move loses (lila Finisher.noStart) and is withdrawn, with no pause
    // (TournamentApi.withdrawNonMover): joined again once the game's session has ended.
    if (game.winner && game.color && *game.winner == *game.color) return out;
    say(out, common::LogLevel::Warn,
        fmt::format("arena {}: our game {} ended as noStart, and lila withdraws a player who does "
                    "not move; joining again",
                    name_of(*a), common::printable(game.game_id)));
    a->join_wanted = true;
    a->next_join = {};
    return out;
}

ArenaDesk::Requests ArenaDesk::on_session_finished(const std::string& game_id, TimePoint) {
    Requests out;
    for (Arena& a : arenas_) {
        if (a.game_id != game_id) continue;
        a.game_id.clear();
        if (a.stage != Stage::Joined || stopped_) continue;
        // Its slot at once, before a challenge takes it; lila pairs us again by itself while
        // we are an active player (StartedOrganizer), so no join is sent.
        (void)reserve(a, out);
    }
    return out;
}

ArenaDesk::Requests ArenaDesk::stop() {
    Requests out;
    stopped_ = true;
    for (Arena& a : arenas_) {
        if (a.stage == Stage::Joined) {
            out.push_back(arena::WithdrawArena{a.config.id});
            say(out, common::LogLevel::Info,
                fmt::format("arena {}: withdrawing (shutting down)", name_of(a)));
        }
        release(a);
        a.stage = Stage::Dropped;
    }
    return out;
}

std::vector<JoinedArena> ArenaDesk::joined() const {
    std::vector<JoinedArena> out;
    for (const Arena& a : arenas_)
        if (a.stage == Stage::Joined)
            out.push_back(JoinedArena{a.config.id,
                                      a.last ? common::printable(a.last->full_name) : a.config.id,
                                      a.ends_at});
    return out;
}

}  // namespace service
