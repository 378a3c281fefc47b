// End-to-end local Syzygy tables: with engine.tablebases.syzygy_paths and the online tablebase
// both on, a position the local tables answer is played from them and never sent to the
// network: the move is logged and marked `syzygy` in the PGN, counted in
// outpost_syzygy_moves_total, and the online tablebase is not asked at all.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "bot_fixture.hpp"
#include "tests/support/log_capture.hpp"

namespace e2e {
namespace {

TEST(E2eSyzygy, ALocalTableMoveIsPlayedWithoutAskingTheOnlineTablebase) {
    using namespace std::chrono_literals;
    test_support::LogCapture log;
    emu::EmulatorFixture fx("name: syzygy\nseed: 16\nkeepalive_ms: 500\n");
    const auto pgn_dir =
        std::filesystem::temp_directory_path() / ("e2e-syzygy-" + std::to_string(::getpid()));
    std::filesystem::remove_all(pgn_dir);
    BotSettings s = settings("{concurrency: 1}",
                             "online_moves:\n  online_egtb: {enabled: true, min_time: 0, url: \"" +
                                 fx.emulator().online_url() + "\"}\npgn_directory: \"" +
                                 pgn_dir.string() + "\"\n");
    s.engine = "tablebases: {syzygy_paths: [\"" + std::string(OUTPOST_TEST_DATA) + "/syzygy\"]}";
    BotRunner bot(fx, s);
    ASSERT_TRUE(wait_event_stream(fx));
    // KR v KP, white (the bot) to move and win; the opponent resigns after the bot's move.
    send_challenges(fx,
                    "challenges:\n  - {id: syz00001, at_ms: 0, challenger: {name: Student, "
                    "rating: 1500}, clock: {limit: 300, increment: 0}, color: black, "
                    "variant: fromPosition, initial_fen: \"R7/8/8/8/2p1k3/8/8/7K w - - 0 1\", "
                    "opponent: {kind: random, think_ms: 20, resign_at_ply: 1}}\n");
    const auto g = fx.wait_game_over("syz00001", 60s);
    ASSERT_TRUE(g.over) << describe(game(fx, "syz00001"));
    ASSERT_FALSE(g.moves.empty());
    EXPECT_TRUE(g.moves.front().by_bot);
    const std::string first = g.moves.front().uci;
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }, 10s));
    const std::string text = log.text();
    EXPECT_NE(text.find("Syzygy tablebases: 21 tables (up to 5 pieces)"), std::string::npos)
        << text;
    EXPECT_NE(text.find("move " + first + " (syzygy) score"), std::string::npos) << text;
    EXPECT_EQ(bot.metrics().syzygy_moves.load(), 1u);
    // The online tablebase was never asked: no hit, miss, error or skip.
    const auto& online = bot.metrics().online[2];
    EXPECT_EQ(
        online.hits.load() + online.misses.load() + online.errors.load() + online.skipped.load(),
        0u);
    std::string pgn;
    ASSERT_TRUE(fx.wait_until(
        [&] {
            if (!std::filesystem::exists(pgn_dir)) return false;
            for (const auto& e : std::filesystem::directory_iterator(pgn_dir)) {
                std::ifstream in(e.path());
                std::stringstream all;
                all << in.rdbuf();
                pgn = all.str();
            }
            return !pgn.empty();
        },
        10s));
    EXPECT_NE(pgn.find("{ syzygy"), std::string::npos) << pgn;
    EXPECT_EQ(bot.stop(), 0);
    std::filesystem::remove_all(pgn_dir);
}

}  // namespace
}  // namespace e2e
