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
// A time as lila writes it, in UTC: 2026-08-23T10:11:12Z, or with `millis` 2026-08-23T10:11:12.000Z
// (the tournament JsonView's isoDateTimeFormatter).
std::string iso_utc(std::int64_t unix_ms, bool millis = false);
// Whether the variant is rated in a perf of its own (chess960 and the seven variants).
bool has_own_perf(const std::string& variant);
nlohmann::json status_json(const std::string& name);

}  // namespace emu
