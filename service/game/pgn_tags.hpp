// The PGN Event, Result and Termination tags of a finished game, as lila writes them.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "lichess_client/events.hpp"

namespace service {

// The Event tag (PgnDump.eventOf): "<Rated|Casual> <perf> game", or in an arena "<Rated|Casual>
// <perf> tournament https://lichess.org/tournament/<id>". The perf is the variant's name for
// Chess960 and the seven variants ("Crazyhouse", "King of the Hill"), else the speed as lila's
// PerfType.nameKey spells it ("UltraBullet", "bullet", "blitz", ..., "correspondence"). An
// empty speed of a standard game leaves the perf out.
[[nodiscard]] std::string pgn_event(bool rated, std::string_view variant_key,
                                    std::string_view speed, std::string_view tournament_id = {});

// "1-0", "0-1", "1/2-1/2" (a finished game without a winner), or "*" for a game lila does not
// count as finished (aborted, still on) or a mate, resignation or cheat ban without a winner
// (lila always names one there).
[[nodiscard]] std::string pgn_result(lichess::GameStatus status,
                                     std::optional<lichess::Color> winner);
// "Normal", "Time forfeit", "Abandoned", "Rules infraction", "Insufficient material",
// "Unknown" or "Unterminated".
[[nodiscard]] const char* pgn_termination(lichess::GameStatus status);

}  // namespace service
