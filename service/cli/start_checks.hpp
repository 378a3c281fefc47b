// The start-up checks: what `outpost run` refuses before it logs in, in one table that
// `outpost check-config` runs too, so a config that check-config passes is one run starts with
// (on the same machine), and each refusal reads the same in both.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"

namespace cli {

struct StartProblem {
    std::string key;      // the config key at fault ("log.file")
    std::string message;  // what is wrong, and what to do
};

// Every row of the table that finds a problem with `config` on this machine, in table order:
//   pgn_directory  a folder we can write (made when missing: its nearest existing folder must
//                  be writable), with at least kMinPgnFreeBytes free;
//   log.file       a regular file we can open for appending (or a new one in a folder we can
//                  write); nothing on /proc, /sys or other kernel file systems, no device;
//   engine.hash_mb the hash tables of every engine that may exist at once (concurrency plus
//                  correspondence searches) and kOtherMemoryMb fit this machine's memory (its
//                  cgroup's limit when it has one).
//   matchmaking.declined_bots_file  (matchmaking on) an existing file a regular one we can read,
//                  its folder one we can write (or pgn_directory, made at start);
//   health.listen  an address of this machine and a port we can listen on now (not in use).
// The URL rule (plain http only on this machine) is config validation's, which both run too.
[[nodiscard]] std::vector<StartProblem> start_problems(const config::Config& config);

// Writes each problem as "error: KEY: MESSAGE"; returns how many there were.
int print_start_problems(const std::vector<StartProblem>& problems, std::ostream& err);

inline constexpr std::uint64_t kMinPgnFreeBytes = 1024 * 1024;
inline constexpr std::uint64_t kOtherMemoryMb = 64;  // the daemon beside its hash tables

// ---- the parts, for tests --------------------------------------------------------------------

// The memory limit (bytes) of the cgroup a process is in, from /proc/self/cgroup's text: the
// smallest memory.max (cgroup v2) or memory.limit_in_bytes (v1) of its cgroup and every parent,
// read with `read` (a path under /sys/fs/cgroup -> its text, none when missing); none when no
// level has a limit ("max", or v1's huge "no limit" value).
[[nodiscard]] std::optional<std::uint64_t> cgroup_memory_limit(
    std::string_view proc_self_cgroup,
    const std::function<std::optional<std::string>(const std::string&)>& read);

// What the hash tables need against what the machine has (MB), or nothing when they fit.
// `where`: which limit `limit_mb` is ("this machine's memory", "the cgroup's memory limit").
[[nodiscard]] std::optional<std::string> hash_memory_problem(const config::Config& config,
                                                             std::uint64_t limit_mb,
                                                             std::string_view where);

// A folder with `free_bytes` free: the problem when that is below kMinPgnFreeBytes.
[[nodiscard]] std::optional<std::string> free_space_problem(const std::string& folder,
                                                            std::uint64_t free_bytes);

}  // namespace cli
