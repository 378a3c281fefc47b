// The NNUE pipeline's tools: the data generator's lines and games, and the trainer's loss,
// steps and quantisation.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "engine/fen.hpp"
#include "engine/nnue.hpp"
#include "engine/tools/datagen/datagen.hpp"
#include "engine/tools/trainer/trainer.hpp"

namespace {

using namespace engine;

TEST(Datagen, LinesRoundTripAndTornLinesAreRejected) {
    const datagen::Sample s{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", -37};
    const std::string line = datagen::format_line(s, 0.5f, 12);
    EXPECT_EQ(line, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1;-37;0.5;12\n");
    datagen::Line parsed;
    ASSERT_TRUE(datagen::parse_line(line.substr(0, line.size() - 1), parsed));
    EXPECT_EQ(parsed.fen, s.fen);
    EXPECT_EQ(parsed.score_white, -37);
    EXPECT_EQ(parsed.result, 0.5f);
    EXPECT_EQ(parsed.game, 12u);
    for (const char* bad : {"", "4k3/8 w - - 0 1;12", "x;1;0.5;", "x;1;0.7;3", "x;1z;1.0;3"})
        EXPECT_FALSE(datagen::parse_line(bad, parsed)) << bad;
}

TEST(Datagen, AGameIsReproducibleAndRecordsQuietPositions) {
    datagen::Config config;
    config.seed = 3;
    config.nodes = 300;
    config.max_plies = 40;
    Engine a({.hash_mb = 1, .threads = 1}), b({.hash_mb = 1, .threads = 1});
    const datagen::Game g1 = datagen::play_game(a, config, 5);
    const datagen::Game g2 = datagen::play_game(b, config, 5);
    ASSERT_FALSE(g1.samples.empty());
    ASSERT_EQ(g1.samples.size(), g2.samples.size());
    for (std::size_t i = 0; i < g1.samples.size(); ++i) {
        EXPECT_EQ(g1.samples[i].fen, g2.samples[i].fen);
        EXPECT_EQ(g1.samples[i].score_white, g2.samples[i].score_white);
        const auto board = parse_fen(g1.samples[i].fen);
        ASSERT_TRUE(board);
        EXPECT_FALSE(board->in_check());
    }
    EXPECT_EQ(g1.result, g2.result);
    EXPECT_NE(datagen::game_seed(3, 5), datagen::game_seed(3, 6));
}

TEST(Trainer, StepsLowerTheLossAndTheQuantisedNetFollowsTheFloatOne) {
    // Two opposite kinds of position: an extra white queen (won) and an extra black one.
    std::vector<trainer::Sample> data;
    for (int i = 0; i < 64; ++i) {
        const bool white_up = i % 2 == 0;
        const std::string fen =
            white_up ? "4k3/8/8/8/8/8/8/3QK3 w - - 0 1" : "3qk3/8/8/8/8/8/8/4K3 w - - 0 1";
        data.push_back(trainer::sample_from_board(*parse_fen(fen), white_up ? 900 : -900,
                                                  white_up ? 1.0f : 0.0f));
    }
    trainer::Weights w = trainer::Weights::random(1);
    trainer::Hyper h;
    h.batch = 16;
    h.threads = 2;
    h.mirror = false;  // the samples are compared with their FENs below
    trainer::Trainer t(w, h);
    std::mt19937_64 rng(1);
    const double before = t.loss(data);
    for (int e = 0; e < 30; ++e) t.epoch(data, rng, 1e-2);
    const double after = t.loss(data);
    EXPECT_LT(after, before / 4);
    EXPECT_GT(t.evaluate(data[0]), 200);
    EXPECT_LT(t.evaluate(data[1]), -200);

    const auto net = std::make_unique<nnue::Network>(trainer::quantise(w));
    for (int i = 0; i < 2; ++i) {
        const std::string fen =
            i == 0 ? "4k3/8/8/8/8/8/8/3QK3 w - - 0 1" : "3qk3/8/8/8/8/8/8/4K3 w - - 0 1";
        const double f = t.evaluate(data[std::size_t(i)]);
        EXPECT_NEAR(nnue::evaluate(*net, *parse_fen(fen)), f, 10 + 0.02 * std::abs(f)) << fen;
    }
}

TEST(Trainer, ANetWithItsOwnScaleStartsTrainingFromTheEnginesCentipawns) {
    // The embedded net calibrated to 3/4 of the trainer's scale: initialised from it, the
    // float net must give what the engine gives with that net, not 4/3 of it.
    auto calibrated = std::make_unique<nnue::Network>(*nnue::embedded_network());
    calibrated->scale = nnue::SCALE * 3 / 4;
    trainer::Weights w = trainer::Weights::from(*calibrated);
    trainer::Hyper h;
    h.mirror = false;
    trainer::Trainer t(w, h);
    for (const char* fen : {"rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                            "4k3/pppp4/8/8/8/8/PPPPP3/4K3 b - - 0 1"}) {
        const Board b = *parse_fen(fen);
        const int engine_cp = nnue::evaluate(*calibrated, b);
        EXPECT_GT(std::abs(engine_cp), 100) << fen;
        EXPECT_NEAR(t.evaluate(trainer::sample_from_board(b, 0, 0.5f)), engine_cp,
                    3 + 0.01 * std::abs(engine_cp))
            << fen;
    }
}

}  // namespace
