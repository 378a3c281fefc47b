// StateFacts: what one gameState says about the game, read once where the line arrives. The
// session's stream thread acts on it at once (a final state stops a running search; a move the
// server's list shows is not posted again) and hands it on with the line; GameRules takes it as
// it is. Nothing else splits a move list or judges a status.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "lichess_client/events.hpp"

namespace service {

struct StateFacts {
    std::vector<std::string> moves;  // the move list, in the server's notation
    // A final status: the game has ended (lichess::is_game_over, but never for Unknown).
    bool over = false;
    // A status this client does not know (newer than it): no end, but the game cannot be
    // judged; the rules leave it rather than lose it on time.
    bool unknown_status = false;

    [[nodiscard]] std::size_t plies() const { return moves.size(); }
};

[[nodiscard]] StateFacts read_state(const lichess::GameState& state);

}  // namespace service
