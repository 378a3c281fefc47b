// JoinedArenas: the arenas the bot is in, as an operator's page shows them (id, name, end). The
// Bot's event loop writes it; any thread may read a copy.
#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace service {

struct JoinedArena {
    std::string id;    // lichess.org/tournament/ID
    std::string name;  // lila's fullName (printable: control characters escaped)
    std::optional<std::chrono::system_clock::time_point> ends_at;  // none: not known yet
    bool operator==(const JoinedArena&) const = default;
};

class JoinedArenas {
  public:
    void publish(std::vector<JoinedArena> arenas) {
        std::lock_guard lock(mutex_);
        arenas_ = std::move(arenas);
    }
    [[nodiscard]] std::vector<JoinedArena> snapshot() const {
        std::lock_guard lock(mutex_);
        return arenas_;
    }

  private:
    mutable std::mutex mutex_;
    std::vector<JoinedArena> arenas_;
};

}  // namespace service
