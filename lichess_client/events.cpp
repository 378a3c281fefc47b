// Parsing of event-stream lines (and the names shared with the game stream) into the structs
// of events.hpp; game-stream lines are read in game_events.cpp.
#include "lichess_client/events.hpp"

#include <array>
#include <stdexcept>
#include <utility>

#include "lichess_client/json_util.hpp"

namespace lichess {

namespace {

constexpr std::array<std::pair<const char*, GameStatus>, 14> kStatusNames{{
    {"created", GameStatus::Created},
    {"started", GameStatus::Started},
    {"aborted", GameStatus::Aborted},
    {"mate", GameStatus::Mate},
    {"resign", GameStatus::Resign},
    {"stalemate", GameStatus::Stalemate},
    {"timeout", GameStatus::Timeout},
    {"draw", GameStatus::Draw},
    {"outoftime", GameStatus::OutOfTime},
    {"cheat", GameStatus::Cheat},
    {"noStart", GameStatus::NoStart},
    {"unknownFinish", GameStatus::UnknownFinish},
    {"insufficientMaterialClaim", GameStatus::InsufficientMaterialClaim},
    {"variantEnd", GameStatus::VariantEnd},
}};

Variant variant_from(const detail::json& j) {
    Variant v;
    v.key = detail::opt_str(j, "key").value_or("standard");
    v.name = detail::opt_str(j, "name").value_or(v.key);
    return v;
}

std::optional<Compat> compat_from(const detail::json& j) {
    const detail::json* c = detail::field(j, "compat");
    if (c == nullptr) return std::nullopt;
    return Compat{detail::opt_bool(*c, "bot").value_or(false),
                  detail::opt_bool(*c, "board").value_or(false)};
}

ChallengeUser challenge_user_from(const detail::json& j) {
    ChallengeUser u;
    u.id = detail::req_str(j, "id");
    u.name = detail::opt_str(j, "name").value_or(u.id);
    u.rating = detail::opt_int(j, "rating");
    u.title = detail::opt_str(j, "title");
    u.provisional = detail::opt_bool(j, "provisional").value_or(false);
    u.online = detail::opt_bool(j, "online");
    return u;
}

TimeControl time_control_from(const detail::json& j) {
    TimeControl tc;
    const std::string type = detail::req_str(j, "type");
    if (type == "clock") {
        tc.type = TimeControl::Type::Clock;
        tc.limit_s = detail::opt_int(j, "limit");
        tc.increment_s = detail::opt_int(j, "increment");
        tc.show = detail::opt_str(j, "show");
    } else if (type == "correspondence") {
        tc.type = TimeControl::Type::Correspondence;
        tc.days_per_turn = detail::opt_int(j, "daysPerTurn");
    } else {
        tc.type = TimeControl::Type::Unlimited;
    }
    return tc;
}

ChallengeInfo challenge_info_from(const detail::json& j) {
    ChallengeInfo c;
    c.id = detail::req_str(j, "id");
    c.url = detail::opt_str(j, "url").value_or("");
    c.status = detail::opt_str(j, "status").value_or("");
    // lila writes `challenger: null` for a challenge by an anonymous player (no account).
    if (const detail::json* u = detail::field(j, "challenger"))
        c.challenger = challenge_user_from(*u);
    else
        c.challenger.name = "Anonymous";
    if (const detail::json* d = detail::field(j, "destUser")) c.dest_user = challenge_user_from(*d);
    c.variant = variant_from(j.at("variant"));
    c.rated = detail::opt_bool(j, "rated").value_or(false);
    c.speed = detail::opt_str(j, "speed").value_or("");
    c.time_control = time_control_from(j.at("timeControl"));
    c.color = detail::opt_str(j, "color").value_or("random");
    if (auto fc = detail::opt_str(j, "finalColor")) c.final_color = parse_color(*fc);
    if (const detail::json* p = detail::field(j, "perf"))
        c.perf_name = detail::opt_str(*p, "name").value_or("");
    c.direction = detail::opt_str(j, "direction");
    c.initial_fen = detail::opt_str(j, "initialFen");
    c.rematch_of = detail::opt_str(j, "rematchOf");
    c.decline_reason = detail::opt_str(j, "declineReason");
    c.decline_reason_key = detail::opt_str(j, "declineReasonKey");
    if (const detail::json* r = detail::field(j, "rules"); r != nullptr && r->is_array()) {
        for (const auto& rule : *r)
            if (rule.is_string()) c.rules.push_back(rule.get<std::string>());
    }
    return c;
}

GameEventInfo game_info_from(const detail::json& j) {
    GameEventInfo g;
    g.game_id = detail::opt_str(j, "gameId").value_or(detail::opt_str(j, "id").value_or(""));
    if (g.game_id.empty()) throw std::invalid_argument("game has neither gameId nor id");
    g.full_id = detail::opt_str(j, "fullId").value_or("");
    if (auto c = detail::opt_str(j, "color")) g.color = parse_color(*c);
    g.fen = detail::opt_str(j, "fen");
    g.last_move = detail::opt_str(j, "lastMove");
    g.source = detail::opt_str(j, "source");
    if (const detail::json* s = detail::field(j, "status")) {
        if (auto name = detail::opt_str(*s, "name")) {
            g.status = parse_game_status(*name);
            g.status_name = std::move(name);
        }
    }
    if (const detail::json* v = detail::field(j, "variant")) g.variant = variant_from(*v);
    g.speed = detail::opt_str(j, "speed");
    g.perf = detail::opt_str(j, "perf");
    g.rated = detail::opt_bool(j, "rated");
    g.has_moved = detail::opt_bool(j, "hasMoved");
    if (const detail::json* o = detail::field(j, "opponent")) {
        GameOpponent op;
        op.id = detail::opt_str(*o, "id");
        op.username = detail::opt_str(*o, "username").value_or("");
        op.rating = detail::opt_int(*o, "rating");
        op.rating_diff = detail::opt_int(*o, "ratingDiff");
        op.ai_level = detail::opt_int(*o, "ai");
        g.opponent = std::move(op);
    }
    g.is_my_turn = detail::opt_bool(j, "isMyTurn");
    g.seconds_left = detail::opt_int(j, "secondsLeft");
    if (auto w = detail::opt_str(j, "winner")) g.winner = parse_color(*w);
    g.rating_diff = detail::opt_int(j, "ratingDiff");
    g.compat = compat_from(j);
    g.tournament_id = detail::opt_str(j, "tournamentId");
    return g;
}

}  // namespace

GameEventInfo detail::game_event_info(const detail::json& j) { return game_info_from(j); }

std::optional<Color> parse_color(std::string_view s) {
    if (s == "white") return Color::White;
    if (s == "black") return Color::Black;
    return std::nullopt;
}

const char* to_string(Color c) { return c == Color::White ? "white" : "black"; }

GameStatus parse_game_status(std::string_view name) {
    for (const auto& [n, s] : kStatusNames)
        if (name == n) return s;
    return GameStatus::Unknown;
}

const char* to_string(GameStatus s) {
    for (const auto& [n, st] : kStatusNames)
        if (st == s) return n;
    return "unknown";
}

bool is_game_over(GameStatus s) { return s != GameStatus::Created && s != GameStatus::Started; }

Result<ChallengeInfo, ParseError> challenge_from_json(const detail::json& j) {
    try {
        return challenge_info_from(j);
    } catch (const std::exception& e) {
        return ParseError{std::string("bad challenge (") + e.what() + ")"};
    }
}

Result<ChallengeInfo, ParseError> parse_challenge(std::string_view text) {
    return detail::parse_guarded<ChallengeInfo>(
        text, detail::JsonTop::Object,
        [](const detail::json& j) { return challenge_info_from(j); });
}

Result<std::optional<Event>, ParseError> parse_event(std::string_view line) {
    return detail::parse_guarded<std::optional<Event>>(
        line, detail::JsonTop::Object, [](const detail::json& j) -> std::optional<Event> {
            const std::string type = detail::opt_str(j, "type").value_or("");
            if (type == "challenge") {
                const detail::json* inner = detail::field(j, "challenge");
                try {
                    return Event{Challenge{challenge_info_from(j.at("challenge")), compat_from(j)}};
                } catch (const std::exception& e) {
                    // Keep what is needed to answer it: a challenge we cannot judge is declined.
                    auto id = inner != nullptr ? detail::opt_str(*inner, "id") : std::nullopt;
                    if (!id || id->empty()) throw;
                    return Event{ChallengeUnreadable{*id, e.what()}};
                }
            }
            if (type == "challengeCanceled") {
                return Event{ChallengeCanceled{challenge_info_from(j.at("challenge"))}};
            }
            if (type == "challengeDeclined") {
                return Event{ChallengeDeclined{challenge_info_from(j.at("challenge"))}};
            }
            if (type == "gameStart") return Event{GameStart{game_info_from(j.at("game"))}};
            if (type == "gameFinish") return Event{GameFinish{game_info_from(j.at("game"))}};
            return std::nullopt;
        });
}

const char* type_name(const Event& e) {
    static constexpr std::array<const char*, 6> kNames{
        "challenge", "challengeCanceled", "challengeDeclined",
        "gameStart", "gameFinish",        "challenge (unreadable)"};
    return kNames.at(e.index());
}

}  // namespace lichess
