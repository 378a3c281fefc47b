// The child-process helper: posix_spawn with redirected output, bounded waits, cleanup.
#include "child_process.hpp"

#include <grp.h>
#include <signal.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace e2e {

namespace {

// Tasks (processes and threads) that `uid` runs now, as RLIMIT_NPROC counts them.
unsigned long user_tasks(uid_t uid) {
    unsigned long n = 0;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
        std::ifstream in(entry.path() / "status");
        bool ours = false;
        for (std::string line; std::getline(in, line);) {
            if (line.rfind("Uid:", 0) == 0)
                ours = std::strtoul(line.c_str() + 4, nullptr, 10) == uid;
            if (line.rfind("Threads:", 0) == 0 && ours)
                n += std::strtoul(line.c_str() + 8, nullptr, 10);
        }
    }
    return n;
}

}  // namespace

ChildProcess::ChildProcess(const std::string& exe, const std::vector<std::string>& args,
                           const std::string& stdout_path, const std::string& stderr_path)
    : ChildProcess(exe, args,
                   ChildOptions{.stdout_path = stdout_path, .stderr_path = stderr_path}) {}

ChildProcess::ChildProcess(const std::string& exe, const std::vector<std::string>& args,
                           const ChildOptions& options) {
    std::vector<std::string> env;
    for (char** e = environ; *e; ++e)
        if (std::strncmp(*e, "LICHESS_BOT_TOKEN=", 18) != 0) env.emplace_back(*e);
    std::vector<char*> envp;
    for (auto& e : env) envp.push_back(e.data());
    envp.push_back(nullptr);
    std::vector<std::string> argv_text{exe};
    argv_text.insert(argv_text.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);

    if (options.max_tasks) {
        // fork and exec: posix_spawn can set neither a limit nor a user. Between the two only
        // async-signal-safe calls (the test process has threads).
        const bool as_root = ::geteuid() == 0;
        // Another user's limit counts every task that user runs: the child's share comes on top.
        const unsigned long tasks = *options.max_tasks + (as_root ? 0 : user_tasks(::getuid()));
        const rlimit limit{tasks, tasks};
        const int out_fd =
            options.output_fd >= 0
                ? options.output_fd
                : (options.stdout_path.empty()
                       ? -1
                       : ::open(options.stdout_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0666));
        pid_ = ::fork();
        if (pid_ == 0) {
            if (out_fd >= 0) {
                ::dup2(out_fd, STDOUT_FILENO);
                ::dup2(out_fd, STDERR_FILENO);
            }
            ::close_range(STDERR_FILENO + 1, ~0U, 0);
            if (as_root && (::setgroups(0, nullptr) != 0 || ::setgid(options.run_as_uid) != 0 ||
                            ::setuid(options.run_as_uid) != 0))
                ::_exit(126);
            if (::setrlimit(RLIMIT_NPROC, &limit) != 0) ::_exit(126);
            ::execve(exe.c_str(), argv.data(), envp.data());
            ::_exit(127);
        }
        if (out_fd >= 0 && out_fd != options.output_fd) ::close(out_fd);
        return;
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (options.output_fd >= 0) {
        posix_spawn_file_actions_adddup2(&actions, options.output_fd, STDOUT_FILENO);
        posix_spawn_file_actions_adddup2(&actions, options.output_fd, STDERR_FILENO);
    }
    if (!options.stdout_path.empty())
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, options.stdout_path.c_str(),
                                         O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (!options.stderr_path.empty())
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, options.stderr_path.c_str(),
                                         O_WRONLY | O_CREAT | O_APPEND, 0600);
    // The child must not inherit the test's sockets: an emulator's listening socket kept open
    // by the child would stop a restarted emulator from binding its port again.
    posix_spawn_file_actions_addclosefrom_np(&actions, STDERR_FILENO + 1);
    if (posix_spawn(&pid_, exe.c_str(), &actions, nullptr, argv.data(), envp.data()) != 0)
        pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
}

ChildProcess::~ChildProcess() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    if (!wait(std::chrono::seconds(10))) {
        ::kill(pid_, SIGKILL);
        (void)wait(std::chrono::seconds(10));
    }
}

bool ChildProcess::running() {
    if (pid_ <= 0) return false;
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        status_ = status;
        pid_ = -1;
    }
    return pid_ > 0;
}

void ChildProcess::signal(int sig) {
    if (pid_ > 0) ::kill(pid_, sig);
}

std::optional<int> ChildProcess::wait(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (pid_ > 0 && std::chrono::steady_clock::now() < deadline) {
        if (!running()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (pid_ > 0) return std::nullopt;
    return status_;
}

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string logged_health_port(const std::string& log_text) {
    const std::string marker = "health endpoint on http://127.0.0.1:";
    const auto at = log_text.find(marker);
    if (at == std::string::npos) return {};
    const auto end = log_text.find("/healthz", at);
    if (end == std::string::npos) return {};
    return log_text.substr(at + marker.size(), end - at - marker.size());
}

bool wait_for(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done()) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

RunResult run_to_end(const std::string& exe, const std::vector<std::string>& args,
                     const std::string& scratch_dir, std::chrono::milliseconds timeout) {
    static int n = 0;
    const std::string out_path = scratch_dir + "/run-" + std::to_string(++n) + ".out";
    RunResult r;
    {
        ChildProcess child(exe, args, out_path, out_path);
        if (auto status = child.wait(timeout))
            r.rc = WIFEXITED(*status) ? WEXITSTATUS(*status) : 128 + WTERMSIG(*status);
    }
    r.output = read_file(out_path);
    return r;
}

}  // namespace e2e
