// GameSession: one game from gameFull to the final state.
#include "service/game_session.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <sstream>

#include "engine/bitboard.hpp"
#include "engine/fen.hpp"
#include "service/chat_text.hpp"
#include "service/log_text.hpp"
#include "service/pgn_tags.hpp"
#include "service/pgn_writer.hpp"

namespace service {

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> split_moves(const std::string& text) {
    std::vector<std::string> moves;
    std::istringstream in(text);
    for (std::string m; in >> m;) moves.push_back(m);
    return moves;
}

std::int64_t ms_since(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

std::string score_text(const engine::Score& s) {
    return s.is_mate ? "#" + std::to_string(s.value) : std::to_string(s.value) + "cp";
}

}  // namespace

GameSession::GameSession(SessionContext context, std::string game_id,
                         std::optional<ParkingRules> parking)
    : ctx_(std::move(context)),
      game_id_(std::move(game_id)),
      parking_(std::move(parking)),
      budget_(TimeBudgetSettings::from(ctx_.config)),
      worker_([this](std::stop_token st) { worker_main(st); }),
      stream_([this](std::stop_token st) { stream_main(st); }) {}

GameSession::~GameSession() { stop(); }

void GameSession::stop() {
    search_stop_ = true;
    stream_.request_stop();
    worker_.request_stop();
    queue_.close();
}

void GameSession::stream_main(std::stop_token stop) {
    // The stream's reconnects go to /metrics when they happen (every connection starts with a
    // gameFull), and those that failed before a line came when the stream ends.
    const lichess::StreamStats* stats = nullptr;
    std::uint64_t reconnects_counted = 0;
    const auto count_reconnects = [&] {
        const std::uint64_t reconnects = stats->reconnects.load();
        ctx_.metrics.stream_reconnects += reconnects - reconnects_counted;
        reconnects_counted = reconnects;
    };
    lichess::GameStream stream(
        ctx_.api, game_id_,
        [this, &count_reconnects](const lichess::GameEvent& event) {
            if (std::holds_alternative<lichess::GameFull>(event)) count_reconnects();
            // A final state stops a running search at once; the worker learns the rest.
            // An unknown status is bad input, not an end: the worker decides what to do.
            if (const auto* s = std::get_if<lichess::GameState>(&event);
                s && lichess::is_game_over(s->status) &&
                s->status != lichess::GameStatus::Unknown) {
                game_over_ = true;
                search_stop_ = true;
            }
            queue_.push(event);
        },
        ctx_.stream_options);
    stats = &stream.stats();
    const lichess::GameStreamEnd end = stream.run(stop);
    count_reconnects();
    queue_.push(StreamEnded{end});
}

void GameSession::worker_main(std::stop_token stop) {
    std::stop_callback on_stop(stop, [this] {
        search_stop_ = true;
        queue_.close();
    });
    while (!stop.stop_requested() && !finished_) {
        auto item = queue_.pop_for(std::chrono::milliseconds(250));
        if (item) {
            if (auto* end = std::get_if<StreamEnded>(&*item)) {
                if (end->end.reason == lichess::GameStreamEnd::Reason::Error) {
                    spdlog::error("game {}: the game stream failed: {}", game_id_,
                                  end->end.error ? end->end.error->describe() : "unknown error");
                } else if (end->end.reason == lichess::GameStreamEnd::Reason::GameOver) {
                    spdlog::info("game {}: stream closed after the game ended", game_id_);
                }
                break;
            }
            std::visit(
                [this](const auto& e) {
                    using T = std::decay_t<decltype(e)>;
                    if constexpr (std::is_same_v<T, lichess::GameFull>)
                        on_game_full(e);
                    else if constexpr (std::is_same_v<T, lichess::GameState>)
                        on_state(e);
                    else if constexpr (std::is_same_v<T, lichess::ChatLine>)
                        on_chat(e);
                    else if constexpr (std::is_same_v<T, lichess::OpponentGone>)
                        on_opponent_gone(e);
                },
                std::get<lichess::GameEvent>(*item));
        }
        if (!finished_) on_timer();
    }
    (void)finish_ponder(false);
    engine_.reset();
    const bool was_finished = finished_.exchange(true);
    (void)was_finished;
    if (ctx_.on_finished) ctx_.on_finished(game_id_);
}

void GameSession::on_game_full(const lichess::GameFull& full) {
    if (full.id != game_id_) {
        end_session_on_bad_input("gameFull is for another game ('" + full.id + "')");
        return;
    }
    const bool white = full.white.id && *full.white.id == ctx_.my_id;
    const bool black = full.black.id && *full.black.id == ctx_.my_id;
    if (!white && !black) {
        end_session_on_bad_input("gameFull names neither player as us (" + ctx_.my_id + ")");
        return;
    }
    const std::string& variant = full.variant.key;
    if (variant != "standard" && variant != "chess960" && variant != "fromPosition") {
        end_session_on_bad_input("variant '" + variant + "' cannot be played");
        return;
    }
    const bool chess960 = variant == "chess960";
    const std::string initial_fen =
        full.is_startpos() ? std::string(engine::START_FEN) : full.initial_fen;
    const bool first = !full_.has_value();
    // A reconnect's gameFull replays the same game: keep the position, so that on_state sees
    // whether the move list changed (an unchanged one starts no search and keeps a pending move
    // retry) and the PGN keeps its clocks and evals. sync_position rebuilds from the start when
    // the list does not extend ours.
    const bool same_start =
        !first && position_ && initial_fen == initial_fen_ && chess960 == chess960_;
    if (!same_start) {
        auto start = engine::Position::from_fen(initial_fen, chess960);
        if (!start) {
            end_session_on_bad_input("the initial FEN does not parse: " + start.error());
            return;
        }
        position_ = *start;
        moves_.clear();
        notes_.clear();
    }
    our_color_ = white ? lichess::Color::White : lichess::Color::Black;
    chess960_ = chess960;
    initial_fen_ = initial_fen;
    full_ = full;
    if (first) {
        if (!parking_) engine_.emplace(ctx_.engines.acquire());  // parked: one per search
        const auto& opp = white ? full.black : full.white;
        spdlog::info("game {}: {} vs {} ({}, {}, {}), we play {}", game_id_,
                     printable(full.white.name), printable(full.black.name), printable(variant),
                     printable(full.speed), full.rated ? "rated" : "casual",
                     white ? "white" : "black");
        (void)opp;
    }
    on_state(full.state);
}

bool GameSession::sync_position(const std::vector<std::string>& moves) {
    const bool extends =
        moves.size() >= moves_.size() && std::equal(moves_.begin(), moves_.end(), moves.begin());
    if (!extends) {
        // A takeback (or a server that changed its mind): rebuild from the initial position.
        auto start = engine::Position::from_fen(initial_fen_, chess960_);
        if (!start) return false;
        position_ = *start;
        moves_.clear();
        notes_.resize(0);
    }
    for (std::size_t i = moves_.size(); i < moves.size(); ++i) {
        auto m = position_->play_uci(moves[i]);
        if (!m) {
            spdlog::error("game {}: move {} '{}' from the server is illegal: {}", game_id_, i + 1,
                          printable(moves[i]), m.error());
            return false;
        }
        moves_.push_back(moves[i]);
        PgnMove note;
        note.uci = moves[i];
        notes_.push_back(note);
    }
    return true;
}

bool GameSession::our_turn() const {
    const bool white_to_move = position_->side_to_move() == engine::WHITE;
    return white_to_move == (our_color_ == lichess::Color::White);
}

void GameSession::on_state(const lichess::GameState& state) {
    if (!full_ || !position_) return;  // a state before gameFull: wait for the full one
    if (state.status == lichess::GameStatus::Unknown) {
        // Maybe a status newer than this client; the game may still be on, and a session
        // that cannot tell would lose it on time: leave it (abort/resign) instead.
        end_session_on_bad_input("unknown game status '" + state.status_name + "'");
        return;
    }
    if (lichess::is_game_over(state.status)) {
        game_over_ = true;
        // The final move list matters for the PGN; a bad one must not stop the finish.
        (void)sync_position(split_moves(state.moves));
        finish(state);
        return;
    }
    const auto moves = split_moves(state.moves);
    const std::size_t before = moves_.size();
    const bool rebuilt =
        !(moves.size() >= moves_.size() && std::equal(moves_.begin(), moves_.end(), moves.begin()));
    if (!sync_position(moves)) {
        end_session_on_bad_input("the move list does not replay legally");
        return;
    }
    const bool changed = rebuilt || moves_.size() != before || !greeted_;
    record_clocks(state, before);
    if (posted_at_ && moves_.size() >= posted_ply_) {
        lag_.record(ms_since(*posted_at_));
        posted_at_.reset();
    }
    // A move of ours that was taken back no longer answers for this ply: move again there.
    if (rebuilt && moved_at_ply_ >= moves_.size()) moved_at_ply_ = SIZE_MAX;
    // A ponder search started from a position that was taken back would be wrong if its
    // expected move came again.
    if (rebuilt) (void)finish_ponder(false);
    if (changed) {
        draw_answered_this_ply_ = false;
        move_retry_.reset();  // the position moved on: a pending move may no longer fit
        if (our_turn())
            turn_started_ = Clock::now();
        else
            opponent_turn_since_ = Clock::now();
    }
    // Hello only at the start of a game (fewer than 2 plies, as lichess-bot does): a session
    // after a restart, or a correspondence game's later sessions, say nothing twice.
    const bool greet = moves_.size() < 2 && (!parking_ || parking_->first_visit);
    if (!greeted_) {
        greeted_ = true;
        if (greet) {
            ctx_.chat.send(game_id_, lichess::ChatRoom::Player, expand(ctx_.config.greeting.hello));
            ctx_.chat.send(game_id_, lichess::ChatRoom::Spectator,
                           expand(ctx_.config.greeting.hello_spectators));
        }
    }

    // Offers from the opponent: a draw as the draw_or_resign policy says, takebacks until
    // max_takebacks_accepted have been granted in this game.
    const bool we_are_white = our_color_ == lichess::Color::White;
    const bool opponent_offers_draw = we_are_white ? state.bdraw : state.wdraw;
    const bool opponent_wants_takeback = we_are_white ? state.btakeback : state.wtakeback;
    if (opponent_offers_draw && !draw_answered_this_ply_) {
        draw_answered_this_ply_ = true;
        const bool accept =
            draw_resign_->accept_draw(engine::popcount(position_->board().pieces()));
        if (accept) {
            auto r = ctx_.api.handle_draw(game_id_, true);
            spdlog::info("game {}: accepted a draw offer{}", game_id_,
                         r ? "" : " (" + r.error().describe() + ")");
        } else {
            // lila declines an offer when the other side moves: no request before the search.
            spdlog::info("game {}: a draw offer, declined by our next move", game_id_);
        }
    }
    if (const auto accept = takebacks_->answer(opponent_wants_takeback)) {
        if (our_turn() && moved_at_ply_ == moves_.size()) {
            // The request came before our move, which declined it; a yes now would be a
            // takeback request of our own.
            spdlog::info("game {}: a takeback request was answered by our move", game_id_);
        } else {
            auto r = ctx_.api.handle_takeback(game_id_, *accept);
            if (*accept && r) takebacks_->granted();
            spdlog::info("game {}: {} a takeback request ({} of {} accepted in this game){}",
                         game_id_, *accept ? "accepted" : "declined", takebacks_->accepted(),
                         takebacks_->max_accepted(), r ? "" : " (" + r.error().describe() + ")");
            // The server sends the position after the takeback; no move in this one.
            if (*accept && r) return;
        }
    }

    // Only a new move list is a new position to search. A state that repeats ours (an offer, a
    // declined takeback, a reconnect's gameFull) while our move waits for its retry after a 429
    // or a 5xx must not search again: on_timer posts that move.
    if (changed && our_turn() && moved_at_ply_ != moves_.size()) think_and_move(state);
}

MoveClock GameSession::clock_for_us(const lichess::GameState& state) const {
    const bool white = our_color_ == lichess::Color::White;
    MoveClock clock;
    clock.real_time = full_->clock.has_value();
    clock.us = white ? engine::WHITE : engine::BLACK;
    clock.our_ms = white ? state.wtime_ms : state.btime_ms;
    clock.their_ms = white ? state.btime_ms : state.wtime_ms;
    clock.our_inc_ms = white ? state.winc_ms : state.binc_ms;
    clock.their_inc_ms = white ? state.binc_ms : state.winc_ms;
    // Moves made before a restart count too: the first-move rule is about the game.
    clock.our_moves_played = int(moves_.size() / 2);
    return clock;
}

void GameSession::think_and_move(const lichess::GameState& state) {
    const MoveClock clock = clock_for_us(state);
    // Past this our clock has run out: a move post that hangs is not sent again after it.
    flag_deadline_ = turn_started_ + std::chrono::milliseconds(
                                         std::clamp<std::int64_t>(clock.our_ms, 0, 86'400'000));
    const MoveBudget budget = budget_.for_move(clock, lag_.estimate_ms());
    if (game_over_) return;
    if (play_from_book(clock)) return;

    // A ponder search on the move the opponent just played carries on under the clock.
    const auto started = Clock::now();
    std::optional<EnginePool::Lease> lent;
    std::optional<engine::SearchResult> pondered = finish_ponder(/*opponent_move_known=*/true);
    engine::SearchResult result;
    if (pondered && pondered->best && position_->legal_moves().contains(pondered->best)) {
        result = *pondered;
    } else {
        search_stop_ = false;
        if (!engine_) lent.emplace(ctx_.engines.acquire());  // given back after the post
        result = (engine_ ? *engine_ : *lent)->search(*position_, budget.limits, search_stop_);
    }
    const std::int64_t think_ms = ms_since(started);
    if (game_over_ || !result.best) return;

    // Only searched moves feed the draw and resign counters: a book move has no score.
    const DrawResignDecision verdict = draw_resign_->after_search(result.score, position_->board());
    last_search_ = LastSearch{.board = position_->board(), .info = result};
    if (verdict.resign) {
        auto r = ctx_.api.resign(game_id_);
        spdlog::info("game {}: resigning at score {} ({} moves at or below {}cp){}", game_id_,
                     score_text(result.score), draw_resign_->losing_streak(),
                     ctx_.config.draw_or_resign.resign_score,
                     r ? "" : " failed: " + r.error().describe());
        if (r) return;  // the final state ends the session; if resigning failed, play on
    }
    const std::string uci = position_->to_uci(result.best);
    if (verdict.offer_draw)
        spdlog::info("game {}: offering a draw with {} (score {}, {} moves within {}cp)", game_id_,
                     uci, score_text(result.score), draw_resign_->drawish_streak(),
                     ctx_.config.draw_or_resign.offer_draw_score);
    const PgnEval eval{
        .kind = result.score.is_mate ? PgnEval::Kind::Mate : PgnEval::Kind::Centipawns,
        .value = result.score.value,
        .depth = result.depth};
    if (!post_move({.uci = uci, .offer_draw = verdict.offer_draw, .eval = eval, .book = false}))
        return;
    const std::int64_t reaction_ms = ms_since(turn_started_) - think_ms;
    ctx_.metrics.move_reaction_latency.observe(std::chrono::milliseconds(reaction_ms));
    ctx_.metrics.move_think_time.observe(std::chrono::milliseconds(think_ms));
    spdlog::info(
        "game {} ply {} move {} score {} depth {} nodes {} nps {} time {}ms clock {}ms "
        "({}{}, lag {}ms)",
        game_id_, moves_.size() + 1, uci, score_text(result.score), result.depth, result.nodes,
        result.nps, think_ms, clock.our_ms, to_string(budget.mode), pondered ? ", ponder hit" : "",
        lag_.estimate_ms());

    if (ctx_.config.engine.ponder && result.ponder && engine_) {
        // Our clock after this move, as the server will show it: what we used, plus increment.
        MoveClock after = clock;
        after.our_ms =
            std::max<std::int64_t>(1, clock.our_ms - think_ms - reaction_ms) + clock.our_inc_ms;
        after.our_moves_played += 1;
        start_ponder(result.best, result.ponder, after);
    }
}

bool GameSession::play_from_book(const MoveClock& clock) {
    const OpeningBook* book = ctx_.books ? ctx_.books->for_variant(full_->variant.key) : nullptr;
    if (!book) return false;
    const auto started = Clock::now();
    const auto choice = book->choose(*position_, int(moves_.size() / 2) + 1, book_rng_);
    if (!choice) return false;
    // A ponder search from our last searched move is of no use now, and a book move has no
    // expected reply to ponder on.
    (void)finish_ponder(false);
    const std::int64_t think_ms = ms_since(started);
    if (!post_move({.uci = choice->uci, .offer_draw = false, .eval = std::nullopt, .book = true}))
        return true;
    ctx_.metrics.move_reaction_latency.observe(
        std::chrono::milliseconds(ms_since(turn_started_) - think_ms));
    ctx_.metrics.move_think_time.observe(std::chrono::milliseconds(think_ms));
    spdlog::info("game {}: move {} (book) ply {} weight {} from {} clock {}ms", game_id_,
                 choice->uci, moves_.size() + 1, choice->weight, choice->file, clock.our_ms);
    return true;
}

void GameSession::start_ponder(engine::Move ours, engine::Move expected, const MoveClock& after) {
    engine::Position future = *position_;
    future.play(ours);
    if (!future.legal_moves().contains(expected)) return;
    const std::string expected_uci = future.to_uci(expected);
    future.play(expected);
    if (future.legal_moves().empty()) return;
    engine::SearchLimits limits = budget_.for_move(after, lag_.estimate_ms()).limits;
    limits.ponder = true;
    auto p = std::make_unique<Ponder>();
    p->expected = expected;
    p->expected_uci = expected_uci;
    Ponder* raw = p.get();
    p->thread = std::jthread([this, raw, future = std::move(future), limits] {
        raw->result = (*engine_)->search(future, limits, raw->stop);
    });
    ponder_ = std::move(p);
}

std::optional<engine::SearchResult> GameSession::finish_ponder(bool opponent_move_known) {
    if (!ponder_) return std::nullopt;
    std::unique_ptr<Ponder> p = std::move(ponder_);
    // The opponent's last move, compared in the position before it was played.
    bool hit = false;
    if (opponent_move_known && !moves_.empty()) {
        engine::Position before = *position_;
        if (before.undo()) {
            auto m = before.parse_uci(moves_.back());
            hit = m && *m == p->expected;
        }
    }
    if (hit)
        (*engine_)->ponderhit();
    else
        p->stop = true;
    p->thread.join();
    if (!hit) return std::nullopt;
    spdlog::debug("game {}: ponder hit on {}", game_id_, p->expected_uci);
    return p->result;
}

bool GameSession::post_move(const OutgoingMove& move) {
    const std::string& uci = move.uci;
    move_retry_.reset();
    posted_at_ = Clock::now();
    posted_ply_ = moves_.size() + 1;
    auto r = ctx_.api.post_move(
        game_id_, uci, move.offer_draw ? std::optional(true) : std::nullopt,
        [this] { return !game_over_ && !finished_ && Clock::now() < flag_deadline_; });
    if (r) {
        moved_at_ply_ = moves_.size();
        ++our_moves_;
        ctx_.metrics.moves_played++;
        // Attached to the move when the server's state shows it (record_clocks).
        pending_eval_ = move.eval;
        pending_book_ = move.book;
        return true;
    }
    posted_at_.reset();
    const lichess::ApiError& e = r.error();
    // A 4xx other than 429 is the server's final no (a 400 at the end of a game is a normal
    // race; 401/403/404 will not get better by asking again), as is a cancel at shutdown.
    const bool final_no =
        e.kind == lichess::ApiError::Kind::Http && e.status >= 400 && e.status < 500;
    if (game_over_ || final_no || e.kind == lichess::ApiError::Kind::Cancelled) {
        spdlog::info("game {}: move {} not accepted: {}", game_id_, uci, e.describe());
        return false;
    }
    // A 429 pause, or 5xx/network errors beyond the client's retries, may pass: no new
    // gameState would come to make us move again, so post the same move again later.
    const auto wait = e.retry_after.value_or(std::chrono::milliseconds(250));
    move_retry_ = MoveRetry{.move = move, .at = Clock::now() + wait};
    spdlog::warn("game {}: posting move {} failed: {}; trying again in {} ms", game_id_, uci,
                 e.describe(), wait.count());
    return false;
}

void GameSession::on_chat(const lichess::ChatLine& line) {
    if (line.username == ctx_.my_name) return;
    spdlog::debug("game {}: chat [{}] {}: {}", game_id_, printable(line.room),
                  printable(line.username), printable(line.text));
    // !wait is for the abort timer, which runs until the opponent's first move.
    const bool white = our_color_ == lichess::Color::White;
    const bool before_first_moves =
        full_ && !game_over_ && (white ? moves_.size() < 2 : moves_.empty());
    const auto reply = chat_commands_.answer(
        line, ChatFacts{.last_search = last_search_ ? &*last_search_ : nullptr,
                        .first_moves_pending = before_first_moves});
    if (!reply) return;
    abort_extension_ += reply->extend_abort_timer;
    ctx_.chat.send(game_id_, reply->room, reply->text);
}

void GameSession::on_opponent_gone(const lichess::OpponentGone& gone) {
    if (gone.gone && gone.claim_win_in_seconds) {
        claim_attempts_ = 0;
        claim_victory_at_ = Clock::now() + std::chrono::seconds(*gone.claim_win_in_seconds) +
                            std::chrono::milliseconds(300);
        spdlog::info("game {}: opponent gone; claiming victory in {} s", game_id_,
                     *gone.claim_win_in_seconds);
    } else if (!gone.gone && claim_victory_at_) {
        claim_victory_at_.reset();
        spdlog::info("game {}: opponent is back", game_id_);
    }
}

void GameSession::on_timer() {
    if (!full_ || !position_ || game_over_) return;
    const auto now = Clock::now();
    if (move_retry_ && now >= move_retry_->at) {
        const OutgoingMove move = std::move(move_retry_->move);
        move_retry_.reset();
        if (our_turn() && moved_at_ply_ != moves_.size() && post_move(move))
            spdlog::info("game {}: move {} posted on a retry", game_id_, move.uci);
    }
    // lila lets a player claim only while the gone opponent is to move (Pov.mightClaimWin), and
    // answers 200 without doing anything otherwise: a claim that falls due during our turn
    // waits for our move, and a 200 that ended nothing is asked again (a few times). A 400 (not
    // gone long enough, or back) waits for lila's next opponentGone line, sent every 5 s.
    if (claim_victory_at_ && now >= *claim_victory_at_ && !our_turn()) {
        auto r = ctx_.api.claim_victory(game_id_);
        const bool final_no = !r && r.error().kind == lichess::ApiError::Kind::Http &&
                              r.error().status >= 400 && r.error().status < 500;
        if (final_no || ++claim_attempts_ >= 5)
            claim_victory_at_.reset();
        else
            claim_victory_at_ = now + std::chrono::seconds(r ? 2 : 1);
        spdlog::info("game {}: claimed victory{}", game_id_,
                     r ? "" : " (refused: " + r.error().describe() + ")");
    }
    // Abort a game whose opponent never made a first move (Lichess allows it before move 2).
    const bool white = our_color_ == lichess::Color::White;
    const std::size_t opponent_moves = white ? moves_.size() / 2 : (moves_.size() + 1) / 2;
    if (!aborted_ && !parking_ && !our_turn() && opponent_moves == 0 &&
        now - opponent_turn_since_ >
            std::chrono::seconds(ctx_.config.abort_time) + abort_extension_) {
        aborted_ = true;
        auto r = ctx_.api.abort(game_id_);
        spdlog::info("game {}: opponent made no move in {} s, aborting{}", game_id_,
                     ctx_.config.abort_time, r ? "" : " (" + r.error().describe() + ")");
    }
    // Correspondence: park on the opponent's move, or after our move was refused for good (a
    // later session tries again); never while a move is being posted or waits to be.
    const bool refused = our_turn() && moved_at_ply_ != moves_.size();
    if (parking_ && !move_retry_ && (!our_turn() || refused) &&
        (now - (refused ? turn_started_ : opponent_turn_since_) >= parking_->linger ||
         (parking_->park_early && parking_->park_early()))) {
        spdlog::debug("game {}: parked", game_id_);
        finished_ = true;  // the game goes on: game_over() stays false
    }
}

void GameSession::finish(const lichess::GameState& state) {
    if (finished_) return;
    game_over_ = true;
    (void)finish_ponder(false);
    const bool white = our_color_ == lichess::Color::White;
    GameResult result = GameResult::Draw;
    if (state.winner)
        result =
            (*state.winner == lichess::Color::White) == white ? GameResult::Win : GameResult::Loss;
    if (state.status == lichess::GameStatus::Aborted) result = GameResult::Aborted;
    static constexpr const char* names[] = {"win", "loss", "draw", "aborted"};
    spdlog::info("game {}: over ({}), {} after {} plies", game_id_, printable(state.status_name),
                 names[static_cast<int>(result)], moves_.size());
    ctx_.metrics.record_game_finished(result);
    if (result == GameResult::Loss && state.status == lichess::GameStatus::OutOfTime) {
        ctx_.metrics.time_forfeits++;
        spdlog::error("game {}: LOST ON TIME", game_id_);
    }
    if (state.status != lichess::GameStatus::Aborted) {
        ctx_.chat.send(game_id_, lichess::ChatRoom::Player, expand(ctx_.config.greeting.goodbye));
        ctx_.chat.send(game_id_, lichess::ChatRoom::Spectator,
                       expand(ctx_.config.greeting.goodbye_spectators));
    }
    write_pgn(state);
    saw_end_ = true;
    finished_ = true;
}

void GameSession::end_session_on_bad_input(const std::string& why) {
    spdlog::error("game {}: ending the session: {}", game_id_, why);
    if (!game_over_) {
        // The game may still be on: leave it cleanly rather than lose on time.
        auto r = moves_.size() < 2 ? ctx_.api.abort(game_id_) : ctx_.api.resign(game_id_);
        if (!r) r = ctx_.api.resign(game_id_);
        if (!r)
            spdlog::warn("game {}: could not abort or resign: {}", game_id_, r.error().describe());
    }
    game_over_ = true;
    saw_end_ = true;
    finished_ = true;
}

std::string GameSession::expand(const std::string& text) const {
    ChatVars vars;
    vars.me = ctx_.my_name;
    if (full_)
        vars.opponent = our_color_ == lichess::Color::White ? full_->black.name : full_->white.name;
    return fit_chat(expand_chat(text, vars));
}

void GameSession::record_clocks(const lichess::GameState& state, std::size_t first_new_ply) {
    // A state carries the clock of whoever moved last; our own moves also get their eval.
    if (notes_.empty() || notes_.size() <= first_new_ply) return;
    PgnMove& last = notes_.back();
    const bool mover_white = position_->side_to_move() == engine::BLACK;
    last.clock_ms = mover_white ? state.wtime_ms : state.btime_ms;
    if (pending_eval_ && mover_white == (our_color_ == lichess::Color::White)) {
        last.eval = pending_eval_;
        pending_eval_.reset();
    }
    if (pending_book_ && mover_white == (our_color_ == lichess::Color::White)) {
        last.book = true;
        pending_book_ = false;
    }
}

void GameSession::write_pgn(const lichess::GameState& state) {
    if (ctx_.config.pgn_directory.empty() || !full_) return;
    GameRecord rec;
    rec.game_id = game_id_;
    rec.rated = full_->rated;
    rec.speed = full_->speed;
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
    rec.site = ctx_.config.url;
    rec.result = pgn_result(state.status, state.winner);
    rec.termination = pgn_termination(state.status);
    rec.moves = notes_;
    auto written =
        service::write_pgn(ctx_.config.pgn_directory, rec, ctx_.metrics.pgn_write_errors);
    if (written)
        spdlog::info("game {}: PGN written to {}", game_id_, written->string());
    else
        spdlog::warn("game {}: PGN not written: {}", game_id_, written.error());
}

}  // namespace service
