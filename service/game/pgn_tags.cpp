// Result and Termination as lila writes them: modules/game/src/main/PgnDump.scala (`tags`,
// `result`: Outcome.showResult of a finished game; `termination`).
#include "service/game/pgn_tags.hpp"

namespace service {

using lichess::GameStatus;

std::string pgn_result(GameStatus status, std::optional<lichess::Color> winner) {
    switch (status) {
        // Not `finished` in lila (status < mate): no result.
        case GameStatus::Created:
        case GameStatus::Started:
        case GameStatus::Aborted:
        case GameStatus::Unknown:  // a status this client does not know: claim nothing
            return "*";
        default:
            break;
    }
    if (winner) return *winner == lichess::Color::White ? "1-0" : "0-1";
    // Every finished game without a winner is written as a draw, unknownFinish included.
    return "1/2-1/2";
}

const char* pgn_termination(GameStatus status) {
    switch (status) {
        case GameStatus::Created:
        case GameStatus::Started:
        case GameStatus::Unknown:
            return "Unterminated";
        case GameStatus::Aborted:
        case GameStatus::NoStart:
            return "Abandoned";
        case GameStatus::Timeout:
        case GameStatus::OutOfTime:
            return "Time forfeit";
        case GameStatus::Cheat:
            return "Rules infraction";
        case GameStatus::InsufficientMaterialClaim:
            return "Insufficient material";
        case GameStatus::UnknownFinish:
            return "Unknown";
        case GameStatus::Mate:
        case GameStatus::Resign:
        case GameStatus::Stalemate:
        case GameStatus::Draw:
        case GameStatus::VariantEnd:
            return "Normal";
    }
    return "Unterminated";
}

}  // namespace service
