// ShutdownSignals: the daemon's signals, taken on a dedicated thread. SIGINT/SIGTERM: the first
// asks for a graceful stop, the second for an immediate one. SIGHUP reopens the log file and
// stops nothing. SIGPIPE, SIGUSR1 and SIGUSR2 are ignored: a log pipe that closes (a log shipper
// restarting) makes writes fail with EPIPE instead of killing the daemon mid-game, and a stray
// user signal changes nothing.
#pragma once

#include <chrono>
#include <csignal>
#include <stop_token>
#include <thread>

namespace service {

class ShutdownSignals {
  public:
    // Blocks SIGINT, SIGTERM, SIGHUP, SIGUSR1 and SIGUSR2 in the calling thread (and the
    // threads it starts afterwards), so only the waiting thread receives them, and ignores
    // SIGPIPE for the whole process. Construct before starting other threads.
    //
    // `exit_after`: once the first SIGINT/SIGTERM came, the process exits (code 1, with a
    // critical log line) if it is still running this long after it, whatever a thread is stuck
    // on: a stop is never ignored. Zero: no such deadline.
    explicit ShutdownSignals(std::chrono::seconds exit_after = std::chrono::seconds(0));
    ~ShutdownSignals();
    ShutdownSignals(const ShutdownSignals&) = delete;
    ShutdownSignals& operator=(const ShutdownSignals&) = delete;

    std::stop_token graceful() const { return graceful_.get_token(); }
    std::stop_token immediate() const { return immediate_.get_token(); }

  private:
    std::stop_source graceful_;
    std::stop_source immediate_;
    sigset_t set_{};
    std::chrono::seconds exit_after_;
    std::jthread waiter_;
};

}  // namespace service
