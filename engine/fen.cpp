// FEN parsing and printing for every variant. Every rejection says which field is wrong and
// why. The variant extensions follow scalachess's format/FenReader.scala and FenWriter.scala.
#include "fen.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <sstream>
#include <vector>

#include "zobrist.hpp"

namespace engine {

namespace {

constexpr std::string_view PIECE_CHARS = "PNBRQK";

std::vector<std::string_view> split_fields(std::string_view text) {
    std::vector<std::string_view> fields;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
        if (i > start) fields.push_back(text.substr(start, i - start));
    }
    return fields;
}

bool parse_number(std::string_view s, int& out) {
    if (s.empty() || s.size() > 6) return false;
    const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && ptr == s.data() + s.size() && out >= 0;
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string variant_name(Variant v) { return std::string(lichess_key(v)); }

// The placement field split into the board and, for crazyhouse, the pocket text: "[...]" after
// the board, or a ninth '/'-separated rank (FenReader.scala makeBoard).
struct PlacementParts {
    std::string_view board;
    std::string_view pocket;
    bool has_pocket = false;
};

Result<PlacementParts> split_placement(std::string_view field) {
    using R = Result<PlacementParts>;
    PlacementParts parts{field, {}, false};
    if (const auto open = field.find('['); open != std::string_view::npos) {
        if (field.back() != ']')
            return R::failure("FEN pocket " + quoted(field.substr(open)) +
                              " does not end with ']'");
        parts.board = field.substr(0, open);
        parts.pocket = field.substr(open + 1, field.size() - open - 2);
        parts.has_pocket = true;
    } else if (std::count(field.begin(), field.end(), '/') == 8) {
        const auto last = field.rfind('/');
        parts.board = field.substr(0, last);
        parts.pocket = field.substr(last + 1);
        parts.has_pocket = true;
    }
    return parts;
}

// A three-check field: "+W+B" (checks given, Lichess) or "W+B" (checks still to give,
// chessops). Sets the checks given by each side; false when the text is not such a field.
bool parse_check_field(std::string_view f, int given[COLOR_NB], std::string& error) {
    const bool lichess = f.size() == 4 && f[0] == '+' && f[2] == '+';
    const bool remaining = f.size() == 3 && f[1] == '+';
    if (!lichess && !remaining) {
        error = "FEN check field " + quoted(f) + " is not like '3+3' or '+0+0'";
        return false;
    }
    const char w = lichess ? f[1] : f[0], b = lichess ? f[3] : f[2];
    if (w < '0' || w > '3' || b < '0' || b > '3') {
        error = "FEN check field " + quoted(f) + " has a count outside 0..3";
        return false;
    }
    given[WHITE] = lichess ? w - '0' : 3 - (w - '0');
    given[BLACK] = lichess ? b - '0' : 3 - (b - '0');
    return true;
}

// Whether colour c's king is attacked by the other side as the variant counts it (the side not
// to move may not be in check).
template <Variant V>
bool king_attacked(const BasicBoard<V>& b, Color c) {
    if constexpr (!has_royal_king(V)) return false;
    if (!b.has_king(c)) return false;
    const Square ksq = b.king_square(c);
    if constexpr (has_explosions(V)) {
        if (king_attacks(ksq) & b.pieces(~c, KING)) return false;
        return (b.attackers_to(ksq) & b.pieces(~c) & ~b.pieces(KING)) != 0;
    }
    return (b.attackers_to(ksq) & b.pieces(~c)) != 0;
}

// The variant's setup rules for pieces (scalachess Variant.valid / chessops validate).
template <Variant V>
std::string setup_error(const BasicBoard<V>& b, FenRules rules) {
    const char* names[COLOR_NB] = {"white", "black"};
    const int total = popcount(b.pieces());
    if constexpr (V == Variant::ANTICHESS) {
        // Antichess.scala valid: 2 to 32 pieces, any number of kings.
        if (total < 2 || total > 32)
            return "FEN has " + std::to_string(total) + " pieces, antichess needs 2 to 32";
    }
    for (const Color c : {WHITE, BLACK}) {
        const std::string name = names[c];
        const int kings = popcount(b.pieces(c, KING));
        if constexpr (V == Variant::HORDE) {
            if (c == WHITE && kings != 0) return "FEN gives the horde (white) a king";
        }
        if constexpr (V == Variant::ATOMIC) {
            // chessops Atomic.validate: the side to move may have lost its king.
            if (kings > 1 || (kings == 0 && c != b.side))
                return "FEN has " + std::to_string(kings) + " " + name +
                       " kings, expected 1 (0 only for the side to move)";
        } else if constexpr (has_royal_king(V)) {
            if (kings != 1 && !(V == Variant::HORDE && c == WHITE))
                return "FEN has " + std::to_string(kings) + " " + name +
                       " kings, expected exactly 1";
        }
        // Variant.validSide: the counts are limited only when strict (lila's API is not).
        const bool limited = rules == FenRules::Strict && !has_drops(V) && has_royal_king(V) &&
                             !(V == Variant::HORDE && c == WHITE);
        if (limited && popcount(b.pieces(c, PAWN)) > 8)
            return "FEN has more than 8 " + name + " pawns";
        if (limited && popcount(b.pieces(c)) > 16)
            return "FEN has more than 16 " + name + " pieces";
    }
    // Horde.scala valid: the horde's pawns may stand on its first rank.
    const Bitboard back_ranks = V == Variant::HORDE
                                    ? (b.pieces(BLACK, PAWN) & (RANK_1_BB | RANK_8_BB)) |
                                          (b.pieces(WHITE, PAWN) & RANK_8_BB)
                                    : b.pieces(PAWN) & (RANK_1_BB | RANK_8_BB);
    if (back_ranks) return "FEN has a pawn on the first or last rank";
    return {};
}

// Adds the castling right that letter c of the castling field names (KQkq: the outermost rook
// on that side of the king; A-H: the rook on that file), or says why it cannot.
template <Variant V>
std::string add_castling_right(BasicBoard<V>& b, char c, bool& shredder_or_odd) {
    const bool upper = std::isupper(static_cast<unsigned char>(c));
    const Color color = upper ? WHITE : BLACK;
    const char lc = char(std::tolower(static_cast<unsigned char>(c)));
    if (lc != 'k' && lc != 'q' && (lc < 'a' || lc > 'h'))
        return std::string("FEN castling field has an invalid letter '") + c + "'";
    if (!b.has_king(color))
        return std::string("FEN castling right '") + c + "' but that side has no king";
    const Square ksq = b.king_square(color);
    const int back_rank = color == WHITE ? 0 : 7;
    if (rank_of(ksq) != back_rank)
        return std::string("FEN castling right '") + c + "' but the king is not on its back rank";
    const Bitboard rooks = b.pieces(color, ROOK) & rank_bb(back_rank);
    Square rook = SQ_NONE;
    bool odd = false;  // a Shredder letter: Chess960 castling, once the right stands
    if (lc == 'k') {
        for (int f = 7; f > file_of(ksq); --f)
            if (rooks & square_bb(make_square(f, back_rank))) {
                rook = make_square(f, back_rank);
                break;
            }
    } else if (lc == 'q') {
        for (int f = 0; f < file_of(ksq); ++f)
            if (rooks & square_bb(make_square(f, back_rank))) {
                rook = make_square(f, back_rank);
                break;
            }
    } else {
        odd = true;
        const Square s = make_square(lc - 'a', back_rank);
        if (rooks & square_bb(s)) rook = s;
    }
    if (rook == SQ_NONE || file_of(rook) == file_of(ksq))
        return std::string("FEN castling right '") + c + "' has no rook to castle with";
    const bool king_side = file_of(rook) > file_of(ksq);
    const int idx = castling_index(color, king_side);
    if (b.castling & (1 << idx))
        return std::string("FEN castling field repeats a right ('") + c + "')";
    b.castling |= std::uint8_t(1 << idx);
    b.castling_rook[idx] = rook;
    if (odd || file_of(ksq) != 4 || (file_of(rook) != 0 && file_of(rook) != 7))
        shredder_or_odd = true;
    return {};
}

}  // namespace

std::string square_name(Square s) {
    if (!is_ok(s)) return "-";
    return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

template <Variant V>
Result<BasicBoard<V>> parse_variant_fen(std::string_view fen, bool chess960, FenRules rules) {
    using R = Result<BasicBoard<V>>;
    const bool lichess = rules == FenRules::Lichess;
    init_attacks();
    auto fields = split_fields(fen);

    // Three-check's count may be a field of its own (after en passant, or after the counters).
    int checks_given[COLOR_NB] = {0, 0};
    bool have_checks = false;
    for (std::size_t i = 4; i < fields.size(); ++i) {
        if (fields[i].find('+') == std::string_view::npos) continue;
        if constexpr (!counts_checks(V)) {
            return R::failure("FEN field " + quoted(fields[i]) +
                              " counts checks, which only three-check has (variant " +
                              variant_name(V) + ")");
        } else {
            std::string error;
            if (have_checks) return R::failure("FEN has two check fields");
            if (!parse_check_field(fields[i], checks_given, error)) return R::failure(error);
            have_checks = true;
            fields.erase(fields.begin() + std::ptrdiff_t(i));
            --i;
        }
    }
    if (fields.size() != 6 && fields.size() != 4)
        return R::failure("FEN has " + std::to_string(fields.size()) +
                          " fields, expected 6 (placement, side, castling, en passant, "
                          "halfmove clock, fullmove number)");

    BasicBoard<V> b;
    for (auto& p : b.squares) p = NO_PIECE;
    b.key = zobrist::variant_keys.variant[int(V)];

    // 1. Piece placement, rank 8 first; crazyhouse pockets and promoted marks.
    PlacementParts parts{fields[0], {}, false};
    if constexpr (has_drops(V)) {
        auto split = split_placement(fields[0]);
        if (!split) return R::failure(split.error());
        parts = *split;
    } else if (fields[0].find('[') != std::string_view::npos) {
        return R::failure("FEN has a pocket, which only crazyhouse has (variant " +
                          variant_name(V) + ")");
    }
    int rank = 7, file = 0;
    Square last_piece = SQ_NONE;
    for (const char c : parts.board) {
        if (c == '/') {
            if (file != 8)
                return R::failure("FEN rank " + std::to_string(rank + 1) + " has " +
                                  std::to_string(file) + " squares, expected 8");
            if (--rank < 0) return R::failure("FEN placement has more than 8 ranks");
            file = 0;
            last_piece = SQ_NONE;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            last_piece = SQ_NONE;
            if (file > 8)
                return R::failure("FEN rank " + std::to_string(rank + 1) +
                                  " has more than 8 squares");
        } else if (c == '~' && has_drops(V)) {
            // Crazyhouse: the piece before was a pawn (kings and pawns never carry the mark).
            if (last_piece == SQ_NONE)
                return R::failure("FEN placement has a '~' that follows no piece");
            const PieceType pt = type_of(b.piece_on(last_piece));
            if (pt != PAWN && pt != KING) b.toggle_promoted(last_piece);
            last_piece = SQ_NONE;
        } else {
            const auto idx = PIECE_CHARS.find(char(std::toupper(static_cast<unsigned char>(c))));
            if (idx == std::string_view::npos)
                return R::failure(std::string("FEN placement has an invalid piece letter '") + c +
                                  "'");
            if (file > 7)
                return R::failure("FEN rank " + std::to_string(rank + 1) +
                                  " has more than 8 squares");
            const Color color = std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK;
            last_piece = make_square(file, rank);
            b.put_piece(make_piece(color, PieceType(idx)), last_piece);
            ++file;
        }
    }
    if (rank != 0)
        return R::failure("FEN placement has " + std::to_string(8 - rank) + " ranks, expected 8");
    if (file != 8)
        return R::failure("FEN rank 1 has " + std::to_string(file) + " squares, expected 8");
    if constexpr (has_drops(V)) {
        for (const char c : parts.pocket) {
            const auto idx = PIECE_CHARS.find(char(std::toupper(static_cast<unsigned char>(c))));
            if (idx == std::string_view::npos || PieceType(idx) == KING)
                return R::failure(std::string("FEN pocket has an invalid piece letter '") + c +
                                  "' (expected P, N, B, R or Q, either case)");
            if (popcount(b.pieces()) + b.state.pockets.total() >= zobrist::POCKET_COUNT_NB)
                return R::failure("FEN has more than 64 pieces on the board and in the pockets");
            const Color color = std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK;
            b.add_to_pocket(color, PieceType(idx));
        }
    }
    // 2. Side to move (read first: atomic's setup rule depends on it).
    const bool side_ok = fields[1] == "w" || fields[1] == "b";
    b.side = fields[1] == "b" ? BLACK : WHITE;
    if (const std::string error = setup_error(b, rules); !error.empty()) return R::failure(error);
    if (!side_ok)
        return R::failure("FEN side to move is " + quoted(fields[1]) + ", expected 'w' or 'b'");
    if (b.side == BLACK) b.key ^= zobrist::keys.side;

    // 3. Castling rights.
    bool shredder_or_odd = false;
    // FenReader reads no right in a variant without castling, and drops each right that has no
    // king and rook to match; Strict names the first such right instead.
    if (fields[2] != "-" && !has_castling(V) && !lichess)
        return R::failure("FEN castling field " + quoted(fields[2]) + " but " + variant_name(V) +
                          " has no castling");
    if (fields[2] != "-" && has_castling(V)) {
        for (const char c : fields[2]) {
            const std::string error = add_castling_right(b, c, shredder_or_odd);
            if (!error.empty() && !lichess) return R::failure(error);
        }
    }
    b.chess960 = chess960 || shredder_or_odd;
    b.key ^= zobrist::keys.castling[b.castling];

    // 4. En passant.
    if (fields[3] != "-") {
        const auto ep = fields[3];
        const bool square =
            ep.size() == 2 && ep[0] >= 'a' && ep[0] <= 'h' && ep[1] >= '1' && ep[1] <= '8';
        if (!square && !lichess)
            return R::failure("FEN en-passant field " + quoted(ep) + " is not a square");
        const Square s = square ? make_square(ep[0] - 'a', ep[1] - '1') : SQ_NONE;
        const Color them = ~b.side;
        // FenReader keeps the square only when a pawn of the side not to move stands past it
        // with the square and the one it came from empty; otherwise it is no en passant.
        const bool possible = square && relative_rank(b.side, s) == 5 &&
                              b.piece_on(Square(s + pawn_push(them))) == make_piece(them, PAWN) &&
                              b.empty(s) && b.empty(Square(s - pawn_push(them)));
        if (!possible && !lichess)
            return R::failure("FEN en-passant square " + quoted(ep) +
                              " is impossible: no pawn just moved two squares past it");
        if (possible && (pawn_attacks(them, s) & b.pieces(b.side, PAWN))) {
            b.en_passant = s;
            b.key ^= zobrist::keys.en_passant_file[file_of(s)];
        }
    }

    // 5. Counters.
    int halfmove = 0, fullmove = 1;
    if (fields.size() == 6 && lichess) {
        // readHalfMoveClockAndFullMoveNumber: clamped, an unreadable one left at its default.
        if (!parse_number(fields[4], halfmove)) halfmove = 0;
        if (!parse_number(fields[5], fullmove)) fullmove = 1;
        halfmove = std::min(halfmove, 100);
        fullmove = std::min(fullmove, 500);
    } else if (fields.size() == 6) {
        if (!parse_number(fields[4], halfmove))
            return R::failure("FEN halfmove clock " + quoted(fields[4]) +
                              " is not a non-negative number");
        if (!parse_number(fields[5], fullmove))
            return R::failure("FEN fullmove number " + quoted(fields[5]) +
                              " is not a non-negative number");
        if (halfmove > 150)
            return R::failure("FEN halfmove clock " + quoted(fields[4]) +
                              " is out of range (at most 150)");
    }
    b.halfmove_clock = std::uint8_t(halfmove);
    b.fullmove_number = std::uint16_t(std::max(1, std::min(fullmove, 9999)));
    if constexpr (counts_checks(V))
        for (const Color c : {WHITE, BLACK}) b.set_checks_given(c, checks_given[c]);

    // 6. Legality of the whole.
    b.checkers_bb = b.compute_checkers();
    if (king_attacked(b, ~b.side))
        return R::failure("FEN is illegal: the side not to move is in check");
    if constexpr (V == Variant::RACING_KINGS)
        if (b.in_check())  // RacingKings.scala valid: no check at all
            return R::failure("FEN is illegal: racing kings has no check");
    if (popcount(b.checkers()) > 2 && !lichess)  // Standard.hasValidCheckers, strict only
        return R::failure("FEN is illegal: the side to move is in check by more than two pieces");
    return b;
}

Result<Board> parse_fen(std::string_view fen, bool chess960, FenRules rules) {
    return parse_variant_fen<Variant::STANDARD>(fen, chess960, rules);
}

template <Variant V>
std::string to_fen(const BasicBoard<V>& b) {
    std::ostringstream out;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Square s = make_square(file, rank);
            const Piece p = b.piece_on(s);
            if (p == NO_PIECE) {
                ++empty;
                continue;
            }
            if (empty) out << empty;
            empty = 0;
            const char c = PIECE_CHARS[type_of(p)];
            out << (color_of(p) == WHITE ? c : char(std::tolower(c)));
            if constexpr (has_drops(V))
                if (b.state.promoted & square_bb(s)) out << '~';
        }
        if (empty) out << empty;
        if (rank) out << '/';
    }
    if constexpr (has_drops(V)) {
        // FenWriter.scala writeCrazyPocket: white's pieces, then black's, pawns first.
        out << '[';
        for (const Color c : {WHITE, BLACK})
            for (int pt = PAWN; pt < KING; ++pt)
                for (int n = 0; n < b.state.pockets.of(c, PieceType(pt)); ++n)
                    out << (c == WHITE ? PIECE_CHARS[pt]
                                       : char(std::tolower(PIECE_CHARS[std::size_t(pt)])));
        out << ']';
    }
    out << (b.side == WHITE ? " w " : " b ");
    if (!b.castling) out << '-';
    for (const Color c : {WHITE, BLACK}) {
        for (const bool king_side : {true, false}) {
            const int idx = castling_index(c, king_side);
            if (!(b.castling & (1 << idx))) continue;
            const Square rook = b.castling_rook[idx];
            // Is this rook the outermost one on its side? Then KQkq is unambiguous.
            const Square ksq = b.king_square(c);
            Bitboard outer = b.pieces(c, ROOK) & rank_bb(rank_of(ksq));
            bool outermost = true;
            while (outer) {
                const Square r = pop_lsb(outer);
                if (r != rook &&
                    (king_side ? file_of(r) > file_of(rook) : file_of(r) < file_of(rook)))
                    outermost = false;
            }
            char letter = outermost ? (king_side ? 'k' : 'q') : char('a' + file_of(rook));
            out << (c == WHITE ? char(std::toupper(letter)) : letter);
        }
    }
    out << ' ' << (b.en_passant == SQ_NONE ? "-" : square_name(b.en_passant));
    out << ' ' << int(b.halfmove_clock) << ' ' << b.fullmove_number;
    // FenWriter.scala writeCheckCount: "+<checks white gave>+<checks black gave>".
    if constexpr (counts_checks(V))
        out << " +" << int(b.state.checks_given[WHITE]) << '+' << int(b.state.checks_given[BLACK]);
    return out.str();
}

#define OUTPOST_INSTANTIATE(V)                                                             \
    template Result<BasicBoard<V>> parse_variant_fen<V>(std::string_view, bool, FenRules); \
    template std::string to_fen<V>(const BasicBoard<V>&);
OUTPOST_FOR_EACH_VARIANT(OUTPOST_INSTANTIATE)
#undef OUTPOST_INSTANTIATE

}  // namespace engine
