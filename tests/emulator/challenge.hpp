// A challenge on the emulated server (incoming from a scripted user, or created by the bot)
// and its ChallengeJson wire form.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "game.hpp"
#include "scenario.hpp"

namespace emu {

struct Challenge {
    std::string id;
    bool outgoing = false;           // created by the bot
    std::string status = "created";  // created, canceled, declined, accepted
    Player challenger, dest;
    std::string variant = "standard";
    TimeControlSpec time_control;
    bool rated = false;
    std::string color = "random";       // the challenger's choice
    std::string final_color = "white";  // the challenger's colour after the draw
    std::string initial_fen;
    std::string rematch_of;
    std::string decline_reason;      // the form value the bot sent, as sent
    std::string decline_reason_key;  // normalised lowercase key
    Ms created_ms = 0;
};

nlohmann::json challenge_json(const Challenge& c, bool with_direction);
// Lowercase key of a decline reason (case-insensitive match; unknown or empty → "generic").
std::string decline_reason_key(const std::string& reason);
// lila's English text for a reason key.
std::string decline_reason_text(const std::string& key);

}  // namespace emu
