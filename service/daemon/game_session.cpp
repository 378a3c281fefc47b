// GameSession: the threads, the stream, the engine and the requests of one game; its rules are
// GameRules's.
#include "service/daemon/game_session.hpp"

#include <spdlog/spdlog.h>

#include <system_error>
#include <type_traits>

#include "common/text.hpp"
#include "service/ops/logging.hpp"
#include "service/ops/pgn_writer.hpp"

namespace service {

namespace {

// A GameSession that the CorrespondenceDesk can watch through DeskSession.
class ParkableSession final : public DeskSession {
  public:
    ParkableSession(SessionContext context, const std::string& game_id, ParkingRules rules)
        : session_(std::move(context), game_id, std::move(rules)) {}
    bool finished() const override { return session_.finished(); }
    bool game_over() const override { return session_.game_over(); }
    std::optional<GamePolicies> policies() const override { return session_.policies(); }

  private:
    GameSession session_;
};

GameSettings settings_for(const SessionContext& ctx, const std::string& game_id,
                          std::optional<ParkingRules> parking, GameRights rights) {
    GameSettings s = GameSettings::from(ctx.config, game_id, ctx.my_id, ctx.my_name);
    s.timings = ctx.timings;
    s.parking = std::move(parking);
    s.rights = rights;
    return s;
}

// The action as one of a game's calls to Lichess, when it is one (LeaveGame aside).
std::optional<GameCall> as_call(GameAction& action) {
    return std::visit(
        [](auto& a) -> std::optional<GameCall> {
            using T = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<T, game::PostMove> ||
                          std::is_same_v<T, game::AcceptDraw> ||
                          std::is_same_v<T, game::AnswerTakeback> ||
                          std::is_same_v<T, game::Resign> || std::is_same_v<T, game::Abort> ||
                          std::is_same_v<T, game::ClaimVictory> || std::is_same_v<T, game::Say>)
                return GameCall{std::move(a)};
            else
                return std::nullopt;
        },
        action);
}

}  // namespace

decltype(DeskHooks::start_session) parked_sessions(SessionContext base) {
    return [base](const std::string& game_id, ParkingRules rules) -> std::unique_ptr<DeskSession> {
        SessionContext context = base;
        if (rules.first_visit) context.metrics.games_started++;
        return std::make_unique<ParkableSession>(std::move(context), game_id, std::move(rules));
    };
}

GameSession::GameSession(SessionContext context, std::string game_id,
                         std::optional<ParkingRules> parking, GameRights rights)
    : ctx_(std::move(context)),
      game_id_(std::move(game_id)),
      shown_id_(common::printable(game_id_)),
      parked_sessions_(parking.has_value()),
      games_waiting_(parking ? parking->games_waiting : nullptr),
      rules_(settings_for(ctx_, game_id_, std::move(parking), rights)),
      status_entry_(ctx_.status, game_id_),
      chat_commands_(ctx_.my_id, ctx_.my_name),
      worker_([this](std::stop_token st) { worker_main(st); }),
      stream_([this](std::stop_token st) { stream_main(st); }) {}

GameSession::~GameSession() { stop(); }

void GameSession::stop() {
    stopping_ = true;
    stop_search();
    stream_.request_stop();
    worker_.request_stop();
    queue_.close();
}

std::shared_ptr<std::atomic<bool>> GameSession::start_search() {
    std::lock_guard lock(search_mutex_);
    search_stop_ = std::make_shared<std::atomic<bool>>(final_seen_.load() || stopping_);
    return search_stop_;
}

void GameSession::stop_search() {
    std::lock_guard lock(search_mutex_);
    if (search_stop_) *search_stop_ = true;
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
    // Each state's facts are read here, once: a final state stops a running search at once, a
    // move the server's list shows is not posted again, and the rules get the same facts with
    // the line. An unknown status is no end: the rules decide what to do.
    const auto seen = [this](const StateFacts& facts) {
        server_plies_ = facts.plies();
        if (facts.over) {
            final_seen_ = true;
            stop_search();
        }
    };
    lichess::GameStream stream(
        ctx_.api, game_id_,
        [&](const lichess::GameEvent& event) {
            if (const auto* full = std::get_if<lichess::GameFull>(&event)) {
                count_reconnects();
                game::FullReceived line{*full};
                seen(line.facts);
                queue_.push(GameInput{std::move(line)});
            } else if (const auto* state = std::get_if<lichess::GameState>(&event)) {
                game::StateReceived line{*state};
                seen(line.facts);
                queue_.push(GameInput{std::move(line)});
            } else if (const auto* gone = std::get_if<lichess::OpponentGone>(&event)) {
                queue_.push(GameInput{game::OpponentGoneReceived{*gone}});
            } else if (const auto* chat = std::get_if<lichess::ChatLine>(&event)) {
                queue_.push(*chat);
            } else if (const auto* bad = std::get_if<lichess::GameUnreadable>(&event)) {
                // Logged by the stream (error level, the game and the field); the rules leave.
                stop_search();
                queue_.push(GameInput{game::UnreadableReceived{*bad}});
            }
        },
        ctx_.stream_options);
    stats = &stream.stats();
    try {
        const lichess::GameStreamEnd end = stream.run(stop);
        count_reconnects();
        queue_.push(StreamEnded{end});
    } catch (const std::exception& e) {
        // Nothing reads the game any more: the worker leaves it rather than wait for lines.
        queue_.push(StreamEnded{{lichess::GameStreamEnd::Reason::Error, std::nullopt}, e.what()});
    }
}

void GameSession::worker_main(std::stop_token stop) {
    std::stop_callback on_stop(stop, [this] {
        stop_search();
        queue_.close();
    });
    try {
        play(stop);
    } catch (const std::exception& e) {
        fail(e.what());
    }
    try {
        (void)finish_ponder(false);
    } catch (const std::exception& e) {
        spdlog::error("game {}: stopping the ponder search failed: {}", shown_id_, e.what());
    }
    engine_.reset();
    finished_ = true;
}

void GameSession::fail(const std::string& what) {
    // Nothing plays the game any more: leave it (abort while lila allows, else resign) rather
    // than lose it on time; a daemon's restart may find it again only if leaving failed.
    spdlog::critical("game {}: the session failed: {}; leaving the game", shown_id_, what);
    try {
        leave_game(rules_.moves().size() < 2);
    } catch (const std::exception& e) {
        spdlog::error("game {}: could not leave the game: {}", shown_id_, e.what());
    }
    phase_ = Phase::Left;
}

void GameSession::play(std::stop_token stop) {
    while (!stop.stop_requested() && !rules_.ended()) {
        auto item = queue_.pop_for(ctx_.timings.poll);
        if (item) {
            if (auto* end = std::get_if<StreamEnded>(&*item)) {
                if (!end->failure.empty()) {
                    fail("its game stream's thread failed: " + end->failure);
                    break;
                }
                if (end->end.reason == lichess::GameStreamEnd::Reason::Error) {
                    spdlog::error("game {}: the game stream failed: {}", shown_id_,
                                  end->end.error ? end->end.error->describe() : "unknown error");
                } else if (end->end.reason == lichess::GameStreamEnd::Reason::GameOver) {
                    spdlog::info("game {}: stream closed after the game ended", shown_id_);
                }
                break;
            }
            if (auto* chat = std::get_if<lichess::ChatLine>(&*item))
                on_chat(*chat);
            else
                dispatch(std::move(std::get<GameInput>(*item)));
        }
        if (!rules_.ended())
            dispatch(game::Tick{.others_waiting = games_waiting_ && games_waiting_->load() > 0});
    }
}

void GameSession::dispatch(GameInput event) {
    std::optional<GameInput> next = std::move(event);
    while (next) {
        // Before the actions run (a Think searches for seconds): the page shows the new position
        // while we think about it.
        const bool shown = !std::holds_alternative<game::Tick>(*next);
        watch_.saw(*next, std::chrono::system_clock::now());
        auto actions = rules_.on(*next, std::chrono::steady_clock::now());
        next.reset();
        if (shown && rules_.phase() == Phase::Playing) status_entry_.publish(watch_.status(rules_));
        // The first game line makes the game Playing: a real-time session holds its engine
        // from then on (a parked correspondence session borrows one per search).
        if (rules_.phase() == Phase::Playing && !engine_ && !parked_sessions_) {
            engine_.emplace(ctx_.engines.acquire());
            (*engine_)->set_strength(strength());
        }
        for (auto& action : actions) {
            // Only an action that waits for an answer returns one, and it is its batch's last.
            if (auto answer = execute(action)) next = std::move(answer);
        }
        phase_ = rules_.phase();
    }
}

std::optional<GameInput> GameSession::execute(GameAction& action) {
    // A call to Lichess (a move, an answer, a claim, chat) goes to the runner; leaving a game
    // first checks that it is still on (leave_game).
    if (auto lichess_call = as_call(action)) return call(std::move(*lichess_call));
    if (auto* a = std::get_if<game::Log>(&action)) {
        write_log(*a);
    } else if (auto* a = std::get_if<game::Think>(&action)) {
        GameInput chosen = choose_move(std::move(*a), *this);
        if (const auto* m = std::get_if<game::MoveChosen>(&chosen);
            m && m->source == MoveSource::Syzygy)
            ctx_.metrics.syzygy_moves++;
        return chosen;
    } else if (auto* a = std::get_if<game::MovePlayed>(&action)) {
        ctx_.metrics.move_reaction_latency.observe(std::chrono::milliseconds(a->reaction_ms));
        ctx_.metrics.move_think_time.observe(std::chrono::milliseconds(a->think_ms));
        if (const auto clock = watch_.our_clock_ms(rules_))
            ctx_.metrics.move_clock_left.observe(
                std::chrono::milliseconds(*clock - a->reaction_ms - a->think_ms));
    } else if (auto* a = std::get_if<game::LeaveGame>(&action)) {
        leave_game(a->abort);
    } else if (auto* a = std::get_if<game::StartPonder>(&action)) {
        if (engine_) start_ponder(std::move(*a));
    } else if (std::holds_alternative<game::StopPonder>(action)) {
        (void)finish_ponder(false);
    } else if (auto* a = std::get_if<game::GameEnded>(&action)) {
        ctx_.metrics.record_game_finished(a->result);
        if (a->lost_on_time) ctx_.metrics.time_forfeits++;
        std::string pgn = write_pgn(a->record);
        status_entry_.finished(
            watch_.finished(rules_, a->result, std::move(pgn), std::chrono::system_clock::now()));
    }
    return std::nullopt;
}

std::optional<GameInput> GameSession::call(GameCall call) {
    GameRequest request{.game_id = game_id_, .call = std::move(call)};
    if (const auto* post = std::get_if<game::PostMove>(&request.call)) {
        request.still_on = [this, give_up_at = post->give_up_at, ply = post->ply] {
            return !final_seen_ && !stopping_ && server_plies_ < ply &&
                   std::chrono::steady_clock::now() < give_up_at;
        };
    }
    auto answer = ctx_.requests.run_for_game(request);
    // A post that failed because the game ended meanwhile is no failure to retry.
    if (auto* posted = answer ? std::get_if<game::MovePosted>(&*answer) : nullptr)
        posted->outcome.game_over = !posted->outcome.ok && final_seen_;
    return answer;
}

std::optional<BookChoice> GameSession::book_move(const game::Think& t) {
    const OpeningBook* book = ctx_.books ? ctx_.books->for_variant(t.variant) : nullptr;
    if (!book) return std::nullopt;
    return book->choose(t.position, t.fullmove, book_rng_);
}

std::optional<OnlineChoice> GameSession::online_move(const engine::Position& position,
                                                     const OnlineAsk& ask) {
    return ctx_.online->find(position, ask, online_game_);
}

bool GameSession::local_tables_cover(const engine::Position& position) {
    // A parked session has no engine of its own: not worth one for this question.
    return engine_ && (*engine_)->tables_cover(position);
}

engine::SearchResult GameSession::search(const engine::Position& position,
                                         const engine::SearchLimits& limits) {
    std::optional<EnginePool::Lease> lent;
    if (!engine_) {  // a parked session's, for now
        lent.emplace(ctx_.engines.acquire());
        (*lent)->set_strength(strength());
    }
    const auto stop = start_search();
    return (engine_ ? *engine_ : *lent)->search(position, limits, *stop);
}

std::optional<engine::Strength> GameSession::strength() const {
    const GameLevel* level = rules_.level();
    if (!level || !level->elo) return std::nullopt;
    // Seeded by the game id: a game's choices can be replayed, and two games differ.
    return engine::Strength{*level->elo, engine::seed_from_text(game_id_)};
}

void GameSession::leave_game(bool abort) {
    if (final_seen_) return;  // over already: nothing to leave
    (void)call(game::LeaveGame{abort});
}

void GameSession::on_chat(const lichess::ChatLine& line) {
    if (line.username == ctx_.my_name) return;
    spdlog::debug("game {}: chat [{}] {}: {}", shown_id_, common::printable(line.room),
                  common::printable(line.username), common::printable(line.text));
    const auto reply = chat_commands_.answer(
        line, ChatFacts{.last_search = rules_.last_search(),
                        .first_moves_pending = rules_.first_moves_pending() && !final_seen_,
                        .slots = ctx_.slots ? std::optional(ctx_.slots->snapshot()) : std::nullopt,
                        .level = rules_.level()});
    if (!reply) return;
    // !wait is for the abort timer, which runs until the opponent's first move.
    if (reply->extend_abort_timer.count() > 0)
        dispatch(game::AbortTimerExtended{reply->extend_abort_timer});
    (void)call(game::Say{reply->room, reply->text});
}

void GameSession::start_ponder(game::StartPonder&& ponder) {
    auto p = std::make_unique<Ponder>();
    {
        std::lock_guard lock(search_mutex_);
        p->stop = std::make_shared<std::atomic<bool>>(final_seen_.load() || stopping_);
        search_stop_ = p->stop;
    }
    Ponder* raw = p.get();
    try {
        p->thread = std::jthread(
            [this, raw, position = std::move(ponder.position), limits = ponder.limits] {
                raw->result = (*engine_)->search(position, limits, *raw->stop);
            });
    } catch (const std::system_error& e) {
        // No thread to spare (the task limit): the game is played without pondering.
        spdlog::warn("game {}: no ponder search: its thread could not be started: {}", shown_id_,
                     e.what());
        return;
    }
    ponder_ = std::move(p);
}

std::optional<engine::SearchResult> GameSession::finish_ponder(bool hit) {
    if (!ponder_) return std::nullopt;
    std::unique_ptr<Ponder> p = std::move(ponder_);
    if (hit)
        (*engine_)->ponderhit();
    else
        *p->stop = true;
    p->thread.join();
    if (!hit) return std::nullopt;
    return p->result;
}

std::string GameSession::write_pgn(const GameRecord& record) {
    if (ctx_.config.pgn_directory.empty()) return {};
    auto written =
        service::write_pgn(ctx_.config.pgn_directory, record, ctx_.metrics.pgn_write_errors);
    if (!written) {
        spdlog::warn("game {}: PGN not written: {}", shown_id_, written.error().message);
        return {};
    }
    spdlog::info("game {}: PGN written to {}", shown_id_, written->string());
    return written->string();
}

}  // namespace service
