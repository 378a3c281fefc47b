// ShutdownSignals: SIGINT/SIGTERM handled on a dedicated thread; the first asks for a graceful
// stop, the second for an immediate one. SIGHUP reopens the log file and stops nothing.
#pragma once

#include <csignal>
#include <stop_token>
#include <thread>

namespace service {

class ShutdownSignals {
  public:
    // Blocks SIGINT, SIGTERM and SIGHUP in the calling thread (and the threads it starts
    // afterwards), so only the waiting thread receives them. Construct before starting other
    // threads.
    ShutdownSignals();
    ~ShutdownSignals();
    ShutdownSignals(const ShutdownSignals&) = delete;
    ShutdownSignals& operator=(const ShutdownSignals&) = delete;

    std::stop_token graceful() const { return graceful_.get_token(); }
    std::stop_token immediate() const { return immediate_.get_token(); }

  private:
    std::stop_source graceful_;
    std::stop_source immediate_;
    sigset_t set_{};
    std::jthread waiter_;
};

}  // namespace service
