// Signals that used to end the daemon mid-game: its standard output and error on a pipe whose
// reader goes away (a log shipper restarting: SIGPIPE killed it with exit 141), SIGUSR1 and
// SIGUSR2. The real `outpost run` plays on, keeps its log file, and stops cleanly on SIGTERM.
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "bot_fixture.hpp"
#include "child_process.hpp"
#include "tests/engine/polyglot_test_util.hpp"

namespace e2e {
namespace {

// Reads what the child writes to `fd` until `text` has come (true) or `timeout` has passed.
bool read_until(int fd, const std::string& text, std::chrono::milliseconds timeout,
                std::string& seen) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    char buf[4096];
    while (seen.find(text) == std::string::npos) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0) return false;
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, int(left.count())) <= 0) continue;
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n <= 0) return false;
        seen.append(buf, std::size_t(n));
    }
    return true;
}

TEST(E2eOutputPipe, AClosedLogPipeAndUserSignalsChangeNothing) {
    using namespace std::chrono_literals;
    test_util::BookDir dir("e2e-output-pipe");
    emu::EmulatorFixture fx(R"(
name: output-pipe
seed: 71
keepalive_ms: 500
challenges:
  - {id: piped001, at_ms: 0, challenger: {name: Shipper, title: BOT, rating: 1500}, clock: {limit: 60, increment: 0},
     color: black, opponent: {kind: engine, depth: 1, think_ms: 30, resign_at_ply: 30}}
)");
    const std::string log = (dir.path() / "outpost.log").string();
    const std::string config_path = (dir.path() / "config.yml").string();
    std::ofstream(config_path) << config_text(
        fx, settings("{concurrency: 1}", "log: {level: info, file: \"" + log + "\"}\n"));
    ::chmod(config_path.c_str(), 0600);
    int fds[2];
    ASSERT_EQ(::pipe(fds), 0);
    ChildProcess bot(OUTPOST_EXE, {"run", "--config", config_path},
                     ChildOptions{.output_fd = fds[1]});
    ::close(fds[1]);
    ASSERT_TRUE(bot.started());

    // The game is on and the daemon writes to the pipe; then its reader goes away.
    std::string seen;
    ASSERT_TRUE(read_until(fds[0], " ply 3 move ", 90s, seen)) << seen;
    ::close(fds[0]);
    bot.signal(SIGUSR1);
    bot.signal(SIGUSR2);

    const auto g = fx.wait_game_over("piped001", 150s);
    ASSERT_TRUE(g.over) << describe(game(fx, "piped001")) << read_file(log);
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_FALSE(bot_forfeited_on_time(g)) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "piped001"), 0);
    ASSERT_TRUE(bot.running()) << "the daemon died:\n" << read_file(log);

    // The log file has the game to its end, and the signals as ignored.
    ASSERT_TRUE(wait_for(
        [&] { return read_file(log).find("game piped001: over") != std::string::npos; }, 10s))
        << read_file(log);
    const std::string text = read_file(log);
    EXPECT_NE(text.find("received SIGUSR1: ignored"), std::string::npos) << text;
    EXPECT_NE(text.find("received SIGUSR2: ignored"), std::string::npos) << text;

    bot.signal(SIGTERM);
    const auto status = bot.wait(20s);
    ASSERT_TRUE(status.has_value());
    ASSERT_TRUE(WIFEXITED(*status)) << "killed by signal " << WTERMSIG(*status);
    EXPECT_EQ(WEXITSTATUS(*status), 0);
}

}  // namespace
}  // namespace e2e
