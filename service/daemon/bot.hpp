// Bot: the daemon's centre. Reads the event stream on its own thread, judges challenges,
// admits games through GameSlots, runs one GameSession per game, and shuts down gracefully.
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <stop_token>
#include <string>
#include <thread>
#include <variant>

#include "config/config.hpp"
#include "lichess_client/api.hpp"
#include "lichess_client/event_stream.hpp"
#include "service/challenges/challenge_policy.hpp"
#include "service/challenges/challenge_queue.hpp"
#include "service/challenges/game_slots.hpp"
#include "service/challenges/matchmaking.hpp"
#include "service/challenges/online_block_list.hpp"
#include "service/daemon/blocking_queue.hpp"
#include "service/daemon/chat_sender.hpp"
#include "service/daemon/correspondence.hpp"
#include "service/daemon/engine_pool.hpp"
#include "service/daemon/game_session.hpp"
#include "service/moves/online_moves.hpp"
#include "service/moves/opening_book.hpp"
#include "service/ops/metrics.hpp"

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
    // How long bot challenges are declined after lila's daily bot limit when its reply gives
    // no `ratelimit.seconds`.
    std::chrono::milliseconds bot_limit_default_wait{std::chrono::hours(1)};
    // challenge.online_block_list is read again this often.
    std::chrono::milliseconds block_list_refresh{std::chrono::hours(1)};
    // A queued challenge older than this has been removed by Lichess (an offline challenge
    // lives about 3 h there) without a challengeCanceled: it leaves the queue.
    std::chrono::milliseconds queue_max_wait{std::chrono::hours(3)};
    // An accepted challenge whose gameStart has not come after this never started: its
    // reservation is dropped.
    std::chrono::milliseconds game_start_wait{std::chrono::minutes(2)};
    // An accepted challenge with no gameStart after this is looked for in /api/account/playing,
    // at most this often.
    std::chrono::milliseconds game_start_poll{std::chrono::seconds(4)};
    // Each game's timings (move retries, claims, the session's poll); tests shorten them.
    GameTimings game_timings{};
};

class Bot {
  public:
    // Reads the opening books of `engine.book` and loads the Gaviota tables of
    // `engine.tablebases` first: a book or table that cannot be read or parsed throws
    // std::runtime_error naming the file, so the daemon does not start with it.
    Bot(const config::Config& config, lichess::Api& api, BotIdentity me, Metrics& metrics,
        BotOptions options = {});
    ~Bot();
    Bot(const Bot&) = delete;
    Bot& operator=(const Bot&) = delete;

    // Runs until `stop` fires (then stops accepting and lets running games finish within the
    // grace period, or until `abort_now` fires), or the token is rejected. Returns the exit code.
    int run(std::stop_token stop, std::stop_token abort_now);

    // Numbers for health checks and tests.
    int active_games() const;
    // The slot counts (active games, reservations) as GameSlots holds them now, with the
    // challengers waiting in the queue.
    [[nodiscard]] SlotSnapshot slots() const { return slots_view_.snapshot(); }
    bool event_stream_connected() const { return stream_connected_.load(); }
    // Why the bot is not healthy (no live event stream), or none: /healthz's answer.
    [[nodiscard]] std::optional<std::string> health_problem() const {
        return metrics_.event_stream_problem();
    }
    // Correspondence games (parked, waiting, with a session) and the engines that exist.
    [[nodiscard]] DeskCounts correspondence() const { return desk_.counts(); }
    [[nodiscard]] const EnginePool& engines() const { return engines_; }

  private:
    struct StreamFailed {
        lichess::ApiError error;
    };
    using Item = std::variant<lichess::Event, StreamFailed>;

    void resume_ongoing_games();
    // An accepted challenge whose gameStart has not come (the event stream is down or paused
    // after a 429) would lose by noStart: find its game through /api/account/playing.
    void find_games_of_accepted_challenges();
    void handle(const lichess::Event& event);
    void on_challenge(const lichess::ChallengeInfo& challenge);
    void decline(const lichess::ChallengeInfo& c, const std::string& who,
                 lichess::DeclineReason reason, std::string_view why);
    void on_accept_failed(const lichess::ChallengeInfo& c, const std::string& who,
                          const lichess::ApiError& error);
    // Time left before challenges from bots may be accepted again (lila's daily bot limit).
    [[nodiscard]] std::optional<std::chrono::milliseconds> bot_games_paused_for() const;
    // The queue (challenge.max_queued): a challenge that waits for a slot, and the accepts
    // when one frees (event-loop thread only).
    void enqueue(const lichess::ChallengeInfo& c, const std::string& who, std::string_view why);
    void accept_queued();
    // Reserves a slot and accepts; false (nothing sent) when no slot it may take is free.
    bool accept_now(const lichess::ChallengeInfo& c, const std::string& who);
    void publish_queue();
    [[nodiscard]] ChallengeFacts facts_for(const lichess::ChallengeInfo& c);
    void refresh_block_lists();
    void on_game_start(const lichess::GameEventInfo& game);
    void start_session(const std::string& game_id);
    SessionContext session_context();
    [[nodiscard]] lichess::StreamOptions game_stream_options() const;
    void reap_sessions();
    // Refreshes challenge.online_block_list now and then every block_list_refresh.
    void start_block_list_refresher();
    // Shutdown: waits (when `wait`) up to shutdown_grace_s for running games, then stops them.
    void finish_games(bool wait, std::stop_token abort_now);

    const config::Config& config_;
    lichess::Api& api_;
    BotIdentity me_;
    Metrics& metrics_;
    BotOptions options_;
    GameSlots slots_;
    SlotsView slots_view_{slots_};  // what sessions read: the slots and the queue's names
    OpeningBooks books_;
    std::shared_ptr<const engine::Tablebase> tablebase_;  // null: no engine.tablebases
    EnginePool engines_;
    ChatSender chat_;
    LichessGameApi game_api_{api_};
    std::unique_ptr<OnlineMoves> online_moves_;  // null: no online_moves source enabled
    BlockingQueue<Item> queue_;
    std::atomic<bool> accepting_{true};
    std::atomic<bool> stream_connected_{false};

    // Accepted challenges waiting for their gameStart (event-loop thread only).
    std::map<std::string, std::chrono::steady_clock::time_point> awaiting_start_;
    std::chrono::steady_clock::time_point last_playing_poll_{};
    // Until then lila refuses our bot games (bot.vsBot.day): bots are declined `later`.
    std::chrono::steady_clock::time_point bot_games_paused_until_{};
    // Games started beyond challenge.concurrency that we aborted (event-loop thread only).
    std::set<std::string> aborted_over_limit_;

    // Challenges waiting for a slot, and the bots' recent challenges (event-loop thread only).
    ChallengeQueue challenge_queue_{config_.challenge};
    RecentBotChallenges recent_bots_{
        std::chrono::seconds(config_.challenge.recent_bot_challenge_age)};
    // Our ratings per perf for challenge.rating_difference (/api/account; event-loop thread).
    std::map<std::string, int, std::less<>> my_ratings_;
    std::optional<std::chrono::steady_clock::time_point> ratings_read_;
    OnlineBlockList online_block_list_;
    std::jthread block_list_thread_;  // refreshes online_block_list_ every block_list_refresh

    // Our own challenges when idle (matchmaking.*; event-loop thread only).
    LichessMatchmakingApi matchmaking_api_{api_};
    Matchmaker matchmaker_{config_.matchmaking, matchmaking_api_, slots_, me_.id,
                           options_.matchmaking};

    mutable std::mutex sessions_mutex_;
    std::map<std::string, std::unique_ptr<GameSession>> sessions_;
    CorrespondenceDesk desk_;  // last: its sessions use the members above
};

}  // namespace service
