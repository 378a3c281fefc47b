// Builds the JSON objects the game stream and the event stream carry for a Game.
#include "game_json.hpp"

#include <cstdio>
#include <ctime>

#include "engine/variant_table.hpp"

namespace emu {

using json = nlohmann::json;

std::string iso_utc(std::int64_t unix_ms, bool millis) {
    const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
    char tail[8];
    if (millis)
        std::snprintf(tail, sizeof tail, ".%03dZ", int(unix_ms % 1000));
    else
        std::snprintf(tail, sizeof tail, "Z");
    return std::string(text) + tail;
}

json variant_json(const std::string& key) {
    if (const engine::GameType* type = engine::find_game_type(key))
        return {{"key", key}, {"name", type->name}, {"short", type->short_name}};
    return {{"key", key}, {"name", key}};
}

bool has_own_perf(const std::string& variant) {
    const engine::GameType* type = engine::find_game_type(variant);
    return !type || !type->perf.empty();
}

json status_json(const std::string& name) {
    static const std::pair<const char*, int> ids[] = {
        {"created", 10},   {"started", 20},   {"aborted", 25}, {"mate", 30},
        {"resign", 31},    {"stalemate", 32}, {"timeout", 33}, {"draw", 34},
        {"outoftime", 35}, {"cheat", 36},     {"noStart", 37}, {"variantEnd", 60}};
    int id = 50;
    for (const auto& [n, i] : ids)
        if (name == n) id = i;
    return {{"id", id}, {"name", name}};
}

namespace {

json player_json(const Player& p) {
    json j{{"id", p.id}, {"name", p.name}, {"rating", p.rating}};
    j["title"] = p.title ? json(*p.title) : json(nullptr);
    if (p.provisional) j["provisional"] = true;
    return j;
}

std::string title_case(std::string s) {
    if (!s.empty()) s[0] = char(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

// lila's PerfType: chess960 and the seven variants have their own, standard chess one per speed.
std::string perf_key(const Game& g) {
    if (has_own_perf(g.setup().variant)) return g.setup().variant;
    return g.speed();
}

std::string perf_title(const Game& g) {
    if (has_own_perf(g.setup().variant)) return variant_json(g.setup().variant)["name"];
    return title_case(g.speed());
}

std::string fen_or_start(const Game& g) { return g.position().fen(); }

}  // namespace

json game_state_json(const Game& g, Ms now) {
    json j{{"type", "gameState"},
           {"moves", g.uci_moves()},
           {"wtime", g.remaining(engine::WHITE, now)},
           {"btime", g.remaining(engine::BLACK, now)},
           {"winc", g.has_clock() ? g.setup().time_control.increment_s * 1000 : 0},
           {"binc", g.has_clock() ? g.setup().time_control.increment_s * 1000 : 0},
           {"status", g.status()}};
    if (g.winner()) j["winner"] = color_name(*g.winner());
    if (g.draw_offer(engine::WHITE)) j["wdraw"] = true;
    if (g.draw_offer(engine::BLACK)) j["bdraw"] = true;
    if (g.takeback_offer(engine::WHITE)) j["wtakeback"] = true;
    if (g.takeback_offer(engine::BLACK)) j["btakeback"] = true;
    // modules/bot/src/main/BotJsonView.scala gameState has no `expiration` (the spec lists it;
    // lila writes it only for the web and mobile round JSON).
    (void)now;
    return j;
}

json game_full_json(const Game& g, Ms now) {
    const auto& s = g.setup();
    const bool bot_white = s.bot_color == engine::WHITE;
    json j{{"type", "gameFull"},
           {"id", s.id},
           {"variant", variant_json(s.variant)},
           {"speed", g.speed()},
           {"perf", {{"name", perf_title(g)}}},
           {"rated", s.rated},
           {"createdAt", s.created_unix_ms},
           {"white", player_json(bot_white ? s.bot : s.opponent)},
           {"black", player_json(bot_white ? s.opponent : s.bot)},
           {"initialFen", s.initial_fen.empty() ? std::string("startpos") : s.initial_fen},
           {"state", game_state_json(g, now)}};
    if (s.time_control.limit_s)
        j["clock"] = {{"initial", Ms(*s.time_control.limit_s) * 1000},
                      {"increment", Ms(s.time_control.increment_s) * 1000}};
    if (s.time_control.days) j["daysPerTurn"] = *s.time_control.days;
    if (!s.tournament_id.empty()) j["tournamentId"] = s.tournament_id;  // BotJsonView.gameImmutable
    return j;
}

namespace {

json event_info(const Game& g, Ms now) {
    const auto& s = g.setup();
    const engine::Color bot = s.bot_color;
    const Ms left = g.remaining(bot, now);
    json opp{{"id", s.opponent.id}, {"username", s.opponent.name}, {"rating", s.opponent.rating}};
    json j{{"fullId", s.id + "abcd"},
           {"gameId", s.id},
           {"id", s.id},
           {"fen", fen_or_start(g)},
           {"color", color_name(bot)},
           {"lastMove", g.last_move()},
           {"source", s.source},
           {"status", status_json(g.status())},
           {"variant", {{"key", s.variant}, {"name", variant_json(s.variant)["name"]}}},
           {"speed", g.speed()},
           {"perf", perf_key(g)},
           {"rated", s.rated},
           {"hasMoved", false},
           {"opponent", opp},
           {"isMyTurn", g.bot_to_move()},
           {"rating", s.bot.rating},
           {"compat", {{"bot", true}, {"board", true}}}};
    for (const auto& r : g.records())
        if (r.by_bot) j["hasMoved"] = true;
    if (s.time_control.limit_s || s.time_control.days) j["secondsLeft"] = left / 1000;
    if (g.winner()) j["winner"] = color_name(*g.winner());
    if (!s.tournament_id.empty()) j["tournamentId"] = s.tournament_id;
    return j;
}

}  // namespace

json game_event_json(const Game& g, const char* type, Ms now) {
    return {{"type", type}, {"game", event_info(g, now)}};
}

json now_playing_json(const Game& g, Ms now) {
    json j = event_info(g, now);
    j.erase("compat");
    j.erase("id");
    j.erase("rating");
    j["status"] = g.status();
    if (!j.contains("secondsLeft")) j["secondsLeft"] = 2147483;
    return j;
}

}  // namespace emu
