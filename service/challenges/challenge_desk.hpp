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
//    a 400 for the challenger's limit declines its challenge `later` at once;
//  - any other 400 on an accept (the challenge is gone, or no longer fits) is answered with a
//    decline `generic`, logged with lila's error;
//  - an accept whose answer says nothing sure (a 404, which lila gives a second accept of an
//    accepted challenge, as when the first try's answer was lost; a network error or a 5xx)
//    keeps its slot until the game starts, the challenge is known gone or the reservation ends;
//  - a challenge sent again (the event stream reconnects) while it waits in the queue, for our
//    ratings, for its accept's answer, for its gameStart or for its decline, or whose game
//    runs, is not judged again;
//  - declines wait in an outbox, at most kMaxDeclinesInFlight sent at once, the newest first:
//    in a flood the challengers still waiting are answered first, a challenge withdrawn
//    meanwhile is never declined, and a decline that waited decline_max_wait is dropped;
//  - a 429 on the challenge requests pauses them: an acceptable challenge waits in the queue and
//    a decline waits too, both sent when the pause ends, none dropped;
//  - requests are answered later than they were asked (the Bot runs them off the event loop):
//    a challenge arriving meanwhile is judged against the slots the pending accepts hold, and
//    one arriving while our ratings are read waits for them (in order);
//  - an accepted challenge whose gameStart does not come is looked for among the ongoing games;
//  - a game started beyond challenge.concurrency is aborted while lila allows it (an arena,
//    simul or swiss game never can be: lichess::is_mandatory); one that cannot be is played, up
//    to kMaxGamesBeyondConcurrency such games at once, and the next is resigned;
//  - shutdown declines every queued challenge `later`.
#pragma once

#include <chrono>
#include <cstddef>
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
// The Decline's answer is DeclineAnswered: its log line is written then (with the error, if any).
struct ReadRatings {};  // GET /api/account for our ratings; the answer is RatingsRead
struct ListPlaying {};  // GET /api/account/playing; the answer is PlayingListed
struct AbortGame {      // POST abort (a game beyond concurrency); the answer is AbortAnswered
    std::string game_id;
};
// POST resign: a game beyond challenge.concurrency that cannot be aborted (an arena, simul or
// swiss game, or one both sides moved in), when kMaxGamesBeyondConcurrency such games are played
// already. Its slot is freed at once (the game is not ours to play); `log` is written with the
// request's error, if any, appended.
struct ResignGame {
    std::string game_id;
    common::LogLine log;
};
// A gameStart the desk let in, or a game found among the ongoing ones: the Bot starts it as the
// event loop does for a gameStart (correspondence games go to the CorrespondenceDesk).
struct StartGame {
    lichess::GameEventInfo game;
};
// A real-time game that took its slot: the Bot runs a GameSession for it. `game`: what gameStart
// said of it (its source and arena); `rules`: its challenge's rules (lila's noAbort,
// noClaimWin, noEarlyDraw, ...), when we accepted that challenge.
struct StartSession {
    std::string game_id;
    lichess::GameEventInfo game = {};
    std::vector<std::string> rules = {};
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
struct DeclineAnswered {
    Decline decline;
    std::optional<lichess::ApiError> error;  // none: declined
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

// Games beyond challenge.concurrency that lila would not let us abort (both sides moved, or an
// arena, simul or swiss game) are played, each with a session and a small engine, up to this
// many at once; one more is resigned (or, when resigning fails, left to lila's clock), logged
// in one line. A burst of such games (another client on the token, 60 arena games, a replay
// after an outage) so costs a bounded number of threads and MB: resigning loses the game, as
// lila's clock would, but frees its opponent at once and costs no thread.
inline constexpr int kMaxGamesBeyondConcurrency = 4;

// Declines sent at once; the others wait in the desk's outbox, the newest first (a flood of
// challenges must not use every request thread, and the challengers still waiting go first).
inline constexpr std::size_t kMaxDeclinesInFlight = 4;

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
    // A decline that waited this long in the outbox is dropped: its challenger has given up (lila
    // marks a real-time challenge whose challenger is not seen for 20 s offline, ChallengeApi
    // sweep; bots cancel theirs after about as long). Long enough for a 429's pause.
    std::chrono::milliseconds decline_max_wait{std::chrono::minutes(2)};
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
                                         const std::string& problem, TimePoint now);
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
    [[nodiscard]] Requests on(const challenge::DeclineAnswered& answer, TimePoint now);
    [[nodiscard]] Requests on(const challenge::RatingsRead& answer, TimePoint now);
    [[nodiscard]] Requests on(const challenge::PlayingListed& answer, TimePoint now);
    [[nodiscard]] Requests on(const challenge::AbortAnswered& answer);

    // Shutdown: nothing more is accepted; a challenge that comes is declined `later`.
    void stop_accepting() { accepting_ = false; }
    // Shutdown: every queued challenge, declined `later`, and every decline held by a pause.
    [[nodiscard]] Requests decline_queued(TimePoint now);

    // Time left before bot challenges may be accepted again (lila's daily bot limit, ours or
    // the matchmaker's); none when they may.
    [[nodiscard]] std::optional<std::chrono::milliseconds> bot_games_paused_for(
        TimePoint now) const;
    // Time left on the pause of challenge requests after a 429; none when not paused.
    [[nodiscard]] std::optional<std::chrono::milliseconds> requests_paused_for(TimePoint now) const;
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
                 lichess::DeclineReason reason, std::string_view why, TimePoint now, Requests& out);
    // Puts a decline in the outbox and sends what may go (flush_declines).
    void send_decline(challenge::Decline decline, TimePoint now, Requests& out);
    // Sends the outbox's newest declines while fewer than kMaxDeclinesInFlight are on their way
    // and no 429 pauses challenge requests; drops those that waited decline_max_wait.
    void flush_declines(TimePoint now, Requests& out);
    // An accept's answer that is no sure refusal: the challenge may have become a game.
    void keep_waiting(const challenge::Accept& accept, const lichess::ApiError& error,
                      TimePoint now, Requests& out);
    // A challenge we answered or are answering (accept or decline), or whose game runs.
    [[nodiscard]] bool handled(const std::string& challenge_id) const;
    // A 429 (not lila's daily bot limit) on a challenge request: pauses them for its wait.
    void pause_requests(const lichess::ApiError& error, TimePoint now, Requests& out);
    [[nodiscard]] bool requests_paused(TimePoint now) const { return requests_paused_until_ > now; }
    void look_for_started_games(TimePoint now, Requests& out);
    // A game beyond challenge.concurrency that cannot be aborted (`why`): played while fewer than
    // kMaxGamesBeyondConcurrency such games are, else resigned.
    void play_beyond_limit(const std::string& game_id, const lichess::GameEventInfo& game,
                           std::vector<std::string> rules, const std::string& why, Requests& out);

    const config::ChallengeConfig& config_;
    const std::string my_id_;
    GameSlots& slots_;
    const DeskTimes times_;
    bool accepting_ = true;

    ChallengeQueue queue_;
    bool queue_accept_pending_ = false;      // an Accept from the queue waits for its answer
    std::set<std::string> accepts_pending_;  // challenges whose Accept is not answered yet
    RecentBotChallenges recent_bots_;
    OurRatings ratings_;
    std::vector<Held> held_;                // waiting for our ratings
    TimePoint bot_games_paused_until_{};    // lila refuses our bot games until then
    TimePoint matchmaking_paused_until_{};  // the matchmaker's own pause
    // Accepted challenges waiting for their gameStart, since when.
    std::map<std::string, TimePoint> awaiting_start_;
    TimePoint last_playing_poll_{};
    std::set<std::string> aborted_over_limit_;  // games aborted beyond concurrency
    // Games whose gameStart came before their accept's answer (the answer is no longer awaited).
    std::set<std::string> started_before_answer_;
    // The rules of challenges we accepted, until their game starts (StartSession::rules).
    std::map<std::string, std::vector<std::string>> rules_;
    TimePoint requests_paused_until_{};  // challenge requests paused after a 429
    // Declines not sent yet, oldest first, with when each was asked for.
    struct Waiting {
        challenge::Decline decline;
        TimePoint since;
    };
    std::vector<Waiting> outbox_;
    std::set<std::string> declines_in_flight_;  // challenge ids whose Decline is not answered
    std::size_t declines_dropped_ = 0;          // lapsed, not logged yet
    TimePoint last_drop_logged_{};
};

}  // namespace service
