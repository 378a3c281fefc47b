// ChallengeDesk: the challenge pipeline's rules (see challenge_desk.hpp).
#include "service/challenges/challenge_desk.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>

#include "common/text.hpp"

namespace service {

namespace {

// The challenger as log lines name it: a name with control characters cannot forge a line.
std::string who_of(const lichess::ChallengeInfo& c) {
    return common::printable(c.challenger.name) + (c.challenger.is_bot() ? " (BOT)" : "");
}

double seconds_in(std::chrono::milliseconds d) { return std::chrono::duration<double>(d).count(); }

void add_log(ChallengeDesk::Requests& out, common::LogLevel level, std::string text) {
    out.push_back(challenge::Log{level, std::move(text)});
}

}  // namespace

ChallengeDesk::ChallengeDesk(const config::ChallengeConfig& config, std::string my_id,
                             GameSlots& slots, DeskTimes times)
    : config_(config),
      my_id_(std::move(my_id)),
      slots_(slots),
      times_(times),
      queue_(config),
      recent_bots_(std::chrono::seconds(config.recent_bot_challenge_age)) {}

ChallengeDesk::Requests ChallengeDesk::on_challenge(const lichess::ChallengeInfo& c,
                                                    ChallengeArrival arrival,
                                                    challenge::TimePoint now) {
    Requests out;
    // Lichess sends pending challenges again when the event stream reconnects: one that waits
    // already keeps its place (judging it again would count it against its own challenger), and
    // one being answered is not answered twice (a `later` decline against our own accept, a
    // second accept).
    if (handled(c.id)) return out;
    // Our ratings move with every game: read again when older than ratings_max_age.
    if (config_.rating_difference > 0 && ratings_.stale(now, times_.ratings_max_age)) {
        const bool asked = !held_.empty();
        held_.push_back({c, std::move(arrival)});
        if (!asked) out.push_back(challenge::ReadRatings{});
        return out;
    }
    judge(c, arrival, now, out);
    return out;
}

ChallengeDesk::Requests ChallengeDesk::on(const challenge::RatingsRead& answer,
                                          challenge::TimePoint now) {
    Requests out;
    if (answer.account)
        ratings_.read(answer.account->perfs, now);
    else
        add_log(out, common::LogLevel::Warn,
                "challenge.rating_difference: could not read our ratings: " + answer.error);
    std::vector<Held> held;
    held.swap(held_);
    for (const Held& h : held) judge(h.challenge, h.arrival, now, out);
    return out;
}

bool ChallengeDesk::handled(const std::string& id) const {
    if (queue_.contains(id) || accepts_pending_.count(id) || awaiting_start_.count(id) ||
        started_before_answer_.count(id) || declines_in_flight_.count(id) || slots_.holds(id))
        return true;
    const auto same = [&](const auto& x) { return x.challenge.id == id; };
    if (std::any_of(held_.begin(), held_.end(), same)) return true;
    return std::any_of(outbox_.begin(), outbox_.end(),
                       [&](const Waiting& w) { return w.decline.challenge_id == id; });
}

void ChallengeDesk::judge(const lichess::ChallengeInfo& c, const ChallengeArrival& arrival,
                          challenge::TimePoint now, Requests& out) {
    SlotSnapshot view = slots_.snapshot();
    for (const auto& [user, n] : arrival.other_games) view.per_user[user] += n;
    for (const auto& [user, n] : queue_.per_user()) view.per_user[user] += n;
    ChallengeFacts facts;
    if (c.challenger.is_bot())
        facts.recent_bot_challenges = recent_bots_.count(c.challenger.id, now);
    facts.online_blocked = arrival.online_blocked;
    if (config_.rating_difference > 0) facts.our_rating = ratings_.in(perf_key(c));
    const Decision d = judge_challenge(c, config_, my_id_, view, facts);
    if (d.verdict == Verdict::Ignore) return;
    const std::string who = who_of(c);
    if (!accepting_) {
        // It came with the stop signal: neither counted nor logged, as nothing else is then.
        send_decline(challenge::Decline{c.id, lichess::DeclineReason::Later, {}, false}, now, out);
        return;
    }
    if (d.verdict == Verdict::Decline) return decline(c.id, who, d.reason, d.explanation, now, out);
    // lila would refuse a bot game today (BotLimit): say so now rather than leave it pending.
    if (const auto left = bot_games_paused_for(now); left && c.challenger.is_bot())
        return decline(
            c.id, who, lichess::DeclineReason::Later,
            fmt::format("our bot games for today are played; {:.0f} s left", seconds_in(*left)),
            now, out);
    // As lichess-bot: a bot's challenge counts as recent once it is taken (queued or accepted).
    if (c.challenger.is_bot()) recent_bots_.record(c.challenger.id, now);
    // While a 429 pauses challenge requests, an acceptable challenge waits for the pause's end.
    if (d.verdict != Verdict::Queue && requests_paused(now))
        return enqueue(c, who, "challenge requests paused after a 429", now, out);
    if (d.verdict == Verdict::Queue) return enqueue(c, who, d.explanation, now, out);
    // Those already waiting go first: a slot freed since the last tick is theirs, and while one
    // of them is being accepted the others still wait, so this challenge queues behind them.
    accept_from_queue(now, out);
    if (queue_accept_pending_ && !queue_.empty())
        return enqueue(c, who, "others wait ahead of it", now, out);
    if (!accept_now(c, who, false, out)) enqueue(c, who, "no free slot", now, out);
}

bool ChallengeDesk::accept_now(const lichess::ChallengeInfo& c, const std::string& who,
                               bool from_queue, Requests& out) {
    // Correspondence games take no slot (see is_correspondence).
    if (!is_correspondence(c) &&
        !slots_.try_reserve(c.id, c.challenger.id, std::nullopt, c.challenger.is_bot()))
        return false;
    accepts_pending_.insert(c.id);
    out.push_back(challenge::Accept{c, who, from_queue});
    return true;
}

ChallengeDesk::Requests ChallengeDesk::on(const challenge::AcceptAnswered& answer,
                                          challenge::TimePoint now) {
    Requests out;
    const challenge::Accept& a = answer.accept;
    const lichess::ChallengeInfo& c = a.challenge;
    accepts_pending_.erase(c.id);
    if (!answer.error) {
        // Its gameStart may have come while the answer was on its way: then nothing waits.
        if (!started_before_answer_.erase(c.id)) {
            awaiting_start_[c.id] = now;
            if (rules_.size() >= 1000) rules_.clear();
            if (!c.rules.empty()) rules_[c.id] = c.rules;
        }
        add_log(out, common::LogLevel::Info,
                fmt::format("challenge {} from {} ({} {} {}): accepted", common::printable(c.id),
                            a.who, common::printable(c.variant.key), common::printable(c.speed),
                            c.rated ? "rated" : "casual"));
    } else if (started_before_answer_.erase(c.id)) {
        // Its game started already (the answer of a try lila had carried out was lost, and the
        // next try was told 404): the game is ours, nothing failed.
        add_log(out, common::LogLevel::Info,
                fmt::format("challenge {} from {}: its game started before the accept's answer "
                            "({})",
                            common::printable(c.id), a.who, answer.error->describe()));
    } else if (const lichess::ApiError& e = *answer.error;
               (e.kind == lichess::ApiError::Kind::Http && (e.status == 404 || e.status >= 500)) ||
               e.kind == lichess::ApiError::Kind::Network) {
        keep_waiting(a, e, now, out);
    } else {
        slots_.release_reservation(c.id);
        accept_failed(a, *answer.error, now, out);
    }
    if (a.from_queue) {
        queue_accept_pending_ = false;
        accept_from_queue(now, out);
    }
    return out;
}

void ChallengeDesk::keep_waiting(const challenge::Accept& a, const lichess::ApiError& error,
                                 challenge::TimePoint now, Requests& out) {
    // lila answers a second accept of an accepted challenge with 404 (Challenge.apiAccept:
    // accepted, then tryRematch, then notFoundJson): when the answer to an earlier try was lost,
    // the game is on its way. The slot stays the challenge's until its gameStart comes (or it is
    // found among the ongoing games), the challenge is withdrawn or declined, or the
    // reservation ends (challenge.accept_timeout_s).
    const lichess::ChallengeInfo& c = a.challenge;
    awaiting_start_[c.id] = now;
    if (rules_.size() >= 1000) rules_.clear();
    if (!c.rules.empty()) rules_[c.id] = c.rules;
    add_log(out, common::LogLevel::Warn,
            fmt::format("challenge {} from {}: the accept's answer was {}; it may be accepted "
                        "already, so its slot waits for its game",
                        common::printable(c.id), a.who, error.describe()));
}

void ChallengeDesk::accept_failed(const challenge::Accept& a, const lichess::ApiError& error,
                                  challenge::TimePoint now, Requests& out) {
    const lichess::ChallengeInfo& c = a.challenge;
    const auto limit = lichess::bot_game_limit(error);
    if (!limit && error.kind == lichess::ApiError::Kind::RateLimited) {
        // A request rate, not a quota: the challenge waits for the pause's end in the queue.
        pause_requests(error, now, out);
        if (!accepting_)
            return decline(c.id, a.who, lichess::DeclineReason::Later, "shutting down", now, out);
        return enqueue(c, a.who, "challenge requests paused after a 429", now, out);
    }
    if (!limit && error.kind == lichess::ApiError::Kind::Http && error.status == 400)
        // lila refuses the accept (the challenge was withdrawn or declined meanwhile, or no
        // longer fits): answered rather than left pending on the challenger's side.
        return decline(c.id, a.who, lichess::DeclineReason::Generic,
                       "lila refused the accept: " + common::printable(error.message), now, out);
    if (!limit)
        return add_log(out, common::LogLevel::Warn,
                       fmt::format("challenge {} from {}: accept failed: {}",
                                   common::printable(c.id), a.who, error.describe()));
    if (!limit->ours) {
        // lila answers 400 when the challenger has played its bot games for today: the
        // challenge cannot become a game today, so it is declined `later` at once rather than
        // left open until it lapses (its slot is free already).
        return decline(
            c.id, a.who, lichess::DeclineReason::Later,
            fmt::format("{} played its bot games for today ({})",
                        common::printable(c.challenger.name), common::printable(error.message)),
            now, out);
    }
    // Our own daily limit: only bot games stop; humans' challenges are still accepted.
    const auto wait = limit->wait.value_or(times_.bot_limit_default_wait);
    const bool fresh = !bot_games_paused_for(now).has_value();
    bot_games_paused_until_ = std::max(bot_games_paused_until_, now + wait);
    out.push_back(challenge::PauseBotGames{wait, bot_games_paused_until_});
    if (fresh)
        add_log(out, common::LogLevel::Warn,
                fmt::format("lichess: our bot-vs-bot games for today are played ({}); declining "
                            "challenges from bots for {:.0f} s, humans are still welcome",
                            common::printable(error.message), seconds_in(wait)));
    decline(c.id, a.who, lichess::DeclineReason::Later, "our bot games for today are played", now,
            out);
}

void ChallengeDesk::pause_requests(const lichess::ApiError& error, challenge::TimePoint now,
                                   Requests& out) {
    const auto wait = error.retry_after.value_or(std::chrono::minutes(1));
    const bool fresh = !requests_paused(now);
    requests_paused_until_ = std::max(requests_paused_until_, now + wait);
    if (fresh)
        add_log(out, common::LogLevel::Warn,
                fmt::format("challenge requests paused for {:.0f} s after a 429; challenges wait "
                            "and are answered when the pause ends",
                            seconds_in(wait)));
}

std::optional<std::chrono::milliseconds> ChallengeDesk::requests_paused_for(
    challenge::TimePoint now) const {
    if (!requests_paused(now)) return std::nullopt;
    return std::chrono::ceil<std::chrono::milliseconds>(requests_paused_until_ - now);
}

ChallengeDesk::Requests ChallengeDesk::on(const challenge::DeclineAnswered& answer,
                                          challenge::TimePoint now) {
    Requests out;
    const challenge::Decline& d = answer.decline;
    declines_in_flight_.erase(d.challenge_id);
    if (answer.error && answer.error->kind == lichess::ApiError::Kind::RateLimited &&
        !lichess::bot_game_limit(*answer.error)) {
        pause_requests(*answer.error, now, out);
        outbox_.push_back({d, now});  // sent again when the pause ends
        return out;
    }
    if (!d.log.text.empty())
        add_log(out, d.log.level,
                d.log.text + (answer.error ? " - " + answer.error->describe() : ""));
    flush_declines(now, out);
    return out;
}

void ChallengeDesk::send_decline(challenge::Decline decline, challenge::TimePoint now,
                                 Requests& out) {
    outbox_.push_back({std::move(decline), now});
    flush_declines(now, out);
}

void ChallengeDesk::flush_declines(challenge::TimePoint now, Requests& out) {
    const auto lapsed = [&](const Waiting& w) { return now - w.since > times_.decline_max_wait; };
    declines_dropped_ += std::erase_if(outbox_, lapsed);
    // In a flood this happens on every round: one line a minute at most.
    if (declines_dropped_ > 0 && now - last_drop_logged_ >= std::chrono::minutes(1)) {
        add_log(out, common::LogLevel::Warn,
                fmt::format("{} decline(s) dropped unsent: they waited more than {:.0f} s, and "
                            "their challengers have given up by now",
                            declines_dropped_, seconds_in(times_.decline_max_wait)));
        declines_dropped_ = 0;
        last_drop_logged_ = now;
    }
    if (requests_paused(now)) return;
    // The newest first: its challenger is the one most likely still waiting for an answer.
    while (!outbox_.empty() && declines_in_flight_.size() < kMaxDeclinesInFlight) {
        challenge::Decline d = std::move(outbox_.back().decline);
        outbox_.pop_back();
        declines_in_flight_.insert(d.challenge_id);
        out.push_back(std::move(d));
    }
}

void ChallengeDesk::enqueue(const lichess::ChallengeInfo& c, const std::string& who,
                            std::string_view why, challenge::TimePoint now, Requests& out) {
    if (!queue_.push(c, now))
        return decline(c.id, who, lichess::DeclineReason::Later,
                       fmt::format("{}, and the queue is full (challenge.max_queued {})", why,
                                   config_.max_queued),
                       now, out);
    add_log(out, common::LogLevel::Info,
            fmt::format("challenge {} from {}: queued, {} waiting ({})", common::printable(c.id),
                        who, queue_.size(), common::printable(why)));
}

void ChallengeDesk::accept_from_queue(challenge::TimePoint now, Requests& out) {
    if (queue_.empty() || !accepting_ || queue_accept_pending_ || requests_paused(now)) return;
    for (;;) {
        const SlotSnapshot s = slots_.snapshot();
        if (s.free() <= 0) return;
        const bool bots_paused = bot_games_paused_for(now).has_value();
        auto next = queue_.pop_first([&](const lichess::ChallengeInfo& c) {
            return !c.challenger.is_bot() || bots_paused || s.free_for_bots() > 0;
        });
        if (!next) return;
        const std::string who = who_of(*next);
        if (next->challenger.is_bot() && bots_paused) {
            decline(next->id, who, lichess::DeclineReason::Later,
                    "our bot games for today are played", now, out);
            continue;
        }
        add_log(out, common::LogLevel::Info,
                fmt::format("challenge {} from {}: a slot is free, accepting it from the queue",
                            common::printable(next->id), who));
        if (!accept_now(*next, who, true, out)) {
            (void)queue_.push(*next, now);  // lost the slot after all: wait on
            return;
        }
        queue_accept_pending_ = true;  // the next waits for this one's answer
        return;
    }
}

ChallengeDesk::Requests ChallengeDesk::tick(challenge::TimePoint now) {
    Requests out;
    (void)slots_.expire_now();
    // A pause after a 429 ended, or a decline was answered: the declines waiting go first.
    flush_declines(now, out);
    if (!queue_.empty() && accepting_) {
        for (const auto& c : queue_.expire(now - times_.queue_max_wait))
            add_log(out, common::LogLevel::Info,
                    fmt::format("challenge {} leaves the queue: Lichess has dropped it by now",
                                common::printable(c.id)));
    }
    accept_from_queue(now, out);
    look_for_started_games(now, out);
    return out;
}

void ChallengeDesk::look_for_started_games(challenge::TimePoint now, Requests& out) {
    if (awaiting_start_.empty()) return;
    // A gameStart normally follows an accept within milliseconds; Lichess's first-move timer
    // (about 30 s for a bot) is what is at stake, so look after a few seconds, then every few.
    bool overdue = false;
    for (auto it = awaiting_start_.begin(); it != awaiting_start_.end();) {
        if (now - it->second > times_.game_start_wait) {
            it = awaiting_start_.erase(it);  // never started: the reservation expires on its own
            continue;
        }
        overdue = overdue || now - it->second >= times_.game_start_poll;
        ++it;
    }
    if (!overdue || now - last_playing_poll_ < times_.game_start_poll) return;
    last_playing_poll_ = now;
    out.push_back(challenge::ListPlaying{});
}

ChallengeDesk::Requests ChallengeDesk::on(const challenge::PlayingListed& answer,
                                          challenge::TimePoint) {
    Requests out;
    if (!answer.games) {
        add_log(out, common::LogLevel::Warn,
                "no gameStart for an accepted challenge, and listing ongoing games failed: " +
                    answer.error);
        return out;
    }
    for (const auto& g : *answer.games) {
        if (!awaiting_start_.count(g.game_id)) continue;
        add_log(
            out, common::LogLevel::Warn,
            fmt::format("game {}: no gameStart on the event stream; found it among ongoing games",
                        common::printable(g.game_id)));
        out.push_back(challenge::StartGame{g});
    }
    return out;
}

ChallengeDesk::Requests ChallengeDesk::on_challenge_gone(const std::string& id, bool canceled) {
    Requests out;
    const bool was_queued = queue_.remove(id);
    if (was_queued && canceled)
        add_log(out, common::LogLevel::Info,
                fmt::format("challenge {} canceled; it leaves the queue", common::printable(id)));
    awaiting_start_.erase(id);
    slots_.release_reservation(id);
    // Gone: a decline still waiting would be a request spent on nothing.
    std::erase_if(outbox_, [&](const Waiting& w) { return w.decline.challenge_id == id; });
    add_log(
        out, common::LogLevel::Info,
        fmt::format("challenge {} {}", common::printable(id), canceled ? "canceled" : "declined"));
    return out;
}

ChallengeDesk::Requests ChallengeDesk::on_unreadable(const std::string& id,
                                                     const std::string& problem,
                                                     challenge::TimePoint now) {
    // Never ignored: unanswered, it would hang on the challenger's side.
    Requests out;
    send_decline(
        challenge::Decline{id,
                           lichess::DeclineReason::Generic,
                           {common::LogLevel::Warn,
                            fmt::format("challenge {}: declined (generic: unreadable, {})",
                                        common::printable(id), common::printable(problem))}},
        now, out);
    return out;
}

ChallengeDesk::Requests ChallengeDesk::on_game_start(const lichess::GameEventInfo& game,
                                                     bool session_running) {
    Requests out;
    // lila's abort is fire-and-forget: a replayed gameStart may still name a game we aborted.
    if (aborted_over_limit_.count(game.game_id)) return out;
    awaiting_start_.erase(game.game_id);
    if (accepts_pending_.count(game.game_id)) {
        if (started_before_answer_.size() >= 1000) started_before_answer_.clear();
        started_before_answer_.insert(game.game_id);
    }
    std::vector<std::string> rules;
    if (const auto it = rules_.find(game.game_id); it != rules_.end()) {
        rules = std::move(it->second);
        rules_.erase(it);
    }
    if (is_correspondence(game)) {
        out.push_back(challenge::StartGame{game});  // parked or in line; takes no slot
        return out;
    }
    if (session_running) return out;  // a replayed gameStart
    const std::string opponent = game.opponent && game.opponent->id ? *game.opponent->id : "";
    if (slots_.on_game_start(game.game_id, opponent) == Admission::OverLimit) {
        if (lichess::is_mandatory(game)) {
            // lila lets no one abort an arena, simul or swiss game: played (with a small engine)
            // up to the cap, resigned beyond it.
            play_beyond_limit(game.game_id, game, std::move(rules), "an arena, simul or swiss game",
                              out);
            return out;
        }
        // A burst, another client on the same token, or a replay: as lichess-bot does, abort
        // what can still be aborted (lila: before each side has moved). What cannot is played
        // with a small engine (EnginePool), so memory stays bounded.
        out.push_back(challenge::AbortGame{game.game_id});
        return out;
    }
    out.push_back(challenge::StartSession{game.game_id, game, std::move(rules)});
    return out;
}

ChallengeDesk::Requests ChallengeDesk::on(const challenge::AbortAnswered& answer) {
    Requests out;
    if (!answer.error) {
        slots_.on_game_finish(answer.game_id);
        if (aborted_over_limit_.size() >= 1000) aborted_over_limit_.clear();
        aborted_over_limit_.insert(answer.game_id);
        add_log(out, common::LogLevel::Warn,
                fmt::format("game {} started beyond challenge.concurrency ({}); aborted",
                            common::printable(answer.game_id), slots_.limit()));
        return out;
    }
    lichess::GameEventInfo game;
    game.game_id = answer.game_id;
    play_beyond_limit(answer.game_id, game, {}, answer.error->describe(), out);
    return out;
}

void ChallengeDesk::play_beyond_limit(const std::string& game_id,
                                      const lichess::GameEventInfo& game,
                                      std::vector<std::string> rules, const std::string& why,
                                      Requests& out) {
    // This game is counted among the active ones already.
    const int beyond = slots_.active() - slots_.limit();
    if (beyond > kMaxGamesBeyondConcurrency) {
        (void)slots_.on_game_finish(game_id);
        if (aborted_over_limit_.size() >= 1000) aborted_over_limit_.clear();
        aborted_over_limit_.insert(game_id);  // a replayed gameStart starts nothing
        out.push_back(challenge::ResignGame{
            game_id,
            {common::LogLevel::Warn,
             fmt::format("game {} started beyond challenge.concurrency ({}) and cannot be aborted "
                         "({}); {} such games are played already (the most), so it is resigned",
                         common::printable(game_id), slots_.limit(), why,
                         kMaxGamesBeyondConcurrency)}});
        return;
    }
    add_log(out, common::LogLevel::Warn,
            fmt::format("game {} started beyond challenge.concurrency ({}) and cannot be aborted "
                        "({}); playing it with a small engine",
                        common::printable(game_id), slots_.limit(), why));
    out.push_back(challenge::StartSession{game_id, game, std::move(rules)});
}

void ChallengeDesk::on_session_finished(const std::string& game_id) {
    (void)slots_.on_game_finish(game_id);
}

void ChallengeDesk::matchmaking_paused_for(std::optional<std::chrono::milliseconds> left,
                                           challenge::TimePoint now) {
    matchmaking_paused_until_ = left ? now + *left : challenge::TimePoint{};
}

std::optional<std::chrono::milliseconds> ChallengeDesk::bot_games_paused_for(
    challenge::TimePoint now) const {
    const challenge::TimePoint until = std::max(bot_games_paused_until_, matchmaking_paused_until_);
    if (until <= now) return std::nullopt;
    return std::chrono::ceil<std::chrono::milliseconds>(until - now);
}

ChallengeDesk::Requests ChallengeDesk::decline_queued(challenge::TimePoint now) {
    Requests out;
    for (const auto& c : queue_.drain())
        decline(c.id, common::printable(c.challenger.name), lichess::DeclineReason::Later,
                "shutting down; it waited in the queue", now, out);
    // Declines still waiting (in the outbox, or held by a pause) are sent now, the newest
    // first: the pause may be over by the time they go, and unanswered they would hang on the
    // challengers' side.
    for (auto it = outbox_.rbegin(); it != outbox_.rend(); ++it)
        if (now - it->since <= times_.decline_max_wait) {
            declines_in_flight_.insert(it->decline.challenge_id);
            out.push_back(std::move(it->decline));
        }
    outbox_.clear();
    return out;
}

void ChallengeDesk::decline(const std::string& challenge_id, const std::string& who,
                            lichess::DeclineReason reason, std::string_view why,
                            challenge::TimePoint now, Requests& out) {
    send_decline(
        challenge::Decline{
            challenge_id,
            reason,
            {common::LogLevel::Info,
             fmt::format("challenge {} from {}: declined ({}: {})", common::printable(challenge_id),
                         who, lichess::to_string(reason), common::printable(why))}},
        now, out);
}

}  // namespace service
