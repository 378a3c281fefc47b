// ShutdownSignals: sigwait on a thread of its own, so no work happens in a signal handler.
#include "service/ops/signals.hpp"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <ctime>
#include <optional>

#include "service/ops/logging.hpp"

namespace service {

namespace {

// Waits for one of `set` until `deadline` (none: for ever); the signal, or 0 at the deadline.
int wait_signal(const sigset_t& set,
                std::optional<std::chrono::steady_clock::time_point> deadline) {
    for (;;) {
        if (!deadline) {
            int sig = 0;
            if (sigwait(&set, &sig) == 0) return sig;
            continue;
        }
        const auto left = *deadline - std::chrono::steady_clock::now();
        if (left <= std::chrono::steady_clock::duration::zero()) return 0;
        const auto s = std::chrono::duration_cast<std::chrono::seconds>(left);
        const timespec wait{static_cast<time_t>(s.count()),
                            static_cast<long>(std::chrono::nanoseconds(left - s).count())};
        const int sig = sigtimedwait(&set, nullptr, &wait);
        if (sig > 0) return sig;
    }
}

const char* signal_name(int sig) {
    switch (sig) {
        case SIGINT:
            return "SIGINT";
        case SIGTERM:
            return "SIGTERM";
        case SIGUSR1:
            return "SIGUSR1";
        case SIGUSR2:
            return "SIGUSR2";
        default:
            return "a signal";
    }
}

}  // namespace

ShutdownSignals::ShutdownSignals(std::chrono::seconds exit_after) : exit_after_(exit_after) {
    // A write to a pipe whose reader is gone fails with EPIPE (spdlog drops the line) instead
    // of ending the process; systemd's Restart=on-failure would not even restart after it.
    std::signal(SIGPIPE, SIG_IGN);
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    sigaddset(&set_, SIGHUP);   // logrotate's "reopen your log file"; it used to kill the daemon
    sigaddset(&set_, SIGUSR1);  // ignored: its default action would end the daemon
    sigaddset(&set_, SIGUSR2);  // ignored; also how the destructor wakes the waiter
    pthread_sigmask(SIG_BLOCK, &set_, nullptr);
    waiter_ = std::jthread([this](std::stop_token stop) {
        std::optional<std::chrono::steady_clock::time_point> exit_at;
        while (!stop.stop_requested()) {
            const int sig = wait_signal(set_, exit_at);
            if (stop.stop_requested()) break;
            if (sig == 0) {
                spdlog::critical(
                    "still running {} s after the stop signal (a thread does not stop); "
                    "exiting now",
                    exit_after_.count());
                spdlog::default_logger()->flush();
                std::_Exit(1);
            }
            if (sig == SIGUSR1 || sig == SIGUSR2) {
                spdlog::info("received {}: ignored", signal_name(sig));
                continue;
            }
            if (sig == SIGHUP) {
                const ReopenResult r = reopen_log_file();
                if (r.ok)
                    spdlog::info("received SIGHUP: {}", r.text);
                else
                    spdlog::warn("received SIGHUP: {}", r.text);
                continue;
            }
            if (!graceful_.stop_requested()) {
                spdlog::info("received {}: finishing running games, accepting no new ones",
                             signal_name(sig));
                graceful_.request_stop();
                if (exit_after_.count() > 0)
                    exit_at = std::chrono::steady_clock::now() + exit_after_;
            } else {
                spdlog::warn("received a second signal: stopping now");
                immediate_.request_stop();
            }
        }
    });
}

ShutdownSignals::~ShutdownSignals() {
    waiter_.request_stop();
    pthread_kill(waiter_.native_handle(), SIGUSR2);
    waiter_.join();
    pthread_sigmask(SIG_UNBLOCK, &set_, nullptr);
}

}  // namespace service
