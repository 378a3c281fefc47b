// When a correspondence game's session parks: the rules the CorrespondenceDesk gives each of
// its sessions, and the one decision made from them. Real-time games never park.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>

#include "service/game/game_policies.hpp"

namespace service {

// A correspondence game's session holds an engine only while it searches, and ends "parked"
// (finished, the game still on) once the opponent has been on move for `linger`, or at once
// while other games wait for a session.
struct ParkingRules {
    std::chrono::milliseconds linger{15000};
    // How many games wait in the desk's line for a session, as the desk keeps it (a value it
    // writes and sessions read); none: never park early.
    std::shared_ptr<const std::atomic<int>> games_waiting;
    bool first_visit = true;  // greet only on the game's first session, before our first move
    // The game's policies as the last session left them, kept by the desk between sessions (a
    // parked game often gets one search per session, so a session's own draw/resign streak
    // would never reach its length; granted takebacks count for the game); none: a new game's.
    std::optional<GamePolicies> policies;
};

// What a session knows when it asks whether to park.
struct ParkingFacts {
    bool our_turn = false;
    bool move_refused = false;  // our turn, and the server said no to our move for good
    bool move_pending = false;  // a move is being posted or waits for its retry
    // Since when the opponent has been on move (or, refused, since our turn began).
    std::chrono::steady_clock::time_point waiting_since;
    bool others_waiting = false;  // ParkingRules::games_waiting is above 0
};

// Park on the opponent's move, or after our move was refused for good (a later session tries
// again); never while a move is being posted or waits to be.
[[nodiscard]] inline bool time_to_park(std::chrono::milliseconds linger, const ParkingFacts& f,
                                       std::chrono::steady_clock::time_point now) {
    if (f.move_pending || (f.our_turn && !f.move_refused)) return false;
    return now - f.waiting_since >= linger || f.others_waiting;
}

}  // namespace service
