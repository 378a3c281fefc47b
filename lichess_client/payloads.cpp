// Parsing of REST replies into the structs of payloads.hpp; failures are values.
#include "lichess_client/payloads.hpp"

#include <stdexcept>

#include "lichess_client/json_util.hpp"

namespace lichess {

namespace {

std::map<std::string, PerfRating> perfs_from(const detail::json& j) {
    std::map<std::string, PerfRating> out;
    const detail::json* perfs = detail::field(j, "perfs");
    if (perfs == nullptr || !perfs->is_object()) return out;
    for (const auto& [name, p] : perfs->items()) {
        if (!p.is_object() || !p.contains("rating")) continue;  // puzzle modes have no rating
        out[name] = PerfRating{detail::opt_int(p, "rating").value_or(0),
                               detail::opt_int(p, "games").value_or(0),
                               detail::opt_bool(p, "prov").value_or(false)};
    }
    return out;
}

// What a User (GET /api/bot/online) and an Account (GET /api/account) both read: who, and the
// ratings.
template <class Profile>
Profile profile_from(const detail::json& j) {
    Profile p;
    p.id = detail::req_str(j, "id");
    p.username = detail::opt_str(j, "username").value_or(p.id);
    p.title = detail::opt_str(j, "title");
    p.perfs = perfs_from(j);
    return p;
}

}  // namespace

bool TokenInfo::has_scope(std::string_view scope) const {
    for (const auto& s : scopes)
        if (s == scope) return true;
    return false;
}

Result<Account, ParseError> parse_account(std::string_view text) {
    return detail::parse_guarded<Account>(text, detail::JsonTop::Any, [](const detail::json& j) {
        auto a = profile_from<Account>(j);
        a.disabled = detail::opt_bool(j, "disabled").value_or(false);
        a.tos_violation = detail::opt_bool(j, "tosViolation").value_or(false);
        return a;
    });
}

Result<Playing, ParseError> parse_playing(std::string_view text) {
    return detail::parse_guarded<Playing>(text, detail::JsonTop::Any, [](const detail::json& j) {
        Playing p;
        for (const auto& g : j.at("nowPlaying"))
            p.now_playing.push_back(detail::game_event_info(g));
        return p;
    });
}

Result<std::optional<TokenInfo>, ParseError> parse_token_test(std::string_view text,
                                                              std::string_view token) {
    return detail::parse_guarded<std::optional<TokenInfo>>(
        text, detail::JsonTop::Any, [token](const detail::json& j) -> std::optional<TokenInfo> {
            const detail::json* entry = detail::field(j, std::string(token).c_str());
            if (entry == nullptr) return std::nullopt;
            TokenInfo t;
            t.user_id = detail::opt_str(*entry, "userId").value_or("");
            const std::string scopes = detail::opt_str(*entry, "scopes").value_or("");
            std::size_t start = 0;
            while (start <= scopes.size()) {
                const auto comma = scopes.find(',', start);
                const auto end = comma == std::string::npos ? scopes.size() : comma;
                if (end > start) t.scopes.push_back(scopes.substr(start, end - start));
                if (comma == std::string::npos) break;
                start = comma + 1;
            }
            t.expires_ms = detail::opt_i64(*entry, "expires");
            return t;
        });
}

Result<User, ParseError> parse_user(std::string_view text) {
    return detail::parse_guarded<User>(text, detail::JsonTop::Any, &profile_from<User>);
}

Result<std::vector<UserStatus>, ParseError> parse_user_status(std::string_view text) {
    return detail::parse_guarded<std::vector<UserStatus>>(
        text, detail::JsonTop::Any, [](const detail::json& j) {
            std::vector<UserStatus> out;
            for (const auto& e : j) {
                UserStatus s;
                s.id = detail::req_str(e, "id");
                s.name = detail::opt_str(e, "name").value_or(s.id);
                s.title = detail::opt_str(e, "title");
                s.online = detail::opt_bool(e, "online").value_or(false);
                s.playing = detail::opt_bool(e, "playing").value_or(false);
                out.push_back(std::move(s));
            }
            return out;
        });
}

Result<AiGame, ParseError> parse_ai_game(std::string_view text) {
    return detail::parse_guarded<AiGame>(text, detail::JsonTop::Any, [](const detail::json& j) {
        AiGame g;
        g.id = detail::req_str(j, "id");
        g.full_id = detail::opt_str(j, "fullId").value_or("");
        if (auto p = detail::opt_str(j, "player")) g.player = parse_color(*p);
        return g;
    });
}

}  // namespace lichess
