// Event, Result and Termination as lila writes them: modules/game/src/main/PgnDump.scala
// (`eventOf`; `tags`; `result`: Outcome.showResult of a finished game; `termination`).
#include "service/game/pgn_tags.hpp"

#include "engine/variant_table.hpp"

namespace service {

namespace {

// PerfType.nameKey (lila modules/rating PerfType): a variant's perf is named by scalachess's
// Variant.name, UltraBullet by Speed.name, the other speeds by their i18n key, which is the
// speed's key. Standard and fromPosition games are rated by speed (PerfKey.byVariant: none).
std::string perf_name(std::string_view variant_key, std::string_view speed) {
    const engine::GameType* row = engine::find_game_type(variant_key);
    if (row && !row->perf.empty()) return std::string(row->name);
    if (speed == "ultraBullet") return "UltraBullet";
    return std::string(speed);
}

}  // namespace

std::string pgn_event(bool rated, std::string_view variant_key, std::string_view speed,
                      std::string_view tournament_id) {
    const std::string perf = perf_name(variant_key, speed);
    std::string out = rated ? "Rated " : "Casual ";
    if (!perf.empty()) out += perf + " ";
    if (tournament_id.empty()) return out + "game";
    return out + "tournament https://lichess.org/tournament/" + std::string(tournament_id);
}

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
