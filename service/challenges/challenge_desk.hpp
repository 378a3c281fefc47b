// ChallengeDesk: every rule of the challenge pipeline as pure code. It is fed what happened (a
// challenge, its withdrawal, a gameStart, a tick of the event loop, the answer to a request it
// made) with the time, and answers with requests (challenge::Request): accept, decline with a
// reason, read our ratings, list the ongoing games, abort a game, start a session, log a line.
// It sends nothing, starts no thread and reads no clock: the Bot carries its requests out and
// feeds each answer back. The rules, each a row of its table test:
//  - a challenge is judged by ChallengePolicy (challenge_policy.hpp) against the slots, the
//    queue and our correspondence games; a decline names Lichess's reason;
//  - an acceptable challenge with no free slot waits in the ChallengeQueue (sort_by,
//    preference, max_queued; a full queue declines `later`), and is accepted when a slot frees;
//  - lila's daily bot-vs-bot limit (a 429 `bot.vsBot.day` on an accept) pauses bot games: bots
//    are declined `later` for the wait it gives (an hour when it gives none), humans still play;
//    a 400 for the challenger's limit drops its challenge at once;
//  - an accepted challenge whose gameStart does not come is looked for among the ongoing games;
//  - a game started beyond challenge.concurrency is aborted while lila allows it, else played;
//  - shutdown declines every queued challenge `later`.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "common/log_line.hpp"
#include "config/config.hpp"
#include "lichess_client/api.hpp"
#include "lichess_client/events.hpp"
#include "service/challenges/challenge_policy.hpp"
#include "service/challenges/challenge_queue.hpp"
#include "service/challenges/game_slots.hpp"
#include "service/challenges/our_ratings.hpp"

namespace service {

namespace challenge {

using TimePoint = std::chrono::steady_clock::time_point;

// ---- what the desk asks for ---------------------------------------------------------------

// POST accept; its answer is AcceptAnswered. Within one tick the queue waits for this answer
// before it takes its next challenge.
struct Accept {
    lichess::ChallengeInfo challenge;
    std::string who;          // the challenger for log lines: printable, " (BOT)" for a bot
    bool from_queue = false;  // the queue waits for the answer before it takes the next
};
// POST decline with `reason`; `log` (when not empty) is written with the request's error, if
// any, appended; `counted`: in /metrics' outpost_challenges_declined_total.
struct Decline {
    std::string challenge_id;
    lichess::DeclineReason reason = lichess::DeclineReason::Generic;
    common::LogLine log;
    bool counted = true;
};
struct ReadRatings {};  // GET /api/account for our ratings; the answer is RatingsRead
struct ListPlaying {};  // GET /api/account/playing; the answer is PlayingListed
struct AbortGame {      // POST abort (a game beyond concurrency); the answer is AbortAnswered
    std::string game_id;
};
// POST resign: a game beyond challenge.concurrency that cannot be aborted, when
// kMaxGamesBeyondConcurrency such games are played already. Its slot is freed at once (the
// game is not ours to play); `log` is written with the request's error, if any, appended.
struct ResignGame {
    std::string game_id;
    common::LogLine log;
};
// A gameStart the desk let in, or a game found among the ongoing ones: the Bot starts it as the
// event loop does for a gameStart (correspondence games go to the CorrespondenceDesk).
struct StartGame {
    lichess::GameEventInfo game;
};
// A real-time game that took its slot: the Bot runs a GameSession for it.
struct StartSession {
    std::string game_id;
};
// Our daily bot-vs-bot limit: matchmaking pauses for `wait`, /metrics shows `until`.
struct PauseBotGames {
    std::chrono::milliseconds wait{0};
    TimePoint until{};
};
using Log = common::LogLine;

using Request = std::variant<Accept, Decline, ReadRatings, ListPlaying, AbortGame, ResignGame,
                             StartGame, StartSession, PauseBotGames, Log>;

// ---- the answers ----------------------------------------------------------------------------

struct AcceptAnswered {
    Accept accept;
    std::optional<lichess::ApiError> error;  // none: accepted
};
struct RatingsRead {
    std::optional<lichess::Account> account;  // none: the request failed
    std::string error;
};
struct PlayingListed {
    std::optional<std::vector<lichess::GameEventInfo>> games;  // none: the request failed
    std::string error;
};
struct AbortAnswered {
    std::string game_id;
    std::optional<lichess::ApiError> error;  // none: aborted
};

}  // namespace challenge

// Games beyond challenge.concurrency that lila would not let us abort (both sides moved) are
// played, each with a session and a small engine, up to this many at once; one more is resigned
// (or, when resigning fails, left to lila's clock), logged. A burst of such games (another
// client on the token, a replay after an outage) so costs a bounded number of threads and MB.
inline constexpr int kMaxGamesBeyondConcurrency = 4;

// What the Bot knows of a challenge that the desk does not.
struct ChallengeArrival {
    bool online_blocked = false;  // on a list of challenge.online_block_list
    // Our correspondence games per opponent (lowercase id): max_simultaneous_games_per_user
    // counts them too.
    std::map<std::string, int, std::less<>> other_games;
};

// Timings that are not config keys; tests shorten them.
struct DeskTimes {
    // How long bot challenges are declined after lila's daily bot limit when its reply gives
    // no `ratelimit.seconds`.
    std::chrono::milliseconds bot_limit_default_wait{std::chrono::hours(1)};
    // A queued challenge older than this has been removed by Lichess (an offline challenge
    // lives about 3 h there) without a challengeCanceled: it leaves the queue.
    std::chrono::milliseconds queue_max_wait{std::chrono::hours(3)};
    // An accepted challenge whose gameStart has not come after this never started.
    std::chrono::milliseconds game_start_wait{std::chrono::minutes(2)};
    // An accepted challenge with no gameStart after this is looked for in the ongoing games,
    // at most this often.
    std::chrono::milliseconds game_start_poll{std::chrono::seconds(4)};
    // Our ratings (challenge.rating_difference) are read again after this.
    std::chrono::milliseconds ratings_max_age{std::chrono::minutes(10)};
};

// Single-threaded: the Bot's event loop feeds it. GameSlots is shared with the matchmaker (and
// read by sessions through a SlotsView); it is the one authority for slots.
class ChallengeDesk {
  public:
    using Requests = std::vector<challenge::Request>;
    using TimePoint = challenge::TimePoint;

    ChallengeDesk(const config::ChallengeConfig& config, std::string my_id, GameSlots& slots,
                  DeskTimes times = {});

    // A challenge from the event stream (a reconnect sends pending ones again).
    [[nodiscard]] Requests on_challenge(const lichess::ChallengeInfo& challenge,
                                        ChallengeArrival arrival, TimePoint now);
    // The challenger withdrew it (`canceled`) or Lichess reports it declined.
    [[nodiscard]] Requests on_challenge_gone(const std::string& challenge_id, bool canceled);
    // A challenge event that could not be read: declined `generic` (unanswered, it would hang).
    [[nodiscard]] Requests on_unreadable(const std::string& challenge_id,
                                         const std::string& problem);
    // A gameStart (from the event stream, the start-up's list, or a ListPlaying answer);
    // `session_running`: a real-time session plays this game already (a replay).
    [[nodiscard]] Requests on_game_start(const lichess::GameEventInfo& game, bool session_running);
    // A real-time game's session ended: its slot is free.
    void on_session_finished(const std::string& game_id);
    // Every round of the event loop: expired reservations and queue entries go, the queue takes
    // free slots, overdue gameStarts are looked for.
    [[nodiscard]] Requests tick(TimePoint now);
    // The matchmaker's own pause after our daily bot limit (it meets the limit when it sends a
    // challenge): none when it is not paused.
    void matchmaking_paused_for(std::optional<std::chrono::milliseconds> left, TimePoint now);

    [[nodiscard]] Requests on(const challenge::AcceptAnswered& answer, TimePoint now);
    [[nodiscard]] Requests on(const challenge::RatingsRead& answer, TimePoint now);
    [[nodiscard]] Requests on(const challenge::PlayingListed& answer, TimePoint now);
    [[nodiscard]] Requests on(const challenge::AbortAnswered& answer);

    // Shutdown: nothing more is accepted; a challenge that comes is declined `later`.
    void stop_accepting() { accepting_ = false; }
    // Shutdown: every queued challenge, declined `later`.
    [[nodiscard]] Requests decline_queued();

    // Time left before bot challenges may be accepted again (lila's daily bot limit, ours or
    // the matchmaker's); none when they may.
    [[nodiscard]] std::optional<std::chrono::milliseconds> bot_games_paused_for(
        TimePoint now) const;
    // The challengers waiting, in the order they would be accepted (!queue, /metrics).
    [[nodiscard]] std::vector<std::string> queued_names() const { return queue_.names(); }
    [[nodiscard]] std::size_t queued() const { return queue_.size(); }

  private:
    // A challenge held while our ratings are read (challenge.rating_difference).
    struct Held {
        lichess::ChallengeInfo challenge;
        ChallengeArrival arrival;
    };

    void judge(const lichess::ChallengeInfo& c, const ChallengeArrival& arrival, TimePoint now,
               Requests& out);
    // Reserves a slot (correspondence takes none) and asks to accept; false when no slot it may
    // take is free (nothing asked).
    bool accept_now(const lichess::ChallengeInfo& c, const std::string& who, bool from_queue,
                    Requests& out);
    void enqueue(const lichess::ChallengeInfo& c, const std::string& who, std::string_view why,
                 TimePoint now, Requests& out);
    void accept_from_queue(TimePoint now, Requests& out);
    void accept_failed(const challenge::Accept& accept, const lichess::ApiError& error,
                       TimePoint now, Requests& out);
    void decline(const std::string& challenge_id, const std::string& who,
                 lichess::DeclineReason reason, std::string_view why, Requests& out) const;
    void look_for_started_games(TimePoint now, Requests& out);

    const config::ChallengeConfig& config_;
    const std::string my_id_;
    GameSlots& slots_;
    const DeskTimes times_;
    bool accepting_ = true;

    ChallengeQueue queue_;
    bool queue_accept_pending_ = false;  // an Accept from the queue waits for its answer
    RecentBotChallenges recent_bots_;
    OurRatings ratings_;
    std::vector<Held> held_;                // waiting for our ratings
    TimePoint bot_games_paused_until_{};    // lila refuses our bot games until then
    TimePoint matchmaking_paused_until_{};  // the matchmaker's own pause
    // Accepted challenges waiting for their gameStart, since when.
    std::map<std::string, TimePoint> awaiting_start_;
    TimePoint last_playing_poll_{};
    std::set<std::string> aborted_over_limit_;  // games aborted beyond concurrency
};

}  // namespace service
