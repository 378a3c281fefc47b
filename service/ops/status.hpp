// StatusSnapshot: what the status page shows, as plain values copied at one moment. The daemon's
// parts publish into a StatusBoard (status_board.hpp) as things happen; the health endpoint takes a
// snapshot and renders it (status_page.hpp) without waiting for any of them.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/search.hpp"
#include "service/game/game_record.hpp"
#include "service/game/move_source.hpp"
#include "service/ops/metrics.hpp"

namespace service {

using WallTime = std::chrono::system_clock::time_point;

struct StatusPlayer {
    std::string name;
    std::string title;  // "BOT", "GM", ...; empty: none
    std::optional<int> rating;
    bool provisional = false;
};

// Our last move in a game and where it came from.
struct StatusMove {
    MoveSource source = MoveSource::Search;
    std::optional<engine::Score> score;  // from our side; none for a book move
    int depth = 0;                       // a searched move's
    std::uint64_t nps = 0;
    std::int64_t think_ms = 0;
};

// One game in progress, as its session last published it.
struct GameStatus {
    std::string id;
    std::string variant_key = "standard";  // Lichess key
    std::string variant_name = "Standard";
    std::string speed;  // "blitz", "correspondence", ...
    bool rated = false;
    std::string time_control;  // "3+2", "3 days", "unlimited"
    bool we_play_white = true;
    StatusPlayer white, black;
    // engine::Position::fen() of the position now: any variant's, crazyhouse pockets ("[Qp]")
    // and promoted marks ("Q~") and three-check counts ("+1+0") included.
    std::string fen;
    std::string last_move;  // UCI ("e2e4", "e1h1", a drop "N@f3"); empty before the first move
    int plies = 0;
    // The clocks as the last gameState said them, and when it came: the side to move's clock has
    // run since (when `clock_running`).
    bool real_time = true;
    std::int64_t white_ms = 0;
    std::int64_t black_ms = 0;
    WallTime clocks_at{};
    bool clock_running = false;  // real time, both first moves made, the game on
    std::optional<StatusMove> our_last_move;
    std::optional<int> level;  // the level we play at (engine.strength); none: full strength
};

// A game that ended, newest first in StatusSnapshot::finished.
struct FinishedGameStatus {
    std::string id;
    GameResult result = GameResult::Draw;
    StatusPlayer opponent;
    bool we_played_white = true;
    std::string status;    // how it ended, as Lichess says it: "mate", "resign", "outoftime"
    std::string speed;     // "blitz", ...
    std::string pgn_path;  // the PGN file written; empty: none kept
    WallTime ended_at{};
};

// The slots and the challenge queue, as the event loop last published them.
struct SlotsStatus {
    int limit = 0;                    // challenge.concurrency
    int active = 0;                   // real-time games started
    int reserved = 0;                 // accepted or sent challenges whose game has not started
    std::vector<std::string> queued;  // challengers waiting for a slot, in order
    int correspondence_games = 0;     // on, parked or not
};

// An arena tournament the bot has joined.
struct ArenaStatus {
    std::string id;
    std::string name;
    std::optional<WallTime> ends_at;  // none: lila has not said yet
};

struct OnlineSourceStatus {
    const char* name = "";  // kOnlineSourceNames
    bool enabled = false;
    std::optional<WallTime> paused_until;  // none: answering
    std::uint64_t hits = 0;
    std::uint64_t errors = 0;
    std::uint64_t pauses = 0;
};

// Today's results (UTC day).
struct DayResults {
    int wins = 0;
    int draws = 0;
    int losses = 0;
    int aborted = 0;
};

struct StatusSnapshot {
    WallTime now{};
    // Who and what: never the token or anything else of the config but the server's address.
    std::string account;                       // display name
    std::string version;                       // OUTPOST_VERSION
    std::string site = "https://lichess.org";  // config `url`: links to games
    std::chrono::seconds uptime{0};
    // The Lichess connection: the event stream's state, and /healthz's answer.
    bool event_stream_connected = false;
    std::optional<std::chrono::seconds> last_event_age;  // none: no byte yet
    std::optional<std::string> health_problem;           // none: /healthz says ok
    std::optional<WallTime> bot_games_paused_until;      // the daily bot-vs-bot limit
    std::optional<std::uint64_t> resident_bytes;         // process memory; none: not readable

    std::vector<GameStatus> games;  // in progress, by id
    SlotsStatus slots;
    DayResults today;
    std::vector<FinishedGameStatus> finished;  // the last ones, newest first
    std::array<OnlineSourceStatus, kOnlineSourceCount> online{};
    std::vector<ArenaStatus> arenas;  // joined, soonest end first
};

}  // namespace service
