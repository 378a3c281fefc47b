// GameRules: our moves, from the Think that asks for one to the server taking it: the clock and
// plan, the move chosen and the draw/resign verdict on it, the post and its retries, pondering.
#include "service/game/game_rules.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>

namespace service {

namespace {

// A move post refused for a passing reason waits at most this share of what is left on our
// clock before it is sent again (and at least GameTimings::move_retry).
constexpr int kRetryShareOfClock = 4;

}  // namespace

std::int64_t GameRules::ms_between(TimePoint from, TimePoint to) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

MoveClock GameRules::clock_for_us(const lichess::GameState& state) const {
    const bool white = us_ == engine::WHITE;
    MoveClock clock;
    clock.real_time = full_->clock.has_value();
    clock.us = us_;
    clock.our_ms = white ? state.wtime_ms : state.btime_ms;
    clock.their_ms = white ? state.btime_ms : state.wtime_ms;
    clock.our_inc_ms = white ? state.winc_ms : state.binc_ms;
    clock.their_inc_ms = white ? state.binc_ms : state.winc_ms;
    // Moves made before a restart count too: the first-move rule is about the game.
    clock.our_moves_played = int(moves_.size() / 2);
    clock.their_moves_played = int(moves_.size()) - clock.our_moves_played;
    // What the game can hold, so a bogus clock in a line cannot plan a long search.
    if (full_->clock)
        clock.limits = GameClockLimits{.initial_ms = full_->clock->initial_ms,
                                       .increment_ms = full_->clock->increment_ms};
    else if (full_->days_per_turn)
        clock.limits = GameClockLimits{.days_per_turn = *full_->days_per_turn};
    return bounded(clock);
}

Guard GameRules::think(TimePoint now, Actions& out) {
    (void)now;
    // A position our rules see as over (a racing-kings FEN already won, a mate the server did
    // not end) has no move to search: say so and leave, rather than wait with no move.
    if (const engine::GameResult over = position_->result();
        over.status != engine::PositionStatus::ONGOING &&
        over.status != engine::PositionStatus::THREEFOLD_REPETITION &&
        over.status != engine::PositionStatus::FIFTY_MOVES &&
        over.status != engine::PositionStatus::INSUFFICIENT_MATERIAL)
        return leave(fmt::format("the position after {} plies is over by the {} rules ({}) but "
                                 "the server says the game goes on; no move to play",
                                 moves_.size(), full_->variant.key, over.reason),
                     out);
    think_clock_ = clock_for_us(last_state_);
    // Past this our clock has run out: a move post that hangs is not sent again after it.
    flag_at_ = turn_started_ + std::chrono::milliseconds(std::clamp<std::int64_t>(
                                   think_clock_.our_ms, 0, kMaxRealTimeClockMs));
    think_plan_ = planner_.for_move(think_clock_, lag_.estimate_ms());
    // An arena game's first move: lila ends it as noStart soon and withdraws the player who did
    // not move, so it comes at once.
    const bool hurry = s_.rights.arena && think_clock_.real_time && moves_.size() < 2;
    if (hurry && think_plan_.limits.movetime > s_.arena_first_move_ms)
        think_plan_.limits.movetime = std::max<std::int64_t>(1, s_.arena_first_move_ms);
    // A ponder hit: the opponent played the reply our last search expected.
    bool hit = false;
    if (ponder_ply_ != SIZE_MAX && moves_.size() == ponder_ply_ + 2) {
        engine::Position before = *position_;
        if (before.undo()) {
            auto m = before.parse_uci(moves_.back());
            hit = m && *m == ponder_expected_;
            if (hit)
                log(out, common::LogLevel::Debug,
                    fmt::format("game {}: ponder hit on {}", id_, before.to_uci(ponder_expected_)));
        }
    }
    ponder_ply_ = SIZE_MAX;  // the session ends or uses the ponder search now
    out.push_back(game::Think{.position = *position_,
                              .variant = full_->variant.key,
                              .clock = think_clock_,
                              .plan = think_plan_,
                              .fullmove = int(moves_.size() / 2) + 1,
                              .ponder_hit = hit,
                              .hurry = hurry});
    return Guard::OurMove;
}

Guard GameRules::on_chosen(const game::MoveChosen& chosen, TimePoint now, Actions& out) {
    if (chosen.search && !chosen.search->best) return Guard::NoMove;
    OutgoingMove move = outgoing_move(chosen);
    if (chosen.search) last_search_ = LastSearch{.position = *position_, .info = *chosen.search};
    // Only a scored move feeds the draw and resign counters: a book move has none. A searched
    // move's score is its search's; a cloud evaluation or a tablebase result counts the same.
    const std::optional<engine::Score> score =
        chosen.search ? std::optional(chosen.search->score) : chosen.score;
    if (score) {
        const MoveVerdict verdict =
            judge_move(policies_.draw_resign, *score, *position_, may_offer_draw(), move.uci,
                       chosen.search ? "" : to_string(chosen.source));
        if (!verdict.why.empty())
            log(out, common::LogLevel::Info, fmt::format("game {}: {}", id_, verdict.why));
        if (verdict.resign) {
            outgoing_ = std::move(move);  // played if resigning fails
            out.push_back(game::Resign{});
            return Guard::Resign;
        }
        move.offer_draw = verdict.offer_draw;
    }
    post(std::move(move), now, out);
    return Guard::Play;
}

GameRules::OutgoingMove GameRules::outgoing_move(const game::MoveChosen& chosen) const {
    OutgoingMove move;
    move.source = chosen.source;
    move.think_ms = chosen.think_ms;
    if (!chosen.search) {  // a book or online move
        move.uci = chosen.uci;
        if (chosen.score)
            move.eval = PgnEval{
                .kind = chosen.score->is_mate ? PgnEval::Kind::Mate : PgnEval::Kind::Centipawns,
                .value = chosen.score->value,
                .depth = 0};
        move.line = fmt::format("game {}: move {} ({}) ply {} {} clock {}ms", id_, chosen.uci,
                                to_string(chosen.source), moves_.size() + 1, chosen.note,
                                think_clock_.our_ms);
        return move;
    }
    // A searched move; it may name its tables (syzygy).
    const engine::SearchResult& r = *chosen.search;
    move.uci = position_->to_uci(r.best);
    move.eval = PgnEval{.kind = r.score.is_mate ? PgnEval::Kind::Mate : PgnEval::Kind::Centipawns,
                        .value = r.score.value,
                        .depth = r.depth};
    move.ours = r.best;
    move.ponder = r.ponder;
    move.line = fmt::format(
        "game {} ply {} move {}{} score {} depth {} nodes {} nps {} time {}ms clock {}ms ({}{}, "
        "lag {}ms)",
        id_, moves_.size() + 1, move.uci,
        chosen.source == MoveSource::Search ? "" : fmt::format(" ({})", to_string(chosen.source)),
        score_text(r.score), r.depth, r.nodes, r.nps, chosen.think_ms, think_clock_.our_ms,
        to_string(think_plan_.mode), chosen.ponder_hit ? ", ponder hit" : "", lag_.estimate_ms());
    return move;
}

void GameRules::post(OutgoingMove move, TimePoint now, Actions& out) {
    if (move.offer_draw) policies_.draw_resign.offered_at(moves_.size());
    posted_at_ = now;
    posted_ply_ = moves_.size() + 1;
    out.push_back(game::PostMove{.uci = move.uci,
                                 .offer_draw = move.offer_draw,
                                 .give_up_at = flag_at_,
                                 .ply = posted_ply_});
    outgoing_ = std::move(move);
}

Guard GameRules::on_posted(const Outcome& outcome, TimePoint now, Actions& out) {
    OutgoingMove move = *outgoing_;
    if (outcome.ok) {
        outgoing_.reset();
        // Attached to the move when the server's state shows it (record_clocks).
        pending_eval_ = move.eval;
        pending_source_ = move.source;
        const std::int64_t reaction_ms = ms_between(turn_started_, now) - move.think_ms;
        out.push_back(game::MovePlayed{.reaction_ms = reaction_ms, .think_ms = move.think_ms});
        if (move.retried) {
            log(out, common::LogLevel::Info,
                fmt::format("game {}: move {} posted on a retry", id_, move.uci));
            return Guard::Taken;
        }
        log(out, common::LogLevel::Info, move.line);
        if (s_.ponder && move.ponder) start_ponder(move, reaction_ms, out);
        return Guard::Taken;
    }
    posted_at_.reset();
    // A 4xx other than 429 is the server's final no (a 400 at the end of a game is a normal
    // race; 401/403/404 will not get better by asking again), as is a cancel at shutdown or a
    // game the stream already showed over.
    if (outcome.final_no || outcome.cancelled || outcome.game_over) {
        outgoing_.reset();
        log(out, common::LogLevel::Info,
            fmt::format("game {}: move {} not accepted: {}", id_, move.uci, outcome.error));
        return Guard::RefusedForGood;
    }
    // A 429 pause, or 5xx/network errors beyond the client's retries, may pass: no new
    // gameState would come to make us move again, so post the same move again later.
    // The server's wait (at most a few seconds from the client) never outlasts our clock: with
    // little time left the move is posted again sooner, while it can still count.
    auto wait = outcome.retry_after.value_or(s_.timings.move_retry);
    if (flag_at_ > now) {
        const auto share = std::chrono::duration_cast<std::chrono::milliseconds>(flag_at_ - now) /
                           kRetryShareOfClock;
        wait = std::min(wait, std::max(s_.timings.move_retry, share));
    }
    outgoing_->retried = true;
    retry_at_ = now + wait;
    log(out, common::LogLevel::Warn,
        fmt::format("game {}: posting move {} failed: {}; trying again in {} ms", id_, move.uci,
                    outcome.error, wait.count()));
    return Guard::RefusedForNow;
}

Guard GameRules::on_resign_answered(const Outcome& outcome, TimePoint now, Actions& out) {
    if (outcome.ok) {  // the final state ends the game
        outgoing_.reset();
        return Guard::Taken;
    }
    log(out, common::LogLevel::Info,
        fmt::format("game {}: resigning failed: {}; playing on", id_, outcome.error));
    post(*outgoing_, now, out);
    return Guard::Refused;
}

void GameRules::start_ponder(const OutgoingMove& move, std::int64_t reaction_ms, Actions& out) {
    engine::Position future = *position_;
    future.play(move.ours);
    if (!future.legal_moves().contains(move.ponder)) return;
    future.play(move.ponder);
    if (future.legal_moves().empty()) return;
    // Our clock after this move, as the server will show it: what we used, plus increment.
    MoveClock after = think_clock_;
    after.our_ms = std::max<std::int64_t>(1, think_clock_.our_ms - move.think_ms - reaction_ms) +
                   think_clock_.our_inc_ms;
    after.our_moves_played += 1;
    after.their_moves_played += 1;
    engine::SearchLimits limits = planner_.for_move(after, lag_.estimate_ms()).limits;
    limits.ponder = true;
    ponder_expected_ = move.ponder;
    ponder_ply_ = moves_.size();
    out.push_back(game::StartPonder{.position = std::move(future), .limits = limits});
}

}  // namespace service
