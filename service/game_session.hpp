// GameSession: plays one game. A stream thread reads the game's NDJSON stream into a queue;
// a worker thread rebuilds the position from every state, thinks on our turn, posts moves,
// and handles offers, chat, the abort timer, opponentGone claims and the game's end.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "config/config.hpp"
#include "engine/position.hpp"
#include "lichess_client/api.hpp"
#include "lichess_client/events.hpp"
#include "lichess_client/game_stream.hpp"
#include "service/blocking_queue.hpp"
#include "service/opening_book.hpp"
#include "service/chat_commands.hpp"
#include "service/chat_sender.hpp"
#include "service/draw_resign.hpp"
#include "service/engine_pool.hpp"
#include "service/metrics.hpp"
#include "service/pgn_writer.hpp"
#include "service/takeback_policy.hpp"
#include "service/time_budget.hpp"

namespace service {

// A correspondence game's session, run by the CorrespondenceDesk: it holds an engine only
// while it searches, and ends "parked" (finished, the game still on) once the opponent has been
// on move for `linger`, or at once when `park_early` says other games wait for a session.
struct ParkingRules {
    std::chrono::milliseconds linger{15000};
    std::function<bool()> park_early;
    bool first_visit = true;  // greet only on the game's first session, before our first move
    // The game's draw/resign streaks, kept by the desk between sessions (a parked game often
    // gets one search per session, so a session's own policy would never reach a streak).
    std::shared_ptr<DrawResignPolicy> draw_resign;
    std::shared_ptr<TakebackPolicy> takebacks;  // the game's granted takebacks, likewise
};

// What a session needs from the daemon; everything outlives the session.
struct SessionContext {
    lichess::Api& api;
    const config::Config& config;
    std::string my_id;    // lowercase user id
    std::string my_name;  // display name
    EnginePool& engines;
    const OpeningBooks* books = nullptr;  // engine.book, read at start-up; null: no book
    ChatSender& chat;
    Metrics& metrics;
    lichess::StreamOptions stream_options;
    // Called once from the worker thread when the session ends (game over or stopped).
    std::function<void(const std::string& game_id)> on_finished;
    // The daemon's slot counts, for the !queue chat command; empty: not known.
    std::function<SlotSnapshot()> slots;
};

class GameSession {
  public:
    // `parking`: a correspondence game's session (service/correspondence); none: real time.
    GameSession(SessionContext context, std::string game_id,
                std::optional<ParkingRules> parking = std::nullopt);
    ~GameSession();  // stops and joins both threads
    GameSession(const GameSession&) = delete;
    GameSession& operator=(const GameSession&) = delete;

    const std::string& game_id() const { return game_id_; }
    bool finished() const { return finished_.load(); }
    // The session saw the game end and recorded it (or left it on bad input); a finished session
    // that did not is parked, or its stream failed.
    bool game_over() const { return saw_end_.load(); }
    // Ends the session without touching the game (daemon shutdown after the grace period).
    void stop();

  private:
    struct StreamEnded {
        lichess::GameStreamEnd end;
    };
    using Item = std::variant<lichess::GameEvent, StreamEnded>;

    void stream_main(std::stop_token stop);
    void worker_main(std::stop_token stop);

    void on_game_full(const lichess::GameFull& full);
    void on_state(const lichess::GameState& state);
    void on_chat(const lichess::ChatLine& line);
    void on_opponent_gone(const lichess::OpponentGone& gone);
    void on_timer();  // abort and claim-victory deadlines

    bool sync_position(const std::vector<std::string>& moves);
    bool our_turn() const;
    MoveClock clock_for_us(const lichess::GameState& state) const;
    void think_and_move(const lichess::GameState& state);
    // Plays a move of the opening book without searching; false when the book has none here.
    bool play_from_book(const MoveClock& clock);
    // A move of ours on its way to the server, with what the PGN says of it once it is taken.
    struct OutgoingMove {
        std::string uci;
        bool offer_draw = false;
        std::optional<PgnEval> eval;  // a searched move's score
        bool book = false;            // played from the opening book
    };
    // Posts our move; true when the server took it. A failure that may pass schedules a retry
    // of the same move, draw offer and PGN notes included.
    bool post_move(const OutgoingMove& move);
    // Pondering (engine.ponder): after our move, search the position after the expected reply
    // on a thread of its own until the opponent moves.
    void start_ponder(engine::Move ours, engine::Move expected, const MoveClock& after);
    // Ends a ponder search: on a hit (the opponent played the expected move) the search goes on
    // under the clock and its result is returned; otherwise it is stopped and nullopt returned.
    std::optional<engine::SearchResult> finish_ponder(bool opponent_move_known);
    void finish(const lichess::GameState& state);
    void end_session_on_bad_input(const std::string& why);
    void record_clocks(const lichess::GameState& state, std::size_t first_new_ply);
    void write_pgn(const lichess::GameState& state);
    std::string expand(const std::string& text) const;

    SessionContext ctx_;
    std::string game_id_;
    std::optional<ParkingRules> parking_;
    BlockingQueue<Item> queue_;
    std::atomic<bool> finished_{false};
    std::atomic<bool> search_stop_{false};
    std::atomic<bool> game_over_{false};
    std::atomic<bool> saw_end_{false};          // set by the worker only, unlike game_over_
    std::atomic<std::size_t> server_plies_{0};  // plies in the server's last state (stream thread)

    // Worker-thread state.
    std::optional<lichess::GameFull> full_;
    lichess::Color our_color_ = lichess::Color::White;
    std::string initial_fen_;
    bool chess960_ = false;
    std::optional<engine::Position> position_;
    std::vector<std::string> moves_;  // as Lichess sent them
    std::vector<PgnMove> notes_;      // per ply, for the PGN
    std::optional<EnginePool::Lease> engine_;
    TimeBudget budget_;
    LagTracker lag_;
    std::optional<PgnEval> pending_eval_;  // our last move's eval, until the server confirms it
    bool pending_book_ = false;            // our last move came from the book (for the PGN)
    BookRng book_rng_{std::random_device{}()};
    std::size_t moved_at_ply_ = SIZE_MAX;  // plies played when we last posted a move
    std::optional<std::chrono::steady_clock::time_point> posted_at_;
    // A move the server did not take for a passing reason, posted again from on_timer.
    struct MoveRetry {
        OutgoingMove move;
        std::chrono::steady_clock::time_point at;
    };
    std::optional<MoveRetry> move_retry_;
    std::size_t posted_ply_ = 0;
    int our_moves_ = 0;
    bool greeted_ = false;
    bool draw_answered_this_ply_ = false;
    std::shared_ptr<TakebackPolicy> takebacks_ =
        parking_ && parking_->takebacks
            ? parking_->takebacks
            : std::make_shared<TakebackPolicy>(ctx_.config.max_takebacks_accepted);
    std::chrono::steady_clock::time_point turn_started_;
    std::chrono::steady_clock::time_point flag_deadline_ =
        std::chrono::steady_clock::time_point::max();
    std::chrono::steady_clock::time_point opponent_turn_since_;
    std::optional<std::chrono::steady_clock::time_point> claim_victory_at_;
    int claim_attempts_ = 0;  // claims sent since the last opponentGone line
    bool aborted_ = false;
    std::shared_ptr<DrawResignPolicy> draw_resign_ =
        parking_ && parking_->draw_resign
            ? parking_->draw_resign
            : std::make_shared<DrawResignPolicy>(ctx_.config.draw_or_resign);
    ChatCommands chat_commands_{ctx_.my_id, ctx_.my_name, ctx_.slots};
    std::optional<LastSearch> last_search_;    // our last searched move, for !eval
    std::chrono::seconds abort_extension_{0};  // added to abort_time by !wait

    struct Ponder {
        std::atomic<bool> stop{false};
        engine::Move expected;
        std::string expected_uci;
        engine::SearchResult result;  // written by the thread, read after join
        std::jthread thread;
    };
    std::unique_ptr<Ponder> ponder_;

    std::jthread worker_;
    std::jthread stream_;
};

}  // namespace service
