// Loads a Scenario from YAML (JSON is valid YAML too) with yaml-cpp; unknown keys are errors.
#include "scenario.hpp"

#include <yaml-cpp/yaml.h>

#include <nlohmann/json.hpp>

#include <array>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "engine/position.hpp"
#include "faults.hpp"
#include "online_fixtures.hpp"

namespace emu {
namespace {

struct ScenarioError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

std::string where(const YAML::Node& n) {
    return " (line " + std::to_string(n.Mark().line + 1) + ")";
}

void check_keys(const YAML::Node& n, const std::string& path, std::set<std::string> allowed) {
    if (!n.IsMap()) throw ScenarioError(path + ": expected a mapping" + where(n));
    for (const auto& kv : n) {
        const auto key = kv.first.as<std::string>();
        if (!allowed.count(key))
            throw ScenarioError("unknown key " + path + "." + key + where(kv.first));
    }
}

template <class T>
void get(const YAML::Node& n, const char* key, T& out, const std::string& path) {
    const auto v = n[key];
    if (!v) return;
    try {
        out = v.as<T>();
    } catch (const YAML::Exception&) {
        throw ScenarioError("wrong type for " + path + "." + key + where(v));
    }
}

void get_opt_string(const YAML::Node& n, const char* key, std::optional<std::string>& out,
                    const std::string& path) {
    const auto v = n[key];
    if (!v) return;
    if (v.IsNull()) {
        out.reset();
        return;
    }
    std::string s;
    get(n, key, s, path);
    out = s;
}

OpponentSpec::Kind opponent_kind(const std::string& s, const std::string& path) {
    if (s == "random") return OpponentSpec::Kind::RANDOM;
    if (s == "line") return OpponentSpec::Kind::LINE;
    if (s == "engine") return OpponentSpec::Kind::ENGINE;
    if (s == "staller") return OpponentSpec::Kind::STALLER;
    throw ScenarioError(path + ": unknown opponent kind '" + s + "'");
}

UserSpec parse_user(const YAML::Node& n, const std::string& path, UserSpec u = {}) {
    if (!n) return u;
    check_keys(n, path, {"name", "title", "rating", "provisional", "online", "bot_games_today"});
    get(n, "name", u.name, path);
    get_opt_string(n, "title", u.title, path);
    get(n, "rating", u.rating, path);
    get(n, "provisional", u.provisional, path);
    get(n, "online", u.online, path);
    get(n, "bot_games_today", u.bot_games_today, path);
    return u;
}

OpponentSpec parse_opponent(const YAML::Node& n, const std::string& path) {
    OpponentSpec o;
    if (!n) return o;
    check_keys(n, path,
               {"kind",
                "name",
                "title",
                "rating",
                "think_ms",
                "moves",
                "then",
                "depth",
                "nodes",
                "search",
                "stall_from_ply",
                "resign_at_ply",
                "offer_draw_at_ply",
                "accept_draw",
                "takeback_at_ply",
                "takeback_on_turn_at_plies",
                "accept_takeback",
                "go_away_at_ply",
                "go_away_on_bot_turn",
                "bot_games_today",
                "claim_win_in_seconds",
                "come_back_after_ms",
                "chat"});
    std::string kind = "random", then = "random";
    get(n, "kind", kind, path);
    o.kind = opponent_kind(kind, path + ".kind");
    get(n, "then", then, path);
    o.then = opponent_kind(then, path + ".then");
    get(n, "name", o.user.name, path);
    get_opt_string(n, "title", o.user.title, path);
    get(n, "rating", o.user.rating, path);
    get(n, "think_ms", o.think_ms, path);
    if (n["moves"]) {
        if (n["moves"].IsSequence()) {
            get(n, "moves", o.line, path);
        } else {
            std::string text;
            get(n, "moves", text, path);
            std::istringstream in(text);
            for (std::string m; in >> m;) o.line.push_back(m);
        }
    }
    get(n, "depth", o.depth, path);
    get(n, "nodes", o.nodes, path);
    std::string search = "outpost";
    get(n, "search", search, path);
    if (search != "outpost" && search != "material")
        throw ScenarioError(path + ".search: outpost or material");
    o.outpost_search = search == "outpost";
    get(n, "stall_from_ply", o.stall_from_ply, path);
    get(n, "resign_at_ply", o.resign_at_ply, path);
    get(n, "offer_draw_at_ply", o.offer_draw_at_ply, path);
    get(n, "accept_draw", o.accept_draw, path);
    get(n, "takeback_at_ply", o.takeback_at_ply, path);
    get(n, "takeback_on_turn_at_plies", o.takeback_on_turn_at_plies, path);
    get(n, "accept_takeback", o.accept_takeback, path);
    get(n, "go_away_at_ply", o.go_away_at_ply, path);
    get(n, "go_away_on_bot_turn", o.go_away_on_bot_turn, path);
    get(n, "bot_games_today", o.user.bot_games_today, path);
    get(n, "claim_win_in_seconds", o.claim_win_in_seconds, path);
    get(n, "come_back_after_ms", o.come_back_after_ms, path);
    if (const auto chat = n["chat"]) {
        if (!chat.IsSequence()) throw ScenarioError(path + ".chat: expected a list" + where(chat));
        for (std::size_t i = 0; i < chat.size(); ++i) {
            const auto p = path + ".chat[" + std::to_string(i) + "]";
            check_keys(chat[i], p, {"at_ply", "room", "text"});
            ChatSpec c;
            get(chat[i], "at_ply", c.at_ply, p);
            get(chat[i], "room", c.room, p);
            get(chat[i], "text", c.text, p);
            o.chat.push_back(c);
        }
    }
    if (o.kind == OpponentSpec::Kind::LINE && o.line.empty())
        throw ScenarioError(path + ": kind line needs moves");
    return o;
}

TimeControlSpec parse_time_control(const YAML::Node& n, const std::string& path) {
    TimeControlSpec tc;
    if (const auto c = n["clock"]) {
        check_keys(c, path + ".clock", {"limit", "increment"});
        int limit = 0;
        get(c, "limit", limit, path + ".clock");
        tc.limit_s = limit;
        get(c, "increment", tc.increment_s, path + ".clock");
    }
    if (n["days"]) {
        int days = 0;
        get(n, "days", days, path);
        tc.days = days;
        if (tc.limit_s) throw ScenarioError(path + ": clock and days are exclusive");
    }
    return tc;
}

FaultSpec parse_fault(const YAML::Node& n, const std::string& path) {
    check_keys(n, path,
               {"kind",
                "target",
                "game",
                "count",
                "skip",
                "from_ms",
                "after_lines",
                "after_ms",
                "mid_line",
                "duration_ms",
                "min_chunk",
                "max_chunk",
                "hold_ms",
                "delay_ms",
                "hold_reply",
                "body",
                "ratelimit_seconds",
                "retry_after_s",
                "status",
                "line_type",
                "patch",
                "path"});
    FaultSpec f;
    std::string kind;
    get(n, "kind", kind, path);
    if (kind == "drop")
        f.kind = FaultSpec::Kind::DROP;
    else if (kind == "silence")
        f.kind = FaultSpec::Kind::SILENCE;
    else if (kind == "split")
        f.kind = FaultSpec::Kind::SPLIT;
    else if (kind == "batch")
        f.kind = FaultSpec::Kind::BATCH;
    else if (kind == "delay")
        f.kind = FaultSpec::Kind::DELAY;
    else if (kind == "http_429")
        f.kind = FaultSpec::Kind::HTTP_429;
    else if (kind == "http_5xx")
        f.kind = FaultSpec::Kind::HTTP_5XX;
    else if (kind == "http_4xx")
        f.kind = FaultSpec::Kind::HTTP_4XX;
    else if (kind == "inject")
        f.kind = FaultSpec::Kind::INJECT;
    else if (kind == "malformed")
        f.kind = FaultSpec::Kind::MALFORMED;
    else
        throw ScenarioError(path + ".kind: unknown fault kind '" + kind + "'");
    get(n, "target", f.target, path);
    static const std::set<std::string> targets{
        "any",   "event_stream", "game_stream", "account",   "move",    "game_action", "challenge",
        "users", "explorer",     "cloud_eval",  "tablebase", "chessdb", "tournament"};
    if (!targets.count(f.target))
        throw ScenarioError(path + ".target: unknown target '" + f.target + "'");
    const bool online = is_online_family(f.target);
    if (f.kind == FaultSpec::Kind::MALFORMED && !online)
        throw ScenarioError(path +
                            ".target: malformed is for explorer, cloud_eval, tablebase or "
                            "chessdb");
    get(n, "game", f.game, path);
    get(n, "count", f.count, path);
    get(n, "skip", f.skip, path);
    get(n, "from_ms", f.from_ms, path);
    get(n, "after_lines", f.after_lines, path);
    get(n, "after_ms", f.after_ms, path);
    get(n, "mid_line", f.mid_line, path);
    get(n, "duration_ms", f.duration_ms, path);
    get(n, "min_chunk", f.min_chunk, path);
    get(n, "max_chunk", f.max_chunk, path);
    get(n, "hold_ms", f.hold_ms, path);
    get(n, "delay_ms", f.delay_ms, path);
    get(n, "hold_reply", f.hold_reply, path);
    std::string body;
    get(n, "body", body, path);
    if (f.kind == FaultSpec::Kind::MALFORMED) {
        if (!body.empty() && body != "truncated" && body != "html")
            throw ScenarioError(path + ".body: truncated or html");
    } else if (!body.empty() && body != "json" && body != "html") {
        throw ScenarioError(path + ".body: json or html");
    }
    // 5xx pages come from the proxy as HTML; 429s from lila as JSON
    f.html = body.empty() ? f.kind == FaultSpec::Kind::HTTP_5XX : body == "html";
    get(n, "ratelimit_seconds", f.ratelimit_seconds, path);
    get(n, "retry_after_s", f.retry_after_s, path);
    if (f.kind == FaultSpec::Kind::HTTP_4XX) f.status = 403;
    get(n, "status", f.status, path);
    if (f.min_chunk < 1 || f.max_chunk < f.min_chunk)
        throw ScenarioError(path + ": need 1 <= min_chunk <= max_chunk");
    if (f.kind == FaultSpec::Kind::HTTP_5XX && (f.status < 500 || f.status > 599))
        throw ScenarioError(path + ".status: must be 5xx");
    if (f.kind == FaultSpec::Kind::HTTP_4XX &&
        (f.status < 400 || f.status > 499 || f.status == 429))
        throw ScenarioError(path + ".status: must be 4xx other than 429 (use http_429)");
    get(n, "line_type", f.line_type, path);
    get(n, "patch", f.patch, path);
    get(n, "path", f.path, path);
    if (f.kind == FaultSpec::Kind::INJECT) {
        const auto patch = nlohmann::json::parse(f.patch, nullptr, /*allow_exceptions=*/false);
        if (!patch.is_object())
            throw ScenarioError(path + ".patch: must be a JSON object (a merge patch)" + where(n));
    }
    return f;
}

// scenario.online: positions the online sources' server adds to (or replaces in) its table.
OnlineSpec parse_online(const YAML::Node& n) {
    check_keys(n, "online", {"builtin", "explorer", "cloud_eval", "tablebase", "chessdb"});
    OnlineSpec o;
    get(n, "builtin", o.builtin, "online");
    const std::array<std::pair<const char*, std::vector<OnlinePositionSpec>*>, 4> lists{
        {{"explorer", &o.explorer},
         {"cloud_eval", &o.cloud_eval},
         {"tablebase", &o.tablebase},
         {"chessdb", &o.chessdb}}};
    for (const auto& [key, out] : lists) {
        const auto list = n[key];
        if (!list) continue;
        if (!list.IsSequence())
            throw ScenarioError(std::string("online.") + key + ": expected a list");
        for (std::size_t i = 0; i < list.size(); ++i) {
            const std::string p = std::string("online.") + key + "[" + std::to_string(i) + "]";
            const bool explorer = std::string_view(key) == "explorer";
            check_keys(list[i], p,
                       explorer ? std::set<std::string>{"fen", "db", "variant", "status", "body"}
                                : std::set<std::string>{"fen", "variant", "status", "body"});
            OnlinePositionSpec e;
            get(list[i], "fen", e.fen, p);
            get(list[i], "db", e.db, p);
            get(list[i], "status", e.status, p);
            get(list[i], "body", e.body, p);
            get(list[i], "variant", e.variant, p);
            if (!OnlineFixtures::position_key(e.fen, e.variant))
                throw ScenarioError(p + ".fen: not a FEN of variant '" + e.variant + "': '" +
                                    e.fen + "'" + where(list[i]));
            if (e.db != "any" && e.db != "masters" && e.db != "lichess" && e.db != "player")
                throw ScenarioError(p + ".db: masters, lichess, player or any");
            if (e.status < 200 || e.status > 599) throw ScenarioError(p + ".status: 200..599");
            if (!nlohmann::json::parse(e.body, nullptr, false).is_object())
                throw ScenarioError(p + ".body: must be a JSON object" + where(list[i]));
            out->push_back(std::move(e));
        }
    }
    return o;
}

template <class F>
void each(const YAML::Node& root, const char* key, F&& f) {
    const auto list = root[key];
    if (!list) return;
    if (!list.IsSequence())
        throw ScenarioError(std::string(key) + ": expected a list" + where(list));
    for (std::size_t i = 0; i < list.size(); ++i)
        f(list[i], std::string(key) + "[" + std::to_string(i) + "]");
}

Scenario parse_root(const YAML::Node& root) {
    Scenario s;
    if (!root || root.IsNull()) return s;
    check_keys(root, "scenario",
               {"name",
                "seed",
                "account",
                "keepalive_ms",
                "castling",
                "first_move_timeout_ms",
                "clock_start_ply",
                "chunk_gap_ms",
                "exit_when",
                "exit_linger_ms",
                "max_duration_ms",
                "bot_games_per_day",
                "bot_limit_window_ms",
                "online_bots",
                "challenges",
                "games",
                "outgoing",
                "faults",
                "block_lists",
                "tournaments",
                "online"});
    get(root, "name", s.name, "scenario");
    get(root, "seed", s.seed, "scenario");
    if (const auto a = root["account"]) {
        check_keys(a, "account",
                   {"username", "token", "title", "rating", "scopes", "played_games",
                    "bot_games_today", "managed"});
        get(a, "username", s.account.username, "account");
        get(a, "token", s.account.token, "account");
        get_opt_string(a, "title", s.account.title, "account");
        get(a, "rating", s.account.rating, "account");
        get(a, "scopes", s.account.scopes, "account");
        get(a, "played_games", s.account.played_games, "account");
        get(a, "bot_games_today", s.account.bot_games_today, "account");
        get(a, "managed", s.account.managed, "account");
    }
    get(root, "keepalive_ms", s.keepalive_ms, "scenario");
    std::string castling = "king_to_rook";
    get(root, "castling", castling, "scenario");
    if (castling != "king_to_rook" && castling != "king_two_squares")
        throw ScenarioError("castling: king_to_rook or king_two_squares");
    s.king_to_rook = castling == "king_to_rook";
    get(root, "first_move_timeout_ms", s.first_move_timeout_ms, "scenario");
    get(root, "clock_start_ply", s.clock_start_ply, "scenario");
    get(root, "chunk_gap_ms", s.chunk_gap_ms, "scenario");
    std::string exit_when = "never";
    get(root, "exit_when", exit_when, "scenario");
    if (exit_when != "never" && exit_when != "all_games_finished")
        throw ScenarioError("exit_when: never or all_games_finished");
    s.exit_when_all_games_finished = exit_when == "all_games_finished";
    get(root, "exit_linger_ms", s.exit_linger_ms, "scenario");
    get(root, "max_duration_ms", s.max_duration_ms, "scenario");
    get(root, "bot_games_per_day", s.bot_games_per_day, "scenario");
    get(root, "bot_limit_window_ms", s.bot_limit_window_ms, "scenario");
    if (s.bot_limit_window_ms <= 0) throw ScenarioError("bot_limit_window_ms: must be > 0");
    if (s.keepalive_ms <= 0) throw ScenarioError("keepalive_ms: must be > 0");

    each(root, "online_bots", [&](const YAML::Node& n, const std::string& p) {
        UserSpec u;
        u.title = "BOT";
        s.online_bots.push_back(parse_user(n, p, u));
    });
    each(root, "challenges", [&](const YAML::Node& n, const std::string& p) {
        check_keys(n, p,
                   {"id", "at_ms", "challenger", "variant", "clock", "days", "rated", "color",
                    "initial_fen", "rematch_of", "cancel_at_ms", "accept_status", "accept_error",
                    "opponent"});
        ChallengeSpec c;
        get(n, "id", c.id, p);
        get(n, "at_ms", c.at_ms, p);
        c.challenger = parse_user(n["challenger"], p + ".challenger");
        get(n, "variant", c.variant, p);
        c.time_control = parse_time_control(n, p);
        get(n, "rated", c.rated, p);
        get(n, "color", c.color, p);
        if (c.color != "white" && c.color != "black" && c.color != "random")
            throw ScenarioError(p + ".color: white, black or random");
        get(n, "initial_fen", c.initial_fen, p);
        get(n, "rematch_of", c.rematch_of, p);
        get(n, "cancel_at_ms", c.cancel_at_ms, p);
        get(n, "accept_status", c.accept_status, p);
        get(n, "accept_error", c.accept_error, p);
        c.opponent = parse_opponent(n["opponent"], p + ".opponent");
        c.opponent.user = c.challenger;
        s.challenges.push_back(c);
    });
    each(root, "games", [&](const YAML::Node& n, const std::string& p) {
        check_keys(n, p,
                   {"id", "at_ms", "bot_color", "variant", "clock", "days", "rated", "initial_fen",
                    "moves", "source", "tournament", "opponent"});
        GameSpec g;
        get(n, "id", g.id, p);
        get(n, "at_ms", g.at_ms, p);
        get(n, "bot_color", g.bot_color, p);
        if (g.bot_color != "white" && g.bot_color != "black")
            throw ScenarioError(p + ".bot_color: white or black");
        get(n, "variant", g.variant, p);
        g.time_control = parse_time_control(n, p);
        get(n, "rated", g.rated, p);
        get(n, "initial_fen", g.initial_fen, p);
        get(n, "moves", g.moves, p);
        get(n, "source", g.source, p);
        get(n, "tournament", g.tournament_id, p);
        static const std::set<std::string> sources{"friend", "lobby", "pool", "arena", "swiss"};
        if (!sources.count(g.source))
            throw ScenarioError(p + ".source: friend, lobby, pool, arena or swiss");
        g.opponent = parse_opponent(n["opponent"], p + ".opponent");
        s.games.push_back(g);
    });
    each(root, "outgoing", [&](const YAML::Node& n, const std::string& p) {
        check_keys(n, p,
                   {"user", "response", "decline_reason", "delay_ms", "ratelimit_seconds",
                    "max_uses", "opponent"});
        OutgoingRule r;
        get(n, "user", r.user, p);
        std::string response = "accept";
        get(n, "response", response, p);
        if (response == "accept")
            r.response = OutgoingRule::Response::ACCEPT;
        else if (response == "decline")
            r.response = OutgoingRule::Response::DECLINE;
        else if (response == "ignore")
            r.response = OutgoingRule::Response::IGNORE;
        else if (response == "rate_limit")
            r.response = OutgoingRule::Response::RATE_LIMIT;
        else if (response == "opponent_limit")
            r.response = OutgoingRule::Response::OPPONENT_LIMIT;
        else
            throw ScenarioError(p + ".response: unknown '" + response + "'");
        get(n, "decline_reason", r.decline_reason, p);
        get(n, "delay_ms", r.delay_ms, p);
        get(n, "ratelimit_seconds", r.ratelimit_seconds, p);
        get(n, "max_uses", r.max_uses, p);
        r.opponent = parse_opponent(n["opponent"], p + ".opponent");
        s.outgoing.push_back(r);
    });
    each(root, "faults",
         [&](const YAML::Node& n, const std::string& p) { s.faults.push_back(parse_fault(n, p)); });
    each(root, "block_lists", [&](const YAML::Node& n, const std::string& p) {
        check_keys(n, p, {"path", "status", "names"});
        BlockListSpec b;
        get(n, "path", b.path, p);
        get(n, "status", b.status, p);
        if (!b.path.starts_with("/") || b.path.starts_with("/api/"))
            throw ScenarioError(p + ".path: a path like /blocklist.txt, outside /api/");
        if (b.status < 200 || b.status > 599) throw ScenarioError(p + ".status: 200..599");
        if (const auto names = n["names"]) {
            if (!names.IsSequence()) throw ScenarioError(p + ".names: expected a list");
            for (const auto& name : names) b.names.push_back(name.as<std::string>());
        }
        s.block_lists.push_back(std::move(b));
    });
    each(root, "tournaments", [&](const YAML::Node& n, const std::string& p) {
        check_keys(n, p,
                   {"id", "name", "bots_allowed", "variant", "clock", "rated", "starts_at_ms",
                    "duration_ms", "password", "team", "pair_delay_ms", "first_move_timeout_ms",
                    "max_games", "opponent"});
        TournamentSpec t;
        get(n, "id", t.id, p);
        if (t.id.size() != 8) throw ScenarioError(p + ".id: 8 characters, as lila's");
        get(n, "name", t.name, p);
        get(n, "bots_allowed", t.bots_allowed, p);
        get(n, "variant", t.variant, p);
        if (n["clock"]) t.time_control = parse_time_control(n, p);
        if (!t.time_control.limit_s) throw ScenarioError(p + ".clock: arenas have a clock");
        get(n, "rated", t.rated, p);
        get(n, "starts_at_ms", t.starts_at_ms, p);
        get(n, "duration_ms", t.duration_ms, p);
        get(n, "password", t.password, p);
        get(n, "team", t.team, p);
        get(n, "pair_delay_ms", t.pair_delay_ms, p);
        get(n, "first_move_timeout_ms", t.first_move_timeout_ms, p);
        get(n, "max_games", t.max_games, p);
        t.opponent = parse_opponent(n["opponent"], p + ".opponent");
        s.tournaments.push_back(std::move(t));
    });
    if (const auto online = root["online"]) s.online = parse_online(online);
    return s;
}

}  // namespace

ScenarioResult parse_scenario(const std::string& text) {
    ScenarioResult r;
    try {
        r.scenario = parse_root(YAML::Load(text));
    } catch (const ScenarioError& e) {
        r.error = e.what();
    } catch (const YAML::Exception& e) {
        r.error = std::string("scenario is not valid YAML/JSON: ") + e.what();
    }
    return r;
}

ScenarioResult load_scenario_file(const std::string& path) {
    std::ifstream in(path);
    if (!in) return {std::nullopt, "cannot read scenario file " + path};
    std::stringstream ss;
    ss << in.rdbuf();
    auto r = parse_scenario(ss.str());
    if (!r.scenario) r.error = path + ": " + r.error;
    return r;
}

}  // namespace emu
