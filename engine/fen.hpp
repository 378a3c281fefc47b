// FEN (and X-FEN / Shredder-FEN castling) parsing with validation, and FEN printing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "board.hpp"
#include "variant.hpp"

namespace engine {

// How forgiving a FEN read is. Strict: anything a legal game cannot reach is an error (UCI,
// tools, our own FENs). Lichess: as scalachess's FenReader reads a FEN and lila's API accepts
// it (`playable` with strict off): a castling right without a king and rook on the back rank
// to match is dropped, an en-passant square no pawn just passed is ignored, the clocks are
// clamped (halfmove to 100, fullmove to 500; an unreadable one takes its default), and a side
// may have more than 8 pawns, more than 16 pieces or more than two checkers. A right or en-passant
// square dropped is dropped only; everything else (kings, pawns on the back ranks, the side
// not to move in check) is refused as in Strict.
enum class FenRules : std::uint8_t { Strict, Lichess };

// Parses a FEN with 6 fields (or the first 4 of an EPD line: counters default to 0 and 1).
// Castling may be KQkq, X-FEN (KQkq meaning the outermost rook) or Shredder letters (A-H);
// rights that are not plain KQkq on e/a/h files make the board Chess960 even if `chess960` is
// false. Returns an error naming the problem for anything malformed or illegal.
Result<Board> parse_fen(std::string_view fen, bool chess960 = false,
                        FenRules rules = FenRules::Strict);

// The same for a variant's board (scalachess format/FenReader.scala). Crazyhouse: the pockets
// in brackets after the placement ("...RNBQKBNR[Qn]") or as a ninth rank ("...RNBQKBNR/Qn"),
// and '~' after a piece that was a pawn. Three-check: the checks each side may still give as a
// field after en passant ("3+3", as chessops and Fairy-Stockfish write it) or the checks each
// side has given after the counters ("+0+0", as Lichess writes it). Each variant's own setup
// rules: the horde has no white king and may have pawns on its first rank, antichess has any
// number of kings and no castling, an atomic side to move may have lost its king.
template <Variant V>
Result<BasicBoard<V>> parse_variant_fen(std::string_view fen, bool chess960 = false,
                                        FenRules rules = FenRules::Strict);

// Prints the board as FEN; Chess960 boards use KQkq when the outermost rook castles and the
// rook's file letter otherwise (X-FEN), so standard FENs stay standard. Crazyhouse pockets in
// brackets, three-check's checks given as Lichess's "+W+B" suffix.
template <Variant V>
std::string to_fen(const BasicBoard<V>& board);

}  // namespace engine
