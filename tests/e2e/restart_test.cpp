// End-to-end restart: the real `outpost` binary, killed with SIGKILL in the middle of a game and
// started again with the same config, finds the game and plays it to its end.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "bot_fixture.hpp"

extern char** environ;

namespace e2e {
namespace {

// One `outpost run --config FILE` child; killed (SIGTERM, then SIGKILL) when destroyed.
class OutpostProcess {
  public:
    explicit OutpostProcess(const std::string& config_path) {
        // The same environment minus a token that would override the config's.
        std::vector<std::string> env;
        for (char** e = environ; *e; ++e)
            if (std::strncmp(*e, "LICHESS_BOT_TOKEN=", 18) != 0) env.emplace_back(*e);
        std::vector<char*> envp;
        for (auto& e : env) envp.push_back(e.data());
        envp.push_back(nullptr);
        std::string exe = OUTPOST_EXE, run = "run", flag = "--config", path = config_path;
        char* argv[] = {exe.data(), run.data(), flag.data(), path.data(), nullptr};
        if (posix_spawn(&pid_, exe.c_str(), nullptr, nullptr, argv, envp.data()) != 0) pid_ = -1;
    }
    ~OutpostProcess() {
        using namespace std::chrono_literals;
        if (pid_ <= 0) return;
        ::kill(pid_, SIGTERM);
        if (!wait_exit(10s)) {
            ::kill(pid_, SIGKILL);
            (void)wait_exit(10s);
        }
    }
    OutpostProcess(const OutpostProcess&) = delete;
    OutpostProcess& operator=(const OutpostProcess&) = delete;

    bool started() const { return pid_ > 0; }
    bool running() {
        if (pid_ <= 0) return false;
        int status = 0;
        if (::waitpid(pid_, &status, WNOHANG) == pid_) pid_ = -1;
        return pid_ > 0;
    }
    void kill_now() {
        using namespace std::chrono_literals;
        ::kill(pid_, SIGKILL);
        (void)wait_exit(10s);
    }

  private:
    bool wait_exit(std::chrono::milliseconds timeout) {
        using namespace std::chrono_literals;
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            if (::waitpid(pid_, &status, WNOHANG) == pid_) {
                pid_ = -1;
                return true;
            }
            std::this_thread::sleep_for(10ms);
        }
        return false;
    }
    pid_t pid_ = -1;
};

TEST(E2eRestart, KilledBotResumesAndFinishesTheGame) {
    using namespace std::chrono_literals;
    // The game must still run after the bot's fourth move, when it is killed: the opponent plays a
    // quiet line, not random moves, which can walk into mate before (1.e4 f6 2.d4 g5 3.Qh5#).
    emu::EmulatorFixture fx(R"(
name: restart
seed: 17
keepalive_ms: 500
challenges:
  - {id: kill0001, at_ms: 0, challenger: {name: Patient, title: BOT, rating: 1500}, clock: {limit: 60, increment: 2},
     color: black, opponent: {kind: line, moves: "e7e5 b8c6 g8f6 f8e7 e8g8 d7d6 h7h6 c8e6 d8d7 a7a6 f8e8 a8d8",
                              think_ms: 30, resign_at_ply: 30}}
)");
    const auto dir = std::filesystem::temp_directory_path() /
                     ("outpost-e2e-restart-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto config_path = (dir / "config.yml").string();
    {
        std::ofstream out(config_path);
        out << config_text(fx, settings("{concurrency: 1}"));
    }

    emu::Ms killed_at = 0;
    {
        OutpostProcess first(config_path);
        ASSERT_TRUE(first.started()) << OUTPOST_EXE;
        // Kill it in the middle of the game, after a few of its own moves.
        ASSERT_TRUE(fx.wait_until([&] { return bot_moves(game(fx, "kill0001")) >= 4; }, 60s))
            << describe(game(fx, "kill0001"));
        first.kill_now();
        ASSERT_FALSE(first.running());
        killed_at = fx->world().now();
    }
    const auto before = game(fx, "kill0001");
    ASSERT_FALSE(before.over) << describe(before);

    OutpostProcess second(config_path);
    ASSERT_TRUE(second.started());
    const auto g = fx.wait_game_over("kill0001", 150s);
    ASSERT_TRUE(g.over) << describe(game(fx, "kill0001"));
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_FALSE(bot_forfeited_on_time(g)) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "kill0001"), 0);
    int after_restart = 0;
    for (const auto& m : g.moves) after_restart += m.by_bot && m.at_ms > killed_at ? 1 : 0;
    EXPECT_GE(after_restart, 1) << describe(g);
    // Both runs asked for the ongoing games; the second one found this game.
    EXPECT_GE(requests_to(fx, "/api/account/playing"), 2);
    int game_streams = 0;
    for (const auto& s : fx->streams())
        game_streams += s.family == "game_stream" && s.game_id == "kill0001" ? 1 : 0;
    EXPECT_GE(game_streams, 2);
    EXPECT_TRUE(second.running());
    std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace e2e
