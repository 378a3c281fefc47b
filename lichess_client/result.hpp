// Result<T>: a value or an error, for calls where failure is normal (HTTP, JSON, network).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <variant>

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

template <class T, class E = ApiError>
class [[nodiscard]] Result {
  public:
    Result(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
    Result(E error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit by design

    [[nodiscard]] bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }

    [[nodiscard]] T& value() & { return std::get<0>(v_); }
    [[nodiscard]] const T& value() const& { return std::get<0>(v_); }
    [[nodiscard]] T&& value() && { return std::get<0>(std::move(v_)); }
    [[nodiscard]] const E& error() const { return std::get<1>(v_); }

    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    T& operator*() & { return value(); }
    const T& operator*() const& { return value(); }

  private:
    std::variant<T, E> v_;
};

}  // namespace lichess
