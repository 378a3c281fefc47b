// End-to-end levels (engine.strength with match_opponent): a human rated 1200 is played at level
// 1200, which the log, the PGN and !level say; a bot is met at full strength.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bot_fixture.hpp"
#include "tests/engine/polyglot_test_util.hpp"
#include "tests/support/log_capture.hpp"

namespace e2e {
namespace {

class E2eStrength : public ::testing::Test {
  protected:
    BotSettings level_settings() const {
        BotSettings s =
            settings("{concurrency: 1}", "pgn_directory: \"" + pgn_dir().string() + "\"\n");
        s.engine = "strength: {match_opponent: true}";
        return s;
    }
    std::filesystem::path pgn_dir() const { return dir_.path() / "pgn"; }

    // The first PGN written, waited for (bounded; empty when none came).
    std::string wait_for_pgn(emu::EmulatorFixture& fx) const {
        using namespace std::chrono_literals;
        std::string text;
        (void)fx.wait_until(
            [&] {
                if (!std::filesystem::exists(pgn_dir())) return false;
                for (const auto& e : std::filesystem::directory_iterator(pgn_dir())) {
                    std::ifstream in(e.path());
                    std::stringstream s;
                    s << in.rdbuf();
                    text = s.str();
                }
                return !text.empty();
            },
            10s);
        return text;
    }

    test_util::BookDir dir_{std::string("e2e-strength-") +
                            ::testing::UnitTest::GetInstance()->current_test_info()->name()};
};

int bot_chat_lines(const emu::GameView& g, const std::string& part) {
    return int(std::count_if(g.chat.begin(), g.chat.end(), [&](const emu::ChatRecord& c) {
        return c.user == "OutpostBot" && c.text.find(part) != std::string::npos;
    }));
}

TEST_F(E2eStrength, AHumanRated1200IsPlayedAtLevel1200) {
    using namespace std::chrono_literals;
    test_support::LogCapture log;  // outlives the daemon
    emu::EmulatorFixture fx("name: level\nseed: 47\nkeepalive_ms: 500\n");
    BotRunner bot(fx, level_settings());
    ASSERT_TRUE(wait_event_stream(fx));
    // 3+0 is blitz; a short game: the opponent resigns at ply 10, and asks !level first.
    send_challenges(fx, R"(
challenges:
  - id: level001
    at_ms: 0
    challenger: {name: Clubplayer, rating: 1200}
    clock: {limit: 180, increment: 0}
    color: black
    opponent:
      kind: line
      moves: "e7e5 b8c6 g8f6 f8e7 e8g8 d7d6"
      think_ms: 30
      resign_at_ply: 10
      chat:
        - {at_ply: 0, room: player, text: "!level"}
)");
    const auto g = fx.wait_game_over("level001", 120s);
    ASSERT_TRUE(g.over) << describe(game(fx, "level001"));
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "level001"), 0);
    EXPECT_TRUE(
        log.contains("game level001: plays at level 1200 (the opponent's blitz rating 1200)"))
        << log.text();

    const std::string pgn = wait_for_pgn(fx);
    EXPECT_NE(pgn.find("[OutpostLevel \"1200\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[BlackElo \"1200\"]"), std::string::npos) << pgn;  // Lichess's rating

    ASSERT_TRUE(fx.wait_until(
        [&] { return bot_chat_lines(game(fx, "level001"), "at level 1200") >= 1; }, 15s))
        << describe(game(fx, "level001"));
    EXPECT_EQ(bot.stop(), 0);
}

TEST_F(E2eStrength, ABotIsMetAtFullStrength) {
    using namespace std::chrono_literals;
    test_support::LogCapture log;
    emu::EmulatorFixture fx("name: level-bot\nseed: 48\nkeepalive_ms: 500\n");
    BotRunner bot(fx, level_settings());
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - id: levelbot
    at_ms: 0
    challenger: {name: OtherBot, rating: 1300, title: BOT}
    clock: {limit: 60, increment: 0}
    color: black
    opponent: {kind: line, moves: "e7e5 b8c6 g8f6 f8e7", think_ms: 30, resign_at_ply: 6}
)");
    const auto g = fx.wait_game_over("levelbot", 120s);
    ASSERT_TRUE(g.over) << describe(game(fx, "levelbot"));
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_TRUE(
        log.contains("game levelbot: plays at full strength (a bot, and "
                     "engine.strength.match_bots is false)"))
        << log.text();
    const std::string pgn = wait_for_pgn(fx);
    ASSERT_FALSE(pgn.empty());
    EXPECT_EQ(pgn.find("OutpostLevel"), std::string::npos) << pgn;
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
