// FEN parsing and printing. Every rejection says which field is wrong and why.
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

}  // namespace

std::string square_name(Square s) {
    if (!is_ok(s)) return "-";
    return {char('a' + file_of(s)), char('1' + rank_of(s))};
}

Result<Board> parse_fen(std::string_view fen, bool chess960) {
    using R = Result<Board>;
    init_attacks();
    const auto fields = split_fields(fen);
    if (fields.size() != 6 && fields.size() != 4)
        return R::failure("FEN has " + std::to_string(fields.size()) +
                          " fields, expected 6 (placement, side, castling, en passant, "
                          "halfmove clock, fullmove number)");

    Board b;
    for (auto& p : b.squares) p = NO_PIECE;

    // 1. Piece placement, rank 8 first.
    int rank = 7, file = 0;
    for (const char c : fields[0]) {
        if (c == '/') {
            if (file != 8)
                return R::failure("FEN rank " + std::to_string(rank + 1) + " has " +
                                  std::to_string(file) + " squares, expected 8");
            if (--rank < 0) return R::failure("FEN placement has more than 8 ranks");
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8)
                return R::failure("FEN rank " + std::to_string(rank + 1) +
                                  " has more than 8 squares");
        } else {
            const auto idx = PIECE_CHARS.find(char(std::toupper(static_cast<unsigned char>(c))));
            if (idx == std::string_view::npos)
                return R::failure(std::string("FEN placement has an invalid piece letter '") + c +
                                  "'");
            if (file > 7)
                return R::failure("FEN rank " + std::to_string(rank + 1) +
                                  " has more than 8 squares");
            const Color color = std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK;
            b.put_piece(make_piece(color, PieceType(idx)), make_square(file, rank));
            ++file;
        }
    }
    if (rank != 0)
        return R::failure("FEN placement has " + std::to_string(8 - rank) + " ranks, expected 8");
    if (file != 8)
        return R::failure("FEN rank 1 has " + std::to_string(file) + " squares, expected 8");

    for (const Color c : {WHITE, BLACK}) {
        const char* name = c == WHITE ? "white" : "black";
        const int kings = popcount(b.pieces(c, KING));
        if (kings != 1)
            return R::failure("FEN has " + std::to_string(kings) + " " + name +
                              " kings, expected exactly 1");
        if (popcount(b.pieces(c, PAWN)) > 8)
            return R::failure(std::string("FEN has more than 8 ") + name + " pawns");
        if (popcount(b.pieces(c)) > 16)
            return R::failure(std::string("FEN has more than 16 ") + name + " pieces");
    }
    if (b.pieces(PAWN) & (RANK_1_BB | RANK_8_BB))
        return R::failure("FEN has a pawn on the first or last rank");

    // 2. Side to move.
    if (fields[1] == "w")
        b.side = WHITE;
    else if (fields[1] == "b")
        b.side = BLACK;
    else
        return R::failure("FEN side to move is " + quoted(fields[1]) + ", expected 'w' or 'b'");
    if (b.side == BLACK) b.key ^= zobrist::keys.side;

    // 3. Castling rights.
    bool shredder_or_odd = false;
    if (fields[2] != "-") {
        for (const char c : fields[2]) {
            const bool upper = std::isupper(static_cast<unsigned char>(c));
            const Color color = upper ? WHITE : BLACK;
            const char lc = char(std::tolower(static_cast<unsigned char>(c)));
            const Square ksq = b.king_square(color);
            const int back_rank = color == WHITE ? 0 : 7;
            if (lc != 'k' && lc != 'q' && (lc < 'a' || lc > 'h'))
                return R::failure(std::string("FEN castling field has an invalid letter '") + c +
                                  "'");
            if (rank_of(ksq) != back_rank)
                return R::failure(std::string("FEN castling right '") + c +
                                  "' but the king is not on its back rank");
            const Bitboard rooks = b.pieces(color, ROOK) & rank_bb(back_rank);
            Square rook = SQ_NONE;
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
                shredder_or_odd = true;
                const Square s = make_square(lc - 'a', back_rank);
                if (rooks & square_bb(s)) rook = s;
            }
            if (rook == SQ_NONE || file_of(rook) == file_of(ksq))
                return R::failure(std::string("FEN castling right '") + c +
                                  "' has no rook to castle with");
            const bool king_side = file_of(rook) > file_of(ksq);
            const int idx = castling_index(color, king_side);
            if (b.castling & (1 << idx))
                return R::failure(std::string("FEN castling field repeats a right ('") + c + "')");
            b.castling |= std::uint8_t(1 << idx);
            b.castling_rook[idx] = rook;
            if (file_of(ksq) != 4 || (file_of(rook) != 0 && file_of(rook) != 7))
                shredder_or_odd = true;
        }
    }
    b.chess960 = chess960 || shredder_or_odd;
    b.key ^= zobrist::keys.castling[b.castling];

    // 4. En passant.
    if (fields[3] != "-") {
        const auto ep = fields[3];
        if (ep.size() != 2 || ep[0] < 'a' || ep[0] > 'h' || ep[1] < '1' || ep[1] > '8')
            return R::failure("FEN en-passant field " + quoted(ep) + " is not a square");
        const Square s = make_square(ep[0] - 'a', ep[1] - '1');
        const Color them = ~b.side;
        const Square pawn_sq = Square(s + pawn_push(them));  // where it stands now
        const Square origin = Square(s - pawn_push(them));   // where it came from
        if (relative_rank(b.side, s) != 5 || b.piece_on(pawn_sq) != make_piece(them, PAWN) ||
            !b.empty(s) || !b.empty(origin))
            return R::failure("FEN en-passant square " + quoted(ep) +
                              " is impossible: no pawn just moved two squares past it");
        if (pawn_attacks(them, s) & b.pieces(b.side, PAWN)) {
            b.en_passant = s;
            b.key ^= zobrist::keys.en_passant_file[file_of(s)];
        }
    }

    // 5. Counters.
    int halfmove = 0, fullmove = 1;
    if (fields.size() == 6) {
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

    // 6. Legality of the whole.
    b.checkers_bb = b.compute_checkers();
    if (b.attackers_to(b.king_square(~b.side)) & b.pieces(b.side))
        return R::failure("FEN is illegal: the side not to move is in check");
    if (popcount(b.checkers()) > 2)
        return R::failure("FEN is illegal: the side to move is in check by more than two pieces");
    return b;
}

std::string to_fen(const Board& b) {
    std::ostringstream out;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const Piece p = b.piece_on(make_square(file, rank));
            if (p == NO_PIECE) {
                ++empty;
                continue;
            }
            if (empty) out << empty;
            empty = 0;
            const char c = PIECE_CHARS[type_of(p)];
            out << (color_of(p) == WHITE ? c : char(std::tolower(c)));
        }
        if (empty) out << empty;
        if (rank) out << '/';
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
    return out.str();
}

}  // namespace engine
