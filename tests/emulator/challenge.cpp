// ChallengeJson and decline reasons as the spec and lila's translations define them.
#include "challenge.hpp"

#include <algorithm>
#include <cctype>

#include "game_json.hpp"

namespace emu {

using json = nlohmann::json;

namespace {

json user_json(const Player& p) {
    json j{{"id", p.id}, {"name", p.name}, {"rating", p.rating}, {"online", true}};
    if (p.title) j["title"] = *p.title;
    if (p.provisional) j["provisional"] = true;
    return j;
}

json time_control_json(const TimeControlSpec& tc) {
    if (tc.limit_s) {
        std::string show;
        const int limit = *tc.limit_s;
        if (limit == 15)
            show = "¼";
        else if (limit == 30)
            show = "½";
        else if (limit == 45)
            show = "¾";
        else if (limit == 90)
            show = "1.5";
        else
            show = std::to_string(limit / 60);
        show += "+" + std::to_string(tc.increment_s);
        return {{"type", "clock"}, {"limit", limit}, {"increment", tc.increment_s}, {"show", show}};
    }
    if (tc.days) return {{"type", "correspondence"}, {"daysPerTurn", *tc.days}};
    return {{"type", "unlimited"}};
}

std::string perf_name(const Challenge& c) {
    if (has_own_perf(c.variant)) return variant_json(c.variant)["name"];
    std::string s = speed_of(c.time_control);
    if (s == "ultraBullet") return "UltraBullet";
    s[0] = char(std::toupper(static_cast<unsigned char>(s[0])));
    return s;
}

}  // namespace

json challenge_json(const Challenge& c, bool with_direction) {
    json v = variant_json(c.variant);
    json j{{"id", c.id},
           {"url", "https://lichess.org/" + c.id},
           {"status", c.status},
           {"challenger", user_json(c.challenger)},
           {"destUser", user_json(c.dest)},
           {"variant", v},
           {"rated", c.rated},
           {"speed", speed_of(c.time_control)},
           {"timeControl", time_control_json(c.time_control)},
           {"color", c.color},
           {"finalColor", c.final_color},
           {"perf", {{"icon", "\xee\x80\x97"}, {"name", perf_name(c)}}}};
    if (!c.initial_fen.empty()) j["initialFen"] = c.initial_fen;
    if (!c.rematch_of.empty()) j["rematchOf"] = c.rematch_of;
    if (c.status == "declined") {
        j["declineReason"] = decline_reason_text(c.decline_reason_key);
        j["declineReasonKey"] = c.decline_reason_key;
    }
    if (with_direction) j["direction"] = c.outgoing ? "out" : "in";
    return j;
}

std::string decline_reason_key(const std::string& reason) {
    static const char* keys[] = {"generic",     "later", "toofast", "tooslow",
                                 "timecontrol", "rated", "casual",  "standard",
                                 "variant",     "nobot", "onlybot"};
    std::string lower = reason;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char ch) { return char(std::tolower(ch)); });
    for (const char* k : keys)
        if (lower == k) return lower;
    return "generic";
}

std::string decline_reason_text(const std::string& key) {
    if (key == "later") return "This is not the right time for me, please ask again later.";
    if (key == "toofast")
        return "This time control is too fast for me, please challenge again with a slower game.";
    if (key == "tooslow")
        return "This time control is too slow for me, please challenge again with a faster game.";
    if (key == "timecontrol") return "I'm not accepting challenges with this time control.";
    if (key == "rated") return "Please send me a rated challenge instead.";
    if (key == "casual") return "Please send me a casual challenge instead.";
    if (key == "standard") return "I'm not accepting variant challenges right now.";
    if (key == "variant") return "This variant is not supported.";
    if (key == "nobot") return "I'm not accepting challenges from bots.";
    if (key == "onlybot") return "I'm only accepting challenges from bots.";
    return "I'm not accepting challenges at the moment.";
}

}  // namespace emu
