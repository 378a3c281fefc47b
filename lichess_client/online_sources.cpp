// OnlineSources: the reply parsers of the four services and their HTTP client (deadlines,
// one request at a time per source, 429 pauses, the token only where the spec requires it).
#include "lichess_client/online_sources.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <utility>

#include "lichess_client/error_body.hpp"
#include "lichess_client/json_util.hpp"
#include "lichess_client/ndjson_stream.hpp"

namespace lichess {

namespace {

using Millis = std::chrono::milliseconds;

constexpr std::array<const char*, kOnlineSourceCount> kSourceNames{"explorer", "cloud", "tablebase",
                                                                   "chessdb"};

// The spec's enum texts (schemas/TablebaseJson.yaml), in TablebaseCategory order.
constexpr std::array<const char*, 10> kCategoryNames{
    "win",          "syzygy-win", "maybe-win",   "cursed-win", "draw",
    "blessed-loss", "maybe-loss", "syzygy-loss", "loss",       "unknown"};

ApiError parse_error(std::string message, std::string_view body) {
    ApiError e{ApiError::Kind::Parse, 200, std::move(message), {}, {}};
    e.excerpt = detail::excerpt(body);
    return e;
}

// A required integer field, clamped to int (depths, counts of plies).
int req_int(const detail::json& j, const char* key) {
    const std::int64_t v = detail::req_i64(j, key);
    return static_cast<int>(std::clamp<std::int64_t>(v, std::numeric_limits<int>::min(),
                                                     std::numeric_limits<int>::max()));
}

// A required non-negative game count.
std::int64_t req_count(const detail::json& j, const char* key) {
    const detail::json& v = j.at(key);
    if (!v.is_number()) throw std::invalid_argument(std::string(key) + " is not a number");
    return std::max<std::int64_t>(0, detail::to_i64(v));
}

const detail::json& req_array(const detail::json& j, const char* key) {
    const detail::json& v = j.at(key);
    if (!v.is_array()) throw std::invalid_argument(std::string(key) + " is not an array");
    return v;
}

std::string req_string(const detail::json& j, const char* key) {
    const detail::json& v = j.at(key);
    if (!v.is_string()) throw std::invalid_argument(std::string(key) + " is not a string");
    return v.get<std::string>();
}

// Runs `read` on the parsed body; any exception of a missing or mistyped field is a parse error.
template <class T, class F>
Result<T> parse_json(std::string_view body, const char* what, F&& read) {
    auto parsed = parse_bounded(body);
    if (!parsed) {
        return parse_error(
            std::string(what) + ": body is not usable JSON (" + parsed.error().message + ")", body);
    }
    const detail::json& j = parsed.value();
    if (!j.is_object()) return parse_error(std::string(what) + ": body is not an object", body);
    try {
        return read(j);
    } catch (const std::exception& e) {
        return parse_error(std::string(what) + ": " + e.what(), body);
    }
}

std::string opening_of(const detail::json& j) {
    const detail::json* o = detail::field(j, "opening");
    if (o == nullptr || !o->is_object()) return {};
    const std::string eco = detail::opt_str(*o, "eco").value_or("");
    const std::string name = detail::opt_str(*o, "name").value_or("");
    if (eco.empty()) return name;
    return name.empty() ? eco : eco + " " + name;
}

std::vector<std::string> split_words(std::string_view s) {
    std::vector<std::string> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && s[i] == ' ') ++i;
        const std::size_t start = i;
        while (i < s.size() && s[i] != ' ') ++i;
        if (i > start) out.emplace_back(s.substr(start, i - start));
    }
    return out;
}

// chessdb's text form: "key:value,key:value" for one move.
ChessdbMove chessdb_text_move(std::string_view item) {
    ChessdbMove m;
    std::size_t i = 0;
    while (i <= item.size()) {
        std::size_t end = item.find(',', i);
        if (end == std::string_view::npos) end = item.size();
        const std::string_view field = item.substr(i, end - i);
        const std::size_t colon = field.find(':');
        if (colon != std::string_view::npos) {
            const std::string_view key = field.substr(0, colon);
            const std::string_view value = field.substr(colon + 1);
            if (key == "move") {
                m.uci = std::string(value);
            } else if (key == "score") {
                int v = 0;
                auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
                if (ec == std::errc() && p == value.data() + value.size()) m.score = v;
            } else if (key == "rank") {
                int v = 0;
                auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
                if (ec == std::errc() && p == value.data() + value.size()) m.rank = v;
            } else if (key == "note") {
                m.note = std::string(value);
            } else if (key == "winrate") {
                double v = 0;
                auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
                if (ec == std::errc() && p == value.data() + value.size()) m.winrate = v;
            }
        }
        i = end + 1;
    }
    return m;
}

Result<ChessdbReply> parse_chessdb_text(std::string_view body) {
    ChessdbReply r;
    // cdb.php ends the text form with a NUL byte; a proxy may add a newline.
    while (!body.empty() && (body.back() == '\0' || body.back() == '\n' || body.back() == '\r' ||
                             body.back() == ' ')) {
        body.remove_suffix(1);
    }
    if (body.empty()) return parse_error("chessdb: empty reply", body);
    if (!body.starts_with("move:")) {
        // A status word: unknown, invalid board, checkmate, stalemate, rate limit exceeded.
        const bool printable = std::all_of(
            body.begin(), body.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == ' '; });
        if (!printable || body.size() > 40)
            return parse_error("chessdb: not a queryall reply", body);
        r.status = std::string(body);
        return r;
    }
    r.status = "ok";
    std::size_t i = 0;
    while (i <= body.size()) {
        std::size_t end = body.find('|', i);
        if (end == std::string_view::npos) end = body.size();
        ChessdbMove m = chessdb_text_move(body.substr(i, end - i));
        if (m.uci.empty()) return parse_error("chessdb: a move entry without move:", body);
        r.moves.push_back(std::move(m));
        i = end + 1;
    }
    return r;
}

std::optional<double> winrate_of(const detail::json& m) {
    const detail::json* w = detail::field(m, "winrate");
    if (w == nullptr) return std::nullopt;
    if (w->is_number()) return w->get<double>();
    if (!w->is_string()) return std::nullopt;
    const std::string s = w->get<std::string>();
    double v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
    return v;
}

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& s : items) {
        if (!out.empty()) out += ',';
        out += s;
    }
    return out;
}

std::string ms_text(Millis ms) { return std::to_string(ms.count()) + " ms"; }

}  // namespace

const char* to_string(OnlineSource s) { return kSourceNames.at(static_cast<std::size_t>(s)); }

const char* to_string(TablebaseCategory c) {
    return kCategoryNames.at(static_cast<std::size_t>(c));
}

TablebaseCategory parse_tablebase_category(std::string_view s) {
    for (std::size_t i = 0; i < kCategoryNames.size(); ++i) {
        if (s == kCategoryNames[i]) return static_cast<TablebaseCategory>(i);
    }
    return TablebaseCategory::Unknown;
}

// ---- parsers ----

Result<ExplorerReply> parse_explorer(std::string_view body) {
    return parse_json<ExplorerReply>(body, "explorer", [](const detail::json& j) {
        ExplorerReply r;
        r.white = req_count(j, "white");
        r.draws = req_count(j, "draws");
        r.black = req_count(j, "black");
        r.opening = opening_of(j);
        r.queue_position = detail::opt_int(j, "queuePosition");
        for (const detail::json& m : req_array(j, "moves")) {
            ExplorerMove move;
            move.uci = req_string(m, "uci");
            move.san = detail::opt_str(m, "san").value_or("");
            move.white = req_count(m, "white");
            move.draws = req_count(m, "draws");
            move.black = req_count(m, "black");
            move.average_rating = detail::opt_int(m, "averageRating");
            if (!move.average_rating)
                move.average_rating = detail::opt_int(m, "averageOpponentRating");
            move.performance = detail::opt_int(m, "performance");
            r.moves.push_back(std::move(move));
        }
        return r;
    });
}

Result<CloudEvalReply> parse_cloud_eval(std::string_view body) {
    return parse_json<CloudEvalReply>(body, "cloud eval", [](const detail::json& j) {
        CloudEvalReply r;
        r.depth = req_int(j, "depth");
        r.knodes = std::max<std::int64_t>(0, detail::req_i64(j, "knodes"));
        for (const detail::json& p : req_array(j, "pvs")) {
            CloudPv pv;
            pv.moves = split_words(req_string(p, "moves"));
            pv.cp = detail::opt_int(p, "cp");
            pv.mate = detail::opt_int(p, "mate");
            if (!pv.cp && !pv.mate) throw std::invalid_argument("a pv has neither cp nor mate");
            r.pvs.push_back(std::move(pv));
        }
        return r;
    });
}

// The fields the root and each move share (TablebaseJson and TablebaseMove in the spec).
template <class T>
void read_tablebase_result(const detail::json& j, T& out) {
    out.category = parse_tablebase_category(req_string(j, "category"));
    out.dtz = detail::opt_int(j, "dtz");
    out.dtm = detail::opt_int(j, "dtm");
    out.checkmate = detail::opt_bool(j, "checkmate").value_or(false);
    out.stalemate = detail::opt_bool(j, "stalemate").value_or(false);
}

Result<TablebaseReply> parse_tablebase(std::string_view body) {
    return parse_json<TablebaseReply>(body, "tablebase", [](const detail::json& j) {
        TablebaseReply r;
        read_tablebase_result(j, r);
        r.insufficient_material = detail::opt_bool(j, "insufficient_material").value_or(false);
        for (const detail::json& m : req_array(j, "moves")) {
            TablebaseMove move;
            move.uci = req_string(m, "uci");
            move.san = req_string(m, "san");
            read_tablebase_result(m, move);
            move.zeroing = detail::opt_bool(m, "zeroing").value_or(false);
            r.moves.push_back(std::move(move));
        }
        return r;
    });
}

Result<ChessdbReply> parse_chessdb(std::string_view body) {
    std::string_view trimmed = body;
    while (!trimmed.empty() && (trimmed.front() == ' ' || trimmed.front() == '\n')) {
        trimmed.remove_prefix(1);
    }
    if (!trimmed.starts_with('{')) return parse_chessdb_text(body);
    return parse_json<ChessdbReply>(body, "chessdb", [](const detail::json& j) {
        ChessdbReply r;
        r.status = req_string(j, "status");
        if (r.status.empty()) throw std::invalid_argument("status is empty");
        if (r.status != "ok") return r;
        for (const detail::json& m : req_array(j, "moves")) {
            ChessdbMove move;
            move.uci = req_string(m, "uci");
            move.san = detail::opt_str(m, "san").value_or("");
            move.score = detail::opt_int(m, "score");  // "??" (a string): not scored
            move.rank = detail::opt_int(m, "rank").value_or(0);
            move.note = detail::opt_str(m, "note").value_or("");
            move.winrate = winrate_of(m);
            r.moves.push_back(std::move(move));
        }
        return r;
    });
}

// ---- the client ----

struct OnlineSources::Slot {
    std::unique_ptr<HttpClient> http;
    bool token = false;                // requests carry the token
    std::timed_mutex request;          // one request at a time
    Clock::time_point paused_until{};  // guarded by OnlineSources::mutex_
};

OnlineSources::OnlineSources(HttpConfig http, OnlineUrls urls, std::string token,
                             Millis default_pause)
    : default_pause_(default_pause) {
    const std::array<std::string*, kOnlineSourceCount> url_of{&urls.explorer, &urls.cloud_eval,
                                                              &urls.tablebase, &urls.chessdb};
    for (std::size_t i = 0; i < kOnlineSourceCount; ++i) {
        const auto source = static_cast<OnlineSource>(i);
        auto slot = std::make_unique<Slot>();
        HttpConfig config = http;
        config.base_url = *url_of[i];
        config.max_body = std::min(config.max_body, kMaxOnlineBody);
        // The opening explorer's spec requires OAuth2 (`security: - OAuth2: []`); the others
        // say `security: []`. The token never travels over plain http.
        slot->token = source == OnlineSource::Explorer && !token.empty() &&
                      config.base_url.starts_with("https://");
        config.token = slot->token ? token : std::string();
        try {
            slot->http = std::make_unique<HttpClient>(std::move(config));
        } catch (const std::invalid_argument& e) {
            throw std::invalid_argument(std::string("online source ") + to_string(source) + ": " +
                                        e.what());
        }
        slots_[i] = std::move(slot);
    }
}

OnlineSources::~OnlineSources() { shutdown(); }

void OnlineSources::shutdown() { shutdown_.request_stop(); }

bool OnlineSources::sends_token(OnlineSource s) const {
    return slots_[static_cast<std::size_t>(s)]->token;
}

std::optional<Millis> OnlineSources::paused_for(OnlineSource s) const {
    const auto now = Clock::now();
    std::lock_guard lock(mutex_);
    const auto until = slots_[static_cast<std::size_t>(s)]->paused_until;
    if (until <= now) return std::nullopt;
    return std::chrono::ceil<Millis>(until - now);
}

Millis OnlineSources::pause(OnlineSource s, std::optional<Millis> hint) {
    const Millis length = hint ? std::clamp(*hint, Millis{1000}, kMaxOnlinePause) : default_pause_;
    const auto now = Clock::now();
    bool fresh = false;
    {
        std::lock_guard lock(mutex_);
        auto& until = slots_[static_cast<std::size_t>(s)]->paused_until;
        fresh = until <= now;
        until = std::max(until, now + length);
    }
    if (fresh) {
        spdlog::warn("online {}: rate limited (429); no requests for {} s", to_string(s),
                     std::chrono::duration_cast<std::chrono::duration<double>>(length).count());
    }
    return length;
}

ApiError OnlineSources::error_from(OnlineSource s, const HttpResponse& response) {
    ApiError err =
        detail::refusal(response.status, response.body, *slots_[static_cast<std::size_t>(s)]->http,
                        std::string(to_string(s)) + ": HTTP " + std::to_string(response.status));
    if (response.status == 429) {
        err.retry_after =
            pause(s, response.retry_after ? response.retry_after : err.rate_limit_wait);
    }
    return err;
}

std::optional<ApiError> OnlineSources::admit(OnlineSource s, Clock::time_point start,
                                             Millis deadline, RequestLock& lock) {
    const std::string name = to_string(s);
    if (shutdown_.stop_requested()) {
        return ApiError{ApiError::Kind::Cancelled, 0, name + ": shutting down", {}, {}};
    }
    if (deadline <= Millis{0}) {
        return ApiError{ApiError::Kind::Config, 0, name + ": no time for a request", {}, {}};
    }
    if (auto left = paused_for(s)) {
        return ApiError{
            ApiError::Kind::RateLimited, 429, name + " requests paused after a 429", {}, left};
    }
    lock = RequestLock(slots_[static_cast<std::size_t>(s)]->request, std::defer_lock);
    if (!lock.try_lock_until(start + deadline) || Clock::now() >= start + deadline) {
        return ApiError{
            ApiError::Kind::Network,
            0,
            name + ": another request held the source for the whole " + ms_text(deadline),
            {},
            {}};
    }
    return std::nullopt;
}

// A GET of `target` at the slot's server, with what is left of the deadline that began at `start`.
HttpRequest OnlineSources::request_to(const Slot& slot, const std::string& target,
                                      Clock::time_point start, Millis deadline) {
    HttpRequest req;
    req.target = target;
    req.authenticated = slot.token;
    req.timeout = std::chrono::ceil<Millis>(start + deadline - Clock::now());
    return req;
}

Result<HttpResponse> OnlineSources::get(OnlineSource s, const std::string& target,
                                        Millis deadline) {
    const auto start = Clock::now();
    RequestLock lock;
    if (auto refused = admit(s, start, deadline, lock)) return *refused;
    const Slot& slot = *slots_[static_cast<std::size_t>(s)];
    HttpRequest req = request_to(slot, target, start, deadline);
    req.stop = shutdown_.get_token();
    auto r = slot.http->perform(req);
    if (!r.ok()) {
        ApiError e = r.error();
        // curl's timer may fire a millisecond before ours says the deadline passed.
        if (e.kind == ApiError::Kind::Network && Clock::now() - start + Millis{20} >= deadline) {
            e.message = std::string(to_string(s)) + ": no answer within " + ms_text(deadline) +
                        " (" + e.message + ")";
        }
        return e;
    }
    if (!is_2xx(r->status)) return error_from(s, *r);
    return r;
}

Result<ExplorerReply> OnlineSources::explorer(std::string_view fen, const ExplorerQuery& q,
                                              Millis deadline) {
    std::string target;
    const std::string fen_param = "fen=" + url_encode(fen);
    const std::string moves = "&moves=" + std::to_string(std::max(0, q.moves));
    // No game lists: only the move statistics are read, and fewer bytes arrive sooner.
    if (q.source == "masters") {
        target = "/masters?" + fen_param + moves + "&topGames=0";
    } else if (q.source == "lichess") {
        target = "/lichess?variant=" + url_encode(q.variant) + "&" + fen_param + moves +
                 "&topGames=0&recentGames=0";
        if (!q.speeds.empty()) target += "&speeds=" + url_encode(join(q.speeds));
        if (!q.ratings.empty()) {
            std::vector<std::string> groups;
            for (int r : q.ratings) groups.push_back(std::to_string(r));
            target += "&ratings=" + url_encode(join(groups));
        }
    } else if (q.source == "player") {
        if (q.player.empty() || (q.color != "white" && q.color != "black")) {
            return ApiError{ApiError::Kind::Config,
                            0,
                            "explorer: the player database needs a player and a color",
                            {},
                            {}};
        }
        target = "/player?player=" + url_encode(q.player) + "&color=" + q.color +
                 "&variant=" + url_encode(q.variant) + "&" + fen_param + moves + "&recentGames=0";
        if (!q.speeds.empty()) target += "&speeds=" + url_encode(join(q.speeds));
        return explorer_player(target, deadline);
    } else {
        return ApiError{ApiError::Kind::Config,
                        0,
                        "explorer: unknown database '" + q.source + "' (masters, lichess, player)",
                        {},
                        {}};
    }
    auto r = get(OnlineSource::Explorer, target, deadline);
    if (!r) return r.error();
    return parse_explorer(r->body);
}

// The player database streams NDJSON: the current statistics at once, then updates while it
// indexes. The last complete line that arrived before the deadline (or the end) is the answer.
Result<ExplorerReply> OnlineSources::explorer_player(const std::string& target, Millis deadline) {
    const auto start = Clock::now();
    constexpr OnlineSource s = OnlineSource::Explorer;
    RequestLock lock;
    if (auto refused = admit(s, start, deadline, lock)) return *refused;
    const Slot& slot = *slots_[static_cast<std::size_t>(s)];
    HttpRequest req = request_to(slot, target, start, deadline);
    req.accept = "application/x-ndjson";
    NdjsonStream lines;
    std::string last;
    const StreamEnd end = slot.http->stream(
        req, shutdown_.get_token(), *req.timeout + Millis{1000}, [&](std::string_view chunk) {
            lines.feed(chunk, [&](std::string_view line) { last = std::string(line); });
        });
    if (end.kind == StreamEnd::Kind::Closed) {
        lines.finish([&](std::string_view line) { last = std::string(line); });
    }
    if (end.kind == StreamEnd::Kind::Stopped) {
        return ApiError{ApiError::Kind::Cancelled, 0, "explorer: request cancelled", {}, {}};
    }
    if (end.kind == StreamEnd::Kind::Http) {
        HttpResponse response;
        response.status = end.status;
        response.body = end.body;
        response.retry_after = end.retry_after;
        return error_from(s, response);
    }
    if (last.empty()) {
        if (end.kind == StreamEnd::Kind::Closed) {
            return parse_error("explorer: the player stream ended without a line", "");
        }
        return ApiError{
            ApiError::Kind::Network,
            0,
            "explorer: no answer within " + ms_text(deadline) + " (" + end.message + ")",
            {},
            {}};
    }
    return parse_explorer(last);
}

Result<CloudEvalReply> OnlineSources::cloud_eval(std::string_view fen, int multi_pv,
                                                 Millis deadline, std::string_view variant) {
    std::string target = "/api/cloud-eval?fen=" + url_encode(fen) +
                         "&multiPv=" + std::to_string(std::clamp(multi_pv, 1, 5));
    if (variant != "standard") target += "&variant=" + url_encode(variant);
    auto r = get(OnlineSource::CloudEval, target, deadline);
    if (!r) return r.error();
    return parse_cloud_eval(r->body);
}

Result<TablebaseReply> OnlineSources::tablebase(std::string_view fen, Millis deadline,
                                                std::string_view table) {
    if (table != "standard" && table != "atomic" && table != "antichess")
        return ApiError{
            ApiError::Kind::Config,
            0,
            "tablebase: no table for " + std::string(table) + " (standard, atomic, antichess)",
            {},
            {}};
    auto r = get(OnlineSource::Tablebase, "/" + std::string(table) + "?fen=" + url_encode(fen),
                 deadline);
    if (!r) return r.error();
    return parse_tablebase(r->body);
}

Result<ChessdbReply> OnlineSources::chessdb(std::string_view fen, Millis deadline) {
    auto r = get(OnlineSource::Chessdb,
                 "/cdb.php?action=queryall&board=" + url_encode(fen) + "&json=1", deadline);
    if (!r) return r.error();
    auto parsed = parse_chessdb(r->body);
    if (parsed.ok() && parsed->status == "rate limit exceeded") {
        // cdb.php's per-IP query limit answers 200 with this status: treated as a 429.
        ApiError e{ApiError::Kind::RateLimited, 429, "chessdb: rate limit exceeded", {}, {}};
        e.retry_after = pause(OnlineSource::Chessdb, std::nullopt);
        return e;
    }
    return parsed;
}

}  // namespace lichess
