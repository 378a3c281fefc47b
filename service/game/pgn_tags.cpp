// Result and Termination as lila writes them: modules/game/src/main/PgnDump.scala (`tags`,
// `result`: Outcome.showResult of a finished game; `termination`).
#include "service/game/pgn_tags.hpp"

namespace service {

std::string pgn_result(lichess::GameStatus status, std::optional<lichess::Color> winner) {
    switch (status) {
        // Not `finished` in lila (status < mate): no result.
        case lichess::GameStatus::Created:
        case lichess::GameStatus::Started:
        case lichess::GameStatus::Aborted:
        case lichess::GameStatus::Unknown:  // a status this client does not know: claim nothing
            return "*";
        default:
            break;
    }
    if (winner) return *winner == lichess::Color::White ? "1-0" : "0-1";
    // A mate, a resignation or a cheat ban always has a winner in lila: without one (a winner
    // the client could not read) the result is unknown, not a draw.
    if (status == lichess::GameStatus::Mate || status == lichess::GameStatus::Resign ||
        status == lichess::GameStatus::Cheat)
        return "*";
    // Every other finished game without a winner is written as a draw, unknownFinish included.
    return "1/2-1/2";
}

const char* pgn_termination(lichess::GameStatus status) {
    switch (status) {
        case lichess::GameStatus::Created:
        case lichess::GameStatus::Started:
        case lichess::GameStatus::Unknown:
            return "Unterminated";
        case lichess::GameStatus::Aborted:
        case lichess::GameStatus::NoStart:
            return "Abandoned";
        case lichess::GameStatus::Timeout:
        case lichess::GameStatus::OutOfTime:
            return "Time forfeit";
        case lichess::GameStatus::Cheat:
            return "Rules infraction";
        case lichess::GameStatus::InsufficientMaterialClaim:
            return "Insufficient material";
        case lichess::GameStatus::UnknownFinish:
            return "Unknown";
        case lichess::GameStatus::Mate:
        case lichess::GameStatus::Resign:
        case lichess::GameStatus::Stalemate:
        case lichess::GameStatus::Draw:
        case lichess::GameStatus::VariantEnd:
            return "Normal";
    }
    return "Unterminated";
}

}  // namespace service
