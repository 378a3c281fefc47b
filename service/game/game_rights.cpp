// GameRights: lila's abortable, canTakebackOrAddTime, drawable and forceResignable, per game.
#include "service/game/game_rights.hpp"

#include <algorithm>

namespace service {

GameRights rights_of(const std::optional<std::string>& source, bool in_arena,
                     const std::vector<std::string>& rules) {
    const auto has = [&](const char* rule) {
        return std::find(rules.begin(), rules.end(), rule) != rules.end();
    };
    const std::string from = source.value_or("");
    const bool arena = in_arena || from == "arena" || from == "tournament";
    const bool swiss = from == "swiss";
    GameRights r;
    r.arena = arena;
    r.mandatory = arena || swiss || from == "simul";
    r.abort = !r.mandatory && !has("noAbort");
    r.takeback = !r.mandatory;
    r.claim_win = !swiss && !has("noClaimWin");
    // playerCanOfferDraw wants ply 2 in every game (an abortable one is not drawable either);
    // swissPreventsDraw and rulePreventsDraw hold offers back until ply 60.
    r.draw_from_ply = swiss || has("noEarlyDraw") ? 60 : 2;
    return r;
}

}  // namespace service
