// Standard Algebraic Notation: printing (PGN records) and parsing (EPD bm/am fields).
#pragma once

#include <string>
#include <string_view>

#include "board.hpp"

namespace engine {

// SAN of a legal move, with '+' or '#' when it checks or mates ("Nbd7", "exd6", "O-O", "e8=Q+").
std::string move_to_san(const Board& board, Move m);

// Parses SAN against the legal moves. Tolerates check marks, annotations (!?), "0-0" with zeros,
// a missing or present "=" before the promotion piece and "e.p." suffixes.
Result<Move> parse_san(const Board& board, std::string_view text);

}  // namespace engine
