// ArenaDesk: every rule of playing Lichess arenas (`tournaments:`) as pure code, as the
// ChallengeDesk is for challenges. It is fed the time, the answers to the requests it made (an
// arena read, a join) and the games that start and end; it answers with requests (read an arena,
// join it, withdraw, log a line) and holds a game slot for each arena it is in (GameSlots). It
// sends nothing and reads no clock. The rules, each a row of its table test, are lila's
// (modules/tournament: JsonView, TournamentApi, WaitingUsers, StartedOrganizer, Pause):
//  - each arena is read at start and then every read_every (more often as its start nears);
//  - it is skipped, and the log says why, when it does not allow bots (lila's JsonView writes
//    `botsAllowed` only when true: a missing field is no), has ended, or is of a variant or a
//    speed challenge.variants / challenge.time_controls leave out; an arena not yet started
//    without bots is watched, since its creator may still allow them;
//  - it is joined join_before its start, with a game slot reserved first (no free slot: it
//    waits); once it runs, with pairMeAsap; joined once: lila pairs every active bot by itself
//    on each round (StartedOrganizer), and joins are limited (30 per 10 minutes per user);
//  - its games take its slot (the reservation becomes the game) and give it back when they end;
//  - lila's pause (a withdrawal near the top, as at our shutdown: Pause, 10 s growing to 120 s)
//    is waited out, `me.pauseDelay` of the arena's read saying how long, then joined again; a
//    noStart loss (lila withdraws the player who did not move, with no pause) or a read showing
//    us withdrawn: joined again; a 429 on a join: tried again after its wait;
//  - lila's refusal of a join (400: a wrong entry code, no team, restrictions) or a read that no
//    longer lists us: logged, and the arena dropped, its slot freed;
//  - when the arena ends its slot is freed; at shutdown every arena we are in is withdrawn from.
// No berserk: lila never lets a bot berserk (TournamentApi.berserk).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/log_line.hpp"
#include "config/config.hpp"
#include "lichess_client/api.hpp"
#include "lichess_client/events.hpp"
#include "lichess_client/payloads.hpp"
#include "service/challenges/game_slots.hpp"

namespace service {

namespace arena {

using TimePoint = std::chrono::steady_clock::time_point;
using WallTime = std::chrono::system_clock::time_point;

// ---- what the desk asks for ----------------------------------------------------------------
struct ReadArena {  // GET /api/tournament/{id}; the answer is ArenaRead
    std::string id;
};
struct JoinArena {  // POST /api/tournament/{id}/join; the answer is JoinAnswered
    std::string id;
    lichess::TournamentJoin join;
};
struct WithdrawArena {  // POST /api/tournament/{id}/withdraw; logged by the Bot
    std::string id;
};
using Log = common::LogLine;
using Request = std::variant<ReadArena, JoinArena, WithdrawArena, Log>;

// ---- the answers ----------------------------------------------------------------------------
struct ArenaRead {
    std::string id;
    std::optional<lichess::Tournament> arena;  // none: the request failed
    std::optional<lichess::ApiError> error;
};
struct JoinAnswered {
    std::string id;
    std::optional<lichess::ApiError> error;  // none: joined
};

}  // namespace arena

// Timings that are not config keys; tests shorten them.
struct ArenaTimes {
    std::chrono::milliseconds read_every{std::chrono::minutes(1)};
    std::chrono::milliseconds join_before{std::chrono::minutes(2)};
    std::chrono::milliseconds retry_after_error{std::chrono::seconds(30)};
};

// One arena the bot is in, as the router hands it to the status page.
struct JoinedArena {
    std::string id;
    std::string name;
    std::optional<arena::WallTime> ends_at;
};

// Single-threaded: the Bot's event loop feeds it. GameSlots is shared (thread-safe).
class ArenaDesk {
  public:
    using Requests = std::vector<arena::Request>;
    using TimePoint = arena::TimePoint;
    using WallTime = arena::WallTime;

    ArenaDesk(std::vector<config::TournamentConfig> arenas,
              const config::ChallengeConfig& challenge, GameSlots& slots, ArenaTimes times = {});

    // Every round of the event loop: reads that are due, joins that are due, slots to take.
    [[nodiscard]] Requests tick(TimePoint now, WallTime wall_now);
    [[nodiscard]] Requests on(const arena::ArenaRead& answer, TimePoint now, WallTime wall_now);
    [[nodiscard]] Requests on(const arena::JoinAnswered& answer, TimePoint now);
    // A gameStart: true when it is a game of an arena we are in; its slot reservation becomes
    // the game (GameSlots), so the ChallengeDesk finds it running.
    bool on_game_start(const lichess::GameEventInfo& game);
    // A gameFinish: a noStart loss in one of our arenas drops that arena.
    [[nodiscard]] Requests on_game_finish(const lichess::GameEventInfo& game);
    // A game's session ended: its arena reserves its slot again and is joined again at once.
    [[nodiscard]] Requests on_session_finished(const std::string& game_id, TimePoint now);
    // Shutdown: withdraws from every arena we are in and frees their slots; no more requests.
    [[nodiscard]] Requests stop();

    // The arenas we are in now (joined, not dropped, not ended).
    [[nodiscard]] std::vector<JoinedArena> joined() const;

  private:
    enum class Stage { Watching, Joined, Dropped };
    struct Arena {
        config::TournamentConfig config;
        Stage stage = Stage::Watching;
        std::optional<lichess::Tournament> last;  // the last read
        std::optional<WallTime> ends_at;
        TimePoint next_read{};
        TimePoint next_join{};
        TimePoint read_sent{};  // when the read in flight (or the last one) was asked for
        TimePoint joined_at{};  // when lila last answered a join of ours with success
        bool read_pending = false;
        bool join_pending = false;
        bool join_wanted = false;  // a read said: join now
        bool reserved = false;     // holds its slot (the reservation "arena:ID")
        bool said_no_bots = false;
        bool said_no_slot = false;
        std::string game_id;  // our game in it now
    };

    void decide(Arena& a, const lichess::Tournament& t, TimePoint now, WallTime wall_now,
                Requests& out);
    void join(Arena& a, TimePoint now, Requests& out);
    void drop(Arena& a, common::LogLevel level, const std::string& why, Requests& out);
    bool reserve(Arena& a, Requests& out);
    void release(Arena& a);
    [[nodiscard]] std::string name_of(const Arena& a) const;
    [[nodiscard]] std::optional<std::string> unplayable(const lichess::Tournament& t) const;
    Arena* find(const std::string& id);

    std::vector<Arena> arenas_;
    const config::ChallengeConfig& challenge_;
    GameSlots& slots_;
    const ArenaTimes times_;
    bool stopped_ = false;
};

// The reservation an arena holds in GameSlots (also its "user": never a Lichess user id).
[[nodiscard]] std::string arena_slot(const std::string& arena_id);

}  // namespace service
