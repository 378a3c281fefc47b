// Game-level position: move history, UCI move text, repetition and game-end rules for every
// variant (scalachess Position.scala `status`, and each variant's `winner`).
#include "position.hpp"

#include "fen.hpp"
#include "san.hpp"

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
        case PositionStatus::VARIANT_END:
            return "variant end";
        case PositionStatus::VARIANT_DRAW:
            return "variant draw";
    }
    return "unknown";
}

namespace {

// The rule that ended a game of the variant, as the side to move saw it.
std::string_view variant_reason(Variant v, VariantEnd end) {
    switch (v) {
        case Variant::KING_OF_THE_HILL:
            return "king of the hill";
        case Variant::THREE_CHECK:
            return "third check";
        case Variant::ATOMIC:
            return "king exploded";
        case Variant::HORDE:
            return "horde destroyed";
        case Variant::ANTICHESS:
            return end == VariantEnd::WIN ? "no pieces left" : "antichess";
        case Variant::RACING_KINGS:
            return end == VariantEnd::DRAW ? "both kings reached the eighth rank"
                                           : "king reached the eighth rank";
        default:
            return "variant rule";
    }
}

// How many earlier positions of the game repeat the last one. Only positions since the last
// irreversible move can repeat: the halfmove clock bounds the search, except in crazyhouse,
// where captured pieces come back (Crazyhouse.scala isIrreversible: castling only, and a
// castling changes the rights in the key anyway).
template <Variant V>
int count_repetitions(const std::vector<BasicBoard<V>>& boards) {
    const BasicBoard<V>& now = boards.back();
    const int last = int(boards.size()) - 1;
    const int window = has_drops(V) ? last : int(now.halfmove_clock);
    int count = 0;
    for (int i = last - 2; i >= 0 && i >= last - window; i -= 2)
        if (boards[std::size_t(i)].key == now.key) ++count;
    return count;
}

}  // namespace

template <Variant V>
GameResult game_result(const BasicBoard<V>& b, int repetitions) {
    const Color us = b.side;
    switch (variant_end(b)) {
        case VariantEnd::LOSS:
            return {PositionStatus::VARIANT_END, ~us, variant_reason(V, VariantEnd::LOSS)};
        case VariantEnd::WIN:
            return {PositionStatus::VARIANT_END, us, variant_reason(V, VariantEnd::WIN)};
        case VariantEnd::DRAW:
            return {PositionStatus::VARIANT_DRAW, std::nullopt,
                    variant_reason(V, VariantEnd::DRAW)};
        case VariantEnd::NONE:
            break;
    }
    if (count_legal_moves(b) == 0) {
        const VariantEnd end = no_moves_result(b);
        if (V == Variant::ANTICHESS)  // Antichess.scala: a stalemated side wins
            return {PositionStatus::VARIANT_END, us, "stalemate"};
        if (end == VariantEnd::LOSS && !b.in_check())  // racing kings: white got home first
            return {PositionStatus::VARIANT_END, ~us, variant_reason(V, end)};
        if (end == VariantEnd::LOSS) return {PositionStatus::CHECKMATE, ~us, "checkmate"};
        return {PositionStatus::STALEMATE, std::nullopt, "stalemate"};
    }
    if (insufficient_material(b))
        return {PositionStatus::INSUFFICIENT_MATERIAL, std::nullopt, "insufficient material"};
    if (has_fifty_move_rule(V) && b.halfmove_clock >= 100)
        return {PositionStatus::FIFTY_MOVES, std::nullopt, "fifty-move rule"};
    if (repetitions >= 2)
        return {PositionStatus::THREEFOLD_REPETITION, std::nullopt, "threefold repetition"};
    return {};
}

Position::Position() : boards_(std::in_place_index<0>, 1, *parse_fen(START_FEN)) {}

Result<Position> Position::from_fen(std::string_view fen, bool chess960) {
    return from_fen(fen, Variant::STANDARD, chess960);
}

Result<Position> Position::from_fen(std::string_view fen, Variant variant, bool chess960,
                                    FenRules rules) {
    return visit_variant(variant, [&](auto tag) -> Result<Position> {
        auto board = parse_variant_fen<decltype(tag)::value>(fen, chess960, rules);
        if (!board) return Result<Position>::failure(board.error());
        return Position(*board);
    });
}

Position Position::start(Variant variant) { return *from_fen(start_fen(variant), variant); }

const Board& Position::board() const {
    if (const auto* boards = std::get_if<0>(&boards_)) return boards->back();
    throw std::logic_error("Position::board() asked of a " + std::string(lichess_key(variant())) +
                           " game; use visit()");
}

Color Position::side_to_move() const {
    return visit([](const auto& b) { return b.side; });
}
bool Position::chess960() const {
    return visit([](const auto& b) { return b.chess960; });
}
bool Position::in_check() const {
    return visit([](const auto& b) { return b.in_check(); });
}
Key Position::key() const {
    return visit([](const auto& b) { return b.key; });
}
std::string Position::fen() const {
    return visit([](const auto& b) { return to_fen(b); });
}

std::vector<Key> Position::key_history() const {
    return std::visit(
        [](const auto& boards) {
            std::vector<Key> keys;
            keys.reserve(boards.size());
            for (const auto& b : boards) keys.push_back(b.key);
            return keys;
        },
        boards_);
}

Result<Move> Position::parse_uci(std::string_view text) const {
    return visit([&](const auto& b) { return parse_uci_move(b, text); });
}

Result<Move> Position::play_uci(std::string_view text) {
    auto m = parse_uci(text);
    if (m) play(*m);
    return m;
}

Result<Move> Position::parse_san(std::string_view text) const {
    return visit([&](const auto& b) { return engine::parse_san(b, text); });
}

void Position::play(Move m) {
    std::visit(
        [&](auto& boards) {
            auto next = boards.back();
            next.make_move(m);
            boards.push_back(next);
        },
        boards_);
    moves_.push_back(m);
}

bool Position::undo() {
    if (moves_.empty()) return false;
    std::visit([](auto& boards) { boards.pop_back(); }, boards_);
    moves_.pop_back();
    return true;
}

std::string Position::to_uci(Move m) const {
    return visit([&](const auto& b) { return move_to_uci(b, m); });
}

std::string Position::san(Move m) const {
    return visit([&](const auto& b) { return move_to_san(b, m); });
}

AnyMoveList Position::legal_moves() const {
    return visit([](const auto& b) {
        AnyMoveList out;
        for (const Move m : engine::legal_moves(b)) out.push(m);
        return out;
    });
}

int Position::repetitions() const {
    return std::visit([](const auto& boards) { return count_repetitions(boards); }, boards_);
}

GameResult Position::result() const {
    const int reps = repetitions();
    return visit([&](const auto& b) { return game_result(b, reps); });
}

template <Variant V>
std::string move_to_uci(const BasicBoard<V>& b, Move m) {
    if (m.is_none()) return "0000";
    if constexpr (has_drops(V))
        if (m.is_drop())
            return std::string(1, "PNBRQK"[m.drop_piece()]) + '@' + square_name(m.to());
    if constexpr (promotes_to_king(V))
        if (m.kind() == MoveKind::CASTLING)
            return square_name(m.from()) + square_name(m.to()) + 'k';
    Square to = m.to();
    if (m.kind() == MoveKind::CASTLING && !b.chess960)
        to = BasicBoard<V>::castling_king_target(b.side, m.to() > m.from());
    std::string s = square_name(m.from()) + square_name(to);
    if (m.kind() == MoveKind::PROMOTION) s += "nbrq"[m.promotion() - KNIGHT];
    return s;
}

template <Variant V>
Result<Move> parse_uci_move(const BasicBoard<V>& b, std::string_view text) {
    using R = Result<Move>;
    auto square = [](char f, char r) -> Square {
        if (f < 'a' || f > 'h' || r < '1' || r > '8') return SQ_NONE;
        return make_square(f - 'a', r - '1');
    };
    const auto legal = legal_moves(b);
    if (text.size() == 4 && text[1] == '@') {
        // A drop, "N@f3" (Lichess's Uci.Drop): only crazyhouse has them.
        if (!has_drops(V))
            return R::failure("move '" + std::string(text) +
                              "' is a drop, which only crazyhouse has");
        const auto idx =
            std::string_view("PNBRQ").find(char(std::toupper(static_cast<unsigned char>(text[0]))));
        const Square to = square(text[2], text[3]);
        if (idx == std::string_view::npos || to == SQ_NONE)
            return R::failure("move '" + std::string(text) + "' is not a drop like N@f3");
        const Move m = Move::drop(PieceType(idx), to);
        if (legal.contains(m)) return m;
        std::string why = "is not legal";
        if constexpr (has_drops(V)) {
            if (!b.state.pockets.of(b.side, PieceType(idx)))
                why = "drops a piece that is not in the pocket";
            else if (!b.empty(to))
                why = "drops onto an occupied square";
        }
        return R::failure("drop '" + std::string(text) + "' " + why + " in " + to_fen(b));
    }
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
            case 'k':
            case 'K':
                if (promotes_to_king(V)) {
                    promo = KING;
                    break;
                }
                [[fallthrough]];
            default:
                return R::failure("move '" + std::string(text) +
                                  "' has an invalid promotion piece");
        }
    }

    Move castle_by_king_target = Move::none();
    for (const Move m : legal) {
        if (m.from() != from || (has_drops(V) && m.is_drop())) continue;
        if (b.is_promotion(m)) {
            if (m.to() == to && b.promotion_type(m) == promo) return m;
            continue;
        }
        if (promo != PIECE_TYPE_NB) continue;
        if (m.to() == to) return m;  // normal moves, and castling written king-to-rook
        if (b.is_castling(m) &&
            BasicBoard<V>::castling_king_target(b.side, m.to() > m.from()) == to)
            castle_by_king_target = m;
    }
    // King-two-squares castling text, unless it was a plain king move (matched above).
    if (castle_by_king_target) return castle_by_king_target;
    return R::failure("move '" + std::string(text) + "' is not legal in " + to_fen(b) +
                      (V == Variant::STANDARD ? "" : " (" + std::string(lichess_key(V)) + ")"));
}

#define OUTPOST_INSTANTIATE(V)                                                       \
    template std::string move_to_uci<V>(const BasicBoard<V>&, Move);                 \
    template Result<Move> parse_uci_move<V>(const BasicBoard<V>&, std::string_view); \
    template GameResult game_result<V>(const BasicBoard<V>&, int);
OUTPOST_FOR_EACH_VARIANT(OUTPOST_INSTANTIATE)
#undef OUTPOST_INSTANTIATE

}  // namespace engine
