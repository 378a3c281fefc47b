// CorrespondenceDesk: keeps correspondence (and unlimited) games parked, with no thread and no
// engine, while the opponent thinks, and runs a session for a game when it is our turn, at most
// `correspondence.max_concurrent_searches` at once, first come first served.
#pragma once

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "lichess_client/events.hpp"
#include "lichess_client/payloads.hpp"
#include "service/challenges/challenge_policy.hpp"
#include "service/game/parking.hpp"

namespace service {

// A session the desk started: a GameSession in the daemon, a fake in tests.
class DeskSession {
  public:
    virtual ~DeskSession() = default;  // stops the session and waits for its threads
    [[nodiscard]] virtual bool finished() const = 0;
    // The session saw the game end (and recorded it); finished without that is parked.
    [[nodiscard]] virtual bool game_over() const = 0;
    // Once finished: the game's policies as the session left them, for its next session; none:
    // the ones it was given stand.
    [[nodiscard]] virtual std::optional<GamePolicies> policies() const { return std::nullopt; }
};

struct DeskSettings {
    std::chrono::milliseconds checkin_period{std::chrono::seconds(300)};
    int max_sessions = 1;  // correspondence.max_concurrent_searches
    std::chrono::milliseconds linger{std::chrono::seconds(15)};
    // /api/account/playing lists at most this many games: a shorter list is the whole list.
    int playing_page = 50;
    config::DrawOrResignConfig draw_or_resign;  // for each game's policy, kept across sessions
    int max_takebacks_accepted = 0;             // the same: a game's count spans its sessions

    [[nodiscard]] static DeskSettings from(const config::CorrespondenceConfig& config,
                                           const config::DrawOrResignConfig& draw_or_resign = {},
                                           int max_takebacks_accepted = 0);
};

namespace correspondence {
// GET /api/account/playing, for a check-in; the answer is CheckedIn.
struct CheckIn {};
struct CheckedIn {
    std::optional<std::vector<lichess::GameEventInfo>> games;  // none: the request failed
    std::string error;
};
}  // namespace correspondence

// What the desk needs from the daemon; tests give fakes.
struct DeskHooks {
    // Starts a session for the game; it ends by itself (parked or over).
    std::function<std::unique_ptr<DeskSession>(const std::string& game_id, ParkingRules rules)>
        start_session;
    std::function<std::chrono::steady_clock::time_point()> now = [] {
        return std::chrono::steady_clock::now();
    };
};

struct DeskCounts {
    int games = 0;    // correspondence games known to be on
    int parked = 0;   // no session, none wanted
    int waiting = 0;  // in line for a session
    int running = 0;  // with a session
    int peak_running = 0;
    int sessions_started = 0;
};

// Every member may be called from any thread; the Bot calls all but counts() from its loop. The
// desk calls no Lichess itself: a check-in is a request (CheckIn) it returns, whose answer the
// Bot's RequestRunner brings back (on).
// A game is parked, waiting (in line) or running (a session). It joins the line when Lichess
// says it is our turn (gameStart or a check-in), when it is new (a first session greets and
// answers a quick opponent), and when it ended without a session seeing the end (a last session
// sees it: result, PGN, goodbye). A session that ends with the game on parks the game again.
class CorrespondenceDesk {
  public:
    CorrespondenceDesk(DeskSettings settings, DeskHooks hooks);
    ~CorrespondenceDesk();  // stops every session
    CorrespondenceDesk(const CorrespondenceDesk&) = delete;
    CorrespondenceDesk& operator=(const CorrespondenceDesk&) = delete;

    // A gameStart for a correspondence game (new, replayed, or listed at start-up).
    void on_game_start(const lichess::GameEventInfo& game);
    // A gameFinish; unknown ids are ignored.
    void on_game_finish(const std::string& game_id);
    // Reaps ended sessions and starts sessions for the line; asks for a check-in when the
    // period is over (and none is on its way).
    [[nodiscard]] std::optional<correspondence::CheckIn> tick();
    // A check-in's answer: games on our turn join the line, parked games missing from a whole
    // list end; the line gets its sessions.
    void on(const correspondence::CheckedIn& answer);
    // Ends every session now (daemon shutdown); the games stay on for the next start.
    void stop();

    // Our correspondence games per opponent (lowercase user id), so that
    // challenge.max_simultaneous_games_per_user counts them too (the slot counts stay real-time
    // only).
    [[nodiscard]] std::map<std::string, int, std::less<>> games_per_user() const;
    [[nodiscard]] DeskCounts counts() const;
    // True while a game waits for a session: a running session then parks without lingering.
    [[nodiscard]] bool someone_waiting() const { return waiting_->load() > 0; }

  private:
    enum class State { Parked, Waiting, Running };
    struct Game {
        std::string opponent;  // user id (Lichess ids are lowercase)
        State state = State::Parked;
        bool visited = false;  // a session ran in this process
        bool ending = false;   // over (gameFinish), or gone from the list
        // Its session started after `ending`: the game is dropped after it, however it ends.
        bool last_call = false;
        std::unique_ptr<DeskSession> session;
        // Passed in to each session and taken back from it (ParkingRules::policies).
        std::optional<GamePolicies> policies;
    };

    void check_in_locked(const std::vector<lichess::GameEventInfo>& games);
    // Adds a game Lichess told us about, or lines up a known parked one on our turn (mutex held).
    void sighted_locked(const lichess::GameEventInfo& game);
    void line_up_locked(const std::string& id, Game& game);
    // Ended sessions, to be destroyed outside the lock.
    std::vector<std::unique_ptr<DeskSession>> reap_locked();
    void start_waiting_locked();

    const DeskSettings settings_;
    const DeskHooks hooks_;
    mutable std::mutex mutex_;
    std::map<std::string, Game> games_;
    std::deque<std::string> line_;  // first come first served
    // line_.size(), readable without the lock; each session reads it (ParkingRules).
    std::shared_ptr<std::atomic<int>> waiting_ = std::make_shared<std::atomic<int>>(0);
    int running_ = 0;
    int peak_running_ = 0;
    int sessions_started_ = 0;
    bool stopped_ = false;
    bool checking_in_ = false;  // a CheckIn is on its way
    std::chrono::steady_clock::time_point next_checkin_;
};

}  // namespace service
