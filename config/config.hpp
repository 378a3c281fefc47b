// The settings Outpost runs with: plain structs whose member initialisers are the defaults.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace config {

// Lichess's ten game type keys ("standard", "chess960", ..., "threeCheck"), in the engine's
// game-type table's order.
[[nodiscard]] std::vector<std::string> every_variant_key();

// Opening book files per Lichess variant key ("standard", "crazyhouse", ...): tried in order.
using BookFiles = std::map<std::string, std::vector<std::string>>;
// The largest book file read (the whole book is held in memory): the largest Polyglot books
// published are a few hundred MB.
inline constexpr std::uint64_t kMaxBookFileBytes = 1ULL << 30;

struct BookConfig {
    bool enabled = false;
    BookFiles files;
    std::string selection = "weighted_random";  // best_move | weighted_random | uniform_random
    int min_weight = 1;                         // polyglot weight, 0..65535
    int max_depth = 20;                         // full moves into the game
    bool operator==(const BookConfig&) const = default;
};

// Local endgame tablebases, probed by the search: Gaviota (engine/tablebase.hpp) and Syzygy
// (engine/syzygy.hpp), which the search asks first.
struct TablebaseConfig {
    std::vector<std::string> gaviota_paths;  // folders of *.gtb.cp1..cp4 files; empty: none
    int max_pieces = 5;                      // probe positions with at most this many pieces
    std::vector<std::string> syzygy_paths;   // folders of *.rtbw/*.rtbz files; empty: none
    int syzygy_max_pieces = 7;  // probe positions with at most this many pieces (7: every table)
    bool operator==(const TablebaseConfig&) const = default;
};

// engine.strength: the level games are played at (docs/STRENGTH.md). `elo` is "full" (the
// engine's whole strength) or a level 800..2800; match_opponent picks each game's level from
// the opponent's Lichess rating for its speed, plus `offset`, within min..max.
struct StrengthConfig {
    std::string elo = "full";
    bool match_opponent = false;
    int offset = 0;
    int min = 800;
    int max = 2800;
    bool match_bots = false;  // false: bots are met at full strength
    bool operator==(const StrengthConfig&) const = default;
};

struct EngineConfig {
    int hash_mb = 64;
    int threads = 1;
    int move_overhead_ms = 100;  // kept back from our clock on every move
    bool ponder = false;
    // nnue: the embedded net (docs/NNUE.md); hce: the hand-crafted evaluation.
    std::string evaluation = "nnue";
    BookConfig book;
    TablebaseConfig tablebases;
    StrengthConfig strength;
    bool operator==(const EngineConfig&) const = default;
};

struct ChallengeConfig {
    int concurrency = 1;
    bool accept_bot = true;
    bool only_bot = false;
    // Lichess's ten game types; an operator narrows the list.
    std::vector<std::string> variants = every_variant_key();
    std::vector<std::string> time_controls = {"bullet", "blitz", "rapid", "classical"};
    std::vector<std::string> modes = {"casual", "rated"};
    int min_base = 0;  // seconds
    int max_base = 1800;
    int min_increment = 0;  // seconds
    int max_increment = 20;
    int min_days = 1;  // correspondence
    int max_days = 14;
    int min_rating = 0;
    int max_rating = 4000;
    std::vector<std::string> block_list;
    std::vector<std::string> allow_list;  // empty: everyone
    int max_simultaneous_games_per_user = 5;
    int accept_timeout_s = 30;  // an accepted challenge holds a slot this long without a gameStart
    // The queue (lichess-bot's names): acceptable challenges wait here while no slot is free.
    int games_reserved_for_humans = 0;  // bot games use at most concurrency minus this
    std::string sort_by = "best";       // best (highest-rated first) | first (oldest first)
    std::string preference = "none";    // none | human | bot: who goes first in the queue
    int max_queued = 10;                // challenges waiting at most; 0: no queue (decline later)
    int rating_difference = 0;          // 0: off; else at most this far from our rating
    bool bullet_requires_increment = false;      // bots only
    int recent_bot_challenge_age = 0;            // seconds; 0: off
    int max_recent_bot_challenges = 0;           // per bot within that age; 0: no limit
    std::vector<std::string> online_block_list;  // URLs of plain-text name lists
    bool operator==(const ChallengeConfig&) const = default;
};

// Chat texts; "{me}" and "{opponent}" are replaced by the two usernames. Empty: say nothing.
struct GreetingConfig {
    std::string hello = "Hi {opponent}, I'm {me}. Good luck!";
    std::string goodbye = "Good game, {opponent}!";
    std::string hello_spectators = "Hi! I'm {me}, playing {opponent}. Thanks for watching.";
    std::string goodbye_spectators = "Thanks for watching!";
    bool operator==(const GreetingConfig&) const = default;
};

// Scores are centipawns from the bot's point of view.
struct DrawOrResignConfig {
    bool resign_enabled = false;
    int resign_score = -1000;
    int resign_moves = 3;
    bool offer_draw_enabled = true;
    int offer_draw_score = 0;
    int offer_draw_moves = 10;
    int offer_draw_pieces = 10;
    bool operator==(const DrawOrResignConfig&) const = default;
};

// Correspondence and unlimited games (service/correspondence.hpp): parked without a thread or
// an engine while the opponent thinks, searched a few at a time when it is our turn.
struct CorrespondenceConfig {
    int move_time_s = 60;
    int move_time_ms = 0;  // above 0: replaces move_time_s (sub-second, for tests and figures)
    int checkin_period_s = 300;
    int max_concurrent_searches = 1;
    int disconnect_time_s = 15;  // a game's session waits this long for a reply, then parks
    bool operator==(const CorrespondenceConfig&) const = default;
};

struct MatchmakingConfig {
    bool enabled = false;
    bool allow_during_games = false;
    int challenge_timeout_min = 30;  // idle minutes before we challenge someone
    std::vector<std::string> time_controls = {"3+2", "5+3"};  // "minutes+seconds"
    std::vector<std::string> variants = {"standard"};
    bool rated = true;
    int opponent_min_rating = 600;
    int opponent_max_rating = 4000;
    int opponent_rating_difference = 300;  // 0: use only the min/max window
    std::vector<std::string> block_list;
    // Bots that declined us, remembered across restarts (a small JSON file). Empty:
    // declined-bots.json in the PGN folder; with no PGN folder, kept in memory only.
    std::string declined_bots_file;
    bool operator==(const MatchmakingConfig&) const = default;
};

// One Lichess arena to play (`tournaments:`): joined shortly before it starts, if it allows bots.
struct TournamentConfig {
    std::string id;        // the arena's 8-character id (lichess.org/tournament/ID)
    std::string team;      // a team battle: the team to play for (its id)
    std::string password;  // a private arena's entry code; never printed
    bool operator==(const TournamentConfig&) const = default;
};

struct HealthConfig {
    std::string listen = "127.0.0.1:8080";  // host:port; empty: no health endpoint
    bool operator==(const HealthConfig&) const = default;
};

struct LogConfig {
    std::string level = "info";  // trace | debug | info | warn | error | critical | off
    std::string file;            // empty: standard error only
    bool operator==(const LogConfig&) const = default;
};

// One online source of moves (online_moves.*): asked only while our clock shows between
// min_time and max_time seconds, at `url` (the public service by default).
struct OnlineSourceConfig {
    bool enabled = false;
    int min_time = 20;     // seconds
    int max_time = 10800;  // seconds
    std::string url;
    bool operator==(const OnlineSourceConfig&) const = default;
};

struct OpeningExplorerConfig {
    OnlineSourceConfig ask{false, 20, 10800, "https://explorer.lichess.org"};
    std::string source = "masters";  // masters | lichess | player
    std::string player_name;         // for source player
    std::string sort = "winrate";    // winrate | games
    int min_games = 10;              // a move needs this many games
    bool operator==(const OpeningExplorerConfig&) const = default;
};

struct CloudAnalysisConfig {
    OnlineSourceConfig ask{false, 20, 10800, "https://lichess.org"};
    std::string move_quality = "best";  // best | good
    int max_score_difference = 50;      // good: any pv within this many centipawns of the best
    int min_depth = 20;
    bool operator==(const CloudAnalysisConfig&) const = default;
};

struct OnlineTablebaseConfig {
    OnlineSourceConfig ask{false, 20, 10800, "https://tablebase.lichess.org"};
    std::string source = "lichess";     // lichess | chessdb (at online_moves.chessdb_book's url)
    int max_pieces = 7;                 // asked with at most this many pieces
    std::string move_quality = "best";  // best | suggest
    bool operator==(const OnlineTablebaseConfig&) const = default;
};

struct ChessdbBookConfig {
    OnlineSourceConfig ask{false, 20, 10800, "https://www.chessdb.cn"};
    std::string move_quality = "good";  // best | good | all
    bool operator==(const ChessdbBookConfig&) const = default;
};

// Knowledge beyond the search (lichess-bot's online_moves section, same names).
struct OnlineMovesConfig {
    int max_out_of_book_moves = 10;  // stop asking after this many misses in a row in a game
    int max_retries = 2;             // a failed request is sent again this often (deadline allows)
    int max_depth = 1000;            // full moves into the game that explorer/cloud/chessdb answer
    OpeningExplorerConfig lichess_opening_explorer;
    CloudAnalysisConfig lichess_cloud_analysis;
    OnlineTablebaseConfig online_egtb;
    ChessdbBookConfig chessdb_book;
    bool operator==(const OnlineMovesConfig&) const = default;
};

struct Config {
    std::string token;       // the Lichess API token; never log or print it
    std::string token_file;  // where the token was read from, if from a file
    std::string url = "https://lichess.org";
    EngineConfig engine;
    ChallengeConfig challenge;
    GreetingConfig greeting;
    int abort_time = 30;  // seconds an opponent may take for the first move before we abort
    int max_takebacks_accepted = 0;  // per game: the opponent's takeback requests we grant
    DrawOrResignConfig draw_or_resign;
    CorrespondenceConfig correspondence;
    MatchmakingConfig matchmaking;
    OnlineMovesConfig online_moves;
    std::vector<TournamentConfig> tournaments;
    std::string pgn_directory;  // empty: no PGN records
    HealthConfig health;
    LogConfig log;
    int shutdown_grace_s = 300;  // on SIGTERM, running games get this long to finish
    bool operator==(const Config&) const = default;
};

}  // namespace config
