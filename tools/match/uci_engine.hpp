// One engine of a match spoken to over UCI: started as a child process, given its options and
// the variant, asked for a move with the clock's `go`, and timed by the runner itself.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tools/match/process.hpp"
#include "tools/match/referee.hpp"

namespace match {

struct EngineSpec {
    std::string name;
    std::string cmd;
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> options;  // setoption name N value V
};

// The score of an `info` line ("info depth 12 score cp -35 ... pv ..."); bounds are scores too.
std::optional<EngineScore> parse_info_score(std::string_view line);

class UciEngine {
  public:
    explicit UciEngine(EngineSpec spec) : spec_(std::move(spec)) {}

    [[nodiscard]] const std::string& name() const { return spec_.name; }
    // Starts the process if it is not running (first use, or after it died or hung): the
    // `uci` handshake, the options and UCI_Variant. An error message on failure.
    std::optional<std::string> ensure_started(std::string_view uci_variant);
    // `ucinewgame` and a `isready` round trip; false when the engine does not answer.
    bool new_game();

    enum class Status { MOVED, TIMEOUT, DIED };
    struct Reply {
        Status status = Status::DIED;
        std::string move;
        std::optional<EngineScore> score;
        std::int64_t elapsed_ms = 0;  // from writing `go` to reading `bestmove`
    };
    // Sends the position and the `go`, and waits up to `allowed_ms` for its `bestmove`. An
    // engine that misses the deadline is stopped, and restarted next game if it stays silent.
    Reply play(const std::string& position, const std::string& go, std::int64_t allowed_ms);

  private:
    bool wait_for(std::string_view prefix, Process::Clock::time_point deadline);

    EngineSpec spec_;
    std::string variant_;
    std::unique_ptr<Process> process_;
};

}  // namespace match
