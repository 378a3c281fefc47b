// read_error_body(): the `error` and `ratelimit` fields of a non-2xx reply.
#include "lichess_client/error_body.hpp"

#include <algorithm>

#include "lichess_client/json_util.hpp"

namespace lichess::detail {

ErrorBody read_error_body(std::string_view body) {
    ErrorBody out;
    const auto parsed = parse_bounded(body);
    if (!parsed || !parsed.value().is_object()) return out;
    const json& j = parsed.value();
    out.message = opt_str(j, "error").value_or("");
    if (const json* rl = field(j, "ratelimit")) {
        out.rate_limit_key = opt_str(*rl, "key").value_or("");
        if (auto secs = opt_i64(*rl, "seconds"); secs && *secs >= 0) {
            const std::int64_t cap_s = kMaxServerWait.count() / 1000;
            out.rate_limit_wait = std::chrono::milliseconds{std::min(*secs, cap_s) * 1000};
        }
    }
    return out;
}

ApiError refusal(int status, std::string_view body, const HttpClient& http, std::string fallback) {
    ApiError err;
    err.kind = status == 429 ? ApiError::Kind::RateLimited : ApiError::Kind::Http;
    err.status = status;
    ErrorBody said = read_error_body(body);
    err.message = std::move(said.message);
    err.rate_limit_key = std::move(said.rate_limit_key);
    err.rate_limit_wait = said.rate_limit_wait;
    if (err.message.empty()) {
        // An HTML error page or other non-JSON body: keep a short excerpt for the log.
        err.message = std::move(fallback);
        err.excerpt = excerpt(http.redact(std::string(body)));
    }
    err.message = http.redact(std::move(err.message));
    return err;
}

}  // namespace lichess::detail
