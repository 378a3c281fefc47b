// FEN (and X-FEN / Shredder-FEN castling) parsing with validation, and FEN printing.
#pragma once

#include <string>
#include <string_view>

#include "board.hpp"

namespace engine {

inline constexpr std::string_view START_FEN =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// Parses a FEN with 6 fields (or the first 4 of an EPD line: counters default to 0 and 1).
// Castling may be KQkq, X-FEN (KQkq meaning the outermost rook) or Shredder letters (A-H);
// rights that are not plain KQkq on e/a/h files make the board Chess960 even if `chess960` is
// false. Returns an error naming the problem for anything malformed or illegal.
Result<Board> parse_fen(std::string_view fen, bool chess960 = false);

// Prints the board as FEN; Chess960 boards use KQkq when the outermost rook castles and the
// rook's file letter otherwise (X-FEN), so standard FENs stay standard.
std::string to_fen(const Board& board);

}  // namespace engine
