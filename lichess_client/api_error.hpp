// lichess::Result<T>: a value or an ApiError, for calls where failure is normal (HTTP, JSON).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <variant>

#include "common/result.hpp"

namespace lichess {

// Why a call failed; the service branches on the kind, people read the message.
struct ApiError {
    enum class Kind {
        Network,      // connect/DNS/TLS/timeout: nothing usable came back
        Http,         // a non-2xx status (other than 429)
        RateLimited,  // 429, or the endpoint family is paused after one
        Parse,        // a 2xx reply whose body was not the JSON we expected
        Config,       // bad base URL, token or argument: retrying cannot help
        Cancelled,    // shutdown was requested while the call waited
    };
    Kind kind = Kind::Network;
    int status = 0;       // HTTP status, 0 when no response arrived
    std::string message;  // the server's `error` field or a description of the failure
    std::string excerpt;  // first bytes of a body that was not the expected JSON
    std::optional<std::chrono::milliseconds> retry_after;  // set for RateLimited
    // The body's `ratelimit` object, whatever the status: lila's limit key ("bot.vsBot.day")
    // and the wait it asks for (`seconds`). The `{}` lets shorter brace initialisations omit them.
    std::string rate_limit_key{};
    std::optional<std::chrono::milliseconds> rate_limit_wait{};

    [[nodiscard]] std::string describe() const;
};

[[nodiscard]] const char* to_string(ApiError::Kind kind);

// A parse failure of one JSON document (stream line or reply body).
struct ParseError {
    std::string message;
    // The text was no JSON object within the limits (invalid, too deep, too large), as opposed
    // to an object with a missing or mistyped field.
    bool unusable = false;
};

// The value of a call that has nothing to return but success ({"ok":true}).
struct Ok {};

// A call's value or its ApiError (common::Result, the one Result type of Outpost's services).
template <class T, class E = ApiError>
using Result = common::Result<T, E>;

}  // namespace lichess
