// The child-process helper: posix_spawn with redirected output, bounded waits, cleanup.
#include "child_process.hpp"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <cstring>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace e2e {

ChildProcess::ChildProcess(const std::string& exe, const std::vector<std::string>& args,
                           const std::string& stdout_path, const std::string& stderr_path) {
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

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    if (!stdout_path.empty())
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, stdout_path.c_str(),
                                         O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (!stderr_path.empty())
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, stderr_path.c_str(),
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
