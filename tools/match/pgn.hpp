// A played game as PGN, with the `[Variant]` tag Lichess writes, the opening's moves marked
// `{book}` and each engine move's score and thinking time as a comment.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tools/match/referee.hpp"

namespace match {

struct PlayedMove {
    std::string uci;
    bool book = false;
    std::optional<EngineScore> score;  // the mover's view
    std::int64_t ms = 0;
};

// Why a game was lost other than on the board; the loser is the side the result names.
enum class Fault { NONE, TIME, ILLEGAL_MOVE, ENGINE_FAILURE };

struct GameRecord {
    std::string white, black;
    engine::Variant variant = engine::Variant::STANDARD;
    int round = 1;
    std::string time_control;  // PGN TimeControl: "10+0.1", "-" without a clock
    std::string date;          // "2026.11.27"
    std::vector<PlayedMove> moves;
    GameEnd end;
    Fault fault = Fault::NONE;
};

// The whole game as PGN text, ending in a blank line. Moves are written in SAN; the text of
// a move that was not legal (the game's last) is written as a comment.
std::string to_pgn(const GameRecord& game);

}  // namespace match
