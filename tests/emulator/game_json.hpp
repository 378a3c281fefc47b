// The wire form of a game: gameFull and gameState lines, GameEventInfo (gameStart and
// gameFinish), and nowPlaying entries, as the Lichess spec shapes them.
#pragma once

#include <nlohmann/json.hpp>

#include "game.hpp"

namespace emu {

nlohmann::json game_state_json(const Game& g, Ms now);
nlohmann::json game_full_json(const Game& g, Ms now);
// GameEventInfo from the bot's point of view; `type` is gameStart or gameFinish.
nlohmann::json game_event_json(const Game& g, const char* type, Ms now);
nlohmann::json now_playing_json(const Game& g, Ms now);
nlohmann::json variant_json(const std::string& key);
// Whether the variant is rated in a perf of its own (chess960 and the seven variants).
bool has_own_perf(const std::string& variant);
nlohmann::json status_json(const std::string& name);

}  // namespace emu
