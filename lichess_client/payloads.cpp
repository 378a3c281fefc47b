// Parsing of REST replies into the structs of payloads.hpp; failures are values.
#include "lichess_client/payloads.hpp"

#include <algorithm>
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

std::optional<std::int64_t> parse_iso_instant(std::string_view t) {
    // YYYY-MM-DDTHH:MM:SS, optional .fraction, then Z or +00:00.
    const auto digits = [&](std::size_t at, std::size_t n) -> std::optional<int> {
        if (at + n > t.size()) return std::nullopt;
        int v = 0;
        for (std::size_t i = at; i < at + n; ++i) {
            if (t[i] < '0' || t[i] > '9') return std::nullopt;
            v = v * 10 + (t[i] - '0');
        }
        return v;
    };
    const auto year = digits(0, 4), month = digits(5, 2), day = digits(8, 2);
    const auto hour = digits(11, 2), minute = digits(14, 2), second = digits(17, 2);
    if (!year || !month || !day || !hour || !minute || !second || t[4] != '-' || t[7] != '-' ||
        (t[10] != 'T' && t[10] != ' ') || t[13] != ':' || t[16] != ':' || *month < 1 ||
        *month > 12 || *day < 1 || *day > 31 || *hour > 23 || *minute > 59 || *second > 60)
        return std::nullopt;
    std::size_t i = 19;
    int millis = 0;
    if (i < t.size() && t[i] == '.') {
        int scale = 100;
        for (++i; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i, scale /= 10)
            millis += (t[i] - '0') * scale;
    }
    const std::string_view zone = t.substr(std::min(i, t.size()));
    if (zone != "Z" && zone != "+00:00" && !zone.empty()) return std::nullopt;
    // Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    const int y = *year - (*month <= 2 ? 1 : 0);
    const int era = (y >= 0 ? y : y - 399) / 400;
    const int yoe = y - era * 400;
    const int mp = (*month + 9) % 12;
    const int doy = (153 * mp + 2) / 5 + *day - 1;
    const int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    const std::int64_t days = static_cast<std::int64_t>(era) * 146097 + doe - 719468;
    return ((days * 24 + *hour) * 60 + *minute) * 60000 + std::int64_t{*second} * 1000 + millis;
}

Result<Tournament, ParseError> parse_tournament(std::string_view text) {
    return detail::parse_guarded<Tournament>(
        text, detail::JsonTop::Object, [](const detail::json& j) {
            Tournament t;
            t.id = detail::req_str(j, "id");
            t.full_name = detail::opt_str(j, "fullName").value_or(t.id);
            if (const auto at = detail::opt_str(j, "startsAt"))
                t.starts_at_ms = parse_iso_instant(*at);
            t.minutes = detail::opt_int(j, "minutes").value_or(0);
            t.seconds_to_start = detail::opt_int(j, "secondsToStart");
            t.seconds_to_finish = detail::opt_int(j, "secondsToFinish");
            t.is_started = detail::opt_bool(j, "isStarted").value_or(false);
            t.is_finished = detail::opt_bool(j, "isFinished").value_or(false);
            t.variant = detail::opt_str(j, "variant").value_or("standard");
            if (const detail::json* clock = detail::field(j, "clock"); clock != nullptr) {
                t.clock_limit_s = detail::opt_int(*clock, "limit").value_or(0);
                t.clock_increment_s = detail::opt_int(*clock, "increment").value_or(0);
            }
            t.rated = detail::opt_bool(j, "rated").value_or(true);
            t.bots_allowed = detail::opt_bool(j, "botsAllowed").value_or(false);
            t.berserkable = detail::opt_bool(j, "berserkable").value_or(false);
            t.nb_players = detail::opt_int(j, "nbPlayers").value_or(0);
            if (const detail::json* me = detail::field(j, "me"); me != nullptr && me->is_object()) {
                TournamentMe m;
                m.withdraw = detail::opt_bool(*me, "withdraw").value_or(false);
                m.pause_delay_s = detail::opt_int(*me, "pauseDelay");
                m.game_id = detail::opt_str(*me, "gameId");
                t.me = std::move(m);
            }
            return t;
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
