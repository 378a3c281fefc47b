// ShutdownSignals: sigwait on a thread of its own, so no work happens in a signal handler.
#include "service/ops/signals.hpp"

#include <pthread.h>
#include <spdlog/spdlog.h>

#include "service/ops/logging.hpp"

namespace service {

ShutdownSignals::ShutdownSignals() {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    sigaddset(&set_, SIGHUP);   // logrotate's "reopen your log file"; it used to kill the daemon
    sigaddset(&set_, SIGUSR2);  // used only to wake the waiter at destruction
    pthread_sigmask(SIG_BLOCK, &set_, nullptr);
    waiter_ = std::jthread([this](std::stop_token stop) {
        while (!stop.stop_requested()) {
            int sig = 0;
            if (sigwait(&set_, &sig) != 0) continue;
            if (stop.stop_requested() || sig == SIGUSR2) break;
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
                             sig == SIGINT ? "SIGINT" : "SIGTERM");
                graceful_.request_stop();
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
