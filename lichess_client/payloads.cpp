// Parsing of REST replies into the structs of payloads.hpp; failures are values.
#include "lichess_client/payloads.hpp"

#include <algorithm>
#include <stdexcept>

#include "lichess_client/json_util.hpp"

namespace lichess {

using detail::json;
using detail::opt_bool;
using detail::opt_i64;
using detail::opt_int;
using detail::opt_str;
using detail::req_str;

namespace {

std::map<std::string, PerfRating> perfs_from(const json& j) {
    std::map<std::string, PerfRating> out;
    const json* perfs = detail::field(j, "perfs");
    if (perfs == nullptr || !perfs->is_object()) return out;
    for (const auto& [name, p] : perfs->items()) {
        if (!p.is_object() || !p.contains("rating")) continue;  // puzzle modes have no rating
        out[name] = PerfRating{opt_int(p, "rating").value_or(0), opt_int(p, "games").value_or(0),
                               opt_bool(p, "prov").value_or(false)};
    }
    return out;
}

}  // namespace

bool TokenInfo::has_scope(std::string_view scope) const {
    for (const auto& s : scopes)
        if (s == scope) return true;
    return false;
}

Result<Account, ParseError> parse_account(std::string_view text) {
    return detail::parse_guarded<Account>(text, detail::JsonTop::Any, [](const json& j) {
        Account a;
        a.id = req_str(j, "id");
        a.username = opt_str(j, "username").value_or(a.id);
        a.title = opt_str(j, "title");
        a.perfs = perfs_from(j);
        a.disabled = opt_bool(j, "disabled").value_or(false);
        a.tos_violation = opt_bool(j, "tosViolation").value_or(false);
        return a;
    });
}

Result<Playing, ParseError> parse_playing(std::string_view text) {
    return detail::parse_guarded<Playing>(text, detail::JsonTop::Any, [](const json& j) {
        Playing p;
        for (const auto& g : j.at("nowPlaying"))
            p.now_playing.push_back(detail::game_event_info(g));
        return p;
    });
}

Result<std::optional<TokenInfo>, ParseError> parse_token_test(std::string_view text,
                                                              std::string_view token) {
    return detail::parse_guarded<std::optional<TokenInfo>>(
        text, detail::JsonTop::Any, [token](const json& j) -> std::optional<TokenInfo> {
            const json* entry = detail::field(j, std::string(token).c_str());
            if (entry == nullptr) return std::nullopt;
            TokenInfo t;
            t.user_id = opt_str(*entry, "userId").value_or("");
            const std::string scopes = opt_str(*entry, "scopes").value_or("");
            std::size_t start = 0;
            while (start <= scopes.size()) {
                const auto comma = scopes.find(',', start);
                const auto end = comma == std::string::npos ? scopes.size() : comma;
                if (end > start) t.scopes.push_back(scopes.substr(start, end - start));
                if (comma == std::string::npos) break;
                start = comma + 1;
            }
            t.expires_ms = opt_i64(*entry, "expires");
            return t;
        });
}

Result<User, ParseError> parse_user(std::string_view text) {
    return detail::parse_guarded<User>(text, detail::JsonTop::Any, [](const json& j) {
        User u;
        u.id = req_str(j, "id");
        u.username = opt_str(j, "username").value_or(u.id);
        u.title = opt_str(j, "title");
        u.perfs = perfs_from(j);
        return u;
    });
}

Result<std::vector<UserStatus>, ParseError> parse_user_status(std::string_view text) {
    return detail::parse_guarded<std::vector<UserStatus>>(
        text, detail::JsonTop::Any, [](const json& j) {
            std::vector<UserStatus> out;
            for (const auto& e : j) {
                UserStatus s;
                s.id = req_str(e, "id");
                s.name = opt_str(e, "name").value_or(s.id);
                s.title = opt_str(e, "title");
                s.online = opt_bool(e, "online").value_or(false);
                s.playing = opt_bool(e, "playing").value_or(false);
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
    return detail::parse_guarded<Tournament>(text, detail::JsonTop::Object, [](const json& j) {
        Tournament t;
        t.id = req_str(j, "id");
        t.full_name = opt_str(j, "fullName").value_or(t.id);
        if (const auto at = opt_str(j, "startsAt")) t.starts_at_ms = parse_iso_instant(*at);
        t.minutes = opt_int(j, "minutes").value_or(0);
        t.seconds_to_start = opt_int(j, "secondsToStart");
        t.seconds_to_finish = opt_int(j, "secondsToFinish");
        t.is_started = opt_bool(j, "isStarted").value_or(false);
        t.is_finished = opt_bool(j, "isFinished").value_or(false);
        t.variant = opt_str(j, "variant").value_or("standard");
        if (const json* clock = detail::field(j, "clock"); clock != nullptr) {
            t.clock_limit_s = opt_int(*clock, "limit").value_or(0);
            t.clock_increment_s = opt_int(*clock, "increment").value_or(0);
        }
        t.rated = opt_bool(j, "rated").value_or(true);
        t.bots_allowed = opt_bool(j, "botsAllowed").value_or(false);
        t.berserkable = opt_bool(j, "berserkable").value_or(false);
        t.nb_players = opt_int(j, "nbPlayers").value_or(0);
        if (const json* me = detail::field(j, "me"); me != nullptr && me->is_object()) {
            TournamentMe m;
            m.withdraw = opt_bool(*me, "withdraw").value_or(false);
            m.pause_delay_s = opt_int(*me, "pauseDelay");
            m.game_id = opt_str(*me, "gameId");
            t.me = std::move(m);
        }
        return t;
    });
}

Result<AiGame, ParseError> parse_ai_game(std::string_view text) {
    return detail::parse_guarded<AiGame>(text, detail::JsonTop::Any, [](const json& j) {
        AiGame g;
        g.id = req_str(j, "id");
        g.full_id = opt_str(j, "fullId").value_or("");
        if (auto p = opt_str(j, "player")) g.player = parse_color(*p);
        return g;
    });
}

}  // namespace lichess
