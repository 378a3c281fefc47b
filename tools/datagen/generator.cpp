// A generator run (see generator.hpp and docs/NNUE.md).
#include "tools/datagen/generator.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "tools/datagen/data_file.hpp"

namespace datagen {

namespace {

bool write_all(int fd, const unsigned char* p, std::size_t n) {
    while (n > 0) {
        const ssize_t w = ::write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        p += w;
        n -= std::size_t(w);
    }
    return true;
}

std::string duration(double seconds) {
    const long long s = std::llround(std::max(0.0, seconds));
    char text[48];
    if (s >= 86400)
        std::snprintf(text, sizeof text, "%lldd %02lld:%02lld:%02lld", s / 86400, s / 3600 % 24,
                      s / 60 % 60, s % 60);
    else
        std::snprintf(text, sizeof text, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
    return text;
}

// The file descriptor, closed on every return.
struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

double process_cpu_seconds() {
    rusage u{};
    ::getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1e-6;
}

int available_cores() {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (::sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
    return std::max(1, int(std::thread::hardware_concurrency()));
}

RunParams run_params(const RunOptions& o) {
    RunParams p;
    p.seed = o.config.seed;
    p.nodes = std::uint32_t(o.config.nodes);
    p.random_plies = std::uint32_t(o.config.random_plies);
    p.hash_mb = std::uint32_t(o.hash_mb);
    p.net_hash = o.net ? o.net_hash : 0;
    return p;
}

engine::Result<RunSummary> run(const RunOptions& o, const std::atomic<bool>& stop) {
    using R = engine::Result<RunSummary>;
    const std::string& path = o.path;
    if (o.games < 0 || std::uint64_t(o.games) > MAX_GAMES)
        return R::failure("--games must be from 0 to " + std::to_string(MAX_GAMES));
    if (o.threads < 1 || o.hash_mb < 1 || o.config.nodes < 1)
        return R::failure("--threads, --hash and --nodes must be at least 1");
    const RunParams want = run_params(o);
    const Header header = encode_header(want);

    // One writer a file: a second one would interleave its games with ours and cut our tail.
    Fd file{::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644)};
    if (file.fd < 0) return R::failure("cannot open '" + path + "': " + std::strerror(errno));
    if (::flock(file.fd, LOCK_EX | LOCK_NB) != 0)
        return R::failure("'" + path + "' is being written by another outpost-datagen");
    struct stat st {};
    if (::fstat(file.fd, &st) != 0) return R::failure("cannot stat '" + path + "'");
    const std::uint64_t size = std::uint64_t(st.st_size);

    RunSummary sum;
    std::vector<bool> done;    // by game index: complete in the file
    long long done_below = 0;  // of them, those the run's --games asks for
    if (size < HEADER_SIZE) {
        // Empty, or our own header cut off while it was being written.
        unsigned char start[HEADER_SIZE] = {};
        if (::pread(file.fd, start, std::size_t(size), 0) != ssize_t(size) ||
            std::memcmp(start, header.data(), std::size_t(size)) != 0)
            return R::failure("'" + path + "' is not an outpost-datagen data file of this run");
        if (::ftruncate(file.fd, 0) != 0 || !write_all(file.fd, header.data(), header.size()))
            return R::failure("cannot write '" + path + "': " + std::strerror(errno));
    } else {
        auto scan = read_data_file(path, [&](const Record& r) {
            const std::uint64_t g = record_game(r);
            if (g >= done.size()) done.resize(std::size_t(g) + 1, false);
            if (record_last(r)) {
                done[std::size_t(g)] = true;
                ++sum.games_before;
                done_below += o.games == 0 || g < std::uint64_t(o.games);
            }
            ++sum.positions_before;
        });
        if (!scan) return R::failure(scan.error());
        const std::string diff = describe_difference(scan->params, want);
        if (!diff.empty())
            return R::failure("'" + path + "' holds another run's games (" + diff +
                              "): resume it with its own options, or write a new file");
        // A game cut off mid-write (a kill, a full disk) is played again from its start.
        if (size > scan->complete_size()) {
            if (::ftruncate(file.fd, off_t(scan->complete_size())) != 0)
                return R::failure("cannot cut the torn tail of '" + path +
                                  "': " + std::strerror(errno));
            sum.torn_records = scan->torn_records;
            sum.torn_bytes = scan->torn_bytes;
        }
    }
    if (o.log) {
        std::fprintf(o.log,
                     "outpost-datagen: %s: seed %llu, %d nodes a move, %d threads; %lld games "
                     "(%lld positions) already there\n",
                     path.c_str(), static_cast<unsigned long long>(want.seed), o.config.nodes,
                     o.threads, sum.games_before, sum.positions_before);
        if (sum.torn_records || sum.torn_bytes)
            std::fprintf(o.log,
                         "outpost-datagen: cut the torn tail: %llu records of an unfinished game "
                         "and %llu bytes of a partial record\n",
                         static_cast<unsigned long long>(sum.torn_records),
                         static_cast<unsigned long long>(sum.torn_bytes));
    }

    std::atomic<bool> halt{false};  // stop, or a failed write
    std::atomic<long long> next{0};
    std::mutex mu;
    std::condition_variable cv;
    std::string error;
    int running = o.threads;
    long long wins = 0, losses = 0;
    const auto start = std::chrono::steady_clock::now();
    const double cpu_start = process_cpu_seconds();

    auto worker = [&] {
        // The HCE unless a net is given, whatever the build's default evaluation.
        engine::Engine eng({.hash_mb = o.hash_mb, .threads = 1, .nnue = false});
        if (o.net) {
            eng.set_net(o.net);
            eng.set_nnue(true);
        }
        std::vector<Record> records;
        std::vector<unsigned char> bytes;
        while (!halt && !stop) {
            const long long i = next++;
            if ((o.games > 0 && i >= o.games) || std::uint64_t(i) >= MAX_GAMES) break;
            if (std::size_t(i) < done.size() && done[std::size_t(i)]) continue;
            const Game g = play_game(eng, o.config, std::uint64_t(i), &halt);
            if (!g.complete) break;
            records.clear();
            for (const Sample& s : g.samples) {
                // Every position a game records fits (standard chess, counters in range).
                auto r = encode_record(s.board, s.score_white, g.result, std::uint64_t(i), false);
                if (r) records.push_back(*r);
            }
            if (!records.empty()) mark_last(records.back());
            bytes.clear();
            for (const Record& r : records) bytes.insert(bytes.end(), r.begin(), r.end());
            std::lock_guard lock(mu);
            // One write a game, under the lock: games never interleave, and a kill leaves at
            // most one game cut off, at the end.
            if (!bytes.empty() && !write_all(file.fd, bytes.data(), bytes.size())) {
                if (error.empty()) error = "cannot write '" + path + "': " + std::strerror(errno);
                halt = true;
                break;
            }
            ++sum.games;
            sum.positions += long(records.size());
            wins += g.result == 1.0f;
            losses += g.result == 0.0f;
            if (o.on_game) o.on_game(sum.games);
        }
        std::lock_guard lock(mu);
        --running;
        cv.notify_all();
    };

    auto progress = [&](bool final) {
        const double wall =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const double cpu = process_cpu_seconds() - cpu_start;
        char left[64] = "";
        if (o.games > 0 && sum.games > 0 && !final) {
            const long long remaining = o.games - done_below - sum.games;
            std::snprintf(left, sizeof left, ", %s left",
                          duration(double(remaining) * wall / double(sum.games)).c_str());
        }
        std::fprintf(o.log,
                     "outpost-datagen: %s%lld games, %lld positions (%lld games, %lld positions "
                     "this run: +%lld =%lld -%lld), %.0f positions/s, %.0f positions/core-hour "
                     "(CPU time), %s%s\n",
                     final ? (halt && error.empty() ? "stopped: " : "done: ") : "",
                     sum.games_before + sum.games, sum.positions_before + sum.positions, sum.games,
                     sum.positions, wins, sum.games - wins - losses, losses,
                     wall > 0 ? double(sum.positions) / wall : 0.0,
                     cpu > 0 ? double(sum.positions) * 3600 / cpu : 0.0, duration(wall).c_str(),
                     left);
        std::fflush(o.log);
        sum.wall_seconds = wall;
        sum.cpu_seconds = cpu;
    };

    std::vector<std::thread> pool;
    for (int t = 0; t < o.threads; ++t) pool.emplace_back(worker);
    {
        auto last = std::chrono::steady_clock::now();
        std::unique_lock lock(mu);
        while (running > 0) {
            cv.wait_for(lock, std::chrono::milliseconds(100));
            if (stop) halt = true;
            const auto now = std::chrono::steady_clock::now();
            if (o.log && std::chrono::duration<double>(now - last).count() >= o.progress_seconds) {
                progress(false);
                last = now;
            }
        }
    }
    for (auto& t : pool) t.join();
    sum.stopped = halt && error.empty();
    if (!error.empty()) return R::failure(error);
    if (o.log) progress(true);
    sum.wall_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    sum.cpu_seconds = process_cpu_seconds() - cpu_start;
    return sum;
}

}  // namespace datagen
