// The online sources' endpoints. Where a rule comes from is said where it is applied: the Lichess
// OpenAPI spec (lichess-org/api doc/specs), lila-openingexplorer (src/api/query.rs, error.rs),
// lila (app/controllers/Api.scala cloudEval) and chessdb (noobpwnftw/chessdb web/cdb.php).
#include "online_router.hpp"

#include <nlohmann/json.hpp>

#include "router.hpp"

namespace emu {

namespace {

using json = nlohmann::json;

constexpr const char* kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

std::string param(const std::map<std::string, std::string>& query, const char* key,
                  const std::string& fallback = {}) {
    const auto it = query.find(key);
    return it == query.end() ? fallback : it->second;
}

// A small non-negative count parameter (moves, multiPv, topGames); fallback when absent or odd.
int count_param(const std::map<std::string, std::string>& query, const char* key, int fallback) {
    const std::string v = param(query, key);
    if (v.empty() || v.size() > 6 || v.find_first_not_of("0123456789") != std::string::npos)
        return fallback;
    return std::stoi(v);
}

Reply json_reply(int status, const json& j) { return {status, "application/json", j.dump()}; }

// Keeps the first `n` items of an array field, when the body has one.
void truncate(json& j, const char* key, int n) {
    if (j.is_object() && j.contains(key) && j[key].is_array() &&
        j[key].size() > static_cast<std::size_t>(n))
        j[key].erase(j[key].begin() + n, j[key].end());
}

// chessdb's text form of a json=1 reply (cdb.php echoes both from the same data): moves as
// "move:..,score:..,rank:..,note:..[,winrate:..]" joined by "|", or the bare status; a NUL ends it.
std::string chessdb_text(const json& j) {
    std::string out;
    const std::string status = j.value("status", "");
    if (status != "ok" || !j.contains("moves") || !j["moves"].is_array()) {
        out = status;
    } else {
        for (const auto& m : j["moves"]) {
            if (!out.empty()) out += '|';
            const auto& score = m.contains("score") ? m["score"] : json("??");
            out += "move:" + m.value("uci", "") +
                   ",score:" + (score.is_string() ? score.get<std::string>() : score.dump()) +
                   ",rank:" + std::to_string(m.value("rank", 0)) + ",note:" + m.value("note", "");
            if (m.contains("winrate") && m["winrate"].is_string())
                out += ",winrate:" + m["winrate"].get<std::string>();
        }
    }
    out += '\0';
    return out;
}

Reply chessdb_reply(const json& j, bool as_json) {
    if (as_json) return json_reply(200, j);
    return {200, "text/plain; charset=utf-8", chessdb_text(j)};
}

}  // namespace

Routed OnlineRouter::route(const Request& req) {
    const std::string family = endpoint_family(req.path);
    RequestRecord rec{world_.now(), req.method, req.path, req.query, family, 0, ""};
    std::optional<Reply> reply;
    const FaultSpec* malformed = nullptr;
    std::vector<FaultSpec> fired;
    if (is_online_family(family)) fired = faults_.take_http(family, "", world_.now());
    for (const auto& f : fired) {
        if (f.kind == FaultSpec::Kind::DELAY) {
            // Latency: the answer comes late (these endpoints change nothing on the server).
            recorder_.fault(
                {world_.now(), "delay", family, "", std::to_string(f.delay_ms) + " ms"});
            world_.sleep_for(f.delay_ms);
            continue;
        }
        if (reply || malformed) continue;
        rec.fault = fault_kind_name(f.kind);
        if (f.kind == FaultSpec::Kind::MALFORMED) {
            malformed = &f;
            continue;
        }
        if (f.kind == FaultSpec::Kind::HTTP_429 && family == "chessdb") {
            // cdb.php's per-IP query limit is no 429: a 200 whose status says so.
            const auto q = parse_form(req.query);
            reply = chessdb_reply({{"status", "rate limit exceeded"}}, param(q, "json") == "1");
        } else {
            reply = fault_reply(f);
        }
        recorder_.fault({world_.now(), rec.fault, family, "", std::to_string(reply->status)});
    }
    if (!reply) {
        if (!req.authorization.empty()) {
            // The spec requires a token for the explorer, but only over https: a client that sends
            // its token over this plain-http server leaks it, so the request is refused.
            reply = Reply{400, "text/plain; charset=utf-8",
                          "no Authorization expected over plain http\n"};
        } else if (req.method != "GET") {
            reply = error_reply(405, "Method not allowed");
        } else {
            reply = dispatch(req, family);
        }
    }
    if (malformed && reply->status >= 200 && reply->status < 300) {
        // A proxy's page, or a reply cut off in the middle: the body the client must reject.
        if (malformed->html) {
            *reply = Reply{
                200, "text/html; charset=utf-8",
                "<!DOCTYPE html>\n<html><body>Service temporarily unavailable</body></html>\n"};
        } else {
            reply->body.resize(reply->body.size() / 2);
        }
        recorder_.fault(
            {world_.now(), "malformed", family, "", malformed->html ? "html" : "truncated"});
    }
    rec.status = reply->status;
    recorder_.request(rec);
    Routed out;
    out.reply = std::move(*reply);
    return out;
}

Reply OnlineRouter::dispatch(const Request& req, const std::string& family) {
    if (family == "explorer") return explorer(req);
    if (family == "cloud_eval") return cloud_eval(req);
    if (family == "tablebase") return tablebase(req);
    if (family == "chessdb") return chessdb(req);
    return error_reply(404, "Not found");
}

Reply OnlineRouter::explorer(const Request& req) {
    const auto q = parse_form(req.query);
    const std::string db = req.path.substr(1);  // masters, lichess, player
    // lila-openingexplorer src/api/query.rs: fen defaults to the start position; player and color
    // are required for /player; a FEN that is no position is a 400 with a text body (error.rs).
    if (db == "player" && (param(q, "player").empty() ||
                           (param(q, "color") != "white" && param(q, "color") != "black")))
        return {400, "text/plain; charset=utf-8",
                "Failed to deserialize query string: missing field `player` or `color`"};
    // The Lichess and player databases take `variant` (src/api/variant.rs: Lichess's keys, default
    // standard); the masters database is standard chess only.
    const std::string variant = db == "masters" ? "standard" : param(q, "variant", "standard");
    const std::string fen = param(q, "fen", kStartFen);
    const auto key = OnlineFixtures::position_key(fen, variant);
    if (!key) return {400, "text/plain; charset=utf-8", "bad request: invalid fen"};
    json body;
    int status = 200;
    if (const auto* e = fixtures_.explorer(db, *key)) {
        status = e->status;
        body = json::parse(e->body);
    } else {
        // An unknown position: no games (lila-openingexplorer answers with zero counts).
        body = {{"white", 0},
                {"draws", 0},
                {"black", 0},
                {"moves", json::array()},
                {"opening", nullptr}};
        if (db == "player") {
            body["queuePosition"] = 0;
            body["recentGames"] = json::array();
        } else {
            body["topGames"] = json::array();
            if (db == "lichess") body["recentGames"] = json::array();
        }
    }
    if (status >= 200 && status < 300) {
        // Spec parameters: moves (most common moves), topGames, recentGames.
        truncate(body, "moves", count_param(q, "moves", 12));
        truncate(body, "topGames", count_param(q, "topGames", 15));
        truncate(body, "recentGames", count_param(q, "recentGames", 8));
    }
    if (db == "player") {
        // spec: the player database answers NDJSON; here indexing is always done, so one line.
        return {status, "application/x-ndjson", body.dump() + "\n"};
    }
    return json_reply(status, body);
}

Reply OnlineRouter::cloud_eval(const Request& req) {
    const auto q = parse_form(req.query);
    // lila app/controllers/Api.scala cloudEval: no fen is 404 "Missing FEN"; a position with no
    // evaluation is 404 "No cloud evaluation available for that position"; multiPv defaults to 1.
    // `variant`: Variant.orDefault, so standard when absent.
    const std::string fen = param(q, "fen");
    if (fen.empty()) return error_reply(404, "Missing FEN");
    const auto key = OnlineFixtures::position_key(fen, param(q, "variant", "standard"));
    const auto* e = key ? fixtures_.cloud_eval(*key) : nullptr;
    if (e == nullptr) return error_reply(404, "No cloud evaluation available for that position");
    json body = json::parse(e->body);
    if (e->status >= 200 && e->status < 300)
        truncate(body, "pvs", std::max(1, count_param(q, "multiPv", 1)));
    return json_reply(e->status, body);
}

Reply OnlineRouter::tablebase(const Request& req) {
    const auto q = parse_form(req.query);
    // spec (tags/tablebase/standard.yaml): fen required, "Underscores allowed" for spaces.
    std::string fen = param(q, "fen");
    for (char& c : fen)
        if (c == '_') c = ' ';
    // The table is the path: /standard, /atomic or /antichess.
    const auto key =
        fen.empty() ? std::nullopt : OnlineFixtures::position_key(fen, req.path.substr(1));
    if (!key) return {400, "text/plain; charset=utf-8", "invalid fen"};
    if (const auto* e = fixtures_.tablebase(*key)) return {e->status, "application/json", e->body};
    // Not in the table: the category the spec has for a result that is not known.
    return json_reply(200, {{"checkmate", false},
                            {"stalemate", false},
                            {"variant_win", false},
                            {"variant_loss", false},
                            {"insufficient_material", false},
                            {"dtz", nullptr},
                            {"precise_dtz", nullptr},
                            {"dtm", nullptr},
                            {"dtw", nullptr},
                            {"dtc", nullptr},
                            {"category", "unknown"},
                            {"moves", json::array()}});
}

Reply OnlineRouter::chessdb(const Request& req) {
    const auto q = parse_form(req.query);
    // cdb.php: json=1 chooses JSON; without a board it prints nothing; a board that is no position
    // is "invalid board", one it has no moves for "unknown".
    const bool as_json = param(q, "json") == "1" || param(q, "json") == "true";
    if (param(q, "action") != "queryall")
        return {400, "text/plain; charset=utf-8", "the emulator serves action=queryall only\n"};
    const std::string board = param(q, "board");
    if (board.empty()) return {200, as_json ? "application/json" : "text/plain", ""};
    const auto key = OnlineFixtures::position_key(board);
    if (!key) return chessdb_reply({{"status", "invalid board"}}, as_json);
    if (const auto* e = fixtures_.chessdb(*key)) {
        if (e->status != 200) return {e->status, "text/plain; charset=utf-8", e->body};
        return chessdb_reply(json::parse(e->body), as_json);
    }
    return chessdb_reply({{"status", "unknown"}}, as_json);
}

}  // namespace emu
