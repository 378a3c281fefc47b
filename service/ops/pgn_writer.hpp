// PGN records of finished games: a GameRecord (service/game) in, PGN text (SAN moves with clock
// and eval comments) out, and an atomic write of it into the PGN directory.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "common/result.hpp"
#include "service/game/game_record.hpp"

namespace service {

// The whole PGN text, ending in a blank line. Movetext lines are at most 80 columns. An
// illegal move (or an unreadable FEN) ends the movetext with a comment saying so.
[[nodiscard]] std::string to_pgn(const GameRecord& record);

// "<YYYY-MM-DD>-<game id>.pgn", the date of record.started_at in UTC. Characters other than
// letters, digits, '-' and '_' become '_'; an id longer than kMaxPgnIdChars is cut and ends in
// a hash of the whole id, so any id gives a short name (never ENAMETOOLONG) and ids stay apart.
inline constexpr std::size_t kMaxPgnIdChars = 64;
[[nodiscard]] std::string pgn_file_name(const GameRecord& record);

// Writes to_pgn(record) to dir/pgn_file_name(record): the directory is created, the text goes
// to a temporary file in it which is synced and renamed over the target, and the directory is
// synced after the rename, so readers never see half a file and a power cut loses neither the
// text nor the name. Returns the path, or an error naming the path and the cause. Never throws.
[[nodiscard]] common::Result<std::filesystem::path> write_pgn(const std::filesystem::path& dir,
                                                              const GameRecord& record);

// How write_pgn is retried after a failure (a full disk, an NFS hiccup).
struct PgnRetry {
    int attempts = 3;                      // in all, the first one included
    std::chrono::milliseconds pause{500};  // before the second attempt, doubled after each
    // Waits between attempts; tests replace it (and may repair the fault there).
    std::function<void(std::chrono::milliseconds)> sleep = [](std::chrono::milliseconds d) {
        std::this_thread::sleep_for(d);
    };
};

// write_pgn, tried up to retry.attempts times; each failed attempt is logged and added to
// failed_attempts (/metrics: outpost_pgn_write_errors_total). The last error when all fail.
[[nodiscard]] common::Result<std::filesystem::path> write_pgn(
    const std::filesystem::path& dir, const GameRecord& record,
    std::atomic<std::uint64_t>& failed_attempts, const PgnRetry& retry = {});

// At start-up: creates dir, removes temporary files a killed process left behind (ours are
// ".<name>.pgn.<pid>.<n>.tmp"; those of a live process other than this one are kept unless an
// hour old), and proves the folder writable with a synced probe file. Returns how many stale
// files were removed, or an error naming the folder and the cause.
[[nodiscard]] common::Result<int> prepare_pgn_directory(const std::filesystem::path& dir);

}  // namespace service
