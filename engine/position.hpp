// A game position: the current board plus every earlier board of the game, so moves can be
// taken back and repetitions found. The API the service and the UCI front end use. A position
// belongs to one variant for its whole life; inside, its boards are that variant's board type,
// and `visit` hands the typed board to code templated on the variant.
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "board.hpp"
#include "fen.hpp"
#include "movegen.hpp"
#include "variant_rules.hpp"

namespace engine {

enum class PositionStatus {
    ONGOING,
    CHECKMATE,
    STALEMATE,
    FIFTY_MOVES,  // 100 plies without capture or pawn move
    THREEFOLD_REPETITION,
    INSUFFICIENT_MATERIAL,  // no sequence of legal moves can win (the variant's own rule)
    VARIANT_END,            // a variant's own win (a king on the hill, a third check, ...)
    VARIANT_DRAW,           // racing kings: both kings reached the eighth rank
};
const char* to_string(PositionStatus status);

// How a game stands: its status, the winner of a decided game, and the rule in a few words
// ("king of the hill", "third check", "stalemate") for logs and PGN comments.
struct GameResult {
    PositionStatus status = PositionStatus::ONGOING;
    std::optional<Color> winner;  // none while the game goes on, and for a draw
    std::string_view reason;
};

// A move list large enough for a position of any variant.
using AnyMoveList = BasicMoveList<max_moves(Variant::CRAZYHOUSE)>;

class Position {
  public:
    Position();  // the standard starting position

    static Result<Position> from_fen(std::string_view fen, bool chess960 = false);
    static Result<Position> from_fen(std::string_view fen, Variant variant, bool chess960 = false,
                                     FenRules rules = FenRules::Strict);
    static Position start(Variant variant = Variant::STANDARD);

    Variant variant() const { return Variant(boards_.index()); }
    // The current board of a standard (or Chess960) game; a variant game's board is
    // board_of<V>() or visit(). Asking a variant game for it is a programming error.
    const Board& board() const;
    template <Variant V>
    const BasicBoard<V>& board_of() const {
        return std::get<int(V)>(boards_).back();
    }
    // Calls f(board) with the current board as its variant's type.
    template <class F>
    decltype(auto) visit(F&& f) const {
        return std::visit([&](const auto& boards) -> decltype(auto) { return f(boards.back()); },
                          boards_);
    }

    Color side_to_move() const;
    bool chess960() const;
    bool in_check() const;
    Key key() const;
    std::string fen() const;
    // Number of moves played since the initial position.
    int game_ply() const { return int(moves_.size()); }
    const std::vector<Move>& moves() const { return moves_; }
    // Zobrist keys of every position of the game so far, the current one last.
    std::vector<Key> key_history() const;

    // Parses UCI move text ("e2e4", "e7e8q"; castling as king-two-squares or king-to-rook;
    // drops "N@f3"; antichess's "e7e8k") against the legal moves of the current position.
    Result<Move> parse_uci(std::string_view text) const;
    // Parses and plays; on error the position is unchanged.
    Result<Move> play_uci(std::string_view text);
    // Parses SAN ("Nf3", "N@f3", "e8=K") against the legal moves.
    Result<Move> parse_san(std::string_view text) const;
    // Plays a move known to be legal here.
    void play(Move m);
    // Takes the last move back; false when there is none.
    bool undo();

    // UCI text for a move: castling as king-two-squares in standard chess, king-to-rook in
    // Chess960; drops as "N@f3".
    std::string to_uci(Move m) const;
    // SAN for a legal move, with '+' for check and '#' for a move that wins the game (mate, or
    // a variant's win, as Lichess writes it).
    std::string san(Move m) const;

    AnyMoveList legal_moves() const;
    GameResult result() const;
    PositionStatus status() const { return result().status; }
    // How many times the current position occurred before (same key, same side to move).
    int repetitions() const;

  private:
    template <Variant V>
    using History = std::vector<BasicBoard<V>>;
    // One alternative per variant, in the order of the Variant enum (index() is the variant).
    using Boards = std::variant<History<Variant::STANDARD>, History<Variant::CRAZYHOUSE>,
                                History<Variant::ANTICHESS>, History<Variant::ATOMIC>,
                                History<Variant::HORDE>, History<Variant::KING_OF_THE_HILL>,
                                History<Variant::RACING_KINGS>, History<Variant::THREE_CHECK>>;
    template <Variant V>
    explicit Position(const BasicBoard<V>& b) : boards_(std::in_place_index<int(V)>, 1, b) {}
    Boards boards_;
    std::vector<Move> moves_;
};

// UCI text of a move on a board (see Position::to_uci).
template <Variant V>
std::string move_to_uci(const BasicBoard<V>& board, Move m);
// Parses UCI move text against a board's legal moves.
template <Variant V>
Result<Move> parse_uci_move(const BasicBoard<V>& board, std::string_view text);
// The game's result from the current board and the repetitions found before it.
template <Variant V>
GameResult game_result(const BasicBoard<V>& board, int repetitions);

}  // namespace engine
