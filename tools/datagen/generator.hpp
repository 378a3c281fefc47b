// A generator run: self-play games on worker threads appended to a binary data file, resumed
// from the file's complete games after any stop, with a progress line while it runs.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <string>

#include "engine/nnue.hpp"
#include "tools/datagen/datagen.hpp"
#include "tools/datagen/record.hpp"

namespace datagen {

struct RunOptions {
    std::string path;
    Config config;
    long long games = 0;  // play games 0..games-1; 0: no end
    int threads = 1;
    int hash_mb = 8;
    std::shared_ptr<const engine::nnue::Network> net;  // null: the hand-crafted evaluation
    std::uint64_t net_hash = 0;                        // fnv1a64 of the net file
    double progress_seconds = 5;
    std::FILE* log = stderr;  // progress and summary lines; null: silent
    // Called after each game is written, with the count of games this run has written.
    std::function<void(long long)> on_game;
};

struct RunSummary {
    long long games_before = 0, positions_before = 0;  // complete in the file at the start
    long long games = 0, positions = 0;                // written by this run
    std::uint64_t torn_records = 0, torn_bytes = 0;    // cut off the file's tail at the start
    double wall_seconds = 0, cpu_seconds = 0;
    bool stopped = false;  // ended by `stop`, not by reaching `games`
};

// The parameters a file written with these options carries in its header.
RunParams run_params(const RunOptions& options);

// Runs until games 0..games-1 are all in the file (never, for games == 0) or `stop` is set.
// Errors (a file of another run or format, a second writer, a failed write) are named.
engine::Result<RunSummary> run(const RunOptions& options, const std::atomic<bool>& stop);

// The process's CPU time (user + system, all threads) in seconds: rates per core-hour from it
// stay fair on a loaded machine, where wall time counts the time others had the cores.
double process_cpu_seconds();

// The cores this process may run on.
int available_cores();

}  // namespace datagen
