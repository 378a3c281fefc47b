// The engine's Syzygy play against Debian's `fathom` prober on the real tables of
// tests/data/syzygy: the root moves of random legal positions keep fathom's result and make
// progress by its DTZ, and won endings are mated against the tables' longest defence before
// lila's 50-move draw.
#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/movegen.hpp"
#include "tests/engine/syzygy_support.hpp"

namespace engine::syzygy_test {
namespace {

namespace fs = std::filesystem;

class SyzygyOracle : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(fs::exists(kFathom))
            << kFathom << " is missing: run deploy/install-deps.sh (Debian package fathom)";
        auto loaded = Syzygy::load({kTables});
        ASSERT_TRUE(loaded) << loaded.error();
        tb = *loaded;
        engine = std::make_unique<Engine>(EngineOptions{.hash_mb = 8, .syzygy = tb});
    }
    void TearDown() override {
        engine.reset();
        tb.reset();
    }

    std::shared_ptr<const Syzygy> tb;
    std::unique_ptr<Engine> engine;
};

const char* wdl_name(SyzygyWdl w) {
    switch (w) {
        case SyzygyWdl::WIN:
            return "Win";
        case SyzygyWdl::CURSED_WIN:
            return "CursedWin";
        case SyzygyWdl::DRAW:
            return "Draw";
        case SyzygyWdl::BLESSED_LOSS:
            return "BlessedLoss";
        case SyzygyWdl::LOSS:
            return "Loss";
    }
    return "?";
}

bool zeroing(const Board& b, Move m) {
    return b.is_capture(m) || type_of(b.piece_on(m.from())) == PAWN;
}

// Asks fathom about many positions at once (it is a separate process; the answers do not depend
// on each other).
std::vector<std::optional<syzygy_test::Oracle>> ask_all(const std::vector<std::string>& fens) {
    std::vector<std::optional<syzygy_test::Oracle>> out(fens.size());
    constexpr std::size_t kBatch = 8;
    for (std::size_t i = 0; i < fens.size(); i += kBatch) {
        std::vector<std::future<std::optional<syzygy_test::Oracle>>> batch;
        for (std::size_t j = i; j < std::min(fens.size(), i + kBatch); ++j)
            batch.push_back(std::async(std::launch::async, ask_fathom, fens[j]));
        for (std::size_t j = 0; j < batch.size(); ++j) out[i + j] = batch[j].get();
    }
    return out;
}

// 280 random positions of the copied materials, both sides to move: the engine's kept root
// moves are exactly of fathom's best class, its move is one of them, and a decisive move keeps
// fathom's DTZ (a win one ply nearer the next capture or pawn move, a loss as far as it is).
TEST_F(SyzygyOracle, RootMovesOfRandomPositionsKeepFathomsResultAndDtz) {
    const std::vector<std::string> materials = {"KQk",  "KRk",  "KPk",  "KBNk", "KQkr",
                                                "KRkp", "KRkr", "KRkb", "KRkn", "kpK"};
    std::mt19937 rng(20261128);
    std::vector<Position> positions;
    for (int round = 0; round < 14; ++round)
        for (const std::string& m : materials)
            for (const Color side : {WHITE, BLACK})
                if (auto p = random_position(rng, m, side)) positions.push_back(std::move(*p));
    ASSERT_EQ(positions.size(), 280u);

    std::vector<std::string> fens;
    std::vector<Move> chosen;
    std::vector<SyzygyRoot> roots;
    for (const Position& pos : positions) {
        fens.push_back(pos.fen());
        const auto root = syzygy_root_moves(*tb, pos.board());
        ASSERT_TRUE(root) << pos.fen();
        roots.push_back(*root);
        engine->new_game();
        chosen.push_back(engine_move(*engine, pos));
    }
    const auto answers = ask_all(fens);

    // The positions after the engine's decisive, non-zeroing moves, for their DTZ.
    std::vector<std::string> after_fens;
    std::vector<std::size_t> after_of;
    int agree = 0, wins = 0, draws = 0, losses = 0;
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const Position& pos = positions[i];
        ASSERT_TRUE(answers[i]) << "fathom did not answer " << fens[i];
        const syzygy_test::Oracle& o = *answers[i];
        const SyzygyRoot& root = roots[i];
        EXPECT_EQ(wdl_name(root.wdl), o.wdl) << fens[i];
        const auto& expected = root.wdl == SyzygyWdl::WIN    ? o.winning
                               : root.wdl == SyzygyWdl::LOSS ? o.losing
                                                             : o.drawing;
        for (const Move m : root.moves)
            EXPECT_TRUE(contains(expected, plain_san(pos, m)))
                << fens[i] << ": kept " << plain_san(pos, m) << " is not among fathom's " << o.wdl
                << " moves";
        // Fathom has no move of a better class than the kept ones.
        if (root.wdl != SyzygyWdl::WIN && root.wdl != SyzygyWdl::LOSS) {
            EXPECT_TRUE(o.winning.empty()) << fens[i];
        }
        if (root.wdl == SyzygyWdl::LOSS) {
            EXPECT_TRUE(o.winning.empty() && o.drawing.empty()) << fens[i];
        }
        ASSERT_TRUE(chosen[i]) << fens[i];
        const std::string san = plain_san(pos, chosen[i]);
        const bool kept =
            std::find(root.moves.begin(), root.moves.end(), chosen[i]) != root.moves.end();
        EXPECT_TRUE(kept) << fens[i] << ": the engine played " << san;
        if (kept && contains(expected, san) && wdl_name(root.wdl) == o.wdl) ++agree;
        wins += root.wdl == SyzygyWdl::WIN;
        losses += root.wdl == SyzygyWdl::LOSS;
        draws += root.wdl != SyzygyWdl::WIN && root.wdl != SyzygyWdl::LOSS;
        Position next = pos;
        next.play(chosen[i]);
        const bool decisive = root.wdl == SyzygyWdl::WIN || root.wdl == SyzygyWdl::LOSS;
        if (decisive && !zeroing(pos.board(), chosen[i]) &&
            next.status() != PositionStatus::CHECKMATE) {
            after_fens.push_back(next.fen());
            after_of.push_back(i);
        }
    }
    const auto after = ask_all(after_fens);
    int dtz_exact = 0;
    for (std::size_t k = 0; k < after.size(); ++k) {
        const std::size_t i = after_of[k];
        ASSERT_TRUE(after[k]) << after_fens[k];
        const int ours = after[k]->dtz + 1;  // the move's own ply
        if (roots[i].wdl == SyzygyWdl::WIN)
            EXPECT_LE(ours, answers[i]->dtz) << fens[i] << " -> " << after_fens[k];
        else
            EXPECT_GE(ours, answers[i]->dtz) << fens[i] << " -> " << after_fens[k];
        dtz_exact += ours == answers[i]->dtz;
    }
    std::printf(
        "agreement with fathom: %d of %zu positions (%d won, %d drawn, %d lost); DTZ "
        "exact after %d of %zu decisive quiet moves\n",
        agree, positions.size(), wins, draws, losses, dtz_exact, after.size());
    EXPECT_EQ(agree, int(positions.size()));
    // The sample has every kind of result.
    EXPECT_GT(wins, 50);
    EXPECT_GT(draws, 20);
    EXPECT_GT(losses, 20);
}

// Won endings, the engine against the tables' longest defence (the defender plays a move that
// keeps the loss furthest from the next capture or pawn move, which fathom lists as losing):
// every game is mated before the 50-move rule could be claimed.
TEST_F(SyzygyOracle, WonEndingsAreMatedAgainstTheTablesDefenceBeforeTheFiftyMoveRule) {
    struct Start {
        const char* name;
        const char* fen;
    };
    const Start starts[] = {
        {"KBN v K", "8/8/8/4k3/8/8/8/KBN5 w - - 0 1"},
        {"KBN v K", "7k/8/8/8/8/8/8/KBN5 w - - 0 1"},
        {"KQ v KR", "8/8/8/8/2k5/Q2r4/K7/8 w - - 0 1"},
        {"KQ v KR", "Q6K/8/3k4/3r4/8/8/8/8 w - - 0 1"},
        {"KR v KP", "R7/8/8/8/2p1k3/8/8/7K w - - 0 1"},
        {"KR v KP", "7R/8/5p2/5k2/8/8/8/5K2 w - - 0 1"},
        {"KRP v KR", "1K6/1P1k4/8/8/8/8/r7/2R5 w - - 0 1"},  // Lucena's position
        {"KRP v KR", "7k/8/8/8/4K3/4P3/8/r5R1 w - - 0 1"},   // the king cut off on the h-file
    };
    for (const Start& s : starts) {
        auto start = Position::from_fen(s.fen);
        ASSERT_TRUE(start) << s.fen;
        Position pos = *start;
        const Color attacker = pos.side_to_move();
        engine->new_game();
        int plies = 0;
        std::vector<std::string> defence_fens, defence_moves;
        while (pos.status() == PositionStatus::ONGOING && plies < 400) {
            Move m;
            if (pos.side_to_move() == attacker) {
                m = engine_move(*engine, pos, 4);
            } else {
                const auto root = syzygy_root_moves(*tb, pos.board());
                ASSERT_TRUE(root) << pos.fen();
                ASSERT_EQ(root->wdl, SyzygyWdl::LOSS) << s.name << ": " << pos.fen();
                m = root->moves.front();
                defence_fens.push_back(pos.fen());
                defence_moves.push_back(plain_san(pos, m));
            }
            ASSERT_TRUE(m) << pos.fen();
            pos.play(m);
            ++plies;
            ASSERT_LT(pos.board().halfmove_clock, 100) << s.name << " from " << s.fen;
        }
        EXPECT_EQ(pos.status(), PositionStatus::CHECKMATE) << s.name << " from " << s.fen;
        EXPECT_NE(pos.side_to_move(), attacker) << s.name << " from " << s.fen;
        // Every defence was one fathom calls losing (the tables' own answer, not ours).
        const auto answers = ask_all(defence_fens);
        for (std::size_t i = 0; i < answers.size(); ++i) {
            ASSERT_TRUE(answers[i]) << defence_fens[i];
            EXPECT_EQ(answers[i]->wdl, "Loss") << defence_fens[i];
            EXPECT_TRUE(contains(answers[i]->losing, defence_moves[i])) << defence_fens[i];
        }
        std::printf("%s from %s: mate in %d plies\n", s.name, s.fen, plies);
    }
}

}  // namespace
}  // namespace engine::syzygy_test
