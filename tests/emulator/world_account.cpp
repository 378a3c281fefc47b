// Account and user endpoints: token check, profile, ongoing games, token test, BOT upgrade,
// online bots and user status.
#include <nlohmann/json.hpp>

#include <limits>
#include <sstream>

#include "game_json.hpp"
#include "world.hpp"

namespace emu {

using json = nlohmann::json;

namespace {

json perf(int rating, int games) {
    return {{"games", games}, {"rating", rating}, {"rd", 60}, {"prog", 0}};
}

json user_object(const std::string& name, const std::optional<std::string>& title, int rating,
                 std::int64_t now_unix) {
    json j{{"id", lower(name)},
           {"username", name},
           {"perfs",
            {{"bullet", perf(rating, 10)},
             {"blitz", perf(rating, 10)},
             {"rapid", perf(rating, 10)},
             {"classical", perf(rating, 10)},
             {"correspondence", perf(rating, 0)}}},
           {"createdAt", now_unix - 86'400'000LL * 365},
           {"seenAt", now_unix},
           {"playTime", {{"total", 3600}, {"tv", 0}}}};
    if (title) j["title"] = *title;
    return j;
}

}  // namespace

bool World::authorized(const std::string& header) const {
    const std::string prefix = "Bearer ";
    return header.size() > prefix.size() && header.compare(0, prefix.size(), prefix) == 0 &&
           header.substr(prefix.size()) == scenario_.account.token;
}

Reply World::account() {
    std::lock_guard lock(mutex_);
    const auto& a = scenario_.account;
    json j = user_object(a.username, title_, a.rating, unix_ms());
    int playing = 0;
    for (const auto& [id, s] : games_) playing += s->game.over() ? 0 : 1;
    j["url"] = "https://lichess.org/@/" + a.username;
    j["count"] = {{"all", a.played_games + int(games_.size())},
                  {"rated", 0},
                  {"draw", 0},
                  {"loss", 0},
                  {"win", 0},
                  {"bookmark", 0},
                  {"playing", playing},
                  {"import", 0},
                  {"me", 0}};
    return {200, "application/json", j.dump()};
}

Reply World::playing(int nb) {
    std::lock_guard lock(mutex_);
    json now_playing = json::array();
    int my_turn = 0;
    // The most urgent first: the bot's turn, least time left.
    std::vector<const Game*> list;
    for (const auto& id : game_order_)
        if (!games_[id]->game.over()) list.push_back(&games_[id]->game);
    const Ms t = now();
    std::stable_sort(list.begin(), list.end(), [&](const Game* a, const Game* b) {
        if (a->bot_to_move() != b->bot_to_move()) return a->bot_to_move();
        return a->remaining(a->bot_color(), t) < b->remaining(b->bot_color(), t);
    });
    for (const Game* g : list) {
        if (g->bot_to_move()) ++my_turn;
        if (int(now_playing.size()) < std::clamp(nb, 1, 50))
            now_playing.push_back(now_playing_json(*g, t));
    }
    // app/controllers/Account.scala doNowPlaying: only `nowPlaying` (the spec's nbMyTurn is the
    // lobby's).
    (void)my_turn;
    return {200, "application/json", json{{"nowPlaying", now_playing}}.dump()};
}

Reply World::token_test(const std::string& body) {
    std::lock_guard lock(mutex_);
    json out = json::object();
    std::stringstream in(body);
    for (std::string tok; std::getline(in, tok, ',');) {
        while (!tok.empty() && std::isspace(static_cast<unsigned char>(tok.back()))) tok.pop_back();
        while (!tok.empty() && std::isspace(static_cast<unsigned char>(tok.front())))
            tok.erase(tok.begin());
        if (tok.empty()) continue;
        if (tok == scenario_.account.token)
            out[tok] = {{"userId", lower(scenario_.account.username)},
                        {"scopes", scenario_.account.scopes},
                        {"expires", nullptr}};
        else
            out[tok] = nullptr;
    }
    return {200, "application/json", out.dump()};
}

Reply World::upgrade() {
    std::lock_guard lock(mutex_);
    if (title_ && *title_ == "BOT")
        return error_reply(400, "This account is already a bot account.");
    if (scenario_.account.played_games > 0 || !games_.empty())
        return error_reply(
            400, "This account has played games and cannot be upgraded to a bot account.");
    title_ = "BOT";
    return ok_reply();
}

Reply World::bots_online(int nb) {
    std::lock_guard lock(mutex_);
    std::string body;
    int n = 0;
    // modules/bot/src/main/OnlineApiUsers.scala: without nb every online bot, with nb the first
    // nb (no default, no maximum, unlike the spec's 100/512).
    const int limit = nb < 0 ? std::numeric_limits<int>::max() : nb;
    if (title_ == "BOT" && events_ && !events_->closed() && n < limit) {
        body += user_object(scenario_.account.username, title_, scenario_.account.rating, unix_ms())
                    .dump() +
                "\n";
        ++n;
    }
    for (const auto& b : scenario_.online_bots) {
        if (n >= limit) break;
        if (!b.online) continue;
        body += user_object(b.name, std::string("BOT"), b.rating, unix_ms()).dump() + "\n";
        ++n;
    }
    return {200, "application/x-ndjson", body};
}

Reply World::users_status(const std::string& ids) {
    std::lock_guard lock(mutex_);
    json out = json::array();
    std::stringstream in(ids);
    for (std::string id; std::getline(in, id, ',');) {
        const std::string key = lower(id);
        std::optional<UserSpec> user;
        bool online = false, playing = false;
        if (key == lower(scenario_.account.username)) {
            user = UserSpec{scenario_.account.username, title_, scenario_.account.rating};
            online = events_ && !events_->closed();
        }
        for (const auto& b : scenario_.online_bots)
            if (lower(b.name) == key) {
                user = b;
                online = b.online;
            }
        for (const auto& [gid, s] : games_) {
            const auto& o = s->game.setup().opponent;
            if (o.id == key && !user) user = UserSpec{o.name, o.title, o.rating};
            if (!s->game.over() && (o.id == key || key == lower(scenario_.account.username)))
                playing = true;
            if (o.id == key && !s->gone) online = true;
        }
        if (!user) continue;
        json j{{"id", key}, {"name", user->name}, {"online", online}};
        if (user->title) j["title"] = *user->title;
        if (playing) j["playing"] = true;
        out.push_back(j);
    }
    return {200, "application/json", out.dump()};
}

}  // namespace emu
