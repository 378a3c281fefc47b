// What the body of a refused request says: lila's `error` text and its `ratelimit` hint
// (internal to lichess_client; the Bot API and the online sources answer in the same shape).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "lichess_client/api_error.hpp"
#include "lichess_client/http_client.hpp"

namespace lichess::detail {

// A server's wait hint is never taken beyond a day: lila's longest limit (the daily bot-game
// quota, `bot.vsBot.day`) clears within 24 hours. The families cap it further (RateLimiter).
inline constexpr std::chrono::milliseconds kMaxServerWait{86'400'000};

struct ErrorBody {
    std::string message;         // `error`, empty when the body has none or is not a JSON object
    std::string rate_limit_key;  // `ratelimit.key`
    std::optional<std::chrono::milliseconds> rate_limit_wait;  // `ratelimit.seconds`, capped
};

// Reads `{"error": "...", "ratelimit": {"key": "...", "seconds": N}}`; anything else (an HTML
// page, a nested or oversized body) gives an empty ErrorBody.
[[nodiscard]] ErrorBody read_error_body(std::string_view body);

// A non-2xx reply as an ApiError (Kind::RateLimited for a 429, else Kind::Http) with what its
// body says; without an `error` text, `fallback` and an excerpt of the body. The token is
// redacted from both (a server that echoes the request). retry_after is left to the caller,
// which knows the pause that applies.
[[nodiscard]] ApiError refusal(int status, std::string_view body, const HttpClient& http,
                               std::string fallback);

}  // namespace lichess::detail
