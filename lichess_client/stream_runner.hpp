// Reconnect loop shared by EventStream and GameStream: watchdog, backoff, line framing.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stop_token>
#include <string_view>

#include "lichess_client/api.hpp"
#include "lichess_client/retry.hpp"

namespace lichess {

struct StreamOptions {
    // No byte at all for this long means the connection is dead: close it and reconnect. lila
    // writes a keep-alive newline every 6 s on the event stream (EventStream) and every 7 s on a
    // game stream (GameStateStream), so 12 s is two missed event-stream keep-alives; BotLi
    // waits 9 s, lichess-bot 15 s.
    Millis silence_timeout{12000};
    // Delay before reconnect n: min(max, initial * 2^n), jittered.
    BackoffConfig reconnect{Millis{1000}, Millis{60000}, 2.0, 0.5};
    // A connection that lived at least this long resets the backoff to `initial`; shorter ones
    // keep growing it (Lichess limits event-stream opens to 30 per 10 minutes).
    Millis stable_after{Millis{60000}};
    // Also reset the backoff after a connection that delivered a line (game streams: it
    // worked; only connections that fail to deliver anything make the wait grow).
    bool data_resets_backoff = false;
    std::uint64_t jitter_seed = 0;  // 0: random
};

// Counters for metrics and tests; safe to read from any thread.
struct StreamStats {
    std::atomic<std::uint64_t> connects{0};    // connection attempts
    std::atomic<std::uint64_t> reconnects{0};  // attempts after the first
    std::atomic<std::uint64_t> silences{0};    // watchdog closes
    std::atomic<std::uint64_t> lines{0};       // non-empty lines received
    std::atomic<std::uint64_t> skipped{0};     // invalid or unknown lines
    std::atomic<std::uint64_t> unreadable{0};  // game lines delivered as GameUnreadable
};

namespace detail {

enum class After { Reconnect, Finish };

struct RunnerHooks {
    // Opens one connection and feeds its bytes to the sink.
    std::function<StreamResult(std::stop_token, Millis, const ByteSink&)> open;
    // One complete non-empty line.
    std::function<void(std::string_view)> on_line;
    // Whether to reconnect after a connection ended this way.
    std::function<After(const StreamResult&)> after;
};

// Runs connections until `stop`, Api shutdown, or hooks.after says Finish. Returns the result of
// the last connection.
StreamResult run_reconnecting(Api& api, std::stop_token stop, const StreamOptions& options,
                              const char* what, const RunnerHooks& hooks, StreamStats& stats);

}  // namespace detail
}  // namespace lichess
