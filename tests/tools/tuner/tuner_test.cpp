// Tests of the Texel tuner (tools/tuner): data lines, the traced features matching the
// engine's evaluation, an error that falls with each step, the printed weights, and labels
// from another engine's scores.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>

#include "engine/evaluate.hpp"
#include "engine/fen.hpp"
#include "engine/position.hpp"
#include "tools/tuner/engine_label.hpp"
#include "tools/tuner/selfplay.hpp"
#include "tools/tuner/tuner.hpp"
#include "tools/tuner/variant_tuner.hpp"

namespace engine {
namespace {

TEST(Tuner, ParsesTheCommonDataLineFormats) {
    const std::string fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    auto a = tuner::parse_data_line(fen + " [1.0]");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->fen, fen);
    EXPECT_EQ(a->result, 1.0f);
    auto b = tuner::parse_data_line(fen + " \"0-1\"");
    ASSERT_TRUE(b);
    EXPECT_EQ(b->result, 0.0f);
    auto c = tuner::parse_data_line(
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c9 "
        "\"1/2-1/2\";");
    ASSERT_TRUE(c);
    EXPECT_EQ(c->fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -");
    EXPECT_EQ(c->result, 0.5f);
    auto d = tuner::parse_data_line(fen + " [0.5]");
    ASSERT_TRUE(d);
    EXPECT_EQ(d->result, 0.5f);
    EXPECT_FALSE(tuner::parse_data_line(fen));
    EXPECT_FALSE(tuner::parse_data_line(""));
}

const char* kFens[] = {
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r1b2rk1/ppp2ppp/8/3p4/6nq/8/PPPPP3/RNBQ1RK1 w - - 0 1",
    "2r3k1/pp3ppp/4p3/3pP3/1P1P4/P4N2/5PPP/2R3K1 b - - 0 25",
    "8/5pk1/6p1/8/8/6P1/4PPK1/8 w - - 0 1",
    "4k3/8/3b4/8/4P3/8/2B5/4K3 w - - 0 1",
    "8/8/8/3k4/8/8/8/4K2R w - - 0 1",
};

TEST(Tuner, FeatureEvaluationMatchesTheEngine) {
    init_attacks();
    tuner::Dataset data;
    for (const char* fen : kFens)
        tuner::add_position(data, *parse_fen(fen), 0.5f, DEFAULT_EVAL_PARAMS);
    const auto w = tuner::Weights::from(DEFAULT_EVAL_PARAMS);
    for (std::size_t i = 0; i < data.entries.size(); ++i) {
        const Board b = *parse_fen(kFens[i]);
        const int v = evaluate(b);
        const int white = b.side == WHITE ? v : -v;
        // Integer rounding in the engine: a few centipawns at most.
        EXPECT_NEAR(tuner::entry_eval(data, data.entries[i], w), white, 3.0) << kFens[i];
    }
}

TEST(Tuner, ErrorFallsOnATinySyntheticDataSet) {
    init_attacks();
    // White a pawn or a piece up and winning, black up and winning, level and drawn.
    tuner::Dataset data;
    const std::pair<const char*, float> lines[] = {
        {"4k3/pppp4/8/8/8/8/PPPPP3/4K3 w - - 0 1", 1.0f},
        {"4k3/pppp4/8/8/8/8/PPPPP3/4K3 b - - 0 1", 1.0f},
        {"4k3/ppppp3/8/8/8/8/PPPP4/4K3 w - - 0 1", 0.0f},
        {"4k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", 0.5f},
        {"r3k3/pppp4/8/8/8/8/PPPP4/R3K1N1 w - - 0 1", 1.0f},
        {"r3k1n1/pppp4/8/8/8/8/PPPP4/R3K3 b - - 0 1", 0.0f},
        {"r3k3/pppp4/8/8/8/8/PPPP4/R3K3 b - - 0 1", 0.5f},
    };
    for (const auto& [fen, result] : lines)
        tuner::add_position(data, *parse_fen(fen), result, DEFAULT_EVAL_PARAMS);
    auto w = tuner::Weights::from(DEFAULT_EVAL_PARAMS);
    const double k = tuner::best_k(data, w);
    EXPECT_GT(k, 0.0);
    tuner::Optimizer adam(data, k, data.entries.size(), 2.0);
    const double before = tuner::error(data, w, k);
    EXPECT_NEAR(adam.step(w), before, 1e-12);
    const double after_one = tuner::error(data, w, k);
    EXPECT_LT(after_one, before);
    for (int i = 0; i < 20; ++i) adam.step(w);
    EXPECT_LT(tuner::error(data, w, k), after_one);
}

TEST(Tuner, WeightsRoundTripThroughText) {
    std::istringstream in(tuner::params_to_text(DEFAULT_EVAL_PARAMS));
    const auto back = tuner::params_from_text(in);
    ASSERT_TRUE(back);
    for (int i = 0; i < PARAM_COUNT; ++i) EXPECT_EQ((*back)[i], DEFAULT_EVAL_PARAMS[i]) << i;
    const std::string cpp = tuner::params_to_cpp(DEFAULT_EVAL_PARAMS);
    for (const auto& g : PARAM_GROUPS)
        EXPECT_NE(cpp.find(std::string(g.name) + "_W[]"), std::string::npos) << g.name;
}

TEST(Tuner, MiniSearchFindsAMateInOne) {
    init_attacks();
    tuner::MiniSearch search(DEFAULT_EVAL_PARAMS, 12);
    const Board b = *parse_fen("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    const auto r = search.search(b, 3, {});
    EXPECT_EQ(r.best, Move(A1, A8));
    EXPECT_GT(r.score, tuner::MiniSearch::MATE_BOUND);
}

TEST(EngineLabel, AScoreIsWhitesExpectedResult) {
    using match::EngineScore;
    EXPECT_DOUBLE_EQ(tuner::expected_result(EngineScore{false, 0}, WHITE), 0.5);
    // +400 cp is ten to one: 10/11 for the side to move, 1/11 for white when black is to move.
    EXPECT_NEAR(tuner::expected_result(EngineScore{false, 400}, WHITE), 10.0 / 11, 1e-12);
    EXPECT_NEAR(tuner::expected_result(EngineScore{false, 400}, BLACK), 1.0 / 11, 1e-12);
    EXPECT_NEAR(tuner::expected_result(EngineScore{false, -400}, BLACK), 10.0 / 11, 1e-12);
    // A mate is certain whoever gives it.
    EXPECT_EQ(tuner::expected_result(EngineScore{true, 3}, BLACK), 0.0);
    EXPECT_EQ(tuner::expected_result(EngineScore{true, -2}, BLACK), 1.0);
    EXPECT_EQ(tuner::expected_result(EngineScore{true, 1}, WHITE), 1.0);
}

TEST(EngineLabel, TheLabelMixesTheEnginesJudgementWithTheGamesResult) {
    const std::string horde_black =
        "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP b kq - 0 1";
    const tuner::LabelledFen lost{horde_black, 0.0f};
    // Black to move and 400 cp up: white expects 1/11 = 0.0909.
    EXPECT_EQ(tuner::engine_labelled_line(lost, {false, 400}, 1.0), horde_black + " [0.0909]");
    EXPECT_EQ(tuner::engine_labelled_line(lost, {false, -400}, 0.5),
              horde_black + " [0.4545]");  // (10/11 + 0) / 2
    EXPECT_EQ(tuner::engine_labelled_line(lost, {false, 400}, 0.0), horde_black + " [0.0000]");
    // The line reads back as the variant tuner's data.
    const auto back = tuner::parse_variant_data_line(
        tuner::engine_labelled_line({horde_black, 1.0f}, {false, 0}, 0.5));
    ASSERT_TRUE(back);
    EXPECT_EQ(back->fen, horde_black);
    EXPECT_FLOAT_EQ(back->result, 0.75f);
}

// Fairy-Stockfish reads three-check's checks as those still to give, after en passant.
TEST(EngineLabel, AThreeCheckFenGivesTheEngineTheChecksStillNeeded) {
    EXPECT_EQ(tuner::uci_fen(Variant::THREE_CHECK,
                             "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 +1+0"),
              "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 2+3 0 3");
    EXPECT_EQ(tuner::uci_fen(Variant::THREE_CHECK, "4k3/8/8/8/8/8/8/R3K3 b - - 7 40 +2+1"),
              "4k3/8/8/8/8/8/8/R3K3 b - - 1+2 7 40");
    // Already in that form, or another variant: unchanged.
    EXPECT_EQ(tuner::uci_fen(Variant::THREE_CHECK, "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1"),
              "4k3/8/8/8/8/8/8/R3K3 w - - 3+3 0 1");
    EXPECT_EQ(tuner::uci_fen(Variant::KING_OF_THE_HILL, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"),
              "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    // The engine's own FEN reader takes the form it is sent.
    EXPECT_TRUE(
        Position::from_fen("4k3/8/8/8/8/8/8/R3K3 b - - 1+2 7 40", Variant::THREE_CHECK).ok());
}

}  // namespace
}  // namespace engine
