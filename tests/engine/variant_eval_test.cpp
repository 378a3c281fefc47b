// The variants' evaluation terms (engine/variant_eval.cpp): each term a position where it must
// apply, read from the trace or from the score, and the tuner's traced features reproducing the
// engine's evaluation in every variant.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <type_traits>

#include "engine/nnue.hpp"
#include "engine/position.hpp"
#include "engine/variant_eval.hpp"
#include "tools/tuner/variant_tuner.hpp"

namespace engine {
namespace {

Position at(Variant v, const char* fen) {
    auto p = Position::from_fen(fen, v);
    EXPECT_TRUE(p.ok()) << fen << ": " << (p.ok() ? "" : p.error());
    return p.ok() ? *p : Position::start(v);
}

// White's evaluation of a position, and the trace of the weights it used.
int white_score(const Position& pos, VariantEvalTrace* trace = nullptr) {
    VariantEvalTrace local;
    VariantEvalTrace& t = trace ? *trace : local;
    return pos.visit(
        [&](const auto& b) { return evaluate_variant_traced(b, DEFAULT_VARIANT_WEIGHTS, t); });
}

TEST(VariantEval, SideToMoveViewMirrorsWhitesView) {
    const Position pos =
        at(Variant::CRAZYHOUSE,
           "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R[Pn] w KQkq - 0 5");
    const int white = white_score(pos);
    EXPECT_EQ(pos.visit([](const auto& b) { return evaluate_variant(b); }), white);
}

TEST(VariantEval, CrazyhousePocketPiecesCount) {
    const char* without = "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[] w KQkq - 0 4";
    const char* with = "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[N] w KQkq - 0 4";
    VariantEvalTrace trace;
    const int more = white_score(at(Variant::CRAZYHOUSE, with), &trace);
    EXPECT_EQ(trace.coef[WHITE][CH_HAND + int(KNIGHT)], 1);
    EXPECT_GT(more, white_score(at(Variant::CRAZYHOUSE, without)) + 150);
}

TEST(VariantEval, CrazyhouseDangerGrowsWithWhatTheEnemyHolds) {
    // White's king has lost its shelter; black holds a knight and a queen, then nothing.
    const char* armed = "r1b1kb1r/pppp1ppp/2n2n2/4p3/4P3/8/PPPP2P1/RNB2K1R[QNqn] w kq - 0 8";
    const char* empty_hands = "r1b1kb1r/pppp1ppp/2n2n2/4p3/4P3/8/PPPP2P1/RNB2K1R[] w kq - 0 8";
    VariantEvalTrace trace;
    const int danger = white_score(at(Variant::CRAZYHOUSE, armed), &trace);
    EXPECT_EQ(trace.coef[WHITE][CH_KD_HAND + int(QUEEN)], 1);
    EXPECT_GT(trace.coef[WHITE][CH_KD_HOLE], 0);
    EXPECT_GT(trace.coef[WHITE][CH_KD_DROP_CHECK + int(KNIGHT)], 0);  // N@g3+
    // Equal pockets, so any difference is the two kings' safety: white's open king loses.
    EXPECT_LT(danger, white_score(at(Variant::CRAZYHOUSE, empty_hands)));
}

// Under its net crazyhouse adds what the net cannot see: the pieces in hand, and the danger
// they bring each king, by the weights fitted on top of the net (CH_NET_KD_*). The net was
// trained on Fairy-Stockfish's judgement less the hands' material.
TEST(VariantEval, CrazyhouseUnderItsNetAddsTheHandsAndTheirDangerAlone) {
    const int hands = DEFAULT_VARIANT_WEIGHTS[CH_HAND + int(QUEEN)] -
                      DEFAULT_VARIANT_WEIGHTS[CH_HAND + int(PAWN)];
    VariantWeights no_danger = DEFAULT_VARIANT_WEIGHTS;
    for (int i = CH_NET_KD_HAND; i <= CH_NET_KD_OFFSET; ++i) no_danger[i] = 0;
    for (const char* side : {"w", "b"}) {
        const std::string fen =
            std::string("r1b1kb1r/pppp1ppp/2n2n2/4p3/4P3/8/PPPP2P1/RNB2K1R[QNnp] ") + side +
            " kq - 0 8";
        const Position pos = at(Variant::CRAZYHOUSE, fen.c_str());
        const int board = 37;  // the net's judgement, from the side to move's view
        const bool white_to_move = side[0] == 'w';
        VariantEvalTrace trace;
        const int white = pos.visit([&](const auto& b) {
            return evaluate_variant_traced(b, DEFAULT_VARIANT_WEIGHTS, trace, board);
        });
        const int to_move = pos.visit(
            [&](const auto& b) { return evaluate_variant(b, DEFAULT_VARIANT_WEIGHTS, board); });
        EXPECT_EQ(to_move, white_to_move ? white : -white) << fen;
        EXPECT_EQ(trace.coef[WHITE][CH_HAND + int(QUEEN)], 1);
        EXPECT_EQ(trace.coef[BLACK][CH_HAND + int(PAWN)], 1);
        EXPECT_EQ(trace.coef[BLACK][CH_NET_KD_HAND + int(QUEEN)], 1);         // white's queen
        EXPECT_GT(trace.coef[WHITE][CH_NET_KD_DROP_CHECK + int(KNIGHT)], 0);  // N@g3+
        // The hand-crafted evaluation's own terms stay out: the net judges the board.
        for (const Color c : {WHITE, BLACK}) {
            EXPECT_EQ(trace.coef[c][CH_KD_HAND + int(QUEEN)], 0);
            EXPECT_EQ(trace.coef[c][CH_KD_OFFSET], 0);
            EXPECT_EQ(trace.coef[c][CH_BOARD + int(KNIGHT)], 0);
            EXPECT_EQ(trace.coef[c][CH_TEMPO], 0);
        }
        // Without those danger weights, the net's score and the hands exactly.
        const int bare = pos.visit(
            [&](const auto& b) { return evaluate_variant_traced(b, no_danger, trace, board); });
        EXPECT_EQ(bare, (white_to_move ? board : -board) + hands) << fen;
        // White's king has lost its shelter and black holds a knight to drop on it.
        EXPECT_LT(white, bare) << fen;
    }
}

// Atomic's net judges the whole position: under it the atomic terms stay out, and they come
// back with the hand-crafted judgement of the board.
TEST(VariantEval, AtomicUnderItsNetIsTheNetsJudgementAlone) {
    // White's pawn on f2 stands next to its king, and black's bishop on g3 attacks it.
    for (const char* side : {"w", "b"}) {
        const std::string fen =
            std::string("rn1qkbnr/ppp1pppp/8/3p4/8/6b1/PPPPNPPP/RNBQKB1R ") + side + " KQkq - 0 4";
        const Position pos = at(Variant::ATOMIC, fen.c_str());
        const int board = -23;  // the net's judgement, from the side to move's view
        const bool white_to_move = side[0] == 'w';
        VariantEvalTrace trace;
        const int white = pos.visit([&](const auto& b) {
            return evaluate_variant_traced(b, DEFAULT_VARIANT_WEIGHTS, trace, board);
        });
        EXPECT_EQ(white, white_to_move ? board : -board) << fen;
        for (const Color c : {WHITE, BLACK}) {
            EXPECT_EQ(trace.coef[c][AT_EXPOSED], 0);
            EXPECT_EQ(trace.coef[c][AT_MATERIAL + int(PAWN)], 0);
        }
        white_score(pos, &trace);  // the hand-crafted evaluation
        EXPECT_EQ(trace.coef[WHITE][AT_EXPOSED], 1) << fen;
        EXPECT_EQ(trace.coef[BLACK][AT_MATERIAL + int(PAWN)], 8) << fen;
    }
}

TEST(VariantEval, KingNearerTheHillScoresHigher) {
    const char* far = "r3k2r/ppp2ppp/8/8/8/8/PPP2PPP/R3K2R w - - 0 20";
    const char* near = "r3k2r/ppp2ppp/8/8/8/4K3/PPP2PPP/R6R w - - 0 20";
    VariantEvalTrace trace;
    const int closer = white_score(at(Variant::KING_OF_THE_HILL, near), &trace);
    EXPECT_EQ(trace.coef[WHITE][KH_DISTANCE + 0], 1);  // one step from d4/e4
    EXPECT_GT(closer, white_score(at(Variant::KING_OF_THE_HILL, far)) + 100);
}

TEST(VariantEval, AGuardedHillIsFartherForTheKing) {
    // The king on e3 is a step from d4 and e4; the rook on a4 guards both, so the nearest hill
    // square it can take is two steps (d5, e5, or d4/e4 once the guard is gone) away.
    const char* open = "4k3/8/8/8/8/4K3/8/r7 w - - 0 40";
    const char* guarded = "4k3/8/8/8/r7/4K3/8/8 w - - 0 40";
    VariantEvalTrace trace;
    const int free_hill = white_score(at(Variant::KING_OF_THE_HILL, open), &trace);
    EXPECT_EQ(trace.coef[WHITE][KH_DISTANCE + 0], 1);
    const int guarded_hill = white_score(at(Variant::KING_OF_THE_HILL, guarded), &trace);
    EXPECT_EQ(trace.coef[WHITE][KH_DISTANCE + 0], 0);
    EXPECT_EQ(trace.coef[WHITE][KH_DISTANCE + 1], 1);
    EXPECT_GT(free_hill, guarded_hill + 100);
}

TEST(VariantEval, ChecksGivenRaiseTheScore) {
    const char* none = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 +0+0";
    const char* one = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 +1+0";
    const char* two = "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 +2+0";
    const int e0 = white_score(at(Variant::THREE_CHECK, none));
    const int e1 = white_score(at(Variant::THREE_CHECK, one));
    const int e2 = white_score(at(Variant::THREE_CHECK, two));
    EXPECT_GT(e1, e0 + 100);
    EXPECT_GT(e2, e1 + 100);
}

// Two checks given are worth more with every piece still on the board (the phase: minor
// pieces 1, rooks 2, queens 4), for those pieces give the third.
TEST(VariantEval, ChecksGivenCountMoreWhileThePiecesAreOn) {
    VariantEvalTrace trace;
    const int all =
        white_score(at(Variant::THREE_CHECK,
                       "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 +2+0"),
                    &trace);
    EXPECT_EQ(trace.coef[WHITE][TC_CHECKS_PHASE + 1], 24);
    EXPECT_EQ(trace.coef[BLACK][TC_CHECKS_PHASE + 1], 0);
    const int none = white_score(
        at(Variant::THREE_CHECK, "4k3/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/4K3 w - - 0 3 +2+0"), &trace);
    EXPECT_EQ(trace.coef[WHITE][TC_CHECKS_PHASE + 1], 0);
    const int before = white_score(
        at(Variant::THREE_CHECK, "4k3/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/4K3 w - - 0 3 +0+0"));
    // Both sides keep the same pieces, so the checks make the difference.
    const int with_pieces =
        all - white_score(at(Variant::THREE_CHECK,
                             "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 +0+0"));
    EXPECT_GT(with_pieces, none - before + 24 * DEFAULT_VARIANT_WEIGHTS[TC_CHECKS_PHASE + 1] / 2);
}

TEST(VariantEval, ThreeCheckCountsTheChecksTheEnemyCanGive) {
    // Black's bishop and queen can check white's king from safe squares.
    VariantEvalTrace trace;
    white_score(at(Variant::THREE_CHECK,
                   "rnb1k1nr/pppp1ppp/8/4p3/1b2P2q/8/PPP2PPP/RNBQKBNR w KQkq - 0 4 +0+1"),
                &trace);
    EXPECT_GT(trace.coef[WHITE][TC_KD_SAFE_CHECK + int(QUEEN) - KNIGHT], 0);
    EXPECT_EQ(trace.coef[WHITE][TC_KD_GIVEN], 1);
    EXPECT_EQ(trace.coef[BLACK][TC_KD_GIVEN], 0);
}

TEST(VariantEval, ThreeCheckCountsPawnChecksAndTheKingsAttackers) {
    // Black can check with a pawn twice (exf2+, h2+), each counted twice for the check black
    // has given, and its knight attacks a square next to white's king.
    VariantEvalTrace trace;
    white_score(at(Variant::THREE_CHECK, "4k3/8/8/8/5n2/4p2p/5PP1/6K1 w - - 0 30 +0+1"), &trace);
    EXPECT_EQ(trace.coef[WHITE][TC_KD_PAWN_CHECK], 4);
    EXPECT_EQ(trace.coef[BLACK][TC_KD_PAWN_CHECK], 0);
    EXPECT_EQ(trace.coef[WHITE][TC_KD_ATTACKER + int(KNIGHT) - KNIGHT], 1);
    EXPECT_EQ(trace.coef[BLACK][TC_KD_ATTACKER + int(KNIGHT) - KNIGHT], 0);
}

TEST(VariantEval, HordePassedPawnAndChains) {
    VariantEvalTrace trace;
    white_score(at(Variant::HORDE, "4k3/8/8/1P6/PP6/8/8/8 b - - 0 30"), &trace);
    EXPECT_EQ(trace.coef[WHITE][HD_PASSED_RANK + 4], 1);
    EXPECT_EQ(trace.coef[WHITE][HD_CHAIN], 1);  // b5 is defended by a4
    EXPECT_EQ(trace.coef[WHITE][HD_ISOLATED], 0);
    EXPECT_EQ(trace.coef[BLACK][HD_OPEN_FILE], 6);
}

TEST(VariantEval, AntichessFewerPiecesIsBetter) {
    const int more = white_score(at(Variant::ANTICHESS, "8/8/4k3/8/8/8/8/NN2K3 b - - 0 30"));
    const int fewer = white_score(at(Variant::ANTICHESS, "8/8/4k3/8/8/8/8/N3K3 b - - 0 30"));
    EXPECT_GT(fewer, more);
}

TEST(VariantEval, RacingKingNearerTheEighthRankScoresHigher) {
    const int low =
        white_score(at(Variant::RACING_KINGS, "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"));
    const int high =
        white_score(at(Variant::RACING_KINGS, "8/8/8/8/7K/8/krbnNBR1/qrbnNBRQ w - - 0 1"));
    EXPECT_GT(high, low);
}

TEST(VariantEval, RacingKingsRaceGoesAroundGuardedSquares) {
    // White's king on h4 walks h5-h6-h7-h8; black's rook on a6 guards the whole sixth rank and
    // leaves it no path; a white knight on d6 blocks the rook, and the path by h6 is open again.
    VariantEvalTrace trace;
    white_score(at(Variant::RACING_KINGS, "8/8/8/8/7K/8/8/k7 w - - 0 20"), &trace);
    EXPECT_EQ(trace.coef[WHITE][RK_RACE + 3], 1);  // four steps
    EXPECT_EQ(trace.coef[BLACK][RK_RACE + 6], 1);  // a1 to the eighth: seven
    white_score(at(Variant::RACING_KINGS, "8/8/r7/8/7K/8/8/k7 w - - 0 20"), &trace);
    EXPECT_EQ(trace.coef[WHITE][RK_RACE + 7], 1);  // no path
    white_score(at(Variant::RACING_KINGS, "8/8/r2N4/8/7K/8/8/k7 w - - 0 20"), &trace);
    EXPECT_EQ(trace.coef[WHITE][RK_RACE + 3], 1);
}

// The tuner's features give back the engine's evaluation (up to the integer division of each
// side's king danger), in every variant.
TEST(VariantEvalTuner, TracedFeaturesReproduceTheEvaluation) {
    const std::pair<Variant, const char*> positions[] = {
        {Variant::CRAZYHOUSE, "r1b1kb1r/pppp1ppp/2n2n2/4p3/4P3/8/PPPP2P1/RNB2K1R[QNqn] w kq - 0 8"},
        {Variant::THREE_CHECK,
         "rnb1k1nr/pppp1ppp/8/4p3/1b2P2q/8/PPP2PPP/RNBQKBNR w KQkq - 0 4 +1+2"},
        {Variant::HORDE,
         "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"},
        {Variant::KING_OF_THE_HILL, "r3k2r/ppp2ppp/8/8/8/4K3/PPP2PPP/R6R b - - 0 20"},
        {Variant::ANTICHESS, "8/8/4k3/8/3p4/8/8/NN2K3 b - - 0 30"},
        {Variant::ATOMIC, "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"},
        {Variant::RACING_KINGS, "8/8/8/8/7K/8/krbnNBR1/qrbnNBRQ b - - 0 1"},
    };
    for (const auto& [variant, fen] : positions) {
        tuner::VariantDataset data;
        data.variant = variant;
        const Position pos = at(variant, fen);
        tuner::add_variant_position(data, pos, 0.5f, DEFAULT_VARIANT_WEIGHTS);
        ASSERT_EQ(data.entries.size(), 1u);
        const double traced = tuner::variant_entry_eval(data, data.entries[0],
                                                        tuner::to_doubles(DEFAULT_VARIANT_WEIGHTS));
        // Three-check is played, and traced, on the net's judgement of the board.
        const int engine_white = pos.visit([](const auto& b) {
            int board = SCORE_NONE;
            constexpr Variant played = std::decay_t<decltype(b)>::variant;
            if constexpr (net_judges_board(played))
                board = nnue::evaluate(*nnue::embedded_network(played), b);
            const int v = evaluate_variant(b, DEFAULT_VARIANT_WEIGHTS, board);
            return b.side == WHITE ? v : -v;
        });
        EXPECT_NEAR(traced, engine_white, 2.0) << lichess_key(variant);
    }
}

TEST(VariantEvalTuner, DataLinesAndWeightText) {
    const auto line = tuner::parse_variant_data_line(
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 +1+0 [0.5]");
    ASSERT_TRUE(line);
    EXPECT_EQ(line->fen, "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 +1+0");
    EXPECT_EQ(line->result, 0.5f);
    EXPECT_FALSE(tuner::parse_variant_data_line("8/8/8/8/8/8/8/8 w - - 0 1 [2.0]"));
    EXPECT_FALSE(tuner::parse_variant_data_line("8/8/8/8/8/8/8/8 w - - 0 1"));

    VariantWeights w = DEFAULT_VARIANT_WEIGHTS;
    w[KH_FREE_HILL] = 123;
    std::istringstream text(tuner::variant_weights_to_text(w, Variant::KING_OF_THE_HILL));
    VariantWeights back = DEFAULT_VARIANT_WEIGHTS;
    ASSERT_TRUE(tuner::variant_weights_from_text(text, back));
    EXPECT_EQ(back[KH_FREE_HILL], 123);
    std::istringstream wrong_count("KH_DISTANCE 1 2\n");
    EXPECT_FALSE(tuner::variant_weights_from_text(wrong_count, back));
    std::istringstream unknown("NO_SUCH_GROUP 1\n");
    EXPECT_FALSE(tuner::variant_weights_from_text(unknown, back));
}

TEST(VariantEvalTuner, AnAdamStepLowersTheError) {
    tuner::VariantDataset data;
    data.variant = Variant::CRAZYHOUSE;
    // White, with a piece in hand, keeps losing: the tuner should value the hand less.
    for (int i = 0; i < 20; ++i)
        tuner::add_variant_position(
            data,
            at(Variant::CRAZYHOUSE,
               "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[N] w KQkq - 0 4"),
            0.0f, DEFAULT_VARIANT_WEIGHTS);
    std::vector<double> w = tuner::to_doubles(DEFAULT_VARIANT_WEIGHTS);
    tuner::VariantOptimizer adam(data, 1.0, data.entries.size(), 2.0);
    const double before = tuner::variant_error(data, w, 1.0);
    for (int i = 0; i < 10; ++i) adam.step(w);
    EXPECT_LT(tuner::variant_error(data, w, 1.0), before);
    EXPECT_LT(w[CH_HAND + int(KNIGHT)], DEFAULT_VARIANT_WEIGHTS[CH_HAND + int(KNIGHT)]);
    EXPECT_EQ(w[HD_TEMPO], DEFAULT_VARIANT_WEIGHTS[HD_TEMPO]);  // another variant's weight
}

}  // namespace
}  // namespace engine
