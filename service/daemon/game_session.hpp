// GameSession: the shell that plays one game. A stream thread reads the game's NDJSON stream
// into a queue; a worker thread feeds each line and a timer tick to the game's GameRules (every
// rule of the game lives there) and carries out what the rules ask for: its calls to Lichess
// (moves, answers, claims, chat) through the RequestRunner, searches on an engine of the pool,
// metrics and the PGN.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <variant>

#include "config/config.hpp"
#include "engine/position.hpp"
#include "lichess_client/api.hpp"
#include "lichess_client/events.hpp"
#include "lichess_client/game_stream.hpp"
#include "service/challenges/game_slots.hpp"
#include "service/daemon/blocking_queue.hpp"
#include "service/daemon/chat_commands.hpp"
#include "service/daemon/correspondence.hpp"
#include "service/daemon/engine_pool.hpp"
#include "service/daemon/game_watch.hpp"
#include "service/daemon/request_runner.hpp"
#include "service/game/game_rules.hpp"
#include "service/game/parking.hpp"
#include "service/moves/move_chooser.hpp"
#include "service/moves/online_moves.hpp"
#include "service/moves/opening_book.hpp"
#include "service/ops/metrics.hpp"
#include "service/ops/status_board.hpp"

namespace service {

// What a session needs from the daemon; everything outlives the session.
struct SessionContext {
    lichess::Api& api;        // the game stream
    RequestRunner& requests;  // the game's calls to Lichess, chat included
    const config::Config& config;
    std::string my_id;    // lowercase user id
    std::string my_name;  // display name
    EnginePool& engines;
    const OpeningBooks* books = nullptr;  // engine.book, read at start-up; null: no book
    OnlineMoveFinder* online = nullptr;   // online_moves.*; null: none enabled
    Metrics& metrics;
    lichess::StreamOptions stream_options;
    GameTimings timings;
    // The daemon's slot counts, for the !queue chat command; null: not known.
    const SlotsView* slots = nullptr;
    // The status page's board, where the session shows its game; null: no page.
    StatusBoard* status = nullptr;
};

// One game's session (see the top of this file). It is also where choose_move (service/moves)
// finds the sources of the game's moves: the books, the online sources, the game's engine and its
// ponder search.
class GameSession final : private MoveSources {
  public:
    // `parking`: a correspondence game's session (CorrespondenceDesk); none: real time.
    // `rights`: what lila lets us do in the game (an arena game's gameFull adds its own).
    GameSession(SessionContext context, std::string game_id,
                std::optional<ParkingRules> parking = std::nullopt, GameRights rights = {});
    ~GameSession();  // stops and joins both threads
    GameSession(const GameSession&) = delete;
    GameSession& operator=(const GameSession&) = delete;

    const std::string& game_id() const { return game_id_; }
    // The session's one signal of its end: its worker is done (the game over, left, parked,
    // its stream failed, or stop()). The owner reaps it by polling this.
    bool finished() const { return finished_.load(); }
    // The session saw the game end and recorded it (or left it on bad input); a finished session
    // that did not is parked, or its stream failed.
    bool game_over() const {
        const Phase p = phase_.load();
        return p == Phase::Over || p == Phase::Left;
    }
    // The game's policies as the rules left them; read only once finished() (the worker is
    // done with the rules then).
    [[nodiscard]] GamePolicies policies() const { return rules_.policies(); }
    // Ends the session without touching the game (daemon shutdown after the grace period).
    void stop();

  private:
    struct StreamEnded {
        lichess::GameStreamEnd end;
        std::string failure{};  // the stream's thread failed with this exception
    };
    // What the stream thread hands the worker: a line for the rules (its facts read already),
    // a chat line, or the stream's end.
    using Item = std::variant<GameInput, lichess::ChatLine, StreamEnded>;

    void stream_main(std::stop_token stop);
    void worker_main(std::stop_token stop);
    void play(std::stop_token stop);  // the worker's loop, until the game ends or a stop
    // An exception ended the worker's loop (or the stream's thread): logged, the game left.
    void fail(const std::string& what);
    // Feeds the rules one event and carries out every action it asks for, feeding the answers
    // back, until the rules wait for the next line or tick.
    void dispatch(GameInput event);
    std::optional<GameInput> execute(GameAction& action);
    // One of the game's calls, through the RequestRunner; the answer the rules wait for, if any.
    std::optional<GameInput> call(GameCall call);
    void leave_game(bool abort);
    // The engine's level for this game (rules_.level()); none: full strength.
    [[nodiscard]] std::optional<engine::Strength> strength() const;
    void on_chat(const lichess::ChatLine& line);
    // The file written, or an empty path (none kept, or it failed: logged).
    std::string write_pgn(const GameRecord& record);

    // Every search gets a fresh stop flag, set at once when the game is already over or the
    // session stopping: a final state that arrives while a search starts is never lost.
    std::shared_ptr<std::atomic<bool>> start_search();
    void stop_search();  // stops the running search (ponder included), from any thread

    // Pondering (engine.ponder): a search of the position after the expected reply, on a
    // thread of its own until the opponent moves.
    void start_ponder(game::StartPonder&& ponder);

    // MoveSources, for choose_move. finish_ponder: on a hit the ponder search goes on under the
    // clock and its result is returned; otherwise it is stopped and nullopt returned.
    std::optional<BookChoice> book_move(const game::Think& think) override;
    bool local_tables_cover(const engine::Position& position) override;
    // A game played at a level asks no online source: their moves are full strength.
    bool online_enabled() const override { return ctx_.online != nullptr && !strength(); }
    std::optional<OnlineChoice> online_move(const engine::Position& position,
                                            const OnlineAsk& ask) override;
    std::optional<engine::SearchResult> finish_ponder(bool hit) override;
    engine::SearchResult search(const engine::Position& position,
                                const engine::SearchLimits& limits) override;
    bool final_state_seen() const override { return final_seen_; }
    std::chrono::steady_clock::time_point now() const override {
        return std::chrono::steady_clock::now();
    }

    SessionContext ctx_;
    std::string game_id_;
    const std::string shown_id_;  // game_id_ as log lines show it (common::printable)
    const bool parked_sessions_;  // correspondence: an engine only while searching
    std::shared_ptr<const std::atomic<int>> games_waiting_;  // the desk's line (ParkingRules)
    GameRules rules_;
    StatusBoard::GameEntry status_entry_;
    GameWatch watch_;  // worker thread
    BlockingQueue<Item> queue_;
    std::atomic<bool> finished_{false};
    std::atomic<Phase> phase_{Phase::AwaitingGame};
    std::atomic<bool> final_seen_{false};  // the stream delivered a final state
    // Plies in the server's last state (stream thread): a move post is not sent again once the
    // server's list shows it.
    std::atomic<std::size_t> server_plies_{0};

    std::mutex search_mutex_;
    std::shared_ptr<std::atomic<bool>> search_stop_;  // the running search's (guarded)
    std::atomic<bool> stopping_{false};               // stop() was called

    // Worker-thread state.
    std::optional<EnginePool::Lease> engine_;
    BookRng book_rng_{std::random_device{}()};
    OnlineGameState online_game_;
    ChatCommands chat_commands_;
    struct Ponder {
        std::shared_ptr<std::atomic<bool>> stop;
        engine::SearchResult result;  // written by the thread, read after join
        std::jthread thread;
    };
    std::unique_ptr<Ponder> ponder_;

    std::jthread worker_;
    std::jthread stream_;
};

// The CorrespondenceDesk's sessions: GameSessions with `base` as their context plus the desk's
// parking rules.
[[nodiscard]] decltype(DeskHooks::start_session) parked_sessions(SessionContext base);

}  // namespace service
