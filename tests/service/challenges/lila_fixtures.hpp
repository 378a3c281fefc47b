// What lila sends the challenge pipeline, as values for its tests: challenges and refusals.
#pragma once

#include <algorithm>
#include <chrono>
#include <optional>
#include <string>

#include "common/text.hpp"
#include "lichess_client/api_error.hpp"
#include "lichess_client/events.hpp"

namespace lila_fixtures {

// A casual 3+2 standard challenge from `name` (its id lowercase) rated `rating`, a BOT when `bot`:
// the default config accepts it.
inline lichess::ChallengeInfo challenge(const std::string& id, const std::string& name,
                                        int rating = 1500, bool bot = false) {
    lichess::ChallengeInfo c;
    c.id = id;
    c.status = "created";
    c.challenger.id = common::lowercase(name);
    c.challenger.name = name;
    c.challenger.rating = rating;
    if (bot) c.challenger.title = "BOT";
    c.variant.key = "standard";
    c.speed = "blitz";
    c.time_control.type = lichess::TimeControl::Type::Clock;
    c.time_control.limit_s = 180;
    c.time_control.increment_s = 2;
    c.color = "random";
    c.direction = "in";
    return c;
}

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

}  // namespace lila_fixtures
