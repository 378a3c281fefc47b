// EventStream: parses event-stream lines and keeps the connection alive.
#include "lichess_client/event_stream.hpp"

#include <spdlog/spdlog.h>

#include "common/text.hpp"
#include "lichess_client/json_util.hpp"

namespace lichess {

EventStream::EventStream(Api& api, Handler on_event, StreamOptions options)
    : api_(api), on_event_(std::move(on_event)), options_(options) {}

std::optional<ApiError> EventStream::run(std::stop_token stop) {
    detail::RunnerHooks hooks;
    hooks.open = [this](std::stop_token st, Millis silence, const ByteSink& sink) {
        StreamResult r = api_.stream_events(std::move(st), silence, [&](std::string_view bytes) {
            if (on_bytes_) on_bytes_();
            sink(bytes);
        });
        if (on_closed_) on_closed_();
        return r;
    };
    hooks.on_line = [this](std::string_view line) {
        auto parsed = parse_event(line);
        if (!parsed) {
            // Invalid, oversized or unreadable: a server bug or a hostile one, worth a warning
            // (an unreadable challenge with an id arrives as ChallengeUnreadable instead).
            ++stats_.skipped;
            spdlog::warn(
                "lichess: event line skipped ({}): {}", common::printable(parsed.error().message),
                detail::excerpt(api_.http().redact(std::string(line.substr(0, 4096))), 120));
        } else if (!parsed.value()) {
            ++stats_.skipped;
            spdlog::debug(
                "lichess: event of unknown type skipped: {}",
                detail::excerpt(api_.http().redact(std::string(line.substr(0, 4096))), 120));
        } else {
            on_event_(*parsed.value());
        }
    };
    hooks.after = [](const StreamResult& r) {
        const bool fatal = r.error && r.error->kind == ApiError::Kind::Http &&
                           (r.error->status == 401 || r.error->status == 403);
        return fatal ? detail::After::Finish : detail::After::Reconnect;
    };
    StreamResult last =
        detail::run_reconnecting(api_, stop, options_, "event stream", hooks, stats_);
    if (last.kind == StreamEnd::Kind::Stopped) return std::nullopt;
    return last.error;
}

}  // namespace lichess
