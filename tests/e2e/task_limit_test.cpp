// No zombie under a task limit: `outpost run` under a limit of 10 tasks (threads count), with
// games that lila will not let it abort arriving beyond challenge.concurrency. A game's session
// cannot start its threads: the daemon logs a critical line naming the game and the task
// limit, /healthz answers 503 at once, and the process ends by itself with exit code 1 within
// shutdown_grace_s (+ a few seconds), where it used to stop handling events, stay healthy and
// ignore SIGTERM. Root is not held to RLIMIT_NPROC, so as root the daemon runs as nobody.
// Without a limit, such games are capped: kMaxGamesBeyondConcurrency are played, more resigned.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "bot_fixture.hpp"
#include "child_process.hpp"
#include "lichess_client/http_client.hpp"
#include "tests/engine/polyglot_test_util.hpp"
#include "tests/support/log_capture.hpp"
#include "tests/support/time_scale.hpp"

namespace e2e {
namespace {

// The daemon idles with 5 threads (main, signals, chat, event stream, health); each real-time
// session adds 2 (its stream and its worker). With 10 tasks the third session cannot start.
constexpr unsigned long kTasks = 10;

// Games already two plies in (lila refuses to abort them), a few hundred ms apart.
std::string task_limit_scenario() {
    std::ostringstream s;
    s << "name: task-limit\nseed: 61\nkeepalive_ms: 500\nfirst_move_timeout_ms: 0\ngames:\n";
    for (int i = 1; i <= 8; ++i)
        s << "  - {id: tasks00" << i << ", at_ms: " << 300 * i
          << ", bot_color: white, clock: {limit: 180, increment: 0}, moves: \"e2e4 e7e5\", "
             "opponent: {kind: random, think_ms: 200}}\n";
    return s.str();
}

TEST(E2eTaskLimit, ASessionThatCannotStartItsThreadsStopsTheDaemonWithA503) {
    using namespace std::chrono_literals;
    test_util::BookDir dir("e2e-task-limit");
    emu::EmulatorFixture fx(task_limit_scenario());
    BotSettings s = settings("{concurrency: 1}", "log: {level: info}\n");
    s.shutdown_grace_s = 3;
    std::string config = config_text(fx, s);
    config.replace(config.find("health: {listen: \"\"}"), 20, "health: {listen: \"127.0.0.1:0\"}");
    const std::string config_path = (dir.path() / "config.yml").string();
    std::ofstream(config_path) << config;
    if (::geteuid() == 0) {
        // The daemon runs as nobody: its config (with the token) is nobody's alone.
        ASSERT_EQ(::chown(dir.path().c_str(), 65534, 65534), 0);
        ASSERT_EQ(::chown(config_path.c_str(), 65534, 65534), 0);
        ::chmod(config_path.c_str(), 0600);
    }
    const std::string log = (dir.path() / "outpost.log").string();
    ChildProcess bot(OUTPOST_EXE, {"run", "--config", config_path},
                     ChildOptions{.stdout_path = log, .max_tasks = kTasks});
    ASSERT_TRUE(bot.started());

    std::string health_port;
    ASSERT_TRUE(fx.wait_until(
        [&] { return !(health_port = logged_health_port(read_file(log))).empty(); }, 30s))
        << read_file(log);
    lichess::HttpConfig hc;
    hc.base_url = "http://127.0.0.1:" + health_port;
    hc.request_timeout = 2s;
    lichess::HttpClient http(hc);

    // The critical line, then 503 at once (the daemon lets its games finish for 3 s meanwhile).
    ASSERT_TRUE(fx.wait_until(
        [&] { return read_file(log).find("the event loop stopped") != std::string::npos; }, 60s))
        << read_file(log);
    const auto failed_at = std::chrono::steady_clock::now();
    const auto health =
        http.perform({lichess::Method::Get, "/healthz", {}, {}, false, "text/plain"});
    ASSERT_TRUE(health) << health.error().describe();
    EXPECT_EQ(health->status, 503) << health->body;
    EXPECT_NE(health->body.find("the event loop stopped"), std::string::npos) << health->body;

    // It ends by itself, cleanly, within the grace period and a few seconds.
    const auto status = bot.wait(3s + test_time::scaled(15s));
    ASSERT_TRUE(status.has_value()) << "still running long after the failure\n" << read_file(log);
    EXPECT_LT(std::chrono::steady_clock::now() - failed_at, 3s + test_time::scaled(15s));
    ASSERT_TRUE(WIFEXITED(*status)) << "killed by signal " << WTERMSIG(*status);
    EXPECT_EQ(WEXITSTATUS(*status), 1);

    const std::string text = read_file(log);
    EXPECT_NE(text.find("critical the event loop stopped: game tasks00"), std::string::npos)
        << text;
    // Said once: the critical line is not repeated.
    std::size_t criticals = 0;
    for (auto at = text.find("critical "); at != std::string::npos;
         at = text.find("critical ", at + 1))
        ++criticals;
    EXPECT_EQ(criticals, 1u) << text;
    EXPECT_NE(text.find("its session's threads could not be started"), std::string::npos) << text;
    EXPECT_NE(text.find("task limit"), std::string::npos) << text;
    EXPECT_NE(text.find("stopped"), std::string::npos) << text;
}

// Without a limit, games lila will not let us abort still cost a bounded amount: of 11 such
// games beyond concurrency 1, 4 are played (a session of 2 threads each), the other 7 resigned
// at once, each logged; the sessions never number more than 1 + 4.
TEST(E2eTaskLimit, GamesBeyondTheConcurrencyThatCannotBeAbortedAreCapped) {
    using namespace std::chrono_literals;
    std::ostringstream s;
    s << "name: beyond-cap\nseed: 62\nkeepalive_ms: 500\nfirst_move_timeout_ms: 0\ngames:\n";
    for (int i = 0; i < 12; ++i)
        s << "  - {id: capped" << (i < 10 ? "0" : "") << i << ", at_ms: " << 100 * i
          << ", bot_color: white, clock: {limit: 300, increment: 0}, moves: \"e2e4 e7e5\", "
             "opponent: {kind: random, think_ms: 100, resign_at_ply: 10}}\n";
    test_support::LogCapture logs;
    emu::EmulatorFixture fx(s.str());
    BotRunner bot(fx, settings("{concurrency: 1}"));
    int most_sessions = 0;
    ASSERT_TRUE(fx.wait_until(
        [&] {
            most_sessions = std::max(most_sessions, bot.bot().active_games());
            int over = 0;
            for (const auto& g : fx->games()) over += g.over ? 1 : 0;
            return over == 12;
        },
        180s));
    int played = 0, resigned_at_once = 0;
    for (const auto& g : fx->games()) {
        // Resigned where it started, after the two plies the scenario played.
        if (g.moves.size() == 2 && g.status == "resign" && g.winner && *g.winner != g.bot_color)
            ++resigned_at_once;
        else if (legal_end(g))
            ++played;
        else
            ADD_FAILURE() << describe(g);
    }
    EXPECT_EQ(played, 5);
    EXPECT_EQ(resigned_at_once, 7);
    EXPECT_LE(most_sessions, 1 + 4);
    EXPECT_EQ(logs.count("such games are played already (the most), so it is resigned"), 7u)
        << logs.text();
    EXPECT_EQ(bot.stop(), 0);
}

// Arena games (lila lets nobody abort them) are capped too: of 8 that start at once beyond
// concurrency 1 (an arena joined elsewhere, a replay after a restart), 1 + 4 are played and 3
// resigned at once, each logged in one line.
TEST(E2eTaskLimit, ArenaGamesBeyondTheConcurrencyAreCappedToo) {
    using namespace std::chrono_literals;
    std::ostringstream s;
    s << "name: arena-cap\nseed: 63\nkeepalive_ms: 500\nfirst_move_timeout_ms: 0\ngames:\n";
    for (int i = 0; i < 8; ++i)
        s << "  - {id: arenacp" << i << ", at_ms: " << 50 * i
          << ", bot_color: white, source: arena, tournament: othr0001, clock: {limit: 60, "
             "increment: 0}, opponent: {kind: random, think_ms: 100, resign_at_ply: 4}}\n";
    test_support::LogCapture logs;
    emu::EmulatorFixture fx(s.str());
    BotRunner bot(fx, settings("{concurrency: 1}"));
    int most_sessions = 0;
    ASSERT_TRUE(fx.wait_until(
        [&] {
            most_sessions = std::max(most_sessions, bot.bot().active_games());
            int over = 0;
            for (const auto& g : fx->games()) over += g.over ? 1 : 0;
            return over == 8;
        },
        180s));
    int played = 0, resigned_at_once = 0;
    for (const auto& g : fx->games()) {
        if (g.moves.empty() && g.status == "resign" && g.winner && *g.winner != g.bot_color)
            ++resigned_at_once;
        else if (legal_end(g))
            ++played;
        else
            ADD_FAILURE() << describe(g);
    }
    EXPECT_EQ(played, 5);
    EXPECT_EQ(resigned_at_once, 3);
    EXPECT_LE(most_sessions, 1 + 4);
    EXPECT_EQ(requests_to(fx, "/abort"), 0);
    EXPECT_EQ(logs.count("such games are played already (the most), so it is resigned"), 3u)
        << logs.text();
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
