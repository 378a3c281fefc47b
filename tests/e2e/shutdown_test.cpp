// Graceful shutdown of the real binary (service/ops/signals.cpp, Bot::run's second phase): with a
// grace period, SIGTERM in the middle of a game closes the door to new challenges and lets the
// game be played to its end, then `outpost run` exits 0; a second signal stops it at once.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <fstream>

#include "bot_fixture.hpp"
#include "child_process.hpp"
#include "tests/engine/polyglot_test_util.hpp"

namespace e2e {
namespace {

class E2eShutdown : public ::testing::Test {
  protected:
    // Writes the config for `outpost run` (concurrency 2, so that a challenge refused during
    // the shutdown was not refused for want of a free slot) and returns its path.
    std::string write_config(const emu::EmulatorFixture& fx, int grace_s) {
        BotSettings s = settings("{concurrency: 2}");
        s.shutdown_grace_s = grace_s;
        const std::string path = (dir_.path() / "config.yml").string();
        std::ofstream(path) << config_text(fx, s);
        return path;
    }
    std::string log_path() const { return (dir_.path() / "outpost.log").string(); }
    // The daemon logs to stderr; waits (bounded) until its log contains `text`.
    bool wait_log(const emu::EmulatorFixture& fx, const std::string& text,
                  std::chrono::milliseconds timeout = std::chrono::seconds(10)) const {
        return fx.wait_until([&] { return read_file(log_path()).find(text) != std::string::npos; },
                             timeout);
    }

    const ::testing::TestInfo* info_ = ::testing::UnitTest::GetInstance()->current_test_info();
    test_util::BookDir dir_{std::string("e2e-shutdown-") + info_->name()};
};

bool event_stream_closed(emu::EmulatorFixture& fx) {
    const auto streams = fx->streams();
    int events = 0;
    for (const auto& s : streams) {
        if (s.family != "event_stream") continue;
        ++events;
        if (s.closed_ms < 0) return false;
    }
    return events > 0;
}

TEST_F(E2eShutdown, SigtermFinishesTheRunningGameAndAcceptsNoNewChallenge) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx(R"(
name: graceful-shutdown
seed: 31
keepalive_ms: 500
challenges:
  - {id: grace001, at_ms: 0, challenger: {name: Steady, title: BOT, rating: 1500}, clock: {limit: 15, increment: 1},
     color: black, opponent: {kind: engine, depth: 1, think_ms: 30, resign_at_ply: 16}}
)");
    ChildProcess bot(OUTPOST_EXE, {"run", "--config", write_config(fx, 60)}, log_path(),
                     log_path());
    ASSERT_TRUE(bot.started()) << OUTPOST_EXE;
    ASSERT_TRUE(fx.wait_until([&] { return bot_moves(game(fx, "grace001")) >= 2; }, 60s))
        << describe(game(fx, "grace001")) << read_file(log_path());

    bot.signal(SIGTERM);
    const emu::Ms signalled_at = fx->world().now();
    // Once this line is logged the daemon is in its second phase: no longer reading events.
    ASSERT_TRUE(wait_log(fx, "shutting down: waiting up to 60 s for 1 game(s) to finish"))
        << read_file(log_path());
    ASSERT_FALSE(game(fx, "grace001").over) << "the game ended too soon for this test";
    EXPECT_TRUE(fx.wait_until([&] { return event_stream_closed(fx); }, 5s));

    // A challenge after the signal: nobody may accept it.
    send_challenges(fx, R"(
challenges:
  - {id: late0001, at_ms: 0, challenger: {name: Latecomer, title: BOT, rating: 1500}, clock: {limit: 30, increment: 1},
     color: white, opponent: {kind: random, think_ms: 30}}
)");

    // The running game goes on to its legal end (a mate, or the opponent resigns at ply 16) ...
    const auto g = fx.wait_game_over("grace001", 90s);
    ASSERT_TRUE(g.over) << describe(game(fx, "grace001")) << read_file(log_path());
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_FALSE(bot_forfeited_on_time(g)) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "grace001"), 0);
    int after_signal = 0;
    for (const auto& m : g.moves) after_signal += m.by_bot && m.at_ms > signalled_at ? 1 : 0;
    EXPECT_GE(after_signal, 1) << describe(g);

    // ... and then the process exits 0 without waiting out the rest of the 60 s grace.
    const auto status = bot.wait(20s);
    ASSERT_TRUE(status.has_value()) << "still running after the game ended\n"
                                    << read_file(log_path());
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << *status;
    const std::string log = read_file(log_path());
    EXPECT_NE(log.find("received SIGTERM: finishing running games"), std::string::npos) << log;
    EXPECT_NE(log.find("stopped"), std::string::npos) << log;

    // Still waiting for an answer: the emulator has it, the daemon never saw it.
    EXPECT_EQ(challenge(fx, "late0001").status, "created");
    EXPECT_EQ(requests_to(fx, "/api/challenge/late0001"), 0);
    EXPECT_TRUE(game(fx, "late0001").id.empty());
}

TEST_F(E2eShutdown, ASecondSignalStopsAtOnceAndLeavesTheGameAsItIs) {
    using namespace std::chrono_literals;
    // The game must still run when the signals come, after the bot's second move: the opponent
    // plays a quiet line, not random moves, which can walk into mate at ply 5 (1.e4 f6 2.d4 g5
    // 3.Qh5#), a mate the bot finds at once.
    emu::EmulatorFixture fx(R"(
name: second-signal
seed: 32
keepalive_ms: 500
challenges:
  - {id: again001, at_ms: 0, challenger: {name: Endless, title: BOT, rating: 1500}, clock: {limit: 60, increment: 1},
     color: black, opponent: {kind: line, moves: "e7e5 b8c6 g8f6 f8e7 e8g8 d7d6 h7h6 c8e6 d8d7 a7a6 f8e8 a8d8",
                              think_ms: 30}}
)");
    ChildProcess bot(OUTPOST_EXE, {"run", "--config", write_config(fx, 120)}, log_path(),
                     log_path());
    ASSERT_TRUE(bot.started()) << OUTPOST_EXE;
    ASSERT_TRUE(fx.wait_until([&] { return bot_moves(game(fx, "again001")) >= 2; }, 60s))
        << describe(game(fx, "again001")) << read_file(log_path());

    bot.signal(SIGTERM);
    ASSERT_TRUE(wait_log(fx, "shutting down: waiting up to 120 s for 1 game(s)"))
        << read_file(log_path());
    bot.signal(SIGINT);
    const auto second_at = std::chrono::steady_clock::now();
    const auto status = bot.wait(10s);
    const auto took = std::chrono::steady_clock::now() - second_at;
    RecordProperty("second_signal_to_exit_ms",
                   int(std::chrono::duration_cast<std::chrono::milliseconds>(took).count()));
    // Exited within 10 s of a 120 s grace: the second signal cut the wait short.
    ASSERT_TRUE(status.has_value()) << "the second signal did not stop it\n"
                                    << read_file(log_path());
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << *status;
    const std::string log = read_file(log_path());
    EXPECT_NE(log.find("received a second signal: stopping now"), std::string::npos) << log;

    // The game is neither resigned nor aborted: it stays open for the next start to resume.
    const auto g = game(fx, "again001");
    EXPECT_FALSE(g.over) << describe(g);
    EXPECT_EQ(requests_to(fx, "/api/bot/game/again001/resign"), 0);
    EXPECT_EQ(requests_to(fx, "/api/bot/game/again001/abort"), 0);
    // Its game stream went with the process.
    EXPECT_TRUE(fx.wait_until(
        [&] {
            for (const auto& s : fx->streams())
                if (s.family == "game_stream" && s.closed_ms < 0) return false;
            return true;
        },
        5s));
}

}  // namespace
}  // namespace e2e
