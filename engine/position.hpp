// A game position: the current Board plus every earlier board of the game, so moves can be
// taken back and repetitions found. The API the service and the UCI front end use.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "board.hpp"
#include "movegen.hpp"

namespace engine {

enum class PositionStatus {
    ONGOING,
    CHECKMATE,
    STALEMATE,
    FIFTY_MOVES,  // 100 plies without capture or pawn move
    THREEFOLD_REPETITION,
    INSUFFICIENT_MATERIAL  // no sequence of legal moves can mate (FIDE dead position by material)
};
const char* to_string(PositionStatus status);

class Position {
  public:
    Position();  // the standard starting position

    static Result<Position> from_fen(std::string_view fen, bool chess960 = false);
    static Position start() { return Position(); }

    const Board& board() const { return boards_.back(); }
    Color side_to_move() const { return board().side; }
    bool chess960() const { return board().chess960; }
    std::string fen() const;
    // Number of moves played since the initial position.
    int game_ply() const { return int(boards_.size()) - 1; }
    const std::vector<Move>& moves() const { return moves_; }
    // Zobrist keys of every position of the game so far, the current one last.
    std::vector<Key> key_history() const;

    // Parses UCI move text ("e2e4", "e7e8q"; castling as king-two-squares or king-to-rook)
    // against the legal moves of the current position.
    Result<Move> parse_uci(std::string_view text) const;
    // Parses and plays; on error the position is unchanged.
    Result<Move> play_uci(std::string_view text);
    // Plays a move known to be legal here.
    void play(Move m);
    // Takes the last move back; false when there is none.
    bool undo();

    // UCI text for a move: castling as king-two-squares in standard chess, king-to-rook in
    // Chess960.
    std::string to_uci(Move m) const;

    MoveList legal_moves() const { return engine::legal_moves(board()); }
    PositionStatus status() const;
    // How many times the current position occurred before (same key, same side to move).
    int repetitions() const;

  private:
    explicit Position(const Board& b) : boards_{b} {}
    std::vector<Board> boards_;
    std::vector<Move> moves_;
};

// UCI text of a move on a board (see Position::to_uci).
std::string move_to_uci(const Board& board, Move m);
// Parses UCI move text against a board's legal moves.
Result<Move> parse_uci_move(const Board& board, std::string_view text);
// True when neither side can ever mate: bare kings, a lone minor piece, or only bishops
// that all stand on squares of one colour.
bool insufficient_material(const Board& board);

}  // namespace engine
