// GameRules: the rules of one game, from gameFull to the final state (see game_rules.hpp).
#include "service/game/game_rules.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>

#include "common/text.hpp"
#include "engine/fen.hpp"
#include "engine/variant_table.hpp"
#include "service/game/chat_text.hpp"
#include "service/game/pgn_tags.hpp"

namespace service {

namespace {

// The game's level from engine.strength and the opponent as gameFull shows them: its rating is
// the one of the game's perf.
GameLevel level_of(const config::StrengthConfig& strength, const lichess::GamePlayer& opponent,
                   const lichess::GameFull& full) {
    LevelOpponent o;
    o.bot = opponent.is_bot() || opponent.ai_level.has_value();
    if (opponent.rating)
        o.ratings[perf_key(full.variant.key, full.speed)] =
            PerfRating{*opponent.rating, opponent.provisional};
    return game_level(strength, o, full.variant.key, full.speed);
}

std::int64_t ms_between(TimePoint from, TimePoint to) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

std::string score_text(const engine::Score& s) {
    return s.is_mate ? "#" + std::to_string(s.value) : std::to_string(s.value) + "cp";
}

bool extends(const std::vector<std::string>& longer, const std::vector<std::string>& ours) {
    return longer.size() >= ours.size() && std::equal(ours.begin(), ours.end(), longer.begin());
}

// A move post refused for a passing reason waits at most this share of what is left on our
// clock before it is sent again (and at least GameTimings::move_retry).
constexpr int kRetryShareOfClock = 4;

template <class... Fs>
struct Overloaded : Fs... {
    using Fs::operator()...;
};

}  // namespace

const char* to_string(Phase p) {
    switch (p) {
        case Phase::AwaitingGame:
            return "awaiting the game";
        case Phase::Playing:
            return "playing";
        case Phase::Over:
            return "over";
        case Phase::Left:
            return "left";
        case Phase::Parked:
            return "parked";
    }
    return "?";
}

GameSettings GameSettings::from(const config::Config& config, std::string game_id,
                                std::string my_id, std::string my_name) {
    GameSettings s;
    s.game_id = std::move(game_id);
    s.my_id = std::move(my_id);
    s.my_name = std::move(my_name);
    s.site = config.url;
    s.abort_time = std::chrono::seconds(config.abort_time);
    s.greeting = config.greeting;
    s.draw_or_resign = config.draw_or_resign;
    s.max_takebacks_accepted = config.max_takebacks_accepted;
    s.ponder = config.engine.ponder;
    s.planner = MovePlannerSettings::from(config);
    s.strength = config.engine.strength;
    return s;
}

Outcome Outcome::from(const lichess::Result<lichess::Ok>& r) {
    if (r) return {};
    const lichess::ApiError& e = r.error();
    return Outcome{
        .ok = false,
        .final_no = e.kind == lichess::ApiError::Kind::Http && e.status >= 400 && e.status < 500,
        .cancelled = e.kind == lichess::ApiError::Kind::Cancelled,
        .retry_after = e.retry_after,
        .error = e.describe()};
}

GameRules::GameRules(GameSettings settings)
    : s_(std::move(settings)),
      id_(common::printable(s_.game_id)),
      planner_(s_.planner),
      draw_resign_(s_.parking && s_.parking->draw_resign
                       ? s_.parking->draw_resign
                       : std::make_shared<DrawResignPolicy>(s_.draw_or_resign)),
      takebacks_(s_.parking && s_.parking->takebacks
                     ? s_.parking->takebacks
                     : std::make_shared<TakebackPolicy>(s_.max_takebacks_accepted)) {}

std::vector<GameAction> GameRules::on(const GameInput& event, TimePoint now) {
    Actions out;
    if (ended()) return out;
    std::visit(
        Overloaded{
            [&](const game::FullReceived& e) { on_full(e.full, e.facts, now, out); },
            [&](const game::StateReceived& e) { on_state(e.state, e.facts, now, out); },
            [&](const game::OpponentGoneReceived& e) { on_gone(e.gone, now, out); },
            [&](const game::UnreadableReceived& e) { on_unreadable(e.line, out); },
            [&](const game::AbortTimerExtended& e) { abort_extension_ += e.by; },
            [&](const game::Tick& e) { on_tick(e, now, out); },
            [&](const game::MoveChosen& e) { on_chosen(e, now, out); },
            [&](const game::NoMoveChosen&) { outgoing_.reset(); },
            [&](const game::MovePosted& e) { on_posted(e.outcome, now, out); },
            [&](const game::ResignAnswered& e) {
                if (e.outcome.ok || !outgoing_) return;  // the final state ends the game
                log(out, common::LogLevel::Info,
                    fmt::format("game {}: resigning failed: {}; playing on", id_, e.outcome.error));
                post(*outgoing_, now, out);
            },
            [&](const game::TakebackAnswered& e) { on_takeback_answered(e, now, out); },
            [&](const game::ClaimAnswered& e) {
                if (e.outcome.final_no || ++claims_ >= s_.timings.max_claims)
                    claim_at_.reset();
                else
                    claim_at_ = now + (e.outcome.ok ? s_.timings.claim_retry_ok
                                                    : s_.timings.claim_retry_error);
                log(out, common::LogLevel::Info,
                    fmt::format("game {}: claimed victory{}", id_,
                                e.outcome.ok ? "" : " (refused: " + e.outcome.error + ")"));
            },
        },
        event);
    return out;
}

void GameRules::on_full(const lichess::GameFull& full, const StateFacts& facts, TimePoint now,
                        Actions& out) {
    server_plies_ = facts.moves.size();
    if (full.id != s_.game_id)
        return leave("gameFull is for another game ('" + common::printable(full.id) + "')", out);
    const bool white = full.white.id && *full.white.id == s_.my_id;
    const bool black = full.black.id && *full.black.id == s_.my_id;
    if (!white && !black)
        return leave("gameFull names neither player as us (" + common::printable(s_.my_id) + ")",
                     out);
    // Every Lichess key is a game the engine plays; a key lila may add later is not.
    const std::string& key = full.variant.key;
    const std::optional<engine::Variant> variant = engine::from_lichess_key(key);
    if (!variant)
        return leave("variant '" + common::printable(key) + "' is not one Outpost plays", out);
    const bool chess960 = engine::find_game_type(key)->chess960;
    const std::string initial_fen =
        full.is_startpos() ? std::string(engine::start_fen(*variant)) : full.initial_fen;
    const bool first = !full_.has_value();
    // gameFull names the arena of an arena game even when gameStart did not (a resumed game).
    if (full.tournament_id && !s_.rights.arena) s_.rights = rights_of("arena", true);
    // A reconnect's gameFull replays the same game: keep the position, so that on_state sees
    // whether the move list changed (an unchanged one starts no search and keeps a pending move
    // retry) and the PGN keeps its clocks and evals. sync() rebuilds from the start when the list
    // does not extend ours.
    const bool same_start = !first && position_ && initial_fen == initial_fen_ &&
                            *variant == variant_ && chess960 == chess960_;
    if (!same_start) {
        // Read as lila reads it: a right without its rook, a stale en-passant square dropped.
        auto start =
            engine::Position::from_fen(initial_fen, *variant, chess960, engine::FenRules::Lichess);
        if (!start)
            return leave("the initial FEN '" + common::printable(initial_fen) + "' is not a " +
                             key + " position: " + common::printable(start.error()),
                         out);
        position_ = *start;
        moves_.clear();
        notes_.clear();
    }
    us_ = white ? engine::WHITE : engine::BLACK;
    variant_ = *variant;
    chess960_ = chess960;
    initial_fen_ = initial_fen;
    full_ = full;
    if (first) {
        phase_ = Phase::Playing;
        log(out, common::LogLevel::Info,
            fmt::format("game {}: {} vs {} ({}, {}, {}), we play {}", id_,
                        common::printable(full.white.name), common::printable(full.black.name),
                        common::printable(key), common::printable(full.speed),
                        full.rated ? "rated" : "casual", white ? "white" : "black"));
        level_ = level_of(s_.strength, white ? full.black : full.white, full);
        log(out, common::LogLevel::Info,
            fmt::format("game {}: plays at {} ({})", id_, level_text(level_->elo),
                        common::printable(level_->why)));
    }
    on_state(full.state, facts, now, out);
}

bool GameRules::sync(const std::vector<std::string>& moves, Actions& out) {
    if (!extends(moves, moves_)) {
        // A takeback (or a server that changed its mind): rebuild from the initial position.
        auto start = engine::Position::from_fen(initial_fen_, variant_, chess960_,
                                                engine::FenRules::Lichess);
        if (!start) return false;
        position_ = *start;
        moves_.clear();
        notes_.clear();
    }
    for (std::size_t i = moves_.size(); i < moves.size(); ++i) {
        auto m = position_->play_uci(moves[i]);
        if (!m) {
            log(out, common::LogLevel::Error,
                fmt::format("game {}: move {} '{}' from the server is illegal: {}", id_, i + 1,
                            common::printable(moves[i]), common::printable(m.error())));
            return false;
        }
        moves_.push_back(moves[i]);
        PgnMove note;
        note.uci = moves[i];
        notes_.push_back(std::move(note));
    }
    return true;
}

bool GameRules::our_turn() const { return position_ && position_->side_to_move() == us_; }

bool GameRules::first_moves_pending() const {
    return full_ && phase_ == Phase::Playing &&
           (us_ == engine::WHITE ? moves_.size() < 2 : moves_.empty());
}

void GameRules::on_state(const lichess::GameState& state, const StateFacts& facts, TimePoint now,
                         Actions& out) {
    if (!full_ || !position_) return;  // a state before gameFull: wait for the full one
    server_plies_ = facts.moves.size();
    if (facts.unknown_status) {
        // Maybe a status newer than this client; the game may still be on, and a session
        // that cannot tell would lose it on time: leave it (abort/resign) instead.
        return leave("unknown game status '" + common::printable(state.status_name) + "'", out);
    }
    const std::vector<std::string>& moves = facts.moves;
    if (facts.over) {
        // The final move list matters for the PGN; a bad one must not stop the finish.
        (void)sync(moves, out);
        return finish(state, out);
    }
    const std::size_t before = moves_.size();
    const bool rebuilt = !extends(moves, moves_);
    if (!sync(moves, out)) return leave("the move list does not replay legally", out);
    const bool changed = rebuilt || moves_.size() != before || !greeted_;
    last_state_ = state;
    record_clocks(state, before);
    if (posted_at_ && moves_.size() >= posted_ply_) {
        lag_.record(ms_between(*posted_at_, now));
        posted_at_.reset();
    }
    if (rebuilt) {
        // A move of ours that was taken back no longer answers for this ply: move again there.
        if (moved_at_ply_ >= moves_.size()) moved_at_ply_ = SIZE_MAX;
        // A ponder search from a position that was taken back would be wrong if its expected
        // move came again.
        if (ponder_ply_ != SIZE_MAX) out.push_back(game::StopPonder{});
        ponder_ply_ = SIZE_MAX;
    }
    if (changed) {
        draw_answered_this_ply_ = false;
        retry_at_.reset();  // the position moved on: a pending move may no longer fit
        outgoing_.reset();
        if (our_turn())
            turn_started_ = now;
        else
            opponent_turn_since_ = now;
    }
    // Hello only at the start of a game (fewer than 2 plies, as lichess-bot does): a session
    // after a restart, or a correspondence game's later sessions, say nothing twice.
    if (!greeted_) {
        greeted_ = true;
        if (moves_.size() < 2 && (!s_.parking || s_.parking->first_visit)) {
            out.push_back(game::Say{lichess::ChatRoom::Player, expand(s_.greeting.hello)});
            out.push_back(
                game::Say{lichess::ChatRoom::Spectator, expand(s_.greeting.hello_spectators)});
        }
    }

    if (answer_offers(state, changed, out)) return;  // a takeback answer comes first
    // Only a new move list is a new position to search. A state that repeats ours (an offer, a
    // declined takeback, a reconnect's gameFull) while our move waits for its retry after a 429
    // or a 5xx must not search again: the tick posts that move.
    if (changed && our_turn() && !moved_this_ply()) think(now, out);
}

bool GameRules::answer_offers(const lichess::GameState& state, bool changed, Actions& out) {
    // Offers from the opponent: a draw as the draw_or_resign policy says, takebacks until
    // max_takebacks_accepted have been granted in this game.
    const bool we_are_white = us_ == engine::WHITE;
    const bool draw_offered = we_are_white ? state.bdraw : state.wdraw;
    const bool takeback_asked = we_are_white ? state.btakeback : state.wtakeback;
    if (draw_offered && !draw_answered_this_ply_) {
        draw_answered_this_ply_ = true;
        if (draw_resign_->accept_draw(piece_count(*position_))) {
            log(out, common::LogLevel::Info, fmt::format("game {}: accepted a draw offer", id_));
            out.push_back(game::AcceptDraw{});
        } else {
            // lila declines an offer when the other side moves: no request before the search.
            log(out, common::LogLevel::Info,
                fmt::format("game {}: a draw offer, declined by our next move", id_));
        }
    }
    // lila allows no takeback in an arena, simul or swiss game (canTakebackOrAddTime): a
    // request there is not answered (it cannot have been made).
    if (!s_.rights.takeback) return false;
    if (const auto accept = takebacks_->answer(takeback_asked)) {
        if (our_turn() && moved_this_ply()) {
            // The request came before our move, which declined it; a yes now would be a
            // takeback request of our own.
            log(out, common::LogLevel::Info,
                fmt::format("game {}: a takeback request was answered by our move", id_));
        } else {
            think_after_answer_ = changed;
            out.push_back(game::AnswerTakeback{*accept});
            return true;
        }
    }
    return false;
}

void GameRules::on_takeback_answered(const game::TakebackAnswered& a, TimePoint now, Actions& out) {
    const bool granted = a.accepted && a.outcome.ok;
    if (granted) takebacks_->granted();
    log(out, common::LogLevel::Info,
        fmt::format("game {}: {} a takeback request ({} of {} accepted in this game){}", id_,
                    a.accepted ? "accepted" : "declined", takebacks_->accepted(),
                    takebacks_->max_accepted(), a.outcome.ok ? "" : " (" + a.outcome.error + ")"));
    // The server sends the position after the takeback; no move in this one.
    if (granted) return;
    if (think_after_answer_ && our_turn() && !moved_this_ply()) think(now, out);
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

void GameRules::think(TimePoint now, Actions& out) {
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
}

void GameRules::on_chosen(const game::MoveChosen& chosen, TimePoint now, Actions& out) {
    if (!our_turn() || moved_this_ply()) return;
    // A move without a search (book, online); a searched one may name its tables (syzygy).
    if (!chosen.search) return play_unsearched(chosen, now, out);
    const engine::SearchResult& r = *chosen.search;
    if (!r.best) return;
    // Only searched moves feed the draw and resign counters: a book move has no score.
    const DrawResignDecision verdict = draw_resign_->after_search(r.score, *position_);
    last_search_ = LastSearch{.position = *position_, .info = r};
    const std::string uci = position_->to_uci(r.best);
    OutgoingMove move;
    move.uci = uci;
    move.source = chosen.source;
    move.offer_draw = verdict.offer_draw && may_offer_draw();
    move.eval = PgnEval{.kind = r.score.is_mate ? PgnEval::Kind::Mate : PgnEval::Kind::Centipawns,
                        .value = r.score.value,
                        .depth = r.depth};
    move.think_ms = chosen.think_ms;
    move.ours = r.best;
    move.ponder = r.ponder;
    move.line = fmt::format(
        "game {} ply {} move {}{} score {} depth {} nodes {} nps {} time {}ms clock {}ms ({}{}, "
        "lag "
        "{}ms)",
        id_, moves_.size() + 1, uci,
        chosen.source == MoveSource::Search ? "" : fmt::format(" ({})", to_string(chosen.source)),
        score_text(r.score), r.depth, r.nodes, r.nps, chosen.think_ms, think_clock_.our_ms,
        to_string(think_plan_.mode), chosen.ponder_hit ? ", ponder hit" : "", lag_.estimate_ms());
    if (verdict.resign) {
        log(out, common::LogLevel::Info,
            fmt::format("game {}: resigning at score {} ({} moves at or below {}cp)", id_,
                        score_text(r.score), draw_resign_->losing_streak(),
                        s_.draw_or_resign.resign_score));
        outgoing_ = std::move(move);  // played if resigning fails
        out.push_back(game::Resign{});
        return;
    }
    if (move.offer_draw)
        log(out, common::LogLevel::Info,
            fmt::format("game {}: offering a draw with {} (score {}, {} moves within {}cp)", id_,
                        uci, score_text(r.score), draw_resign_->drawish_streak(),
                        s_.draw_or_resign.offer_draw_score));
    post(std::move(move), now, out);
}

void GameRules::play_unsearched(const game::MoveChosen& chosen, TimePoint now, Actions& out) {
    OutgoingMove move;
    move.uci = chosen.uci;
    move.source = chosen.source;
    move.think_ms = chosen.think_ms;
    move.line =
        fmt::format("game {}: move {} ({}) ply {} {} clock {}ms", id_, chosen.uci,
                    to_string(chosen.source), moves_.size() + 1, chosen.note, think_clock_.our_ms);
    if (chosen.score) {
        // A cloud evaluation or a tablebase result is a real score: the draw/resign policy
        // counts it as a search's (a book move has none and counts nothing).
        const engine::Score& score = *chosen.score;
        move.eval = PgnEval{.kind = score.is_mate ? PgnEval::Kind::Mate : PgnEval::Kind::Centipawns,
                            .value = score.value,
                            .depth = 0};
        const DrawResignDecision verdict = draw_resign_->after_search(score, *position_);
        move.offer_draw = verdict.offer_draw && may_offer_draw();
        if (verdict.resign) {
            log(out, common::LogLevel::Info,
                fmt::format("game {}: resigning at {} score {} ({} moves at or below {}cp)", id_,
                            to_string(chosen.source), score_text(score),
                            draw_resign_->losing_streak(), s_.draw_or_resign.resign_score));
            outgoing_ = std::move(move);
            out.push_back(game::Resign{});
            return;
        }
        if (move.offer_draw)
            log(out, common::LogLevel::Info,
                fmt::format("game {}: offering a draw with {} ({} score {})", id_, chosen.uci,
                            to_string(chosen.source), score_text(score)));
    }
    post(std::move(move), now, out);
}

void GameRules::post(OutgoingMove move, TimePoint now, Actions& out) {
    if (move.offer_draw) draw_resign_->offered_at(moves_.size());
    retry_at_.reset();
    posted_at_ = now;
    posted_ply_ = moves_.size() + 1;
    out.push_back(game::PostMove{.uci = move.uci,
                                 .offer_draw = move.offer_draw,
                                 .give_up_at = flag_at_,
                                 .ply = posted_ply_});
    outgoing_ = std::move(move);
}

void GameRules::on_posted(const Outcome& outcome, TimePoint now, Actions& out) {
    if (!outgoing_) return;
    OutgoingMove move = *outgoing_;
    if (outcome.ok) {
        outgoing_.reset();
        moved_at_ply_ = moves_.size();
        // Attached to the move when the server's state shows it (record_clocks).
        pending_eval_ = move.eval;
        pending_source_ = move.source;
        const std::int64_t reaction_ms = ms_between(turn_started_, now) - move.think_ms;
        out.push_back(game::MovePlayed{.reaction_ms = reaction_ms, .think_ms = move.think_ms});
        if (move.retried) {
            log(out, common::LogLevel::Info,
                fmt::format("game {}: move {} posted on a retry", id_, move.uci));
            return;
        }
        log(out, common::LogLevel::Info, move.line);
        if (s_.ponder && move.ponder) start_ponder(move, reaction_ms, out);
        return;
    }
    posted_at_.reset();
    // A 4xx other than 429 is the server's final no (a 400 at the end of a game is a normal
    // race; 401/403/404 will not get better by asking again), as is a cancel at shutdown or a
    // game the stream already showed over.
    if (outcome.final_no || outcome.cancelled || outcome.game_over) {
        outgoing_.reset();
        log(out, common::LogLevel::Info,
            fmt::format("game {}: move {} not accepted: {}", id_, move.uci, outcome.error));
        return;
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

void GameRules::on_gone(const lichess::OpponentGone& gone, TimePoint now, Actions& out) {
    if (gone.gone && gone.claim_win_in_seconds && !s_.rights.claim_win) {
        log(out, common::LogLevel::Info,
            fmt::format("game {}: opponent gone; lila gives no claim in this game (swiss or the "
                        "noClaimWin rule): waiting for its clock",
                        s_.game_id));
        return;
    }
    if (gone.gone && gone.claim_win_in_seconds) {
        claims_ = 0;
        claim_at_ =
            now + std::chrono::seconds(*gone.claim_win_in_seconds) + s_.timings.claim_margin;
        log(out, common::LogLevel::Info,
            fmt::format("game {}: opponent gone; claiming victory in {} s", id_,
                        *gone.claim_win_in_seconds));
    } else if (!gone.gone && claim_at_) {
        claim_at_.reset();
        log(out, common::LogLevel::Info, fmt::format("game {}: opponent is back", id_));
    }
}

void GameRules::on_tick(const game::Tick& tick, TimePoint now, Actions& out) {
    if (!full_ || !position_) return;
    if (retry_at_ && now >= *retry_at_) {
        retry_at_.reset();
        if (outgoing_ && our_turn() && !moved_this_ply()) return post(*outgoing_, now, out);
        outgoing_.reset();
    }
    // lila lets a player claim only while the gone opponent is to move (Pov.mightClaimWin), and
    // answers 200 without doing anything otherwise: a claim that falls due during our turn
    // waits for our move, and a 200 that ended nothing is asked again (a few times). A 400 (not
    // gone long enough, or back) waits for lila's next opponentGone line, sent every 5 s.
    if (claim_at_ && now >= *claim_at_ && !our_turn()) {
        out.push_back(game::ClaimVictory{});
        return;
    }
    // Abort a game whose opponent never made a first move (Lichess allows it before move 2).
    const std::size_t opponent_moves =
        us_ == engine::WHITE ? moves_.size() / 2 : (moves_.size() + 1) / 2;
    // lila lets no one abort an arena, simul or swiss game (nor one with the noAbort rule): its
    // no-show ends as noStart (an arena's, for the opponent) or on the clock.
    if (!aborted_ && s_.rights.abort && !s_.parking && !our_turn() && opponent_moves == 0 &&
        now - opponent_turn_since_ > s_.abort_time + abort_extension_) {
        aborted_ = true;
        log(out, common::LogLevel::Info,
            fmt::format("game {}: opponent made no move in {} s, aborting", id_,
                        s_.abort_time.count()));
        out.push_back(game::Abort{});
    }
    if (s_.parking) {
        const bool refused = our_turn() && !moved_this_ply();
        const ParkingFacts facts{.our_turn = our_turn(),
                                 .move_refused = refused,
                                 .move_pending = retry_at_.has_value(),
                                 .waiting_since = refused ? turn_started_ : opponent_turn_since_,
                                 .others_waiting = tick.others_waiting};
        if (time_to_park(s_.parking->linger, facts, now)) {
            log(out, common::LogLevel::Debug, fmt::format("game {}: parked", id_));
            phase_ = Phase::Parked;  // the game goes on
        }
    }
}

void GameRules::finish(const lichess::GameState& state, Actions& out) {
    out.push_back(game::StopPonder{});
    ponder_ply_ = SIZE_MAX;
    GameResult result = GameResult::Draw;
    if (state.winner)
        result = (*state.winner == lichess::Color::White) == (us_ == engine::WHITE)
                     ? GameResult::Win
                     : GameResult::Loss;
    if (state.status == lichess::GameStatus::Aborted) result = GameResult::Aborted;
    log(out, common::LogLevel::Info,
        fmt::format("game {}: over ({}), {} after {} plies", id_,
                    common::printable(state.status_name), to_string(result), moves_.size()));
    const bool lost_on_time =
        result == GameResult::Loss && state.status == lichess::GameStatus::OutOfTime;
    if (lost_on_time) log(out, common::LogLevel::Error, fmt::format("game {}: LOST ON TIME", id_));
    if (state.status != lichess::GameStatus::Aborted) {
        out.push_back(game::Say{lichess::ChatRoom::Player, expand(s_.greeting.goodbye)});
        out.push_back(
            game::Say{lichess::ChatRoom::Spectator, expand(s_.greeting.goodbye_spectators)});
    }
    out.push_back(
        game::GameEnded{.result = result, .lost_on_time = lost_on_time, .record = record(state)});
    phase_ = Phase::Over;
}

void GameRules::on_unreadable(const lichess::GameUnreadable& line, Actions& out) {
    // The game's state is unknown now: waiting for the next line could lose it on time.
    const std::string what = line.type.empty() ? "a line" : "its " + common::printable(line.type);
    const std::string field = line.field.empty() ? "" : " (" + common::printable(line.field) + ")";
    leave(what + " could not be read" + field + ": " + common::printable(line.problem), out);
}

void GameRules::leave(const std::string& why, Actions& out) {
    log(out, common::LogLevel::Error, fmt::format("game {}: ending the session: {}", id_, why));
    // The game may still be on: leave it cleanly rather than lose on time.
    out.push_back(game::StopPonder{});
    // lila lets a game be aborted before its second ply: count the server's plies, which a move
    // list we could not replay (or did not read) may have more of than ours.
    out.push_back(
        game::LeaveGame{.abort = std::max(moves_.size(), server_plies_) < 2 && s_.rights.abort});
    phase_ = Phase::Left;
}

std::string GameRules::expand(const std::string& text) const {
    ChatVars vars;
    vars.me = s_.my_name;
    if (full_) vars.opponent = us_ == engine::WHITE ? full_->black.name : full_->white.name;
    return fit_chat(expand_chat(text, vars));
}

void GameRules::record_clocks(const lichess::GameState& state, std::size_t first_new_ply) {
    // A state carries the clock of whoever moved last; our own moves also get their notes.
    if (notes_.empty() || notes_.size() <= first_new_ply) return;
    PgnMove& last = notes_.back();
    const engine::Color mover =
        position_->side_to_move() == engine::WHITE ? engine::BLACK : engine::WHITE;
    last.clock_ms = mover == engine::WHITE ? state.wtime_ms : state.btime_ms;
    if (mover != us_) return;
    if (pending_eval_) last.eval = std::exchange(pending_eval_, std::nullopt);
    if (pending_source_ != MoveSource::Search)
        last.source = to_string(std::exchange(pending_source_, MoveSource::Search));
}

GameRecord GameRules::record(const lichess::GameState& state) const {
    GameRecord rec;
    rec.game_id = s_.game_id;
    rec.site = s_.site;
    rec.rated = full_->rated;
    rec.speed = full_->speed;
    rec.tournament_id = full_->tournament_id.value_or("");
    rec.started_at =
        std::chrono::system_clock::time_point(std::chrono::milliseconds(full_->created_at_ms));
    rec.white = full_->white.name;
    rec.black = full_->black.name;
    rec.white_rating = full_->white.rating;
    rec.black_rating = full_->black.rating;
    rec.white_title = full_->white.title;
    rec.black_title = full_->black.title;
    if (full_->clock)
        rec.time_control = std::to_string(full_->clock->initial_ms / 1000) + "+" +
                           std::to_string(full_->clock->increment_ms / 1000);
    rec.variant = full_->variant.key;
    rec.initial_fen = full_->initial_fen;
    rec.result = pgn_result(state.status, state.winner);
    rec.termination = pgn_termination(state.status);
    rec.moves = notes_;
    if (level_) rec.level = level_->elo;
    return rec;
}

void GameRules::log(Actions& out, common::LogLevel level, std::string text) const {
    out.push_back(game::Log{.level = level, .text = std::move(text)});
}

}  // namespace service
