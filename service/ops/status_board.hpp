// StatusBoard: where the daemon's parts publish what the status page shows (each game's session its
// game, the event loop the slots and the queue) and where the health endpoint takes a snapshot.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "service/ops/metrics.hpp"
#include "service/ops/status.hpp"

namespace service {

// Thread-safe. One mutex guards it, held only to swap in a publisher's value or to copy pointers
// out: every value (a game, the slots, the finished list, the arenas) is immutable behind a shared
// pointer, built before the lock is taken and freed after it is released, so a snapshot copies a
// few pointers under the lock and the values after it. Rendering works on the copy; no publisher
// (a game's worker, the event loop) ever waits for a page being rendered or sent.
class StatusBoard {
  public:
    static constexpr std::size_t kFinishedKept = 20;

    // At start: who we are (the display name) and the server's address, for the links.
    void set_account(std::string name, std::string site);
    void set_online_enabled(const std::array<bool, kOnlineSourceCount>& enabled);
    void publish_slots(SlotsStatus slots);
    // The arena tournaments joined, whole (an empty list: none).
    void publish_arenas(std::vector<ArenaStatus> arenas);

    // One game session's place on the board: published as the game changes, gone with the
    // entry (or when the game ends). A session of a game that starts again (a restart, a
    // correspondence game's next visit) gets a new entry; an old one gone later removes nothing
    // of the new one's.
    class GameEntry {
      public:
        // A null board: publishes nothing (tests of sessions without a page).
        GameEntry(StatusBoard* board, std::string game_id);
        ~GameEntry();
        GameEntry(const GameEntry&) = delete;
        GameEntry& operator=(const GameEntry&) = delete;

        void publish(GameStatus game);
        // The game is over: it leaves the games in progress for the finished ones.
        void finished(FinishedGameStatus game);

      private:
        StatusBoard* board_;
        std::string game_id_;
        std::uint64_t serial_;
    };

    // The PGN file of a game on the finished list, as its session wrote it; none for another id.
    [[nodiscard]] std::optional<std::string> pgn_path(std::string_view game_id) const;

    // The board now, with the metrics' parts (uptime, the event stream, online sources, memory).
    // health_problem is left for the caller (the endpoint asks its own health check).
    [[nodiscard]] StatusSnapshot snapshot(
        const Metrics& metrics, WallTime wall_now = std::chrono::system_clock::now(),
        Metrics::Clock::time_point now = Metrics::Clock::now()) const;

  private:
    struct Entry {
        std::uint64_t serial = 0;
        std::shared_ptr<const GameStatus> game;  // null until the first publish
    };
    std::uint64_t enter(const std::string& game_id);
    void put(const std::string& game_id, std::uint64_t serial, GameStatus game);
    void remove(const std::string& game_id, std::uint64_t serial);
    void add_finished(const std::string& game_id, std::uint64_t serial, FinishedGameStatus game);

    using Finished = std::vector<FinishedGameStatus>;

    mutable std::mutex mutex_;
    std::shared_ptr<const std::string> account_ = std::make_shared<const std::string>();
    std::shared_ptr<const std::string> site_ =
        std::make_shared<const std::string>("https://lichess.org");
    std::array<bool, kOnlineSourceCount> online_enabled_{};
    std::map<std::string, Entry, std::less<>> games_;
    std::uint64_t next_serial_ = 1;
    std::shared_ptr<const SlotsStatus> slots_ = std::make_shared<const SlotsStatus>();
    std::shared_ptr<const std::vector<ArenaStatus>> arenas_ =
        std::make_shared<const std::vector<ArenaStatus>>();
    // Newest first, at most kFinishedKept; replaced whole when a game ends.
    std::shared_ptr<const Finished> finished_ = std::make_shared<const Finished>();
    std::int64_t today_ = 0;  // days since the epoch (UTC) of `today_results_`
    DayResults today_results_;
};

}  // namespace service
