// Test helper: the real `outpost` binary as a child process, its stdout and stderr in files.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace e2e {

// Where a child's output goes, and the limits it runs under.
struct ChildOptions {
    std::string stdout_path{};  // a file (appended to); empty: inherited
    std::string stderr_path{};
    int output_fd = -1;  // >= 0: stdout and stderr both go to this descriptor (a pipe's end)
    // The child's task limit (RLIMIT_NPROC: its processes and threads count against it). Root
    // is not held to that limit, so a child of root also runs as `run_as_uid` (nobody) then.
    std::optional<unsigned long> max_tasks{};
    unsigned run_as_uid = 65534;
};

// One child (environment without LICHESS_BOT_TOKEN, so the config's token counts); SIGTERM,
// then SIGKILL, when destroyed while still running.
class ChildProcess {
  public:
    // `args` excludes the program; stdout/stderr go to these files (empty: inherited).
    ChildProcess(const std::string& exe, const std::vector<std::string>& args,
                 const std::string& stdout_path, const std::string& stderr_path);
    ChildProcess(const std::string& exe, const std::vector<std::string>& args,
                 const ChildOptions& options);
    ~ChildProcess();
    ChildProcess(const ChildProcess&) = delete;
    ChildProcess& operator=(const ChildProcess&) = delete;

    [[nodiscard]] bool started() const { return pid_ > 0 || status_.has_value(); }
    [[nodiscard]] pid_t pid() const { return pid_; }
    [[nodiscard]] bool running();
    void signal(int sig);
    // Waits (bounded) for the child to end; its wait status, or nullopt on timeout.
    std::optional<int> wait(std::chrono::milliseconds timeout);

  private:
    pid_t pid_ = -1;
    std::optional<int> status_;
};

// Runs `exe args...` to its end (bounded); stdout and stderr together. rc -1 on a timeout.
struct RunResult {
    int rc = -1;
    std::string output;
};
[[nodiscard]] RunResult run_to_end(const std::string& exe, const std::vector<std::string>& args,
                                   const std::string& scratch_dir,
                                   std::chrono::milliseconds timeout = std::chrono::seconds(30));

[[nodiscard]] std::string read_file(const std::string& path);

// The port of the health endpoint that `outpost run` logged ("health endpoint on
// http://127.0.0.1:PORT/healthz"), or empty while it has not.
[[nodiscard]] std::string logged_health_port(const std::string& log_text);

// Polls `done` every 20 ms until it holds (true) or `timeout` has passed (false): for what a
// child writes to its files.
[[nodiscard]] bool wait_for(const std::function<bool()>& done, std::chrono::milliseconds timeout);

}  // namespace e2e
