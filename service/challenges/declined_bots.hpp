// DeclinedBotsFile: the matchmaker's memory of bots that declined us (matchmaking.
// declined_bots_file), kept across restarts as lichess-bot keeps its own: a small JSON file,
// written atomically after each decline, read at start. A missing file is an empty memory; a file
// that cannot be read or parsed is a warning and a fresh start, never a crash.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "service/challenges/matchmaking.hpp"

namespace service {

// A file of many thousands of declines is still far below this; a larger one is not ours.
inline constexpr std::uint64_t kMaxDeclinedBotsFileBytes = 1024 * 1024;

class DeclinedBotsFile {
  public:
    using SteadyTime = std::chrono::steady_clock::time_point;
    using WallTime = std::chrono::system_clock::time_point;

    explicit DeclinedBotsFile(std::string path) : path_(std::move(path)) {}

    struct Loaded {
        std::vector<Refusal> refusals;       // those not over at `now`, `until` on the steady clock
        std::optional<std::string> warning;  // why the file was not used
    };
    // The file's refusals; the wall clock (`wall_now`) maps their ends onto the steady one.
    [[nodiscard]] Loaded load(SteadyTime now, WallTime wall_now) const;
    // Writes `refusals` (a temporary file of a fresh name beside it, flushed, then renamed over
    // it); the error, if it could not.
    [[nodiscard]] std::optional<std::string> save(const std::vector<Refusal>& refusals,
                                                  SteadyTime now, WallTime wall_now) const;

    [[nodiscard]] const std::string& path() const { return path_; }

  private:
    std::string path_;
};

// Bots that declined us, remembered across restarts (lichess-bot keeps them too): the refusals
// saved at `path` go to `matchmaker`, which has them saved there again after each one it learns.
// A file that cannot be read or written is logged as a warning, never a stop; an empty path
// keeps nothing.
void keep_declines(const std::string& path, Matchmaker& matchmaker);

}  // namespace service
