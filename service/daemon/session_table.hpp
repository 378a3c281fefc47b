// SessionTable: the real-time games' sessions by game id: started, reaped once they finish, and
// stopped at shutdown. Its own lock: the Bot's loop starts and reaps, anyone may count.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "service/daemon/game_session.hpp"

namespace service {

class SessionTable {
  public:
    SessionTable() = default;
    ~SessionTable() { stop_all(); }
    SessionTable(const SessionTable&) = delete;
    SessionTable& operator=(const SessionTable&) = delete;

    // A session for the game, made by `make`; a finished session of the same game is replaced.
    // What `make` throws propagates, the table unchanged; a thread that cannot be started
    // (std::system_error) as a std::runtime_error that names the game and the likely task limit.
    void start(const std::string& game_id,
               const std::function<std::unique_ptr<GameSession>()>& make);
    // A session plays this game now (a replayed gameStart must not start a second one).
    [[nodiscard]] bool running(const std::string& game_id) const;
    // The finished sessions, removed: the ids of their games (each game's slot is free now).
    std::vector<std::string> reap();
    [[nodiscard]] int active() const;  // sessions not finished
    // Stops every session without touching its game (shutdown) and drops it.
    void stop_all();

  private:
    mutable std::mutex mutex_;
    std::map<std::string, std::unique_ptr<GameSession>> sessions_;
};

}  // namespace service
