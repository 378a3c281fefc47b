// The PGN Result and Termination tags of a finished game, as lila writes them for its status.
#pragma once

#include <optional>
#include <string>

#include "lichess_client/events.hpp"

namespace service {

// "1-0", "0-1", "1/2-1/2" (a finished game without a winner), or "*" for a game lila does not
// count as finished (aborted, still on) or a mate, resignation or cheat ban without a winner
// (lila always names one there).
[[nodiscard]] std::string pgn_result(lichess::GameStatus status,
                                     std::optional<lichess::Color> winner);
// "Normal", "Time forfeit", "Abandoned", "Rules infraction", "Insufficient material",
// "Unknown" or "Unterminated".
[[nodiscard]] const char* pgn_termination(lichess::GameStatus status);

}  // namespace service
