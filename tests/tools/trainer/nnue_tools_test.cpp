// The NNUE pipeline's tools: the data generator's lines and games, and the trainer's loss,
// steps and quantisation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "engine/fen.hpp"
#include "engine/nnue.hpp"
#include "tools/datagen/datagen.hpp"
#include "tools/trainer/trainer.hpp"

namespace engine {
namespace {

TEST(Datagen, LinesRoundTripAndTornLinesAreRejected) {
    const datagen::Sample s{*parse_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"), -37};
    const std::string line = datagen::format_line(s, 0.5f, 12);
    EXPECT_EQ(line, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1;-37;0.5;12\n");
    datagen::Line parsed;
    ASSERT_TRUE(datagen::parse_line(line.substr(0, line.size() - 1), parsed));
    EXPECT_EQ(parsed.fen, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
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
        EXPECT_EQ(to_fen(g1.samples[i].board), to_fen(g2.samples[i].board));
        EXPECT_EQ(g1.samples[i].score_white, g2.samples[i].score_white);
        EXPECT_FALSE(g1.samples[i].board.in_check());
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

TEST(Trainer, ANetWithoutKingBucketsStartsAKingBucketNetAtItsOwnValues) {
    // nn10 (no king buckets) starts a mirror4 net: each bucket gets its rows, so with both
    // kings on files a-d the new net is nn10, and with a king on e-h it is nn10 of the mirror
    // image. Through the float weights and back to integers, exactly.
    const auto bytes = nnue::serialize(*nnue::embedded_network());
    const auto file = nnue::read_net_file(bytes.data(), bytes.size());
    ASSERT_TRUE(file) << file.error();
    const auto kings = nnue::king_layout("mirror4");
    auto w = trainer::Weights::from(*file, 1, kings);
    ASSERT_TRUE(w) << w.error();
    EXPECT_EQ(w->kings, *kings);
    EXPECT_EQ(w->ft_w.size(), std::size_t(4 * nnue::INPUTS * nnue::HIDDEN));
    const auto net = std::make_unique<nnue::Network>(trainer::quantise(*w));
    EXPECT_EQ(net->kings, *kings);
    trainer::Hyper h;
    h.mirror = false;
    trainer::Trainer t(*w, h);
    const auto& nn10 = *nnue::embedded_network();
    const std::pair<const char*, const char*> cases[] = {
        // a position, and its mirror image where a king stands on files e-h
        {"2kr3r/ppp2ppp/2n5/3q4/8/2N5/PPPQ1PPP/2KR3R w - - 0 1",
         "r3rk2/ppp2ppp/5n2/4q3/8/5N2/PPP1QPPP/R3RK2 w - - 0 1"},
        {"3k4/2p5/8/8/8/8/3P4/2K5 b - - 0 1", "4k3/5p2/8/8/8/8/4P3/5K2 b - - 0 1"},
    };
    for (const auto& [a_fen, e_fen] : cases) {
        const Board a = *parse_fen(a_fen), e = *parse_fen(e_fen);
        EXPECT_EQ(nnue::evaluate(*net, a), nnue::evaluate(nn10, a)) << a_fen;
        EXPECT_EQ(nnue::evaluate(*net, e), nnue::evaluate(nn10, a)) << e_fen;
        const int cp = nnue::evaluate(nn10, a);
        EXPECT_NEAR(t.evaluate(trainer::sample_from_board(e, 0, 0.5f)), cp, 3 + 0.01 * std::abs(cp))
            << e_fen;
    }
    // A king-bucket net cannot start one of another layout.
    const auto m8 = nnue::serialize(*net);
    const auto m4_file = nnue::read_net_file(m8.data(), m8.size());
    ASSERT_TRUE(m4_file) << m4_file.error();
    EXPECT_EQ(m4_file->version, 3u);
    const auto refused = trainer::Weights::from(*m4_file, 1, nnue::king_layout("mirror8"));
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().find("king bucket layout"), std::string::npos);
}

TEST(Trainer, AKingBucketNetTrainsAndQuantisesToTheEnginesValues) {
    // The same pieces, the white king on b1 or on b3 (two buckets of mirror4), opposite labels.
    const char* fens[2] = {"4k3/8/8/3R4/8/8/8/1K6 w - - 0 1", "4k3/8/8/3R4/8/1K6/8/8 w - - 0 1"};
    std::vector<trainer::Sample> data;
    for (int i = 0; i < 64; ++i)
        data.push_back(trainer::sample_from_board(*parse_fen(fens[i % 2]), i % 2 ? -600 : 600,
                                                  i % 2 ? 0.0f : 1.0f));
    trainer::Weights w = trainer::Weights::random(2, *nnue::king_layout("mirror4"));
    // Factorised: 768 shared rows, the buckets' own starting at 0; both learn.
    ASSERT_EQ(w.ft_shared.size(), std::size_t(nnue::INPUTS * nnue::HIDDEN));
    EXPECT_TRUE(std::all_of(w.ft_w.begin(), w.ft_w.end(), [](float x) { return x == 0; }));
    const std::vector<float> shared_before = w.ft_shared;
    trainer::Hyper h;
    h.batch = 16;
    h.threads = 2;
    trainer::Trainer t(w, h);
    std::mt19937_64 rng(1);
    const double before = t.loss(data);
    for (int e = 0; e < 30; ++e) t.epoch(data, rng, 1e-2);
    EXPECT_LT(t.loss(data), before / 4);
    EXPECT_NE(w.ft_shared, shared_before);
    EXPECT_FALSE(std::all_of(w.ft_w.begin(), w.ft_w.end(), [](float x) { return x == 0; }));
    const auto net = std::make_unique<nnue::Network>(trainer::quantise(w));
    for (int i = 0; i < 2; ++i) {
        const double f = t.evaluate(data[std::size_t(i)]);
        EXPECT_GT(i == 0 ? f : -f, 200) << fens[i];
        EXPECT_NEAR(nnue::evaluate(*net, *parse_fen(fens[i])), f, 10 + 0.02 * std::abs(f))
            << fens[i];
    }
}

// A net file of the first format (version 1: no bucket field, one output layer, QA 255 and
// QB 64) with `hidden` neurons of random weights, as the nets up to nn5s were written.
std::vector<unsigned char> version1_file(int hidden, std::uint32_t scale, std::mt19937_64& rng) {
    std::vector<unsigned char> out{'O', 'P', 'N', 'N', 'U', 'E', '0', '1'};
    auto u32 = [&out](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) out.push_back((unsigned char)(v >> (8 * i)));
    };
    auto i16 = [&out](int v) {
        out.push_back((unsigned char)(std::uint16_t(v) & 0xff));
        out.push_back((unsigned char)(std::uint16_t(v) >> 8));
    };
    for (std::uint32_t v :
         {1u, std::uint32_t(nnue::INPUTS), std::uint32_t(hidden), 255u, 64u, scale})
        u32(v);
    for (int i = 0; i < nnue::INPUTS * hidden; ++i) i16(int(rng() % 61) - 30);
    for (int j = 0; j < hidden; ++j) i16(int(rng() % 201) - 40);
    for (int j = 0; j < 2 * hidden; ++j) i16(int(rng() % 255) - 127);
    u32(std::uint32_t(-3000));  // the output bias
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : out) h = (h ^ c) * 0x100000001b3ULL;
    for (int i = 0; i < 8; ++i) out.push_back((unsigned char)(h >> (8 * i)));
    return out;
}

// The narrow net's value in centipawns, straight from its file's integers.
double narrow_value(const nnue::NetFile& f, const Board& b) {
    const int hidden = int(f.hidden);
    double out = double(f.out_bias[0]) / (double(f.qa) * f.qb);
    for (int p = 0; p < 2; ++p) {
        const Color persp = p == 0 ? b.side : ~b.side;
        for (int j = 0; j < hidden; ++j) {
            double a = f.ft_bias[std::size_t(j)];
            for (Bitboard bb = b.pieces(); bb; bb &= bb - 1) {
                const Square sq = lsb(bb);
                a += f.ft_weights[std::size_t(nnue::feature_index(persp, b.piece_on(sq), sq)) *
                                      std::size_t(hidden) +
                                  std::size_t(j)];
            }
            const double c = std::clamp(a / f.qa, 0.0, 1.0);
            out += c * c * f.out_weights[std::size_t(p * hidden + j)] / f.qb;
        }
    }
    return out * f.scale;
}

TEST(Trainer, ANarrowerFirstFormatNetIsWidenedWithoutChangingItsValues) {
    std::mt19937_64 rng(11);
    const int narrow = nnue::HIDDEN / 2;
    const auto bytes = version1_file(narrow, 360, rng);
    const auto file = nnue::read_net_file(bytes.data(), bytes.size());
    ASSERT_TRUE(file) << file.error();
    EXPECT_EQ(file->version, 1u);
    EXPECT_EQ(file->hidden, std::uint32_t(narrow));
    EXPECT_EQ(file->buckets, 1u);
    // The engine plays only its own shape, and says what to do with this one.
    const auto as_engine = nnue::parse_network(bytes.data(), bytes.size());
    ASSERT_FALSE(as_engine);
    EXPECT_NE(as_engine.error().find("outpost-train --init"), std::string::npos);

    auto w = trainer::Weights::from(*file, 5);
    ASSERT_TRUE(w) << w.error();
    trainer::Hyper h;
    h.mirror = false;
    trainer::Trainer t(*w, h);
    int differ = 0;
    for (const char* fen : {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                            "4k3/pppp4/8/8/8/8/PPPPP3/4K3 b - - 0 1",
                            "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 4 8",
                            "8/8/3k4/8/2R5/8/3K4/8 w - - 0 1"}) {
        const Board b = *parse_fen(fen);
        const double expected = narrow_value(*file, b);
        // Every bucket starts as the one output layer: the same value whatever the count.
        EXPECT_NEAR(t.evaluate(trainer::sample_from_board(b, 0, 0.5f)), expected,
                    1e-3 * (1 + std::abs(expected)))
            << fen;
        differ += std::abs(expected) > 1;
    }
    EXPECT_GT(differ, 0);  // the random net is not all zeros
    // The copies of a neuron split its output weight unevenly, so they can learn apart.
    EXPECT_NE(w->out_w[0], w->out_w[std::size_t(narrow)]);
    EXPECT_NEAR(w->out_w[0] + w->out_w[std::size_t(narrow)],
                double(file->out_weights[0]) / 64 * 360 / nnue::SCALE, 1e-5);

    // Shapes it cannot start from are named.
    std::mt19937_64 rng2(1);
    const auto odd = version1_file(nnue::HIDDEN / 2 + 8, 400, rng2);
    const auto odd_file = nnue::read_net_file(odd.data(), odd.size());
    ASSERT_TRUE(odd_file) << odd_file.error();
    const auto refused = trainer::Weights::from(*odd_file, 1);
    ASSERT_FALSE(refused);
    EXPECT_NE(refused.error().find("hidden size"), std::string::npos);
}

}  // namespace
}  // namespace engine
