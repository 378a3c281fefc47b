// Api: endpoint functions over HttpClient, serialised and paused per family, retried by policy.
#include "lichess_client/api.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <random>

#include "common/text.hpp"
#include "lichess_client/error_body.hpp"
#include "lichess_client/json_util.hpp"
#include "lichess_client/ndjson_stream.hpp"

namespace lichess {

namespace {

constexpr std::array<const char*, 11> kDeclineReasons{"generic",     "later", "tooFast", "tooSlow",
                                                      "timeControl", "rated", "casual",  "standard",
                                                      "variant",     "noBot", "onlyBot"};

std::string game_path(std::string_view game_id, std::string_view action) {
    return "/api/bot/game/" + url_encode(game_id) + "/" + std::string(action);
}

}  // namespace

const char* to_string(DeclineReason r) { return kDeclineReasons.at(static_cast<std::size_t>(r)); }

std::optional<DeclineReason> parse_decline_reason(std::string_view s) {
    for (std::size_t i = 0; i < kDeclineReasons.size(); ++i) {
        const std::string_view name = kDeclineReasons[i];
        if (name.size() == s.size() &&
            std::equal(name.begin(), name.end(), s.begin(), [](char a, char b) {
                return std::tolower(static_cast<unsigned char>(a)) ==
                       std::tolower(static_cast<unsigned char>(b));
            })) {
            return static_cast<DeclineReason>(i);
        }
    }
    return std::nullopt;
}

const char* to_string(ChatRoom r) { return r == ChatRoom::Player ? "player" : "spectator"; }

std::optional<BotGameLimit> bot_game_limit(const ApiError& e) {
    // lila names the limit in `ratelimit.key` on a 429; the 400 about the opponent carries only
    // its text ("<Name> played 100 games against other bots today, please wait until ...").
    const bool named = e.rate_limit_key == "bot.vsBot.day" ||
                       e.message.find("games against other bots today") != std::string::npos;
    if (!named || (e.status != 429 && e.status != 400)) return std::nullopt;
    BotGameLimit limit;
    limit.ours = e.status == 429 || e.message.starts_with("You ");
    limit.wait = e.rate_limit_wait;
    return limit;
}

Api::Api(ApiOptions options)
    : options_(std::move(options)),
      http_(options_.http),
      limiter_(options_.rate_limit),
      backoff_(options_.retry.backoff, jitter_seed()) {}

std::uint64_t Api::jitter_seed() const {
    return options_.jitter_seed != 0 ? options_.jitter_seed : std::random_device{}();
}

void Api::shutdown() {
    shutdown_.request_stop();
    std::lock_guard lock(sleep_mutex_);
    sleep_cv_.notify_all();
}

bool Api::sleep_for(Millis duration, std::stop_token stop) {
    std::stop_source local;
    std::stop_callback from_caller(stop, [&local] { local.request_stop(); });
    std::stop_callback from_api(shutdown_.get_token(), [&local] { local.request_stop(); });
    std::unique_lock lock(sleep_mutex_);
    sleep_cv_.wait_for(lock, local.get_token(), duration, [] { return false; });
    return !local.stop_requested();
}

ApiError Api::error_from(Family family, int status, std::string_view body,
                         std::optional<Millis> retry_after_header) {
    ApiError err = detail::refusal(status, body, http_, "HTTP " + std::to_string(status));
    if (status == 429 && err.rate_limit_key == "bot.vsBot.day") {
        // A daily quota of bot games (lila BotLimit), not a request rate: pausing the family
        // would leave humans' challenges unanswered for a day. The Bot stops bot games only.
        limiter_.count_quota_refusal();
        err.retry_after = err.rate_limit_wait;
    } else if (status == 429) {
        // Retry-After, else the body's `ratelimit.seconds` (as for the online sources); the
        // family's cap bounds either (RateLimiter).
        err.retry_after = limiter_.on_rate_limited(
            family, retry_after_header ? retry_after_header : err.rate_limit_wait);
    }
    return err;
}

void Api::count_error(const ApiError& e) {
    // 429s have their own counter (RateLimiter); a parse error or a cancel is no failed request.
    if (e.kind == ApiError::Kind::Http || e.kind == ApiError::Kind::Network)
        errors_.fetch_add(1, std::memory_order_relaxed);
}

Result<HttpResponse> Api::call(Family family, const HttpRequest& request,
                               const std::function<bool()>& still_on, const RetryPolicy* policy,
                               bool through_pause) {
    const RetryPolicy& retry = policy != nullptr ? *policy : options_.retry;
    const int attempts = std::max(1, retry.max_attempts);
    Backoff* backoff = &backoff_;
    std::optional<Backoff> own_backoff;
    if (policy != nullptr) backoff = &own_backoff.emplace(policy->backoff, jitter_seed());
    // Requests on the daemon's own paths get a short deadline per try (request_try_timeout);
    // every request stops at once when the Api shuts down.
    HttpRequest request_with_limits = request;
    if (!request_with_limits.timeout && !is_per_game(family))
        request_with_limits.timeout = options_.request_try_timeout;
    if (!request_with_limits.stop.stop_possible()) request_with_limits.stop = shutdown_.get_token();
    for (int attempt = 0;; ++attempt) {
        if (is_shut_down()) return ApiError{ApiError::Kind::Cancelled, 0, "shutting down", {}, {}};
        // A game's own requests go even during their family's pause: the caller waited what
        // its clock allows (retry_after, paused_until); the server answers another 429 if not.
        if (auto left = limiter_.paused_for(family);
            left && !is_per_game(family) && !through_pause) {
            return ApiError{ApiError::Kind::RateLimited,
                            429,
                            std::string(to_string(family)) + " requests paused after a 429",
                            {},
                            left};
        }
        auto response = [&] {
            auto slot = limiter_.acquire(family);
            return http_.perform(request_with_limits);
        }();
        if (response.ok() && is_2xx(response->status)) return response;
        ApiError err = response.ok() ? error_from(family, response->status, response->body,
                                                  response->retry_after)
                                     : response.error();
        count_error(err);
        const bool last = attempt + 1 >= attempts;
        if (!is_retryable(err) || last || (still_on && !still_on())) {
            if (err.kind != ApiError::Kind::RateLimited) {
                spdlog::debug("lichess: {} failed: {}", request.target, err.describe());
            }
            return err;
        }
        const Millis wait = backoff->delay(attempt);
        spdlog::debug("lichess: {} failed ({}), retry {} of {} in {} ms", request.target,
                      err.describe(), attempt + 1, attempts - 1, wait.count());
        if (!sleep_for(wait)) {
            return ApiError{ApiError::Kind::Cancelled, 0, "shutting down", {}, {}};
        }
    }
}

Result<Ok> Api::post_ok(Family family, std::string target, std::string body,
                        const RetryPolicy* policy, bool through_pause) {
    HttpRequest req;
    req.method = Method::Post;
    req.target = std::move(target);
    req.body = std::move(body);
    if (family == Family::GameAction) req.timeout = options_.game_action_timeout;
    auto r = call(family, req, {}, policy, through_pause);
    if (!r) return r.error();
    return Ok{};
}

// ---- account and users ----

namespace {
template <class T>
Result<T> to_api(Result<T, ParseError> parsed) {
    if (!parsed) return ApiError{ApiError::Kind::Parse, 200, parsed.error().message, {}, {}};
    return std::move(parsed).value();
}
}  // namespace

// Adds a redacted excerpt of the body to a parse error.
template <class T>
static Result<T> with_excerpt(Result<T> r, const HttpClient& http, const std::string& body) {
    if (!r.ok() && r.error().kind == ApiError::Kind::Parse) {
        ApiError e = r.error();
        e.excerpt = detail::excerpt(http.redact(body));
        return e;
    }
    return r;
}

Result<Account> Api::account() {
    auto r = call(Family::Account,
                  HttpRequest{Method::Get, "/api/account", {}, {}, true, "application/json"});
    if (!r) return r.error();
    return with_excerpt(to_api(parse_account(r->body)), http_, r->body);
}

Result<TokenInfo> Api::token_test() {
    // The token travels in the body (text/plain), so this request and its reply are never logged
    // verbatim; the path is public and carries no Authorization header.
    HttpRequest req{Method::Post, "/api/token/test", options_.http.token, "text/plain",
                    false,        "application/json"};
    auto r = call(Family::Account, req);
    if (!r) return r.error();
    auto parsed = parse_token_test(r->body, options_.http.token);
    if (!parsed) {
        return ApiError{
            ApiError::Kind::Parse, r->status, http_.redact(parsed.error().message), {}, {}};
    }
    if (!parsed.value()) {
        return ApiError{
            ApiError::Kind::Config, r->status, "the API token is invalid or revoked", {}, {}};
    }
    TokenInfo info = std::move(*parsed.value());
    if (!info.has_scope("bot:play")) {
        return ApiError{ApiError::Kind::Config,
                        r->status,
                        "the API token lacks the bot:play scope; create one with bot:play",
                        {},
                        {}};
    }
    return info;
}

Result<Playing> Api::playing(int nb) {
    nb = std::clamp(nb, 1, 50);
    auto r = call(Family::Account, HttpRequest{Method::Get,
                                               "/api/account/playing?nb=" + std::to_string(nb),
                                               {},
                                               {},
                                               true,
                                               "application/json"});
    if (!r) return r.error();
    return with_excerpt(to_api(parse_playing(r->body)), http_, r->body);
}

Result<Ok> Api::upgrade_to_bot() { return post_ok(Family::Account, "/api/bot/account/upgrade"); }

Result<std::vector<User>> Api::bots_online(int nb) {
    nb = std::clamp(nb, 1, 512);
    auto r = call(Family::Account, HttpRequest{Method::Get,
                                               "/api/bot/online?nb=" + std::to_string(nb),
                                               {},
                                               {},
                                               true,
                                               "application/x-ndjson"});
    if (!r) return r.error();
    std::vector<User> users;
    NdjsonStream framing;
    auto on_line = [&](std::string_view line) {
        auto u = parse_user(line);
        if (u) {
            users.push_back(std::move(u).value());
        } else {
            spdlog::debug("lichess: skipped a bot list line ({})",
                          common::printable(u.error().message));
        }
    };
    framing.feed(r->body, on_line);
    framing.finish(on_line);
    return users;
}

Result<std::vector<UserStatus>> Api::user_status(const std::vector<std::string>& ids) {
    std::string joined;
    for (const auto& id : ids) {
        if (!joined.empty()) joined += ',';
        joined += id;
    }
    auto r = call(Family::Account, HttpRequest{Method::Get,
                                               "/api/users/status?ids=" + url_encode(joined),
                                               {},
                                               {},
                                               true,
                                               "application/json"});
    if (!r) return r.error();
    return with_excerpt(to_api(parse_user_status(r->body)), http_, r->body);
}

// ---- playing ----

Result<Ok> Api::post_move(std::string_view game_id, std::string_view uci,
                          std::optional<bool> offering_draw,
                          const std::function<bool()>& still_on) {
    HttpRequest req;
    req.method = Method::Post;
    req.target = game_path(game_id, "move/" + url_encode(uci));
    if (offering_draw) req.target += *offering_draw ? "?offeringDraw=true" : "?offeringDraw=false";
    req.timeout = options_.move_timeout;
    auto r = call(Family::Move, req, still_on, &options_.move_retry);
    if (!r) return r.error();
    return Ok{};
}

Result<Ok> Api::chat(std::string_view game_id, ChatRoom room, std::string_view text) {
    return post_ok(Family::Chat, game_path(game_id, "chat"),
                   form_encode({{"room", to_string(room)}, {"text", std::string(text)}}));
}

Result<Ok> Api::abort(std::string_view game_id) {
    return post_ok(Family::GameAction, game_path(game_id, "abort"));
}
Result<Ok> Api::resign(std::string_view game_id) {
    return post_ok(Family::GameAction, game_path(game_id, "resign"));
}
Result<Ok> Api::handle_draw(std::string_view game_id, bool accept) {
    return post_ok(Family::GameAction, game_path(game_id, accept ? "draw/yes" : "draw/no"));
}
Result<Ok> Api::handle_takeback(std::string_view game_id, bool accept) {
    return post_ok(Family::GameAction, game_path(game_id, accept ? "takeback/yes" : "takeback/no"));
}
Result<Ok> Api::claim_victory(std::string_view game_id) {
    return post_ok(Family::GameAction, game_path(game_id, "claim-victory"));
}
Result<Ok> Api::claim_draw(std::string_view game_id) {
    return post_ok(Family::GameAction, game_path(game_id, "claim-draw"));
}

// ---- challenges ----

Result<Ok> Api::accept_challenge(std::string_view id, std::optional<Color> color) {
    std::string target = "/api/challenge/" + url_encode(id) + "/accept";
    if (color) target += std::string("?color=") + to_string(*color);
    return post_ok(Family::Challenge, std::move(target));
}

Result<Ok> Api::decline_challenge(std::string_view id, DeclineReason reason) {
    return post_ok(Family::Challenge, "/api/challenge/" + url_encode(id) + "/decline",
                   form_encode({{"reason", to_string(reason)}}));
}

Result<Ok> Api::cancel_challenge(std::string_view id) {
    return post_ok(Family::Challenge, "/api/challenge/" + url_encode(id) + "/cancel");
}

Result<ChallengeInfo> Api::create_challenge(std::string_view username, const ChallengeRequest& c) {
    std::vector<std::pair<std::string, std::string>> form;
    if (c.clock_limit_s) {
        form.emplace_back("clock.limit", std::to_string(*c.clock_limit_s));
        form.emplace_back("clock.increment", std::to_string(c.clock_increment_s.value_or(0)));
    } else if (c.days) {
        form.emplace_back("days", std::to_string(*c.days));
    }
    form.emplace_back("rated", c.rated ? "true" : "false");
    form.emplace_back("color", c.color);
    form.emplace_back("variant", c.variant);
    if (c.fen) form.emplace_back("fen", *c.fen);
    HttpRequest req{Method::Post,
                    "/api/challenge/" + url_encode(username),
                    form_encode(form),
                    "application/x-www-form-urlencoded",
                    true,
                    "application/json"};
    // Tried once: a creation whose answer was lost may have created the challenge, and a
    // second one would challenge the bot twice. Matchmaking tries again a minute later.
    const RetryPolicy once{1, options_.retry.backoff};
    auto r = call(Family::ChallengeCreate, req, {}, &once);
    if (!r) return r.error();
    // The reply is a ChallengeJson, possibly wrapped as {"challenge": {...}} by older servers.
    const auto parsed_body = parse_bounded(r->body);
    if (!parsed_body) {
        return ApiError{ApiError::Kind::Parse,
                        r->status,
                        parsed_body.error().message,
                        detail::excerpt(http_.redact(r->body)),
                        {}};
    }
    const nlohmann::json& j = parsed_body.value();
    const auto* inner = detail::field(j, "challenge");
    auto parsed = challenge_from_json(inner != nullptr && inner->is_object() ? *inner : j);
    if (!parsed) return ApiError{ApiError::Kind::Parse, r->status, parsed.error().message, {}, {}};
    return std::move(parsed).value();
}

// ---- arenas ----

Result<Tournament> Api::tournament(std::string_view id) {
    auto r = call(
        Family::Tournament,
        HttpRequest{
            Method::Get, "/api/tournament/" + url_encode(id), {}, {}, true, "application/json"});
    if (!r) return r.error();
    return with_excerpt(to_api(parse_tournament(r->body)), http_, r->body);
}

Result<Ok> Api::join_tournament(std::string_view id, const TournamentJoin& join) {
    std::vector<std::pair<std::string, std::string>> form;
    if (join.team) form.emplace_back("team", *join.team);
    if (join.password) form.emplace_back("password", *join.password);
    if (join.pair_me_asap) form.emplace_back("pairMeAsap", "true");
    return post_ok(Family::Tournament, "/api/tournament/" + url_encode(id) + "/join",
                   form_encode(form));
}

Result<Ok> Api::withdraw_tournament(std::string_view id) {
    return post_ok(Family::Tournament, "/api/tournament/" + url_encode(id) + "/withdraw", {},
                   nullptr, true);
}

// ---- streams ----

StreamResult Api::open_stream(Family family, const std::string& target, std::stop_token stop,
                              Millis silence, const ByteSink& on_bytes) {
    StreamResult out;
    if (is_shut_down()) {
        out.kind = StreamEnd::Kind::Stopped;
        return out;
    }
    if (auto left = limiter_.paused_for(family)) {
        out.kind = StreamEnd::Kind::Http;
        out.error = ApiError{ApiError::Kind::RateLimited,
                             429,
                             std::string(to_string(family)) + " paused after a 429",
                             {},
                             left};
        return out;
    }
    std::stop_source local;
    std::stop_callback from_caller(stop, [&local] { local.request_stop(); });
    std::stop_callback from_api(shutdown_.get_token(), [&local] { local.request_stop(); });
    HttpRequest req{Method::Get, target, {}, {}, true, "application/x-ndjson"};
    StreamEnd end = http_.stream(req, local.get_token(), silence, on_bytes);
    out.kind = end.kind;
    out.bytes = end.bytes;
    if (end.kind == StreamEnd::Kind::Http || (end.status != 0 && !is_2xx(end.status))) {
        out.kind = StreamEnd::Kind::Http;
        out.error = error_from(family, end.status, end.body, end.retry_after);
    } else if (end.kind == StreamEnd::Kind::Network) {
        out.error = ApiError{ApiError::Kind::Network, end.status, end.message, {}, {}};
    }
    if (out.error) count_error(*out.error);
    return out;
}

StreamResult Api::stream_events(std::stop_token stop, Millis silence, const ByteSink& on_bytes) {
    return open_stream(Family::EventStream, "/api/stream/event", std::move(stop), silence,
                       on_bytes);
}

StreamResult Api::stream_game(std::string_view game_id, std::stop_token stop, Millis silence,
                              const ByteSink& on_bytes) {
    return open_stream(Family::GameStream, "/api/bot/game/stream/" + url_encode(game_id),
                       std::move(stop), silence, on_bytes);
}

}  // namespace lichess
