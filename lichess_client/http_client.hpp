// HttpClient: libcurl behind RAII, with the Lichess auth header, User-Agent, timeouts and TLS.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lichess_client/api_error.hpp"

namespace lichess {

using Millis = std::chrono::milliseconds;

struct HttpConfig {
    std::string base_url = "https://lichess.org";  // http:// only for loopback hosts
    std::string token;     // [A-Za-z0-9_]+; empty means no Authorization header
    std::string username;  // for the User-Agent; may be empty before /api/account is known
    Millis connect_timeout{10000};
    Millis request_timeout{30000};  // whole non-streaming request
    // A whole reply larger than this is refused as it arrives (Kind::Network, "reply larger
    // than ..."): the largest real ones (512 online bots, 50 ongoing games) are under 1 MB, and
    // a body is parsed within the limits of bounded_json.hpp, whose max_bytes is this figure.
    std::size_t max_body = 4 * 1024 * 1024;
};

enum class Method { Get, Post };

struct HttpRequest {
    Method method = Method::Get;
    std::string target;  // path and query, already encoded: "/api/bot/online?nb=10"
    std::string body;
    std::string content_type;  // set for bodies: form-urlencoded or text/plain
    bool authenticated = true;
    std::string accept = "application/json";
    // The whole request's deadline when shorter than HttpConfig::request_timeout (a move post
    // that hangs must be given up and sent again while our clock still allows it). Streams
    // honour it too (a stream with a deadline ends as Network when it passes).
    std::optional<Millis> timeout{};
    // perform(): a stop request aborts the transfer (Kind::Cancelled) within curl's progress
    // tick (about a second); streams take their stop token as an argument instead.
    std::stop_token stop{};
};

struct HttpResponse {
    int status = 0;
    std::string body;
    std::string content_type;
    std::optional<Millis> retry_after{};  // the Retry-After header (seconds or HTTP date)
};

inline bool is_2xx(int status) { return status >= 200 && status < 300; }

// How a streaming request ended.
struct StreamEnd {
    enum class Kind {
        Closed,   // the server ended the body cleanly
        Stopped,  // the stop token fired
        Silent,   // no byte for the silence timeout: the watchdog closed it
        Network,  // connect/TLS/reset/truncated body
        Http,     // a non-2xx status; body holds (the start of) the error body
    };
    Kind kind = Kind::Closed;
    int status = 0;
    std::string body;                     // error body for Http
    std::string message;                  // curl's text for Network
    std::uint64_t bytes = 0;              // body bytes delivered (keep-alives included)
    std::optional<Millis> retry_after{};  // the Retry-After header of an Http end
};

[[nodiscard]] const char* to_string(StreamEnd::Kind k);

// Returns an error text when `url` is not acceptable as a base URL: not http(s), userinfo,
// or plain http to a host that is not loopback (127.0.0.0/8, localhost, ::1).
[[nodiscard]] std::optional<std::string> check_base_url(std::string_view url);

// Percent-encoding for path segments and form values (RFC 3986 unreserved kept).
[[nodiscard]] std::string url_encode(std::string_view s);
// key=value&key=value with both sides encoded.
[[nodiscard]] std::string form_encode(
    const std::vector<std::pair<std::string, std::string>>& fields);

class HttpClient {
  public:
    // Throws std::invalid_argument for a bad base URL or token (a start-up error).
    explicit HttpClient(HttpConfig config);
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    // One request with a whole body. Any HTTP status is a response; only a transport failure
    // (no response) is an error value. Thread-safe: handles come from an internal pool.
    [[nodiscard]] Result<HttpResponse> perform(const HttpRequest& request);

    // A streaming GET: on_bytes receives body bytes of a 2xx reply as they arrive (outside
    // any curl callback, so it may throw). Ends on server close, network error, `stop`, or when
    // no byte arrived for `silence`. Thread-safe; each call uses its own handles.
    StreamEnd stream(const HttpRequest& request, std::stop_token stop, Millis silence,
                     const std::function<void(std::string_view)>& on_bytes);

    [[nodiscard]] const std::string& base_url() const { return base_url_; }
    [[nodiscard]] std::string user_agent() const;
    // Sets the `user:<name>` part of the User-Agent once the account name is known (e.g. from
    // GET /api/account); later requests use it. Thread-safe.
    void set_username(std::string_view username);

    // Replaces every occurrence of the token in `text` (defence for error messages).
    [[nodiscard]] std::string redact(std::string text) const;

    struct Impl;  // curl details, defined in the .cpp

  private:
    std::string base_url_;
    std::string token_;
    mutable std::mutex ua_mutex_;
    std::string user_agent_;
    HttpConfig config_;
    std::unique_ptr<Impl> impl_;
};

}  // namespace lichess
