// The reconnect loop: one NdjsonStream per connection, backoff between connections.
#include "lichess_client/stream_runner.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <random>

#include "lichess_client/ndjson_stream.hpp"

namespace lichess::detail {

StreamResult run_reconnecting(Api& api, std::stop_token stop, const StreamOptions& options,
                              const char* what, const RunnerHooks& hooks, StreamStats& stats) {
    using Clock = std::chrono::steady_clock;
    Backoff backoff(options.reconnect,
                    options.jitter_seed != 0 ? options.jitter_seed : std::random_device{}());
    int failures = 0;
    StreamResult last;
    const auto stopping = [&] { return stop.stop_requested() || api.is_shut_down(); };
    while (!stopping()) {
        if (stats.connects++ > 0) ++stats.reconnects;
        NdjsonStream framing;
        bool delivered = false;
        const auto on_line = [&](std::string_view line) {
            ++stats.lines;
            delivered = true;
            hooks.on_line(line);
        };
        const auto opened = Clock::now();
        last = hooks.open(stop, options.silence_timeout,
                          [&](std::string_view bytes) { framing.feed(bytes, on_line); });
        // Only a clean close may end with an unterminated last line; after a drop a partial
        // line is discarded (the server replays state on reconnect).
        if (last.kind == StreamEnd::Kind::Closed) framing.finish(on_line);
        if (last.kind == StreamEnd::Kind::Stopped || stopping()) break;
        if (last.kind == StreamEnd::Kind::Silent) {
            ++stats.silences;
            spdlog::warn("lichess: {} silent for {} ms; reconnecting", what,
                         options.silence_timeout.count());
        } else if (last.error) {
            if (last.error->kind != ApiError::Kind::RateLimited) {
                spdlog::warn("lichess: {} ended: {}", what, last.error->describe());
            }
        } else {
            spdlog::info("lichess: {} closed by the server", what);
        }
        if (hooks.after(last) == After::Finish) break;

        if (Clock::now() - opened >= options.stable_after ||
            (options.data_resets_backoff && delivered))
            failures = 0;
        Millis wait = backoff.delay(failures++);
        if (last.error && last.error->retry_after) wait = std::max(wait, *last.error->retry_after);
        spdlog::debug("lichess: {} reconnecting in {} ms", what, wait.count());
        if (!api.sleep_for(wait, stop)) break;
    }
    if (stopping() && last.kind != StreamEnd::Kind::Stopped) {
        last = StreamResult{StreamEnd::Kind::Stopped, std::nullopt, 0};
    }
    return last;
}

}  // namespace lichess::detail
