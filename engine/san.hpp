// Standard Algebraic Notation: printing (PGN records) and parsing (EPD bm/am fields).
#pragma once

#include <string>
#include <string_view>

#include "board.hpp"
#include "variant.hpp"

namespace engine {

// SAN of a legal move, with '+' when it checks and '#' when it mates ("Nbd7", "exd6", "O-O",
// "e8=Q+"). Variants as Lichess writes them (scalachess format/pgn/Dumper.scala): a drop is
// "N@f3" (a pawn's "P@e4"), antichess's king promotion "e8=K", and '#' marks any move after
// which the game has a winner (a king on the hill, a third check, an explosion).
template <Variant V>
std::string move_to_san(const BasicBoard<V>& board, Move m);

// Parses SAN against the legal moves. Tolerates check marks, annotations (!?), "0-0" with zeros,
// a missing or present "=" before the promotion piece and "e.p." suffixes; a pawn drop may
// omit its "P".
template <Variant V>
Result<Move> parse_san(const BasicBoard<V>& board, std::string_view text);

}  // namespace engine
