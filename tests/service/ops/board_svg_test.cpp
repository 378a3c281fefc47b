// The status page's boards: every piece of a position the engine writes (each variant, crazyhouse
// pockets included) is drawn on its square, our side at the bottom, the last move marked; a FEN
// that does not read gets an empty board instead of a wrong one.
#include "service/ops/board_svg.hpp"

#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <string>
#include <vector>

#include "engine/position.hpp"
#include "engine/variant.hpp"

namespace service::test {
namespace {

// What a board picture shows: pieces by square ("e4" -> 'P'), where each was drawn, pocket
// counts by piece letter, the marked squares (by their x,y).
struct Drawn {
    std::map<std::string, char> pieces;
    std::map<std::string, std::pair<int, int>> at;  // square -> (x, y)
    std::map<char, int> pocket;
    std::map<char, std::string> pocket_row;  // piece letter -> its row's y
    std::vector<std::pair<int, int>> marked;
};

char letter(const std::string& colour, char piece) {
    return colour == "w" ? piece : static_cast<char>(piece - 'A' + 'a');
}

Drawn read_drawn(const std::string& svg) {
    Drawn d;
    static const std::regex piece(
        R"re(<use href="#([wb])([PNBRQK])" x="(\d)" y="(\d)" data-sq="([a-h][1-8])"/>)re");
    for (std::sregex_iterator it(svg.begin(), svg.end(), piece), end; it != end; ++it) {
        const std::string square = (*it)[5];
        d.pieces[square] = letter((*it)[1], std::string((*it)[2])[0]);
        d.at[square] = {std::stoi((*it)[3]), std::stoi((*it)[4])};
    }
    static const std::regex pocket(
        R"re(<use href="#([wb])([PNBRQ])" x="[0-9.]+" y="([-0-9.]+)" data-pocket="([wb])" data-n="(\d+)"/>)re");
    for (std::sregex_iterator it(svg.begin(), svg.end(), pocket), end; it != end; ++it) {
        EXPECT_EQ((*it)[1], (*it)[4]);
        const char c = letter((*it)[1], std::string((*it)[2])[0]);
        d.pocket[c] = std::stoi((*it)[5]);
        d.pocket_row[c] = (*it)[3];
    }
    static const std::regex mark(
        R"re(<rect class="lm" x="(\d)" y="(\d)" width="1" height="1"/>)re");
    for (std::sregex_iterator it(svg.begin(), svg.end(), mark), end; it != end; ++it)
        d.marked.emplace_back(std::stoi((*it)[1]), std::stoi((*it)[2]));
    return d;
}

// The engine's own view of the position: pieces by square and pocket counts.
struct Expected {
    std::map<std::string, char> pieces;
    std::map<char, int> pocket;
};

Expected expected(const engine::Position& pos) {
    Expected e;
    pos.visit([&](const auto& b) {
        for (int sq = 0; sq < 64; ++sq) {
            const engine::Piece p = b.piece_on(engine::Square(sq));
            if (p == engine::NO_PIECE) continue;
            const char upper = "PNBRQK"[engine::type_of(p)];
            e.pieces[std::string{char('a' + sq % 8), char('1' + sq / 8)}] =
                engine::color_of(p) == engine::WHITE ? upper : char(upper - 'A' + 'a');
        }
        if constexpr (requires { b.state.pockets; }) {
            for (const engine::Color c : {engine::WHITE, engine::BLACK}) {
                for (int pt = engine::PAWN; pt < engine::KING; ++pt) {
                    const int n = b.state.pockets.of(c, engine::PieceType(pt));
                    const char upper = "PNBRQK"[pt];
                    if (n > 0) e.pocket[c == engine::WHITE ? upper : char(upper - 'A' + 'a')] = n;
                }
            }
        }
    });
    return e;
}

engine::Position play(engine::Variant variant, const std::vector<std::string>& moves) {
    auto pos = engine::Position::start(variant);
    for (const std::string& m : moves) {
        const auto played = pos.play_uci(m);
        EXPECT_TRUE(played) << m << ": " << played.error();
    }
    return pos;
}

struct Case {
    const char* what;
    engine::Variant variant;
    std::vector<std::string> moves;
};

TEST(BoardSvg, EveryPieceOfEveryVariantIsOnItsSquare) {
    const std::vector<Case> cases{
        {"the start", engine::Variant::STANDARD, {}},
        {"after 1.e4 c5 2.Nf3", engine::Variant::STANDARD, {"e2e4", "c7c5", "g1f3"}},
        {"crazyhouse with captures in the pockets",
         engine::Variant::CRAZYHOUSE,
         {"e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a2", "a1a2"}},
        {"crazyhouse after a drop",
         engine::Variant::CRAZYHOUSE,
         {"e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "d5c6", "b8c6", "b5c6", "b7c6", "N@e5"}},
        {"atomic after an explosion", engine::Variant::ATOMIC, {"e2e4", "d7d5", "e4d5"}},
        {"horde", engine::Variant::HORDE, {"e4e5", "d7d6"}},
        {"racing kings", engine::Variant::RACING_KINGS, {"h2h3"}},
        {"three-check", engine::Variant::THREE_CHECK, {"e2e4", "f7f6", "d1h5"}},
        {"king of the hill", engine::Variant::KING_OF_THE_HILL, {"e2e4", "e7e5", "e1e2"}},
        {"antichess", engine::Variant::ANTICHESS, {"e2e3", "b7b5", "f1b5"}},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        const engine::Position pos = play(c.variant, c.moves);
        const Expected want = expected(pos);
        for (const bool white_at_bottom : {true, false}) {
            const Drawn drawn = read_drawn(board_svg(pos.fen(), "", white_at_bottom));
            EXPECT_EQ(drawn.pieces, want.pieces) << pos.fen();
            EXPECT_EQ(drawn.pocket, want.pocket) << pos.fen();
        }
    }
}

TEST(BoardSvg, OurSideIsAtTheBottom) {
    const std::string start(engine::start_fen(engine::Variant::STANDARD));
    const Drawn white = read_drawn(board_svg(start, "", true));
    EXPECT_EQ(white.at.at("a1"), std::make_pair(0, 7));  // bottom left
    EXPECT_EQ(white.at.at("h8"), std::make_pair(7, 0));
    EXPECT_EQ(white.at.at("e1"), std::make_pair(4, 7));
    const Drawn black = read_drawn(board_svg(start, "", false));
    EXPECT_EQ(black.at.at("h8"), std::make_pair(0, 7));  // bottom left, from Black's side
    EXPECT_EQ(black.at.at("a1"), std::make_pair(7, 0));
    EXPECT_EQ(black.at.at("e8"), std::make_pair(3, 7));
    // The edge letters follow: "a" first and "8" on top from White's side, "h" and "1" from
    // Black's.
    EXPECT_NE(board_svg(start, "", true).find(R"(<use href="#cow"/>)"), std::string::npos);
    EXPECT_NE(board_svg(start, "", false).find(R"(<use href="#cob"/>)"), std::string::npos);
    const std::string defs = board_svg_defs();
    EXPECT_NE(defs.find(R"(<g id="cow" class="co"><text x="0.78" y="7.93">a</text><text x=".05" )"
                        R"(y="0.24">8</text>)"),
              std::string::npos);
    EXPECT_NE(defs.find(R"(<g id="cob" class="co"><text x="0.78" y="7.93">h</text><text x=".05" )"
                        R"(y="0.24">1</text>)"),
              std::string::npos);
}

TEST(BoardSvg, TheLastMoveIsMarked) {
    const std::string fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    using Squares = std::vector<std::pair<int, int>>;
    EXPECT_EQ(read_drawn(board_svg(fen, "e2e4", true)).marked, (Squares{{4, 6}, {4, 4}}));
    EXPECT_EQ(read_drawn(board_svg(fen, "e2e4", false)).marked, (Squares{{3, 1}, {3, 3}}));
    // A promotion's letter is not a square; castling king-to-rook marks both.
    EXPECT_EQ(read_drawn(board_svg(fen, "a7a8q", true)).marked, (Squares{{0, 1}, {0, 0}}));
    EXPECT_EQ(read_drawn(board_svg(fen, "e1h1", true)).marked, (Squares{{4, 7}, {7, 7}}));
    // A crazyhouse drop marks its square only.
    EXPECT_EQ(read_drawn(board_svg(fen, "N@f3", true)).marked, (Squares{{5, 5}}));
    EXPECT_TRUE(read_drawn(board_svg(fen, "", true)).marked.empty());
    EXPECT_TRUE(read_drawn(board_svg(fen, "x\"y<z", true)).marked.empty());
}

TEST(BoardSvg, PocketsOfTheSideAtTheTopAreAbove) {
    // Lichess and Fairy-Stockfish write pockets in brackets or as a ninth rank; "~" marks a
    // promoted piece.
    for (const std::string fen :
         {"r1bk3r/ppp2ppp/2n5/4Q~3/8/8/PPP2PPP/R1B1KB1R[QNPppb] b KQ - 0 9",
          "r1bk3r/ppp2ppp/2n5/4Q~3/8/8/PPP2PPP/R1B1KB1R/QNPppb b KQ - 0 9"}) {
        SCOPED_TRACE(fen);
        const Drawn white = read_drawn(board_svg(fen, "", true));
        EXPECT_EQ(white.pieces.at("e5"), 'Q');
        EXPECT_EQ(white.pocket,
                  (std::map<char, int>{{'Q', 1}, {'N', 1}, {'P', 1}, {'p', 2}, {'b', 1}}));
        EXPECT_EQ(white.pocket_row.at('p'), "-1.05");  // Black's pocket above, from White's side
        EXPECT_EQ(white.pocket_row.at('Q'), "8.1");    // ours below
        const Drawn black = read_drawn(board_svg(fen, "", false));
        EXPECT_EQ(black.pocket_row.at('p'), "8.1");
        EXPECT_EQ(black.pocket_row.at('Q'), "-1.05");
    }
    // An empty pocket still makes room for the rows.
    EXPECT_NE(
        board_svg("8/8/8/8/8/8/8/K6k[] w - - 0 1", "", true).find(R"(viewBox="0 -1.1 8 10.2")"),
        std::string::npos);
    EXPECT_NE(board_svg(std::string(engine::start_fen(engine::Variant::STANDARD)), "", true)
                  .find(R"(viewBox="0 0 8 8")"),
              std::string::npos);
}

TEST(BoardSvg, AFenThatDoesNotReadGetsAnEmptyBoard) {
    for (const std::string bad :
         {"", "garbage", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",  // seven ranks
          "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",        // nine files
          "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w KQkq - 0 1",
          "rnbqkbnr/ppppxppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
          "8/8/8/8/8/8/8/K6k[K] w - - 0 1",  // a king in a pocket
          "8/8/8/8/8/8/8/K6k[Q w - - 0 1", "~7/8/8/8/8/8/8/K6k w - - 0 1",
          "<script>/8/8/8/8/8/8/8 w - - 0 1"}) {
        SCOPED_TRACE(bad);
        const std::string svg = board_svg(bad, "e2e4", true);
        EXPECT_TRUE(read_drawn(svg).pieces.empty());
        EXPECT_NE(svg.find(R"(<text class="unknown")"), std::string::npos);
        EXPECT_EQ(svg.find("script"), std::string::npos);
    }
}

TEST(BoardSvg, TheDefsHoldEveryPieceOnce) {
    const std::string defs = board_svg_defs();
    for (const char* id :
         {"wP", "wN", "wB", "wR", "wQ", "wK", "bP", "bN", "bB", "bR", "bQ", "bK"}) {
        const std::string symbol = std::string(R"(<use id=")") + id + "\"";
        const auto at = defs.find(symbol);
        EXPECT_NE(at, std::string::npos) << id;
        EXPECT_EQ(defs.find(symbol, at + 1), std::string::npos) << id;
    }
    EXPECT_NE(defs.find(R"(<pattern id="sq")"), std::string::npos);
}

}  // namespace
}  // namespace service::test
