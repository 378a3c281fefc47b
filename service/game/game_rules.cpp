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

bool extends(const std::vector<std::string>& longer, const std::vector<std::string>& ours) {
    return longer.size() >= ours.size() && std::equal(ours.begin(), ours.end(), longer.begin());
}

template <class... Fs>
struct Overloaded : Fs... {
    using Fs::operator()...;
};

static_assert(std::variant_size_v<GameInput> == kEventCount, "one Event per GameInput");

}  // namespace

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
      policies_(s_.parking && s_.parking->policies
                    ? *s_.parking->policies
                    : GamePolicies::from(s_.draw_or_resign, s_.max_takebacks_accepted)) {}

std::vector<GameAction> GameRules::on(const GameInput& event, TimePoint now) {
    Actions out;
    last_transition_ = nullptr;
    if (ended()) return out;
    const Guard guard = std::visit(
        Overloaded{
            [&](const game::FullReceived& e) { return on_full(e.full, e.facts, now, out); },
            [&](const game::StateReceived& e) { return on_state(e.state, e.facts, now, out); },
            [&](const game::OpponentGoneReceived& e) {
                on_gone(e.gone, now, out);
                return Guard::None;
            },
            [&](const game::UnreadableReceived& e) { return on_unreadable(e.line, out); },
            [&](const game::AbortTimerExtended& e) {
                abort_extension_ += e.by;
                return Guard::None;
            },
            [&](const game::Tick& e) { return on_tick(e, now, out); },
            [&](const game::MoveChosen& e) {
                return stage_ == Stage::Thinking ? on_chosen(e, now, out) : Guard::None;
            },
            [&](const game::NoMoveChosen&) { return Guard::Always; },
            [&](const game::MovePosted& e) {
                return stage_ == Stage::Posting ? on_posted(e.outcome, now, out) : Guard::None;
            },
            [&](const game::ResignAnswered& e) {
                return stage_ == Stage::Resigning ? on_resign_answered(e.outcome, now, out)
                                                  : Guard::None;
            },
            [&](const game::TakebackAnswered& e) {
                return stage_ == Stage::AnsweringTakeback ? on_takeback_answered(e, now, out)
                                                          : Guard::None;
            },
            [&](const game::ClaimAnswered& e) { return on_claim_answered(e.outcome, now, out); },
        },
        event);
    // The table alone moves the game on; what it has no row for leaves the stage as it is.
    if (const Transition* t = find_transition(stage_, Event(event.index()), guard)) {
        stage_ = t->to;
        last_transition_ = t;
    }
    return out;
}

Guard GameRules::on_claim_answered(const Outcome& outcome, TimePoint now, Actions& out) {
    if (outcome.final_no || ++claims_ >= s_.timings.max_claims)
        claim_at_.reset();
    else
        claim_at_ = now + (outcome.ok ? s_.timings.claim_retry_ok : s_.timings.claim_retry_error);
    log(out, common::LogLevel::Info,
        fmt::format("game {}: claimed victory{}", id_,
                    outcome.ok ? "" : " (refused: " + outcome.error + ")"));
    return Guard::Always;
}

Guard GameRules::on_full(const lichess::GameFull& full, const StateFacts& facts, TimePoint now,
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
    return on_state(full.state, facts, now, out);
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
    return full_ && phase() == Phase::Playing &&
           (us_ == engine::WHITE ? moves_.size() < 2 : moves_.empty());
}

Guard GameRules::on_state(const lichess::GameState& state, const StateFacts& facts, TimePoint now,
                          Actions& out) {
    if (!full_ || !position_) return Guard::None;  // a state before gameFull: wait for the full one
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
    // A changed list leaves every stage of our move behind (Moved included: a move of ours that
    // was taken back no longer answers for this ply, we move again there).
    if (rebuilt) {
        // A ponder search from a position that was taken back would be wrong if its expected
        // move came again.
        if (ponder_ply_ != SIZE_MAX) out.push_back(game::StopPonder{});
        ponder_ply_ = SIZE_MAX;
    }
    if (changed) {
        draw_answered_this_ply_ = false;
        outgoing_.reset();  // the position moved on: a pending move may no longer fit
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

    if (answer_offers(state, changed, out)) return Guard::TakebackAsked;  // answered first
    // Only a new move list is a new position to search. A state that repeats ours (an offer, a
    // declined takeback, a reconnect's gameFull) while our move waits for its retry after a 429
    // or a 5xx must not search again: the tick posts that move.
    if (!changed) return Guard::None;
    return our_turn() ? think(now, out) : Guard::TheirMove;
}

bool GameRules::answer_offers(const lichess::GameState& state, bool changed, Actions& out) {
    // Offers from the opponent: a draw as the draw_or_resign policy says, takebacks until
    // max_takebacks_accepted have been granted in this game.
    const bool we_are_white = us_ == engine::WHITE;
    const bool draw_offered = we_are_white ? state.bdraw : state.wdraw;
    const bool takeback_asked = we_are_white ? state.btakeback : state.wtakeback;
    if (draw_offered && !draw_answered_this_ply_) {
        draw_answered_this_ply_ = true;
        if (policies_.draw_resign.accept_draw(piece_count(*position_))) {
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
    // While a request of ours is out (a Think, a move, a resignation, a claim) a request waits
    // for a later state: its flag stays up until it is answered.
    const bool resting = changed || stage_ == Stage::TheirTurn || stage_ == Stage::Stalled ||
                         stage_ == Stage::RetryWait || stage_ == Stage::Moved;
    if (takeback_asked && !resting) return false;
    if (const auto accept = policies_.takebacks.answer(takeback_asked)) {
        if (!changed && stage_ == Stage::Moved) {
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

Guard GameRules::on_takeback_answered(const game::TakebackAnswered& a, TimePoint now,
                                      Actions& out) {
    TakebackPolicy& takebacks = policies_.takebacks;
    const bool granted = a.accepted && a.outcome.ok;
    if (granted) takebacks.granted();
    log(out, common::LogLevel::Info,
        fmt::format("game {}: {} a takeback request ({} of {} accepted in this game){}", id_,
                    a.accepted ? "accepted" : "declined", takebacks.accepted(),
                    takebacks.max_accepted(), a.outcome.ok ? "" : " (" + a.outcome.error + ")"));
    // Granted: the server sends the position after the takeback; no move in this one.
    if (!granted && think_after_answer_ && our_turn()) return think(now, out);
    if (!our_turn()) return Guard::TheirMove;
    return outgoing_ ? Guard::RetryPending : Guard::OurTurnIdle;
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

Guard GameRules::on_tick(const game::Tick& tick, TimePoint now, Actions& out) {
    if (!full_ || !position_) return Guard::None;
    if (stage_ == Stage::RetryWait) {
        if (now < retry_at_) return Guard::None;
        post(*outgoing_, now, out);
        return Guard::RetryDue;
    }
    // lila lets a player claim only while the gone opponent is to move (Pov.mightClaimWin), and
    // answers 200 without doing anything otherwise: a claim that falls due during our turn
    // waits for our move, and a 200 that ended nothing is asked again (a few times). A 400 (not
    // gone long enough, or back) waits for lila's next opponentGone line, sent every 5 s.
    const bool their_turn = stage_ == Stage::TheirTurn;
    if (claim_at_ && now >= *claim_at_ && their_turn) {
        out.push_back(game::ClaimVictory{});
        return Guard::ClaimDue;
    }
    // Abort a game whose opponent never made a first move (Lichess allows it before move 2).
    const std::size_t opponent_moves =
        us_ == engine::WHITE ? moves_.size() / 2 : (moves_.size() + 1) / 2;
    // lila lets no one abort an arena, simul or swiss game (nor one with the noAbort rule): its
    // no-show ends as noStart (an arena's, for the opponent) or on the clock.
    if (!aborted_ && s_.rights.abort && !s_.parking && their_turn && opponent_moves == 0 &&
        now - opponent_turn_since_ > s_.abort_time + abort_extension_) {
        aborted_ = true;
        log(out, common::LogLevel::Info,
            fmt::format("game {}: opponent made no move in {} s, aborting", id_,
                        s_.abort_time.count()));
        out.push_back(game::Abort{});
    }
    // A correspondence session parks on the opponent's move, or on our turn with no move under
    // way (refused for good: a later session tries again).
    const bool stalled = stage_ == Stage::Stalled;
    if (s_.parking && (their_turn || stalled)) {
        const ParkingFacts facts{.our_turn = stalled,
                                 .move_refused = stalled,
                                 .move_pending = false,
                                 .waiting_since = stalled ? turn_started_ : opponent_turn_since_,
                                 .others_waiting = tick.others_waiting};
        if (time_to_park(s_.parking->linger, facts, now)) {
            log(out, common::LogLevel::Debug, fmt::format("game {}: parked", id_));
            return Guard::TimeToPark;  // the game goes on
        }
    }
    return Guard::None;
}

Guard GameRules::finish(const lichess::GameState& state, Actions& out) {
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
    return Guard::GameOver;
}

Guard GameRules::on_unreadable(const lichess::GameUnreadable& line, Actions& out) {
    // The game's state is unknown now: waiting for the next line could lose it on time.
    const std::string what = line.type.empty() ? "a line" : "its " + common::printable(line.type);
    const std::string field = line.field.empty() ? "" : " (" + common::printable(line.field) + ")";
    (void)leave(what + " could not be read" + field + ": " + common::printable(line.problem), out);
    return Guard::Always;
}

Guard GameRules::leave(const std::string& why, Actions& out) {
    log(out, common::LogLevel::Error, fmt::format("game {}: ending the session: {}", id_, why));
    // The game may still be on: leave it cleanly rather than lose on time.
    out.push_back(game::StopPonder{});
    // lila lets a game be aborted before its second ply: count the server's plies, which a move
    // list we could not replay (or did not read) may have more of than ours.
    out.push_back(
        game::LeaveGame{.abort = std::max(moves_.size(), server_plies_) < 2 && s_.rights.abort});
    return Guard::BadInput;
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
