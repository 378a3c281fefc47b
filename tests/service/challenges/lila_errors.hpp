// lila's refusals as lichess::ApiError values, for the tests of the challenge pipeline.
#pragma once

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>

#include "lichess_client/result.hpp"

namespace lila_errors {

// An HTTP error: a 429 is a rate limit (with Retry-After, at least a minute), anything else a
// plain HTTP error. `key` and `wait`: the body's `ratelimit` object.
inline lichess::ApiError http_error(int status, std::string message, std::string key = {},
                                    std::optional<std::chrono::milliseconds> wait = {}) {
    lichess::ApiError e;
    e.kind = status == 429 ? lichess::ApiError::Kind::RateLimited : lichess::ApiError::Kind::Http;
    e.status = status;
    e.message = std::move(message);
    e.rate_limit_key = std::move(key);
    e.rate_limit_wait = wait;
    if (status == 429)
        e.retry_after = std::max<std::chrono::milliseconds>(std::chrono::seconds(60),
                                                            wait.value_or(std::chrono::seconds(0)));
    return e;
}

// The 429 for our own daily bot-vs-bot limit, with the wait it asks for.
inline lichess::ApiError our_bot_limit(std::chrono::seconds wait) {
    return http_error(429, "too many bot games today", "bot.vsBot.day", wait);
}

// The 400 when the challenger has played its bot games for today.
inline lichess::ApiError their_bot_limit(const std::string& name) {
    return http_error(400, name + " played 100 games against other bots today, please wait");
}

}  // namespace lila_errors
