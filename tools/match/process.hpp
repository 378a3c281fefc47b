// A child process with its standard input and output on pipes: the engines a match plays.
// RAII: the destructor closes the pipes and reaps the child (killing it if it will not quit).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace match {

class Process {
  public:
    using Clock = std::chrono::steady_clock;

    // Starts `program args...` (found on PATH when it has no '/'); its stderr is inherited.
    // started() tells whether it ran.
    Process(const std::string& program, const std::vector<std::string>& args);
    ~Process();
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    [[nodiscard]] bool started() const { return pid_ > 0; }
    // Writes one line (a newline is added); false when the child's input is closed.
    bool write_line(const std::string& line);
    // The next line of the child's output without its line end; nothing when the deadline
    // passes first or the child closed its output (eof() then tells which).
    std::optional<std::string> read_line(Clock::time_point deadline);
    [[nodiscard]] bool eof() const { return eof_; }

  private:
    void reap(std::chrono::milliseconds grace);

    pid_t pid_ = -1;
    int to_child_ = -1;
    int from_child_ = -1;
    std::string buffer_;
    bool eof_ = false;
};

}  // namespace match
