// Token hygiene: after games with faults, in-process and with the real binary (trace
// logging to a file, a crash, a restart, PGN files), and `outpost check-config`, the token
// appears in no log line, metric, PGN file, crash output or check-config output.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "bot_fixture.hpp"
#include "child_process.hpp"
#include "tests/support/log_capture.hpp"

namespace e2e {
namespace {

constexpr const char* kToken = "lip_SECRETtoken123456";
// Any part of it that would still give it away (a truncated or split print).
constexpr const char* kTokenCore = "SECRETtoken";

// The challenger plays a quiet line, not random moves: a random mover can walk into mate at ply 4
// (1.f3 e5 2.g4 Qh4#), before the bot's third move, when the first run is to be killed.
std::string snoop_challenge(const std::string& id) {
    return "challenges:\n  - {id: " + id +
           ", at_ms: 0, challenger: {name: Snoop, title: BOT, rating: 1600}, clock: {limit: 60, "
           "increment: 1}, color: random, opponent: {kind: line, moves: \"" +
           std::string(kQuietLineEitherColour) + "\", think_ms: 20, resign_at_ply: 18}}\n";
}

// The PGN files under `folder` (none when it does not exist yet).
int pgn_files_in(const std::filesystem::path& folder) {
    std::error_code ec;
    int n = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(folder, ec))
        n += e.path().extension() == ".pgn" ? 1 : 0;
    return n;
}

TEST(E2eTokenHygiene, TokenAppearsInNoLogMetricPgnCrashOrCheckConfigOutput) {
    using namespace std::chrono_literals;
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("outpost-e2e-token-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    std::map<std::string, std::string> outputs;  // what was captured, by where it came from

    {
        test_support::LogCapture log;  // outlives the daemon
        emu::EmulatorFixture fx(std::string(R"(
name: token-hygiene
seed: 5
keepalive_ms: 400
account: {token: )") + kToken + R"(}
faults:
  - {kind: split, target: event_stream, count: 1}
  - {kind: drop, target: game_stream, after_lines: 3, count: 1}
  - {kind: drop, target: game_stream, after_lines: 2, mid_line: true, skip: 1, count: 1}
  - {kind: http_429, target: move, skip: 2, count: 1, ratelimit_seconds: 1}
  - {kind: http_5xx, target: move, skip: 5, count: 2, status: 502}
  - {kind: http_5xx, target: game_action, count: 1, status: 503, body: json}
  - {kind: delay, target: move, skip: 7, count: 2, delay_ms: 60}
)");
        ASSERT_EQ(fx.token(), kToken);

        // ---- in-process daemon: every log level captured, PGN files written
        {
            const std::string pgn_dir = (dir / "pgn-in-process").string();
            BotRunner bot(fx, settings("{concurrency: 1}", "pgn_directory: \"" + pgn_dir +
                                                               "\"\nlog: {level: trace}\n"));
            ASSERT_TRUE(wait_event_stream(fx));
            send_challenges(fx, snoop_challenge("token001"));
            const auto g = fx.wait_game_over("token001", 120s);
            ASSERT_TRUE(g.over) << describe(game(fx, "token001"));
            EXPECT_TRUE(legal_end(g)) << describe(g);
            ASSERT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }, 10s));
            // The game's record is written after the game leaves the active ones.
            EXPECT_TRUE(fx.wait_until([&] { return pgn_files_in(pgn_dir) >= 1; }, 30s));
            outputs["metrics (render_prometheus)"] = service::render_prometheus(bot.metrics());
            EXPECT_EQ(bot.stop(), 0);
        }
        outputs["in-process log (trace)"] = log.text();
        EXPECT_NE(outputs["in-process log (trace)"].find("game token001"), std::string::npos);
        EXPECT_NE(outputs["metrics (render_prometheus)"].find("outpost_"), std::string::npos);

        // ---- the real binary: trace log to a file; killed with SIGABRT mid-game, restarted
        const std::string config_path = (dir / "config.yml").string();
        {
            std::ofstream out(config_path);
            out << config_text(
                fx, settings("{concurrency: 1}", "pgn_directory: \"" + (dir / "pgn").string() +
                                                     "\"\nlog: {level: trace, file: \"" +
                                                     (dir / "outpost.log").string() + "\"}\n"));
        }
        ::chmod(config_path.c_str(), 0644);  // readable by others: check-config must warn
        // A crash must not leave a core file with the token in it behind.
        const rlimit no_core{0, 0};
        ::setrlimit(RLIMIT_CORE, &no_core);
        {
            ChildProcess first(OUTPOST_EXE, {"run", "--config", config_path},
                               (dir / "run1.stdout").string(), (dir / "run1.stderr").string());
            ASSERT_TRUE(first.started());
            ASSERT_TRUE(fx.wait_until(
                [&] {
                    for (const auto& s : fx->streams())
                        if (s.family == "event_stream" && s.closed_ms < 0) return true;
                    return false;
                },
                20s));
            send_challenges(fx, snoop_challenge("token002"));
            ASSERT_TRUE(fx.wait_until([&] { return bot_moves(game(fx, "token002")) >= 3; }, 60s))
                << describe(game(fx, "token002"));
            first.signal(SIGABRT);  // a crash in the middle of a game
            const auto status = first.wait(20s);
            ASSERT_TRUE(status.has_value());
            EXPECT_TRUE(WIFSIGNALED(*status));
        }
        {
            ChildProcess second(OUTPOST_EXE, {"run", "--config", config_path},
                                (dir / "run2.stdout").string(), (dir / "run2.stderr").string());
            ASSERT_TRUE(second.started());
            const auto g = fx.wait_game_over("token002", 120s);
            ASSERT_TRUE(g.over) << describe(game(fx, "token002"));
            EXPECT_TRUE(legal_end(g)) << describe(g);
            // The server shows the game over before the bot has heard it and written its PGN
            // (seconds on a loaded machine): stop it once the record is there.
            EXPECT_TRUE(fx.wait_until([&] { return pgn_files_in(dir / "pgn") >= 1; }, 30s));
            second.signal(SIGTERM);
            const auto status = second.wait(30s);
            ASSERT_TRUE(status.has_value());
            EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0);
        }

        // ---- check-config on the same file
        const auto check = run_to_end(OUTPOST_EXE, {"check-config", config_path}, dir.string());
        EXPECT_EQ(check.rc, 0) << check.output;
        EXPECT_NE(check.output.find("chmod 600"), std::string::npos) << check.output;
        outputs["check-config output"] = check.output;
    }

    // Every file the runs left: log file, stdout/stderr (crash output), PGN files.
    int pgn_files = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
        if (!e.is_regular_file() || e.path().filename() == "config.yml") continue;
        pgn_files += e.path().extension() == ".pgn" ? 1 : 0;
        outputs["file " + e.path().string()] = read_file(e.path().string());
    }
    EXPECT_GE(pgn_files, 2);
    const std::string trace_log = outputs["file " + (dir / "outpost.log").string()];
    EXPECT_NE(trace_log.find("trace"), std::string::npos) << "the log file has no trace lines";
    EXPECT_NE(trace_log.find("game token002"), std::string::npos);

    for (const auto& [where, text] : outputs) {
        EXPECT_EQ(occurrences(text, kTokenCore), 0) << "the token appears in " << where;
    }
    if (!::testing::Test::HasFailure()) std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace e2e
