// read_state(): the move list split once, the status judged once.
#include "service/game/game_facts.hpp"

#include <sstream>

namespace service {

StateFacts read_state(const lichess::GameState& state) {
    StateFacts facts;
    std::istringstream in(state.moves);
    for (std::string m; in >> m;) facts.moves.push_back(m);
    facts.unknown_status = state.status == lichess::GameStatus::Unknown;
    facts.over = lichess::is_game_over(state.status) && !facts.unknown_status;
    return facts;
}

}  // namespace service
