// Game-level position: move history, UCI move text, repetition and game-end rules.
#include "position.hpp"

#include "fen.hpp"

namespace engine {

const char* to_string(PositionStatus status) {
    switch (status) {
        case PositionStatus::ONGOING:
            return "ongoing";
        case PositionStatus::CHECKMATE:
            return "checkmate";
        case PositionStatus::STALEMATE:
            return "stalemate";
        case PositionStatus::FIFTY_MOVES:
            return "fifty-move rule";
        case PositionStatus::THREEFOLD_REPETITION:
            return "threefold repetition";
        case PositionStatus::INSUFFICIENT_MATERIAL:
            return "insufficient material";
    }
    return "unknown";
}

Position::Position() : boards_{*parse_fen(START_FEN)} {}

Result<Position> Position::from_fen(std::string_view fen, bool chess960) {
    auto board = parse_fen(fen, chess960);
    if (!board) return Result<Position>::failure(board.error());
    return Position(*board);
}

std::string Position::fen() const { return to_fen(board()); }

std::vector<Key> Position::key_history() const {
    std::vector<Key> keys;
    keys.reserve(boards_.size());
    for (const auto& b : boards_) keys.push_back(b.key);
    return keys;
}

Result<Move> Position::parse_uci(std::string_view text) const {
    return parse_uci_move(board(), text);
}

Result<Move> Position::play_uci(std::string_view text) {
    auto m = parse_uci(text);
    if (m) play(*m);
    return m;
}

void Position::play(Move m) {
    Board next = board();
    next.make_move(m);
    boards_.push_back(next);
    moves_.push_back(m);
}

bool Position::undo() {
    if (moves_.empty()) return false;
    boards_.pop_back();
    moves_.pop_back();
    return true;
}

std::string Position::to_uci(Move m) const { return move_to_uci(board(), m); }

int Position::repetitions() const {
    const Board& now = board();
    int count = 0;
    // Only positions since the last irreversible move can repeat; same side every 2 plies.
    const int last = int(boards_.size()) - 1;
    for (int i = last - 2; i >= 0 && i >= last - int(now.halfmove_clock); i -= 2)
        if (boards_[std::size_t(i)].key == now.key) ++count;
    return count;
}

PositionStatus Position::status() const {
    const Board& b = board();
    if (count_legal_moves(b) == 0)
        return b.in_check() ? PositionStatus::CHECKMATE : PositionStatus::STALEMATE;
    if (insufficient_material(b)) return PositionStatus::INSUFFICIENT_MATERIAL;
    if (b.halfmove_clock >= 100) return PositionStatus::FIFTY_MOVES;
    if (repetitions() >= 2) return PositionStatus::THREEFOLD_REPETITION;
    return PositionStatus::ONGOING;
}

bool insufficient_material(const Board& b) {
    if (b.pieces(PAWN) | b.pieces(ROOK) | b.pieces(QUEEN)) return false;
    const Bitboard minors = b.pieces(KNIGHT) | b.pieces(BISHOP);
    if (!more_than_one(minors)) return true;
    // Only bishops, all on one square colour: no mate is possible.
    if (b.pieces(KNIGHT)) return false;
    const Bitboard bishops = b.pieces(BISHOP);
    return !(bishops & DARK_SQUARES) || !(bishops & ~DARK_SQUARES);
}

std::string move_to_uci(const Board& b, Move m) {
    if (m.is_none()) return "0000";
    Square to = m.to();
    if (m.kind() == MoveKind::CASTLING && !b.chess960)
        to = Board::castling_king_target(b.side, m.to() > m.from());
    std::string s = square_name(m.from()) + square_name(to);
    if (m.kind() == MoveKind::PROMOTION) s += "nbrq"[m.promotion() - KNIGHT];
    return s;
}

Result<Move> parse_uci_move(const Board& b, std::string_view text) {
    using R = Result<Move>;
    auto square = [](char f, char r) -> Square {
        if (f < 'a' || f > 'h' || r < '1' || r > '8') return SQ_NONE;
        return make_square(f - 'a', r - '1');
    };
    if (text.size() != 4 && text.size() != 5)
        return R::failure("move '" + std::string(text) + "' is not UCI move text (like e2e4)");
    const Square from = square(text[0], text[1]), to = square(text[2], text[3]);
    if (from == SQ_NONE || to == SQ_NONE)
        return R::failure("move '" + std::string(text) + "' names a square that does not exist");
    PieceType promo = PIECE_TYPE_NB;
    if (text.size() == 5) {
        switch (text[4]) {
            case 'n':
            case 'N':
                promo = KNIGHT;
                break;
            case 'b':
            case 'B':
                promo = BISHOP;
                break;
            case 'r':
            case 'R':
                promo = ROOK;
                break;
            case 'q':
            case 'Q':
                promo = QUEEN;
                break;
            default:
                return R::failure("move '" + std::string(text) +
                                  "' has an invalid promotion piece");
        }
    }

    const MoveList moves = legal_moves(b);
    Move castle_by_king_target = Move::none();
    for (const Move m : moves) {
        if (m.from() != from) continue;
        if (m.kind() == MoveKind::PROMOTION) {
            if (m.to() == to && m.promotion() == promo) return m;
            continue;
        }
        if (promo != PIECE_TYPE_NB) continue;
        if (m.to() == to) return m;  // normal moves, and castling written king-to-rook
        if (m.kind() == MoveKind::CASTLING &&
            Board::castling_king_target(b.side, m.to() > m.from()) == to)
            castle_by_king_target = m;
    }
    // King-two-squares castling text, unless it was a plain king move (matched above).
    if (castle_by_king_target) return castle_by_king_target;
    return R::failure("move '" + std::string(text) + "' is not legal in " + to_fen(b));
}

}  // namespace engine
