// Start-up without Lichess: the real `outpost run` started while nothing listens on
// its url keeps retrying (logging what fails), logs in once the emulator comes up 30 s later,
// through a burst of 503s, and plays its game; a refused token still ends it at once with the
// token message.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>

#include "bot_fixture.hpp"
#include "child_process.hpp"
#include "tests/engine/polyglot_test_util.hpp"

namespace e2e {
namespace {

// A loopback port that was free a moment ago (bound to port 0, then released).
int free_port() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
        ::close(fd);
        return -1;
    }
    socklen_t len = sizeof addr;
    ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
    ::close(fd);
    return ntohs(addr.sin_port);
}

std::string config_for(const std::string& url, const std::string& token) {
    return "url: \"" + url + "\"\n" + "token: \"" + token +
           "\"\n"
           "engine: {hash_mb: 8, threads: 1}\n"
           "health: {listen: \"\"}\n"
           "shutdown_grace_s: 0\n"
           "challenge: {concurrency: 1}\n";
}

int count(const std::string& text, const std::string& part) {
    int n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

class E2eStartupOutage : public ::testing::Test {
  protected:
    std::string write_config(const std::string& text) {
        const std::string path = (dir_.path() / "config.yml").string();
        std::ofstream(path) << text;
        return path;
    }
    std::string log_path() const { return (dir_.path() / "outpost.log").string(); }

    const ::testing::TestInfo* info_ = ::testing::UnitTest::GetInstance()->current_test_info();
    test_util::BookDir dir_{std::string("e2e-startup-") + info_->name()};
};

TEST_F(E2eStartupOutage, LichessUpThirtySecondsAfterTheBotThenItPlaysItsGame) {
    using namespace std::chrono_literals;
    auto parsed = emu::parse_scenario(R"(
name: startup-outage
seed: 17
keepalive_ms: 500
faults:
  - {kind: http_5xx, target: account, count: 2, status: 503}
)");
    ASSERT_TRUE(parsed.scenario) << parsed.error;
    emu::Emulator emulator(std::move(*parsed.scenario));
    const int port = free_port();
    ASSERT_GT(port, 0);
    const std::string url = "http://127.0.0.1:" + std::to_string(port);

    ChildProcess bot(OUTPOST_EXE,
                     {"run", "--config", write_config(config_for(url, emulator.token()))},
                     log_path(), log_path());
    ASSERT_TRUE(bot.started()) << OUTPOST_EXE;

    // 30 s with nothing listening: the daemon stays up, saying what fails.
    std::this_thread::sleep_for(30s);
    ASSERT_TRUE(bot.running()) << read_file(log_path());
    const std::string before = read_file(log_path());
    EXPECT_GE(count(before, "start-up: cannot reach " + url), 3) << before;
    EXPECT_EQ(before.find("token was refused"), std::string::npos) << before;

    ASSERT_EQ(emulator.start(port), port);
    // It logs in through two 503s and opens its event stream.
    ASSERT_TRUE(wait_for(
        [&] {
            for (const auto& s : emulator.streams())
                if (s.family == "event_stream") return true;
            return false;
        },
        90s))
        << read_file(log_path());
    const std::string login = read_file(log_path());
    EXPECT_GE(count(login, "has a server error (http 503"), 1) << login;
    EXPECT_NE(login.find("logged in as"), std::string::npos) << login;

    auto challenge = emu::parse_scenario(R"(
name: the-game
challenges:
  - {id: after001, at_ms: 0, challenger: {name: Patient, title: BOT, rating: 1500}, clock: {limit: 60, increment: 1},
     color: white, opponent: {kind: engine, depth: 1, think_ms: 20, resign_at_ply: 20}}
)");
    ASSERT_TRUE(challenge.scenario) << challenge.error;
    for (auto c : challenge.scenario->challenges) {
        c.at_ms += emulator.world().now();
        emulator.world().add_challenge(std::move(c));
    }
    emu::GameView g;
    ASSERT_TRUE(wait_for(
        [&] {
            for (const auto& game : emulator.games())
                if (game.id == "after001") g = game;
            return g.over;
        },
        120s))
        << describe(g) << read_file(log_path());
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_GE(bot_moves(g), 5) << describe(g);

    bot.signal(SIGTERM);
    const auto status = bot.wait(20s);
    ASSERT_TRUE(status.has_value());
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << read_file(log_path());
    emulator.stop();
}

TEST_F(E2eStartupOutage, ARefusedTokenStillEndsTheProcessWithTheTokenMessage) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: refused\nseed: 3\nkeepalive_ms: 500\n");
    const std::string config = write_config(config_for(fx.base_url(), "lip_not_the_right_one"));
    const RunResult run =
        run_to_end(OUTPOST_EXE, {"run", "--config", config}, dir_.path().string(), 60s);
    EXPECT_EQ(run.rc, 1) << run.output;
    EXPECT_NE(run.output.find("the token was refused by " + fx.base_url()), std::string::npos)
        << run.output;
    EXPECT_EQ(run.output.find("trying again"), std::string::npos) << run.output;
}

TEST_F(E2eStartupOutage, SigtermWhileWaitingForLichessStopsAtOnce) {
    using namespace std::chrono_literals;
    const int port = free_port();
    ASSERT_GT(port, 0);
    const std::string url = "http://127.0.0.1:" + std::to_string(port);
    ChildProcess bot(OUTPOST_EXE,
                     {"run", "--config", write_config(config_for(url, "lip_whatever"))}, log_path(),
                     log_path());
    ASSERT_TRUE(bot.started());
    ASSERT_TRUE(
        wait_for([&] { return count(read_file(log_path()), "start-up: cannot reach") >= 2; }, 30s))
        << read_file(log_path());
    bot.signal(SIGTERM);
    const auto status = bot.wait(10s);
    ASSERT_TRUE(status.has_value()) << read_file(log_path());
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << read_file(log_path());
    EXPECT_NE(read_file(log_path()).find("stopped before logging in"), std::string::npos);
}

}  // namespace
}  // namespace e2e
