// What one game of ours leaves behind: how it ended for us (GameResult, for /metrics and the log)
// and its record (GameRecord, for the PGN file), as plain values the game's rules fill in.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace service {

// How a game of ours ended, from the bot's side.
enum class GameResult : std::uint8_t { Win, Loss, Draw, Aborted };
inline constexpr std::size_t kGameResultCount = 4;

// "win", "loss", "draw", "aborted": the log's word and /metrics' label.
[[nodiscard]] constexpr const char* to_string(GameResult result) {
    switch (result) {
        case GameResult::Win:
            return "win";
        case GameResult::Loss:
            return "loss";
        case GameResult::Draw:
            return "draw";
        case GameResult::Aborted:
            return "aborted";
    }
    return "unknown";
}

// An engine score as the engine reported it: from the point of view of the side that made the
// move. The PGN writer turns it to White's point of view, as PGN readers expect.
struct PgnEval {
    enum class Kind { Centipawns, Mate };
    Kind kind = Kind::Centipawns;
    int value = 0;  // centipawns, or moves to mate (negative: being mated)
    int depth = 0;  // 0: not known
};

struct PgnMove {
    std::string uci;                       // as Lichess sends it; castling may be king-to-rook
    std::optional<std::int64_t> clock_ms;  // the mover's clock after the move
    std::optional<PgnEval> eval;           // usually only on our own moves
    std::string
        source;  // a move not searched: where it came from ("book", "explorer", ...), a comment
};

struct GameRecord {
    std::string game_id;                       // the Site header is <site>/<game_id>
    std::string site = "https://lichess.org";  // the server's base URL (config `url`)
    std::string event;  // empty: pgn_event(rated, variant, speed, tournament_id), as lila's
    bool rated = false;
    std::string speed;          // "bullet", "blitz", ...; only for the default Event
    std::string tournament_id;  // the arena's id, empty for other games; only for the Event
    std::chrono::system_clock::time_point started_at{};  // Date / UTCDate / UTCTime and file name
    std::string white, black;
    std::optional<int> white_rating, black_rating;
    std::optional<std::string> white_title, black_title;  // "BOT", "GM", ...
    std::string time_control = "-";                       // "180+2" (seconds+seconds) or "-"
    std::string variant =
        "standard";            // Lichess key: standard, chess960, fromPosition, crazyhouse, ...
    std::string initial_fen;   // empty or "startpos": the variant's own start
    std::string result = "*";  // 1-0 | 0-1 | 1/2-1/2 | *; anything else is written "*"
    std::string termination;   // "Normal", "Time forfeit", ...; empty: no header
    std::optional<int> level;  // the level we played at (engine.strength); none: full strength
    std::vector<PgnMove> moves;
};

}  // namespace service
