// The board picture: the FEN's placement field (and pocket) read here on its own, so the page
// needs no engine position and draws whatever the FEN says.
#include "service/ops/board_svg.hpp"

#include <array>
#include <cstdio>
#include <optional>

namespace service {

namespace {

constexpr std::string_view kPieceLetters = "PNBRQK";

// The drawings, in a 45x45 box, filled and stroked by the page's CSS (.w white, .b black; .ln a
// detail line drawn in the other colour).
constexpr std::array<std::string_view, 6> kPieceShapes{
    // pawn
    R"(<circle cx="22.5" cy="12.5" r="5.6"/><path d="M17 20h11l2.8 12.5H14.2z"/>)"
    R"(<path d="M11 38.5v-3.2c0-1.7 1.3-2.8 3-2.8h17c1.7 0 3 1.1 3 2.8v3.2z"/>)",
    // knight
    R"(<path d="M15 38.5h19c.5-8.5-.5-16.5-4-22-2.5-4-6-6.5-9.5-7L19.5 6 17 9.3 15 7l-.2 4.5c-3.3 )"
    R"(2.5-5.3 6.5-6 11l-.3 2.5c.1 1.8 1.8 2.6 3.5 1.8l2.5-1.3c1.5-.2 3-.9 4.3-2.1.7 2.1-.3 4.1-2 )"
    R"(5.9-1.8 1.9-2.3 4.7-1.8 9.2z"/><circle class="ln" cx="16.2" cy="15.6" r="1"/>)",
    // bishop
    R"(<circle cx="22.5" cy="7.6" r="2.6"/><path d="M22.5 10.5c-5.2 3.6-8.2 8.4-7.4 13.4.5 3.1 )"
    R"(2.5 5.5 4 6.6h6.8c1.5-1.1 3.5-3.5 4-6.6.8-5-2.2-9.8-7.4-13.4z"/><path d="M12 38.5v-2.8c0-2 )"
    R"(1.8-3.7 3.8-3.7h13.4c2 0 3.8 1.7 3.8 3.7v2.8z"/><path class="ln" d="M25 16.5l-4.6 6"/>)",
    // rook
    R"(<path d="M13 13.5v-6h4v3h3.2v-3h4.6v3H28v-3h4v6l-3 3.5 1.2 13H14.8L16 17z"/><path )"
    R"(d="M11 38.5v-3.5c0-1.6 1.3-2.5 2.8-2.5h17.4c1.5 0 2.8.9 2.8 2.5v3.5z"/>)"
    R"(<path class="ln" d="M16 17h13"/>)",
    // queen
    R"(<path d="M11.5 33l-2.2-16.5 6.8 9 3.2-12.5 3.2 11 3.2-11 3.2 12.5 6.8-9L33.5 33z"/>)"
    R"(<circle cx="9.2" cy="14.5" r="2.2"/><circle cx="19.3" cy="11.5" r="2.2"/><circle )"
    R"(cx="25.7" cy="11.5" r="2.2"/><circle cx="35.8" cy="14.5" r="2.2"/><circle cx="22.5" )"
    R"(cy="10.4" r="2.2"/><path d="M11 38.5v-2.8c0-1.8 1.3-2.9 3-2.9h17c1.7 0 3 1.1 3 )"
    R"(2.9v2.8z"/>)",
    // king
    R"(<path d="M21.3 3h2.4v2.6h2.6V8h-2.6v3.4h-2.4V8h-2.6V5.6h2.6z"/><path d="M22.5 11.4c-1.9 )"
    R"(0-3.1 1.4-3.1 3.1 0 .9.3 1.7.9 2.3-4.6.4-9.6 2.9-9.6 8.1 0 3.5 2.1 6.1 3.6 7.6h16.4c1.5-1.5 )"
    R"(3.6-4.1 3.6-7.6 0-5.2-5-7.7-9.6-8.1.6-.6.9-1.4.9-2.3 0-1.7-1.2-3.1-3.1-3.1z"/><path )"
    R"(d="M11 38.5v-2.6c0-1.9 1.3-3.4 3-3.4h17c1.7 0 3 1.5 3 3.4v2.6z"/><path class="ln" )"
    R"(d="M15.5 26.5c4.5-1.6 9.5-1.6 14 0"/>)",
};

// The placement field of a FEN: 64 squares (a1 = 0, h8 = 63; 0: empty) and, for crazyhouse, the
// pocket: "[...]" after the ranks, or a ninth rank.
struct Placement {
    std::array<char, 64> squares{};
    std::string pocket;
    bool has_pocket = false;
};

bool is_piece(char c, bool king_allowed) {
    const char upper = c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c;
    const auto at = kPieceLetters.find(upper);
    return at != std::string_view::npos && (king_allowed || upper != 'K');
}

std::optional<Placement> read_placement(std::string_view fen) {
    Placement p;
    std::string_view field = fen.substr(0, fen.find(' '));
    if (const auto open = field.find('['); open != std::string_view::npos) {
        if (field.back() != ']') return std::nullopt;
        p.pocket = std::string(field.substr(open + 1, field.size() - open - 2));
        p.has_pocket = true;
        field = field.substr(0, open);
    }
    int rank = 7;
    int file = 0;
    for (std::size_t i = 0; i < field.size(); ++i) {
        const char c = field[i];
        if (c == '/') {
            if (file != 8) return std::nullopt;
            if (--rank < 0) {  // a ninth rank: the pocket (Fairy-Stockfish writes it so)
                if (p.has_pocket) return std::nullopt;
                p.pocket = std::string(field.substr(i + 1));
                p.has_pocket = true;
                break;
            }
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) return std::nullopt;
        } else if (c == '~') {
            if (i == 0 || !is_piece(field[i - 1], false)) return std::nullopt;
        } else if (is_piece(c, true)) {
            if (file >= 8) return std::nullopt;
            p.squares[static_cast<std::size_t>(rank * 8 + file)] = c;
            ++file;
        } else {
            return std::nullopt;
        }
    }
    if (rank > 0 || (rank == 0 && file != 8)) return std::nullopt;
    for (const char c : p.pocket) {
        if (!is_piece(c, false)) return std::nullopt;
    }
    return p;
}

// "e4" -> 28; -1 when `name` is not a square.
int square_of(std::string_view name) {
    if (name.size() != 2 || name[0] < 'a' || name[0] > 'h' || name[1] < '1' || name[1] > '8')
        return -1;
    return (name[1] - '1') * 8 + (name[0] - 'a');
}

std::string square_name(int square) {
    return {static_cast<char>('a' + square % 8), static_cast<char>('1' + square / 8)};
}

// The symbol of a piece letter: 'n' -> "bN".
std::string symbol_of(char piece) {
    const bool white = piece >= 'A' && piece <= 'Z';
    const char upper = white ? piece : static_cast<char>(piece - 'a' + 'A');
    return std::string(white ? "w" : "b") + upper;
}

struct Geometry {
    bool white_at_bottom = true;
    int x(int square) const { return white_at_bottom ? square % 8 : 7 - square % 8; }
    int y(int square) const { return white_at_bottom ? 7 - square / 8 : square / 8; }
};

// A coordinate in the picture: "1.6", "0.95", "8".
std::string number(double value) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%g", value);
    return buf;
}

// One side's pocket as a row of pieces with their counts, queen first, at height `y`.
void draw_pocket(std::string& out, const std::string& pocket, bool white, std::string_view y) {
    int slot = 0;
    for (const char letter : std::string_view("QRBNP")) {
        const char piece = white ? letter : static_cast<char>(letter - 'A' + 'a');
        int count = 0;
        for (const char c : pocket) count += c == piece ? 1 : 0;
        if (count == 0) continue;
        out += R"(<use href="#)" + symbol_of(piece) + R"(" x=")" + number(slot * 1.6) + R"(" y=")" +
               std::string(y) + R"(" data-pocket=")" + (white ? "w" : "b") + R"(" data-n=")" +
               std::to_string(count) + R"("/>)";
        out += R"(<text class="pk" x=")" + number(slot * 1.6 + 0.98) + R"(" y=")" + std::string(y) +
               R"(" dy=".66">)" + std::to_string(count) + "</text>";
        ++slot;
    }
}

// File letters along the bottom edge, rank numbers along the left one, as seen from one side.
std::string coordinates(bool white_at_bottom) {
    std::string out =
        std::string(R"(<g id="co)") + (white_at_bottom ? 'w' : 'b') + R"(" class="co">)";
    for (int i = 0; i < 8; ++i) {
        const char file = static_cast<char>(white_at_bottom ? 'a' + i : 'h' - i);
        const char rank = static_cast<char>(white_at_bottom ? '8' - i : '1' + i);
        out += R"(<text x=")" + std::to_string(i) + R"(.78" y="7.93">)" + file + "</text>";
        out += R"(<text x=".05" y=")" + std::to_string(i) + R"(.24">)" + rank + "</text>";
    }
    return out + "</g>";
}

}  // namespace

std::string board_svg_defs() {
    std::string out =
        R"(<svg class="defs" width="0" height="0" aria-hidden="true"><defs>)"
        R"(<pattern id="sq" width="2" height="2" patternUnits="userSpaceOnUse">)"
        R"(<rect class="sl" width="2" height="2"/><path class="sd" d="M1 0h1v1H1zM0 1h1v1H0z"/>)"
        R"(</pattern>)";
    for (std::size_t i = 0; i < kPieceShapes.size(); ++i) {
        out += R"(<g id=")" + std::string(1, kPieceLetters[i]) + R"(">)" +
               std::string(kPieceShapes[i]) + "</g>";
    }
    // Each coloured piece one square (1 unit) big, so that a board's <use> needs no size.
    for (const char colour : {'w', 'b'}) {
        for (const char letter : kPieceLetters) {
            out += R"(<use id=")" + std::string{colour, letter} + R"(" href="#)" +
                   std::string(1, letter) + R"(" class="pc )" + std::string(1, colour) +
                   R"svg(" transform="scale(.02222)"/>)svg";
        }
    }
    out += coordinates(true) + coordinates(false) + "</defs></svg>";
    return out;
}

std::string board_svg(std::string_view fen, std::string_view last_move, bool white_at_bottom) {
    const std::optional<Placement> placement = read_placement(fen);
    const bool pockets = placement && placement->has_pocket;
    const Geometry g{white_at_bottom};

    std::string out = pockets ? R"(<svg class="board" viewBox="0 -1.1 8 10.2">)"
                              : R"(<svg class="board" viewBox="0 0 8 8">)";
    out += R"svg(<rect width="8" height="8" fill="url(#sq)"/>)svg";
    if (!placement) {
        out += R"(<text class="unknown" x="4" y="4.6">?</text></svg>)";
        return out;
    }

    // The last move: from and to, or a drop's square ("N@f3").
    const std::string_view move = last_move.size() >= 4 ? last_move.substr(0, 4) : "";
    const bool drop = move.size() == 4 && move[1] == '@';
    for (const int square : {drop || move.empty() ? -1 : square_of(move.substr(0, 2)),
                             move.empty() ? -1 : square_of(move.substr(2, 2))}) {
        if (square < 0) continue;
        out += R"(<rect class="lm" x=")" + std::to_string(g.x(square)) + R"(" y=")" +
               std::to_string(g.y(square)) + R"(" width="1" height="1"/>)";
    }

    for (int square = 0; square < 64; ++square) {
        const char piece = placement->squares[static_cast<std::size_t>(square)];
        if (!piece) continue;
        out += R"(<use href="#)" + symbol_of(piece) + R"(" x=")" + std::to_string(g.x(square)) +
               R"(" y=")" + std::to_string(g.y(square)) + R"(" data-sq=")" + square_name(square) +
               R"("/>)";
    }
    out += white_at_bottom ? R"(<use href="#cow"/>)" : R"(<use href="#cob"/>)";

    if (pockets) {
        draw_pocket(out, placement->pocket, !white_at_bottom, "-1.05");
        draw_pocket(out, placement->pocket, white_at_bottom, "8.1");
    }
    out += "</svg>";
    return out;
}

}  // namespace service
