// The start-up checks' table and its rows (see start_checks.hpp).
#include "service/cli/start_checks.hpp"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/bounded_file.hpp"
#include "common/errno_text.hpp"
#include "service/challenges/declined_bots.hpp"
#include "service/ops/health_server.hpp"

namespace cli {

namespace {

std::string quoted(const std::string& path) { return "'" + path + "'"; }

// File systems the kernel makes up (/proc, /sys, ...): no log file belongs there, whatever
// stat() says (/proc/self/mem is a "regular file").
bool kernel_file_system(const std::string& path) {
    struct statfs sfs {};
    if (::statfs(path.c_str(), &sfs) != 0) return false;
    switch (static_cast<unsigned long>(sfs.f_type)) {
        case PROC_SUPER_MAGIC:
        case SYSFS_MAGIC:
        case DEBUGFS_MAGIC:
        case TRACEFS_MAGIC:
        case SECURITYFS_MAGIC:
        case CGROUP_SUPER_MAGIC:
        case CGROUP2_SUPER_MAGIC:
        case DEVPTS_SUPER_MAGIC:
        case BPF_FS_MAGIC:
            return true;
        default:
            return false;
    }
}

// The folder itself when it exists, else its nearest existing parent (what must let us make it).
std::filesystem::path nearest_existing(const std::filesystem::path& path) {
    std::filesystem::path p = path.empty() ? std::filesystem::path(".") : path;
    std::error_code ec;
    while (!std::filesystem::exists(p, ec) && p.has_relative_path() && p != p.parent_path())
        p = p.parent_path().empty() ? std::filesystem::path(".") : p.parent_path();
    return p;
}

// Whether a folder can be made inside `folder` (and removed again): a missing folder that the
// daemon makes at start (pgn_directory, log.file's folder) is made there.
std::optional<std::string> cannot_make_folder_in(const std::filesystem::path& folder) {
    const std::filesystem::path probe =
        folder / (".outpost-start-check." + std::to_string(::getpid()));
    if (::mkdir(probe.c_str(), 0700) != 0) return common::errno_text(errno);
    ::rmdir(probe.c_str());
    return std::nullopt;
}

// Writes and syncs a small file in `folder` and removes it: a full disk or a read-only file
// system says so here (ENOSPC may come only at the write or the sync). The name is one the PGN
// writer removes at start if a crash left it.
std::optional<std::string> cannot_write_in(const std::filesystem::path& folder) {
    const std::filesystem::path probe =
        folder / (".outpost-start-check." + std::to_string(::getpid()) + ".0.tmp");
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) return common::errno_text(errno);
    static constexpr char kText[] = "outpost start-up check\n";
    int err = 0;
    if (::write(fd, kText, sizeof kText - 1) != ssize_t(sizeof kText - 1))
        err = errno ? errno : EIO;
    if (err == 0 && ::fsync(fd) != 0 && errno != EINVAL) err = errno;
    if (::close(fd) != 0 && err == 0) err = errno;
    ::unlink(probe.c_str());
    if (err != 0) return common::errno_text(err);
    return std::nullopt;
}

std::optional<std::string> pgn_directory_problem(const std::string& dir) {
    std::error_code ec;
    const std::filesystem::path path(dir);
    const std::filesystem::path existing = nearest_existing(path);
    const bool exists = existing == path;
    if (exists && !std::filesystem::is_directory(path, ec))
        return "the PGN folder " + quoted(dir) + " is not a folder";
    if (!exists) {
        if (!std::filesystem::is_directory(existing, ec))
            return "cannot make the PGN folder " + quoted(dir) + ": " + quoted(existing.string()) +
                   " is not a folder";
        if (auto why = cannot_make_folder_in(existing))
            return "cannot make the PGN folder " + quoted(dir) + " in " +
                   quoted(existing.string()) + ": " + *why;
    } else if (auto why = cannot_write_in(path)) {
        return "the PGN folder " + quoted(dir) + " is not writable: " + *why;
    }
    struct statvfs vfs {};
    if (::statvfs(existing.c_str(), &vfs) != 0) return std::nullopt;  // no figure: no verdict
    return free_space_problem(dir, std::uint64_t(vfs.f_bavail) * vfs.f_frsize);
}

std::optional<std::string> log_file_problem(const std::string& file) {
    struct stat st {};
    if (::stat(file.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode))
            return quoted(file) + " is not a regular file (a " +
                   (S_ISDIR(st.st_mode) ? "folder" : "device, pipe or socket") +
                   "); name a file, or leave log.file empty to log to standard error only";
        if (kernel_file_system(file))
            return quoted(file) +
                   " is a file the kernel makes up (/proc, /sys), not one a log can be written to";
        const int fd =
            ::open(file.c_str(), O_WRONLY | O_APPEND | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
            return "cannot open " + quoted(file) + " for writing: " + common::errno_text(errno);
        ::close(fd);
        return std::nullopt;
    }
    if (errno != ENOENT && errno != ENOTDIR)
        return "cannot read " + quoted(file) + ": " + common::errno_text(errno);
    // A new file (the daemon makes its folders too): its nearest existing folder must take it.
    const std::filesystem::path existing =
        nearest_existing(std::filesystem::path(file).parent_path());
    std::error_code ec;
    if (!std::filesystem::is_directory(existing, ec))
        return "cannot make " + quoted(file) + ": " + quoted(existing.string()) +
               " is not a folder";
    if (kernel_file_system(existing.string()))
        return "cannot make " + quoted(file) + ": " + quoted(existing.string()) +
               " is made up by the kernel (/proc, /sys), not a place for a log";
    if (auto why = cannot_make_folder_in(existing))
        return "cannot make " + quoted(file) + " in " + quoted(existing.string()) + ": " + *why;
    return std::nullopt;
}

std::optional<std::string> read_text(const std::string& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::optional<std::string> memory_problem(const config::Config& config) {
    struct sysinfo info {};
    std::uint64_t limit_mb = 0;
    std::string where;
    if (::sysinfo(&info) == 0) {
        limit_mb = std::uint64_t(info.totalram) * info.mem_unit / (1024 * 1024);
        where = "this machine's memory";
    }
    if (const auto cgroup = read_text("/proc/self/cgroup")) {
        if (const auto limit = cgroup_memory_limit(*cgroup, read_text);
            limit && (limit_mb == 0 || *limit / (1024 * 1024) < limit_mb)) {
            limit_mb = *limit / (1024 * 1024);
            where =
                "the memory limit of this process's cgroup (a container's or systemd's "
                "MemoryMax)";
        }
    }
    if (limit_mb == 0) return std::nullopt;  // nothing known: no verdict
    return hash_memory_problem(config, limit_mb, where);
}

// The matchmaker's memory: an existing file must be one it can read (a regular file of at most
// kMaxDeclinedBotsFileBytes), and its folder one it can write, since each save makes a new file
// there and renames it over the old one. A folder inside pgn_directory is made with it.
std::optional<std::string> declined_bots_problem(const config::Config& config) {
    const std::string& file = config.matchmaking.declined_bots_file;
    if (!config.matchmaking.enabled || file.empty()) return std::nullopt;
    struct stat st {};
    if (::lstat(file.c_str(), &st) == 0 || errno != ENOENT) {
        if (auto why = common::file_problem(file, service::kMaxDeclinedBotsFileBytes))
            return "cannot read " + quoted(file) + ": " + *why;
    }
    std::filesystem::path folder = std::filesystem::path(file).parent_path();
    if (folder.empty()) folder = ".";
    std::error_code ec;
    if (!std::filesystem::exists(folder, ec)) {
        if (!config.pgn_directory.empty() &&
            std::filesystem::path(config.pgn_directory).lexically_normal() ==
                folder.lexically_normal())
            return std::nullopt;  // pgn_directory's own row judges the folder run makes
        return "cannot save " + quoted(file) + ": its folder " + quoted(folder.string()) +
               " does not exist";
    }
    if (auto why = cannot_write_in(folder))
        return "cannot save " + quoted(file) + ": its folder " + quoted(folder.string()) +
               " is not writable (" + *why +
               "); name a file in a writable folder, such as the PGN folder";
    return std::nullopt;
}

struct StartCheck {
    const char* key;
    std::optional<std::string> (*problem)(const config::Config&);
};

// The table: one row per thing `run` needs from this machine before it logs in.
constexpr StartCheck kStartChecks[] = {
    {"pgn_directory",
     [](const config::Config& c) {
         return c.pgn_directory.empty() ? std::nullopt : pgn_directory_problem(c.pgn_directory);
     }},
    {"log.file",
     [](const config::Config& c) {
         return c.log.file.empty() ? std::nullopt : log_file_problem(c.log.file);
     }},
    {"engine.hash_mb", memory_problem},
    {"matchmaking.declined_bots_file", declined_bots_problem},
    {"health.listen",
     [](const config::Config& c) -> std::optional<std::string> {
         std::string problem = service::listen_problem(c.health.listen);
         if (problem.empty()) return std::nullopt;
         constexpr std::string_view kKey = "health.listen: ";  // the row names the key
         if (problem.starts_with(kKey)) problem.erase(0, kKey.size());
         return problem;
     }},
};

std::optional<std::uint64_t> parse_limit(const std::optional<std::string>& text) {
    if (!text) return std::nullopt;
    std::string t = *text;
    while (!t.empty() && (t.back() == '\n' || t.back() == ' ')) t.pop_back();
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (ec != std::errc() || end != t.data() + t.size()) return std::nullopt;  // "max", junk
    // cgroup v1 writes "no limit" as the largest page-aligned signed value.
    if (value >= (std::uint64_t(1) << 60)) return std::nullopt;
    return value;
}

}  // namespace

std::optional<std::uint64_t> cgroup_memory_limit(
    std::string_view proc_self_cgroup,
    const std::function<std::optional<std::string>(const std::string&)>& read) {
    std::optional<std::uint64_t> lowest;
    const auto take = [&](const std::optional<std::string>& text) {
        if (const auto v = parse_limit(text); v && (!lowest || *v < *lowest)) lowest = v;
    };
    // Its cgroup and every parent up to the root: each level's limit applies.
    const auto walk = [&](std::string path, const std::string& base, const char* file) {
        for (;;) {
            take(read(base + (path == "/" ? "" : path) + "/" + file));
            if (path == "/" || path.empty()) break;
            const auto slash = path.rfind('/');
            path = slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
        }
    };
    std::istringstream lines{std::string(proc_self_cgroup)};
    for (std::string line; std::getline(lines, line);) {
        // hierarchy-ID:controller-list:cgroup-path
        const auto first = line.find(':');
        const auto second = first == std::string::npos ? first : line.find(':', first + 1);
        if (second == std::string::npos) continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const std::string path = line.substr(second + 1);
        if (path.empty() || path[0] != '/') continue;
        if (line.compare(0, first, "0") == 0 && controllers.empty()) {  // v2, maybe hybrid
            walk(path, "/sys/fs/cgroup", "memory.max");
            walk(path, "/sys/fs/cgroup/unified", "memory.max");
            continue;
        }
        std::istringstream names(controllers);
        for (std::string name; std::getline(names, name, ',');)
            if (name == "memory") walk(path, "/sys/fs/cgroup/memory", "memory.limit_in_bytes");
    }
    return lowest;
}

std::optional<std::string> hash_memory_problem(const config::Config& config, std::uint64_t limit_mb,
                                               std::string_view where) {
    const int games = std::max(0, config.challenge.concurrency);
    const int searches = std::max(0, config.correspondence.max_concurrent_searches);
    const std::uint64_t engines = std::uint64_t(std::max(1, games + searches));
    const std::uint64_t hash = std::uint64_t(std::max(0, config.engine.hash_mb));
    const std::uint64_t need = hash * engines + kOtherMemoryMb;
    if (need <= limit_mb) return std::nullopt;
    return std::to_string(hash) + " MB for each of " + std::to_string(engines) +
           " engines (challenge.concurrency " + std::to_string(games) +
           " + correspondence.max_concurrent_searches " + std::to_string(searches) +
           ") and about " + std::to_string(kOtherMemoryMb) + " MB for the rest need " +
           std::to_string(need) + " MB, more than " + std::string(where) + " (" +
           std::to_string(limit_mb) + " MB); lower engine.hash_mb or the concurrency";
}

std::optional<std::string> free_space_problem(const std::string& folder, std::uint64_t free_bytes) {
    if (free_bytes >= kMinPgnFreeBytes) return std::nullopt;
    return "the PGN folder " + quoted(folder) + " has " + std::to_string(free_bytes / 1024) +
           " KB free, less than the " + std::to_string(kMinPgnFreeBytes / 1024) +
           " KB a few games need; free some space or choose another folder";
}

std::vector<StartProblem> start_problems(const config::Config& config) {
    std::vector<StartProblem> problems;
    for (const StartCheck& check : kStartChecks)
        if (auto message = check.problem(config)) problems.push_back({check.key, *message});
    return problems;
}

int print_start_problems(const std::vector<StartProblem>& problems, std::ostream& err) {
    for (const StartProblem& p : problems) err << "error: " << p.key << ": " << p.message << "\n";
    return int(problems.size());
}

}  // namespace cli
