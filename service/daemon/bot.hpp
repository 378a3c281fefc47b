// Bot: the daemon's router and composition root. It builds every part (slots, the rule owners:
// the challenge desk, the arena desk, the matchmaker, the correspondence desk; engines,
// sessions), hands each event (EventFeed) to the owner whose rules decide it, and routes the
// requests that come back: calls to Lichess to the RequestRunner, whose answers come back
// through the loop's queue like events and go to the owner that asked; the others (start a
// session, log a line) happen at once. Nothing the server holds delays the loop. Shuts down
// gracefully (bot_lifecycle.cpp).
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "config/config.hpp"
#include "lichess_client/api.hpp"
#include "service/challenges/arena_desk.hpp"
#include "service/challenges/challenge_desk.hpp"
#include "service/challenges/game_slots.hpp"
#include "service/challenges/matchmaking.hpp"
#include "service/challenges/online_block_list.hpp"
#include "service/daemon/blocking_queue.hpp"
#include "service/daemon/chat_sender.hpp"
#include "service/daemon/correspondence.hpp"
#include "service/daemon/engine_pool.hpp"
#include "service/daemon/event_feed.hpp"
#include "service/daemon/game_session.hpp"
#include "service/daemon/lichess_request.hpp"
#include "service/daemon/request_runner.hpp"
#include "service/daemon/session_table.hpp"
#include "service/moves/online_moves.hpp"
#include "service/moves/opening_book.hpp"
#include "service/ops/metrics.hpp"
#include "service/ops/status_board.hpp"

namespace service {

struct BotIdentity {
    std::string id;    // lowercase user id
    std::string name;  // display name
};

struct BotOptions {
    lichess::StreamOptions stream_options;
    // Game streams reconnect much sooner than the event stream (whose opens lila limits): a
    // bullet game cannot wait a minute for its moves. Used instead of stream_options.reconnect.
    lichess::BackoffConfig game_reconnect{std::chrono::milliseconds(250),
                                          std::chrono::milliseconds(3000), 2.0, 0.5};
    // A game-stream connection that lived this long was no failure: the next drop reconnects
    // after `initial` again, however many drops came before.
    std::chrono::milliseconds game_stable_after{3000};
    // How often the main loop wakes without events (slot expiry, finished sessions).
    std::chrono::milliseconds tick{200};
    // Matchmaking's timings that are not config keys (answer timeout, ...); tests shorten them.
    MatchmakingTimes matchmaking{};
    // The challenge desk's timings (the daily bot limit's default wait, the queue's and a
    // gameStart's longest wait, ...); tests shorten them.
    DeskTimes challenges{};
    // challenge.online_block_list is read again this often.
    std::chrono::milliseconds block_list_refresh{std::chrono::hours(1)};
    // The arena desk's timings (reads, joins); tests shorten them.
    ArenaTimes arenas{};
    // Requests to Lichess run on at most this many threads at once (WorkerPool).
    std::size_t request_threads = 8;
    // At shutdown, requests still running (declines, withdrawals) get this long to finish.
    std::chrono::milliseconds requests_grace{5000};
    // Each game's timings (move retries, claims, the session's poll); tests shorten them.
    GameTimings game_timings{};
};

class Bot {
  public:
    // Reads the opening books of `engine.book` and loads the Gaviota tables of
    // `engine.tablebases` first: a book or table that cannot be read or parsed throws
    // std::runtime_error naming the file, so the daemon does not start with it. The Syzygy
    // tables load too; a bad one is logged and left out (load_syzygy).
    Bot(const config::Config& config, lichess::Api& api, BotIdentity me, Metrics& metrics,
        BotOptions options = {});
    ~Bot();
    Bot(const Bot&) = delete;
    Bot& operator=(const Bot&) = delete;

    // Runs until `stop` fires (then stops accepting and lets running games finish within the
    // grace period, or until `abort_now` fires), or the token is rejected. Returns the exit code.
    // An exception that ends the event loop (a thread that cannot be created, say) is no hang:
    // it is logged as critical, health_problem() names it at once, and run() stops as on
    // `stop` and returns 1.
    int run(std::stop_token stop, std::stop_token abort_now);

    // Numbers for health checks and tests.
    int active_games() const { return sessions_.active(); }
    // The slot counts (active games, reservations) as GameSlots holds them now, with the
    // challengers waiting in the queue.
    [[nodiscard]] SlotSnapshot slots() const { return slots_view_.snapshot(); }
    bool event_stream_connected() const { return stream_connected_.load(); }
    // Why the bot is not healthy (its event loop failed, or no live event stream), or none:
    // /healthz's answer.
    [[nodiscard]] std::optional<std::string> health_problem() const;
    // Correspondence games (parked, waiting, with a session) and the engines that exist.
    [[nodiscard]] DeskCounts correspondence() const { return desk_.counts(); }
    [[nodiscard]] const EnginePool& engines() const { return engines_; }
    // What the status page shows: the sessions publish their games there, the loop the slots.
    [[nodiscard]] StatusBoard& status() { return status_; }

  private:
    struct StreamFailed {
        std::string error;    // described
        bool broken = false;  // the stream's thread failed (else: the server refused it)
    };
    using Item = std::variant<lichess::Event, StreamFailed, LichessAnswer>;

    // Phase 1 of run(): the event loop, until a stop; its exit code.
    int play(std::stop_token stop, std::stop_token abort_now, std::optional<EventFeed>& events);
    // Before the loop: the ongoing games listed, the block lists read, matchmaking on, the event
    // stream open.
    void start(std::optional<EventFeed>& events);
    // The loop failed: logged (critical) and kept for health_problem(); returns 1.
    int fail(const std::string& what);
    void handle(const lichess::Event& event);
    // An answer from the RequestRunner, to the owner that asked.
    void answer(LichessAnswer& answer);
    void on_game_start(const lichess::GameEventInfo& game);
    // Carries out the desks' requests in order: those to Lichess go to the RequestRunner (their
    // answers come back through the queue), the others happen here at once.
    void carry_out(std::vector<challenge::Request> requests);
    void execute(challenge::Request& request);
    void carry_out(std::vector<arena::Request> requests);
    void carry_out(std::vector<match::Request> requests);
    void start_matchmaking();
    // After each event and each round: the queue as sessions and /metrics see it, the
    // matchmaker's pause as the desk sees it, sessions that ended.
    void publish();
    void reap_sessions();
    // Shutdown: waits (when `wait`) up to shutdown_grace_s for running games, then stops them.
    void finish_games(bool wait, std::stop_token abort_now);
    SessionContext session_context();

    const config::Config& config_;
    lichess::Api& api_;
    BotIdentity me_;
    Metrics& metrics_;
    BotOptions options_;
    StatusBoard status_;
    GameSlots slots_;
    SlotsView slots_view_{slots_};
    OpeningBooks books_;
    EnginePool engines_;
    ChatSender chat_;
    LichessGameApi game_api_{api_};
    std::unique_ptr<OnlineMoves> online_moves_;  // null: no online_moves source enabled
    BlockingQueue<Item> queue_;
    std::atomic<bool> stream_connected_{false};
    bool token_refused_ = false;  // the event stream was refused (event-loop thread only)
    mutable std::mutex fatal_mutex_;
    std::optional<std::string> fatal_;  // why the event loop failed

    // The rule owners, all fed on the event-loop thread: the challenge pipeline, our own
    // challenges, the arenas (and the correspondence desk below).
    ChallengeDesk challenges_{config_.challenge, me_.id, slots_, options_.challenges};
    Matchmaker matchmaker_{config_.matchmaking, slots_, me_.id, options_.matchmaking};
    bool matchmaking_ = false;  // while run() runs, when enabled
    OnlineBlockList online_block_list_;
    std::optional<BlockListRefresher> block_lists_;  // while run() accepts challenges
    ArenaDesk arenas_{config_.tournaments, config_.challenge, slots_, options_.arenas};

    // After what its requests use (the client, the chat, the metrics, the queue its answers go
    // to): destroyed before them, so no request outlives what it uses. Before the sessions,
    // which make their game's calls through it: destroyed after them.
    RequestRunner requests_{api_,
                            game_api_,
                            chat_,
                            metrics_,
                            [this](LichessAnswer a) { queue_.push(std::move(a)); },
                            options_.request_threads};

    SessionTable sessions_;    // real-time games
    CorrespondenceDesk desk_;  // its sessions use the members above
};

}  // namespace service
