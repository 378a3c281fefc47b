// GamePolicies: what a game's policies remember (draw/resign streaks, our last draw offer,
// granted takebacks). A value: GameRules holds its own, and a correspondence game's desk passes
// it in to each session and takes it back when the session ends.
#pragma once

#include "config/config.hpp"
#include "service/game/draw_resign.hpp"
#include "service/game/takeback_policy.hpp"

namespace service {

struct GamePolicies {
    DrawResignPolicy draw_resign;
    TakebackPolicy takebacks;

    // A new game's, from the config.
    [[nodiscard]] static GamePolicies from(const config::DrawOrResignConfig& draw_or_resign,
                                           int max_takebacks_accepted) {
        return {DrawResignPolicy(draw_or_resign), TakebackPolicy(max_takebacks_accepted)};
    }
};

}  // namespace service
