// ShutdownSignals: SIGHUP reopens the log file (after logrotate moved it) and stops nothing;
// SIGTERM still asks for a graceful stop and a second signal for an immediate one; SIGPIPE,
// SIGUSR1 and SIGUSR2 change nothing; a stop that hangs ends the process at its deadline.
#include "service/ops/signals.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "service/ops/logging.hpp"

namespace {

std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// Polls until `done` holds or 10 s pass (the signal thread acts asynchronously).
template <typename Pred>
bool eventually(Pred done) {
    for (int i = 0; i < 1000; ++i) {
        if (done()) return true;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return done();
}

class SignalsTest : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("outpost-signals-" + std::to_string(getpid()));
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override {
        spdlog::set_default_logger(std::make_shared<spdlog::logger>(
            "signals-test", std::make_shared<spdlog::sinks::stderr_color_sink_mt>()));
        std::filesystem::remove_all(dir_);
    }
    std::filesystem::path dir_;
};

TEST_F(SignalsTest, HangupReopensTheLogFileAndStopsNothing) {
    const std::filesystem::path log = dir_ / "outpost.log";
    ASSERT_EQ(service::setup_logging({.level = "info", .file = log.string()}), std::nullopt);
    service::ShutdownSignals signals;
    spdlog::info("written before the rotation");
    const std::filesystem::path moved = dir_ / "outpost.log.1";
    std::filesystem::rename(log, moved);  // what logrotate does before it sends SIGHUP

    ASSERT_EQ(kill(getpid(), SIGHUP), 0);
    ASSERT_TRUE(eventually([&] {
        return read_text(log).find("received SIGHUP: reopened the log file") != std::string::npos;
    })) << "no new log file with the reopen line";
    spdlog::info("written after the rotation");
    spdlog::default_logger()->flush();

    EXPECT_NE(read_text(log).find("written after the rotation"), std::string::npos);
    EXPECT_EQ(read_text(moved).find("written after the rotation"), std::string::npos);
    EXPECT_NE(read_text(moved).find("written before the rotation"), std::string::npos);
    EXPECT_FALSE(signals.graceful().stop_requested());
    EXPECT_FALSE(signals.immediate().stop_requested());

    // A second SIGHUP is no "second signal": still no stop of either kind.
    ASSERT_EQ(kill(getpid(), SIGHUP), 0);
    ASSERT_TRUE(eventually([&] {
        const std::string text = read_text(log);
        const auto first = text.find("received SIGHUP");
        return first != std::string::npos &&
               text.find("received SIGHUP", first + 1) != std::string::npos;
    }));
    EXPECT_FALSE(signals.graceful().stop_requested());
    EXPECT_FALSE(signals.immediate().stop_requested());
}

TEST_F(SignalsTest, HangupWithoutALogFileSaysSo) {
    ASSERT_EQ(service::setup_logging({.level = "info", .file = ""}), std::nullopt);
    const service::ReopenResult r = service::reopen_log_file();
    EXPECT_TRUE(r.ok);
    EXPECT_NE(r.text.find("no log file"), std::string::npos) << r.text;
}

TEST_F(SignalsTest, ReopenFailureKeepsLoggingToTheOldFile) {
    const std::filesystem::path sub = dir_ / "logs";
    std::filesystem::create_directories(sub);
    const std::filesystem::path log = sub / "outpost.log";
    ASSERT_EQ(service::setup_logging({.level = "info", .file = log.string()}), std::nullopt);
    std::filesystem::rename(sub, dir_ / "gone");
    std::ofstream(sub) << "a file where the log folder was\n";  // the path cannot be opened again
    const service::ReopenResult r = service::reopen_log_file();
    EXPECT_FALSE(r.ok);
    EXPECT_NE(r.text.find(log.string()), std::string::npos) << r.text;
    spdlog::info("still logged");
    spdlog::default_logger()->flush();
    EXPECT_NE(read_text(dir_ / "gone" / "outpost.log").find("still logged"), std::string::npos);
}

TEST_F(SignalsTest, TermIsGracefulAndASecondSignalImmediate) {
    ASSERT_EQ(service::setup_logging({.level = "info", .file = ""}), std::nullopt);
    service::ShutdownSignals signals;
    ASSERT_EQ(kill(getpid(), SIGTERM), 0);
    ASSERT_TRUE(eventually([&] { return signals.graceful().stop_requested(); }));
    EXPECT_FALSE(signals.immediate().stop_requested());
    ASSERT_EQ(kill(getpid(), SIGINT), 0);
    ASSERT_TRUE(eventually([&] { return signals.immediate().stop_requested(); }));
}

TEST_F(SignalsTest, PipeAndUserSignalsAreIgnored) {
    const std::filesystem::path log = dir_ / "outpost.log";
    ASSERT_EQ(service::setup_logging({.level = "info", .file = log.string()}), std::nullopt);
    service::ShutdownSignals signals;
    // Each would end the process with its default action; SIGUSR2 used to end the signal
    // thread too, after which SIGTERM was blocked for good.
    ASSERT_EQ(kill(getpid(), SIGPIPE), 0);
    ASSERT_EQ(kill(getpid(), SIGUSR1), 0);
    ASSERT_EQ(kill(getpid(), SIGUSR2), 0);
    ASSERT_TRUE(eventually([&] {
        const std::string text = read_text(log);
        return text.find("received SIGUSR1: ignored") != std::string::npos &&
               text.find("received SIGUSR2: ignored") != std::string::npos;
    })) << read_text(log);
    EXPECT_FALSE(signals.graceful().stop_requested());
    EXPECT_FALSE(signals.immediate().stop_requested());

    // A write to a pipe nobody reads fails with EPIPE instead of a SIGPIPE.
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    close(fds[0]);
    errno = 0;
    EXPECT_EQ(write(fds[1], "x", 1), -1);
    EXPECT_EQ(errno, EPIPE);
    close(fds[1]);

    ASSERT_EQ(kill(getpid(), SIGTERM), 0);
    EXPECT_TRUE(eventually([&] { return signals.graceful().stop_requested(); }));
}

// A stop signal is never ignored: when the process is still there `exit_after` after it (a
// thread that does not stop), it exits with code 1 and says so.
TEST_F(SignalsTest, AStopThatHangsEndsTheProcessAtItsDeadline) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            (void)service::setup_logging({.level = "info", .file = ""});
            service::ShutdownSignals signals(std::chrono::seconds(1));
            kill(getpid(), SIGTERM);
            std::this_thread::sleep_for(std::chrono::seconds(30));  // a shutdown that hangs
            std::_Exit(0);
        },
        ::testing::ExitedWithCode(1), "still running 1 s after the stop signal");
}

}  // namespace
