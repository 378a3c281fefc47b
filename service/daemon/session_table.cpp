// SessionTable: sessions are destroyed outside the lock, since joining their threads can take a
// moment.
#include "service/daemon/session_table.hpp"

#include <stdexcept>
#include <system_error>

#include "common/text.hpp"

namespace service {

void SessionTable::start(const std::string& game_id,
                         const std::function<std::unique_ptr<GameSession>()>& make) {
    // Made outside the lock, and before the table changes: a session whose threads cannot be
    // started throws, and leaves no entry behind.
    std::unique_ptr<GameSession> fresh;
    try {
        fresh = make();
    } catch (const std::system_error& e) {
        throw std::runtime_error("game " + common::printable(game_id) +
                                 ": its session's threads could not be started (" + e.what() +
                                 "); the process may be at its task limit (systemd TasksMax, "
                                 "ulimit -u, the container's pids limit)");
    }
    std::unique_ptr<GameSession> replaced;  // a finished session of the same game
    std::lock_guard lock(mutex_);
    auto& slot = sessions_[game_id];
    replaced = std::move(slot);
    slot = std::move(fresh);
}

bool SessionTable::running(const std::string& game_id) const {
    std::lock_guard lock(mutex_);
    const auto it = sessions_.find(game_id);
    return it != sessions_.end() && !it->second->finished();
}

std::vector<std::string> SessionTable::reap() {
    std::vector<std::unique_ptr<GameSession>> done;
    std::vector<std::string> ids;
    {
        std::lock_guard lock(mutex_);
        for (auto it = sessions_.begin(); it != sessions_.end();) {
            if (!it->second->finished()) {
                ++it;
                continue;
            }
            ids.push_back(it->first);
            done.push_back(std::move(it->second));
            it = sessions_.erase(it);
        }
    }
    return ids;
}

int SessionTable::active() const {
    std::lock_guard lock(mutex_);
    int n = 0;
    for (const auto& [id, s] : sessions_) n += s->finished() ? 0 : 1;
    return n;
}

void SessionTable::stop_all() {
    std::map<std::string, std::unique_ptr<GameSession>> left;
    {
        std::lock_guard lock(mutex_);
        for (auto& [id, s] : sessions_) s->stop();
        left.swap(sessions_);
    }
}

}  // namespace service
