// Tests of the static evaluation: colour symmetry, sanity orderings, endgame scaling and mate
// drives, tapering, and that the traced evaluation (the tuner's view) matches the real one.
#include <gtest/gtest.h>

#include <cctype>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "engine/eval_params.hpp"
#include "engine/evaluate.hpp"
#include "engine/fen.hpp"

namespace engine {
namespace {

Board board_of(const std::string& fen) {
    init_attacks();
    auto b = parse_fen(fen);
    EXPECT_TRUE(b.ok()) << fen << ": " << (b.ok() ? "" : b.error());
    return *b;
}

int eval_fen(const std::string& fen) { return evaluate(board_of(fen)); }

// White's point of view, whoever is to move.
int white_eval(const std::string& fen) {
    const Board b = board_of(fen);
    const int v = evaluate(b);
    return b.side == WHITE ? v : -v;
}

// The same position with colours swapped and the board mirrored top to bottom.
std::string flip_fen(const std::string& fen) {
    std::istringstream in(fen);
    std::string placement, side, castling, ep, half = "0", full = "1";
    in >> placement >> side >> castling >> ep >> half >> full;
    std::vector<std::string> ranks;
    std::string rank;
    for (char ch : placement + "/") {
        if (ch == '/') {
            ranks.push_back(rank);
            rank.clear();
        } else {
            rank += std::isalpha(static_cast<unsigned char>(ch))
                        ? char(std::isupper(static_cast<unsigned char>(ch)) ? std::tolower(ch)
                                                                            : std::toupper(ch))
                        : ch;
        }
    }
    std::string out;
    for (auto it = ranks.rbegin(); it != ranks.rend(); ++it) out += (out.empty() ? "" : "/") + *it;
    std::string flipped_castling;
    if (castling == "-") {
        flipped_castling = "-";
    } else {
        std::string upper, lower;
        for (char ch : castling)
            (std::isupper(static_cast<unsigned char>(ch)) ? lower : upper) +=
                std::isupper(static_cast<unsigned char>(ch)) ? char(std::tolower(ch))
                                                             : char(std::toupper(ch));
        flipped_castling = upper + lower;
    }
    std::string flipped_ep = ep;
    if (ep != "-") flipped_ep[1] = char('1' + ('8' - ep[1]));
    return out + (side == "w" ? " b " : " w ") + flipped_castling + " " + flipped_ep + " " + half +
           " " + full;
}

const std::vector<std::string> kVariedFens = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "2r3k1/pp3ppp/4p3/3pP3/1P1P4/P4N2/5PPP/2R3K1 b - - 0 25",
    "8/8/4k3/3p4/3P4/4K3/8/8 w - - 0 1",
    "8/5pk1/6p1/8/8/6P1/5PK1/8 b - - 0 40",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    "r1b2rk1/2q1bppp/p2ppn2/1p6/3BPP2/2NB4/PPPQ2PP/2KR3R w - - 0 13",
    "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
    "4k3/8/8/3b4/8/8/3B4/4K3 w - - 0 1",
    "8/8/8/8/8/5k2/8/4KB1N w - - 0 1",
    "8/1P6/8/8/8/k7/7r/K7 b - - 0 1",
    "2kr3r/ppp2ppp/2n5/2b1p3/4P1q1/2NP1N2/PPP2PPP/R1BQ1RK1 b - - 0 10",
    "8/8/8/2k5/8/8/5K2/3Q4 b - - 0 1",
    "rnbqkb1r/pp2pppp/5n2/2pp4/3P4/2P1PN2/PP3PPP/RNBQKB1R b KQkq - 0 4",
    "3r2k1/5ppp/8/1Pb5/8/2B5/5PPP/6K1 w - - 0 30",
};

TEST(Evaluate, ColourFlipGivesTheSameScore) {
    for (const auto& fen : kVariedFens) {
        const std::string flipped = flip_fen(fen);
        EXPECT_EQ(eval_fen(fen), eval_fen(flipped)) << fen << "  vs  " << flipped;
    }
}

TEST(Evaluate, FlipHelperRoundTrips) {
    for (const auto& fen : kVariedFens) EXPECT_EQ(flip_fen(flip_fen(fen)), fen);
}

TEST(Evaluate, TracedEvaluationMatchesThePlainOne) {
    auto trace = std::make_unique<EvalTrace>();
    for (const auto& fen : kVariedFens) {
        const Board b = board_of(fen);
        EXPECT_EQ(evaluate_traced(b, DEFAULT_EVAL_PARAMS, *trace), evaluate(b)) << fen;
    }
}

TEST(Evaluate, ScoresStayOutsideTheMateRange) {
    EXPECT_LT(std::abs(eval_fen("k7/pppppppp/8/8/8/8/QQQQQQQQ/QQQQQKQQ w - - 0 1")), EVAL_MAX);
}

TEST(Evaluate, ExtraQueenIsWorthFarMoreThanAnExtraPawn) {
    const int queen = white_eval("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    const int pawn = white_eval("rnbqkbnr/ppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    EXPECT_GT(pawn, 30);
    EXPECT_GT(queen, 700);
    EXPECT_GT(queen, pawn + 500);
}

TEST(Evaluate, PassedPawnOnTheSeventhBeatsOneOnTheThird) {
    const int seventh = white_eval("4k3/1P6/8/8/8/8/8/4K3 b - - 0 1");
    const int third = white_eval("4k3/8/8/8/8/1P6/8/4K3 b - - 0 1");
    EXPECT_GT(seventh, third + 50);
    // The same with pieces on the board.
    const int seventh_r = white_eval("r3k3/1P6/8/8/8/8/8/R3K3 w - - 0 1");
    const int third_r = white_eval("r3k3/8/8/8/8/1P6/8/R3K3 w - - 0 1");
    EXPECT_GT(seventh_r, third_r + 50);
}

TEST(Evaluate, KrkIsWonAndBetterWithTheKingOnTheEdge) {
    const int centre = white_eval("8/8/8/3k4/8/8/8/4K2R w - - 0 1");
    const int edge = white_eval("3k4/8/8/8/8/8/8/4K2R w - - 0 1");
    const int corner = white_eval("k7/8/8/8/8/8/8/4K2R w - - 0 1");
    EXPECT_GT(centre, 800);
    EXPECT_GT(edge, centre);
    EXPECT_GT(corner, edge);
    // Black is the strong side: negative for white.
    EXPECT_LT(white_eval("r3k3/8/8/8/3K4/8/8/8 w - - 0 1"), -800);
}

TEST(Evaluate, KqkIsWonAndKingsCloserIsBetter) {
    const int far = white_eval("k7/8/8/8/8/8/8/3QK3 w - - 0 1");
    const int near = white_eval("k7/8/2K5/8/8/8/8/3Q4 w - - 0 1");
    EXPECT_GT(far, 1000);
    EXPECT_GT(near, far);
}

TEST(Evaluate, KbnkDrivesTheKingToTheBishopsCorner) {
    // Dark-squared bishop (c1): a1 and h8 are the mating corners.
    const int centre = white_eval("8/8/8/4k3/8/8/8/2B1KN2 w - - 0 1");
    const int right_corner = white_eval("7k/8/8/8/8/8/8/2B1KN2 w - - 0 1");
    const int wrong_corner = white_eval("k7/8/8/8/8/8/8/2B1KN2 w - - 0 1");
    EXPECT_GT(centre, 500);
    EXPECT_GT(right_corner, centre);
    EXPECT_GT(right_corner, wrong_corner);
}

TEST(Evaluate, DrawishMaterialIsScaledToNearZero) {
    EXPECT_EQ(white_eval("8/8/4k3/8/8/8/8/2N1KN2 w - - 0 1"), 0);  // KNNK
    EXPECT_EQ(white_eval("8/8/4k3/8/8/8/8/2B1K3 w - - 0 1"), 0);   // KBK
    EXPECT_EQ(white_eval("8/8/4k3/8/8/8/8/4KN2 w - - 0 1"), 0);    // KNK
    EXPECT_EQ(white_eval("8/8/4k3/8/8/8/8/4K3 w - - 0 1"), 0);     // KK
    // Opposite-coloured bishops, one pawn up: far less than a pawn.
    const int ocb = white_eval("4k3/8/3b4/8/4P3/8/2B5/4K3 w - - 0 1");
    EXPECT_LT(std::abs(ocb), 40);
    // The same pawn up with same-coloured bishops is worth more.
    const int same = white_eval("4k3/8/4b3/8/4P3/8/2B5/4K3 w - - 0 1");
    EXPECT_GT(same, ocb + 20);
    // Wrong rook pawn: the light-squared bishop does not control h8, where the king stands.
    EXPECT_LT(std::abs(white_eval("7k/8/8/7P/8/8/8/4KB2 w - - 0 1")), 30);
    // KR vs KB: a small edge at most.
    EXPECT_LT(std::abs(white_eval("8/8/3bk3/8/8/8/8/3RK3 w - - 0 1")), 60);
}

TEST(Evaluate, BishopPairGetsABonus) {
    auto trace = std::make_unique<EvalTrace>();
    evaluate_traced(board_of("rn1qkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
                    DEFAULT_EVAL_PARAMS, *trace);
    EXPECT_EQ(trace->coef[WHITE][BISHOP_PAIR], 1);
    EXPECT_EQ(trace->coef[BLACK][BISHOP_PAIR], 0);
    EXPECT_GT(DEFAULT_EVAL_PARAMS[BISHOP_PAIR].mg, 0);
    EXPECT_GT(DEFAULT_EVAL_PARAMS[BISHOP_PAIR].eg, 0);
}

// The king-safety part of white's score: shield, storm, open files and king danger.
int white_king_term(const std::string& fen) {
    auto trace = std::make_unique<EvalTrace>();
    evaluate_traced(board_of(fen), DEFAULT_EVAL_PARAMS, *trace);
    int mg = trace->king_danger[WHITE].mg;
    for (int i = KING_SHIELD; i < KS_BEGIN; ++i)
        mg += trace->coef[WHITE][i] * DEFAULT_EVAL_PARAMS[i].mg;
    return mg;
}

TEST(Evaluate, CastledKingBehindPawnsIsSaferThanAnExposedOne) {
    const std::string shield = "r1bq1rk1/ppp2ppp/2n2n2/3pp3/8/5NP1/PPPPPPBP/RNBQ1RK1 w - - 0 1";
    const std::string exposed = "r1bq1rk1/ppp2ppp/2n2n2/3pp3/6P1/5N1P/PPPPPP2/RNBQ1RK1 w - - 0 1";
    EXPECT_GT(white_king_term(shield), white_king_term(exposed));
    // Under attack by queen and knight with no shield: king danger applies.
    const std::string attacked = "r1b2rk1/ppp2ppp/8/3p4/6nq/8/PPPPP3/RNBQ1RK1 w - - 0 1";
    auto trace = std::make_unique<EvalTrace>();
    evaluate_traced(board_of(attacked), DEFAULT_EVAL_PARAMS, *trace);
    EXPECT_LT(trace->king_danger[WHITE].mg, 0);
    EXPECT_EQ(trace->king_danger[BLACK].mg, 0);
    EXPECT_LT(white_king_term(attacked), white_king_term(shield) - 50);
}

TEST(Evaluate, PureEndgameUsesEndgameValues) {
    const std::string fen = "8/5pk1/6p1/8/8/6P1/4PPK1/8 w - - 0 1";
    auto trace = std::make_unique<EvalTrace>();
    const int v = evaluate_traced(board_of(fen), DEFAULT_EVAL_PARAMS, *trace);
    EXPECT_EQ(trace->phase, 0);
    int eg = 0;
    for (int c = 0; c < COLOR_NB; ++c) {
        const int sign = c == WHITE ? 1 : -1;
        for (int i = 0; i < PARAM_COUNT; ++i)
            if (i < KS_BEGIN || i >= KS_END)
                eg += sign * trace->coef[c][i] * DEFAULT_EVAL_PARAMS[i].eg;
        eg += sign * trace->king_danger[c].eg;
    }
    EXPECT_EQ(v, eg * trace->scale / SCALE_NORMAL);
    // The opening position is all middlegame.
    evaluate_traced(board_of(std::string(START_FEN)), DEFAULT_EVAL_PARAMS, *trace);
    EXPECT_EQ(trace->phase, PHASE_MAX);
}

TEST(Evaluate, TraceTextNamesEveryTerm) {
    const std::string text = eval_trace(board_of(std::string(START_FEN)));
    for (const char* term : {"Material", "PSQT", "Pawns", "Passed", "Mobility", "King", "Pieces",
                             "Threats", "Tempo", "Phase 24/24"})
        EXPECT_NE(text.find(term), std::string::npos) << term;
}

}  // namespace
}  // namespace engine
