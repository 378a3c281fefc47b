// Endpoint dispatch for the Bot API subset the bot uses.
#include "router.hpp"

#include <vector>

namespace emu {

namespace {

std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> out;
    std::size_t start = 1;
    while (start <= path.size()) {
        const auto end = path.find('/', start);
        const auto part =
            path.substr(start, end == std::string::npos ? std::string::npos : end - start);
        out.push_back(url_decode(part, false));
        if (end == std::string::npos) break;
        start = end + 1;
    }
    return out;
}

// The query without parameters that could carry a token.
std::string safe_query(const std::string& query) {
    std::string out;
    std::size_t start = 0;
    while (start <= query.size() && !query.empty()) {
        auto end = query.find('&', start);
        if (end == std::string::npos) end = query.size();
        const auto part = query.substr(start, end - start);
        const auto key = part.substr(0, part.find('='));
        if (key != "token" && key != "opponentToken" && key != "access_token") {
            if (!out.empty()) out += '&';
            out += part;
        }
        start = end + 1;
    }
    return out;
}

std::string html_page(int status, const std::string& title) {
    return "<!DOCTYPE html>\n<html><head><title>" + std::to_string(status) + " " + title +
           "</title></head><body><center><h1>" + std::to_string(status) + " " + title +
           "</h1></center><hr><center>nginx</center></body></html>\n";
}

const char* reason_of(int status) {
    switch (status) {
        case 500:
            return "Internal Server Error";
        case 502:
            return "Bad Gateway";
        case 503:
            return "Service Unavailable";
        case 504:
            return "Gateway Timeout";
        case 401:
            return "No such token";
        case 403:
            return "Missing scope";
        case 404:
            return "No such game";
        default:
            return status < 500 ? "Bad request" : "Server Error";
    }
}

bool is_public(const std::string& path) {
    return path == "/api/bot/online" || path == "/api/token/test" || path == "/api/users/status";
}

}  // namespace

Reply fault_reply(const FaultSpec& f) {
    if (f.kind == FaultSpec::Kind::HTTP_429) {
        Reply r;
        if (f.html) {
            r = {429, "text/html; charset=utf-8", html_page(429, "Too Many Requests")};
        } else {
            nlohmann::json j{{"error", "Too many requests. Try again later."}};
            if (f.ratelimit_seconds >= 0)
                j["ratelimit"] = {{"key", "emulator.fault"}, {"seconds", f.ratelimit_seconds}};
            r = {429, "application/json", j.dump()};
        }
        if (f.retry_after_s >= 0)
            r.headers.emplace_back("Retry-After", std::to_string(f.retry_after_s));
        return r;
    }
    if (!f.html) return error_reply(f.status, reason_of(f.status));
    return {f.status, "text/html; charset=utf-8", html_page(f.status, reason_of(f.status))};
}

std::string url_decode(const std::string& s, bool plus_is_space) {
    std::string out;
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] == '%' && i + 2 < s.size() + 0 &&
            std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
            out += char(std::stoi(s.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else if (s[i] == '+' && plus_is_space) {
            out += ' ';
        } else {
            out += s[i];
        }
    }
    return out;
}

std::map<std::string, std::string> parse_form(const std::string& s) {
    std::map<std::string, std::string> out;
    std::size_t start = 0;
    while (start < s.size()) {
        auto end = s.find('&', start);
        if (end == std::string::npos) end = s.size();
        const auto part = s.substr(start, end - start);
        const auto eq = part.find('=');
        if (!part.empty())
            out[url_decode(part.substr(0, eq), true)] =
                eq == std::string::npos ? "" : url_decode(part.substr(eq + 1), true);
        start = end + 1;
    }
    return out;
}

Routed Router::route(const Request& req) {
    const std::string family = endpoint_family(req.path);
    const auto parts = split_path(req.path);
    std::string game_id;
    if (family == "game_stream" && parts.size() >= 5) game_id = parts[4];
    if ((family == "move" || family == "game_action") && parts.size() >= 4) game_id = parts[3];

    RequestRecord rec{world_.now(), req.method, req.path, safe_query(req.query), family, 0, ""};
    Routed out;
    Ms hold_reply_ms = 0;  // a held answer: the request takes effect now, the reply comes late
    for (const auto& f : faults_.take_http(family, game_id, world_.now(), req.path)) {
        if (f.kind == FaultSpec::Kind::DELAY) {
            recorder_.fault({world_.now(), f.hold_reply ? "hold" : "delay", family, game_id,
                             std::to_string(f.delay_ms) + " ms"});
            if (f.hold_reply)
                hold_reply_ms += f.delay_ms;
            else
                world_.sleep_for(f.delay_ms);
            continue;
        }
        if (!out.reply) {
            out.reply = fault_reply(f);
            rec.fault = fault_kind_name(f.kind);
            recorder_.fault(
                {world_.now(), rec.fault, family, game_id, std::to_string(out.reply->status)});
        }
    }
    // challenge.online_block_list (not a lila endpoint): plain text, no token needed.
    for (const auto& list : world_.scenario().block_lists) {
        if (out.reply || req.method != "GET" || req.path != list.path) continue;
        std::string body;
        for (const auto& name : list.names) body += name + "\n";
        // A list is public: a client that sends its Lichess token along leaks it.
        if (!req.authorization.empty())
            out.reply = Reply{400, "text/plain; charset=utf-8", "no Authorization expected\n"};
        else
            out.reply = list.status == 200 ? Reply{200, "text/plain; charset=utf-8", body}
                                           : Reply{list.status, "text/plain; charset=utf-8",
                                                   "block list unavailable\n"};
    }
    if (!out.reply) {
        if (!is_public(req.path) && !world_.authorized(req.authorization))
            out.reply = error_reply(
                401, req.authorization.empty() ? "Missing authorization" : "No such token");
        else
            out = dispatch(req, family, game_id);
    }
    rec.status = out.reply ? out.reply->status : 200;
    recorder_.request(rec);
    if (hold_reply_ms > 0) world_.sleep_for(hold_reply_ms);
    return out;
}

Routed Router::dispatch(const Request& req, const std::string& family, const std::string& game_id) {
    const auto p = split_path(req.path);
    const auto query = parse_form(req.query);
    const bool get = req.method == "GET", post = req.method == "POST";
    auto q = [&](const char* key, const std::string& fallback) {
        const auto it = query.find(key);
        return it == query.end() ? fallback : it->second;
    };
    auto nb = [&](int fallback) {
        const auto v = q("nb", "");
        return !v.empty() && v.size() < 6 && v.find_first_not_of("0123456789") == std::string::npos
                   ? std::stoi(v)
                   : fallback;
    };
    auto reply = [](Reply r) {
        Routed out;
        out.reply = std::move(r);
        return out;
    };

    if (get && req.path == "/api/account") return reply(world_.account());
    if (get && req.path == "/api/account/playing") return reply(world_.playing(nb(9)));
    if (post && req.path == "/api/token/test") return reply(world_.token_test(req.body));
    if (post && req.path == "/api/bot/account/upgrade") return reply(world_.upgrade());
    if (get && req.path == "/api/bot/online")
        return reply(world_.bots_online(nb(-1)));  // lila: no nb, no limit
    if (get && req.path == "/api/users/status") return reply(world_.users_status(q("ids", "")));
    if (get && req.path == "/api/stream/event") {
        Routed out;
        out.stream = world_.open_event_stream(faults_.take_stream(family, "", world_.now()));
        return out;
    }
    if (get && family == "game_stream" && p.size() == 5) {
        auto r =
            world_.open_game_stream(game_id, faults_.take_stream(family, game_id, world_.now()));
        Routed out;
        if (auto* s = std::get_if<StreamStart>(&r))
            out.stream = std::move(*s);
        else
            out.reply = std::get<Reply>(r);
        return out;
    }
    if (p.size() >= 5 && p[0] == "api" && p[1] == "bot" && p[2] == "game") {
        const auto& action = p[4];
        if (post && action == "move" && p.size() == 6) {
            std::optional<bool> offering;
            const auto od = q("offeringDraw", "");
            if (od == "true") offering = true;
            if (od == "false") offering = false;
            return reply(world_.move(game_id, p[5], offering));
        }
        if (action == "chat" && p.size() == 5) {
            if (get) return reply(world_.chat_history(game_id));
            if (post) {
                const auto form = parse_form(req.body);
                const auto room = form.count("room") ? form.at("room") : "";
                const auto text = form.count("text") ? form.at("text") : "";
                return reply(world_.chat(game_id, room, text));
            }
        }
        if (post && p.size() == 5) {
            if (action == "abort") return reply(world_.abort(game_id));
            if (action == "resign") return reply(world_.resign(game_id));
            if (action == "claim-victory") return reply(world_.claim_victory(game_id));
            if (action == "claim-draw") return reply(world_.claim_draw(game_id));
        }
        if (post && p.size() == 6 && (action == "draw" || action == "takeback")) {
            const auto& v = p[5];
            if (v != "yes" && v != "no" && v != "true" && v != "false")
                return reply(error_reply(400, "accept: must be yes or no"));
            const bool yes = v == "yes" || v == "true";
            return reply(action == "draw" ? world_.draw(game_id, yes)
                                          : world_.takeback(game_id, yes));
        }
    }
    if (post && p.size() == 4 && p[0] == "api" && p[1] == "challenge") {
        if (p[3] == "accept") return reply(world_.accept_challenge(p[2]));
        if (p[3] == "decline") {
            const auto form = parse_form(req.body);
            return reply(
                world_.decline_challenge(p[2], form.count("reason") ? form.at("reason") : ""));
        }
        if (p[3] == "cancel") return reply(world_.cancel_challenge(p[2]));
    }
    if (post && p.size() == 3 && p[0] == "api" && p[1] == "challenge" && p[2] != "ai")
        return reply(world_.create_challenge(p[2], parse_form(req.body)));
    if (p.size() >= 3 && p[0] == "api" && p[1] == "tournament") {
        if (get && p.size() == 3) return reply(world_.tournament(p[2]));
        if (post && p.size() == 4 && p[3] == "join")
            return reply(world_.join_tournament(p[2], parse_form(req.body)));
        if (post && p.size() == 4 && p[3] == "withdraw")
            return reply(world_.withdraw_tournament(p[2]));
    }
    return reply(error_reply(404, "Not found"));
}

}  // namespace emu
