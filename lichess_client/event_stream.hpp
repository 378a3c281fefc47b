// EventStream: the long-lived /api/stream/event connection, delivered as typed events.
#pragma once

#include <functional>
#include <optional>
#include <stop_token>

#include "lichess_client/api.hpp"
#include "lichess_client/events.hpp"
#include "lichess_client/stream_runner.hpp"

namespace lichess {

// Usage, on the service's event thread:
//   lichess::EventStream events(api, [&](const lichess::Event& e) { queue.push(e); });
//   std::jthread t([&](std::stop_token st) { events.run(st); });   // t.request_stop() ends it
// After every reconnect Lichess replays ongoing games (gameStart) and open challenges, so the
// handler must be idempotent by game id / challenge id.
class EventStream {
  public:
    using Handler = std::function<void(const Event&)>;

    EventStream(Api& api, Handler on_event, StreamOptions options = {});

    // Blocks, reconnecting as needed, until `stop` fires, Api::shutdown() is called, or the
    // token is rejected (401/403). Returns that fatal error, or nullopt after a stop.
    // The handler runs on this thread; an exception from it propagates out of run().
    std::optional<ApiError> run(std::stop_token stop);

    [[nodiscard]] const StreamStats& stats() const { return stats_; }

    // Liveness, for health checks: `on_bytes` after every chunk of bytes a connection delivers
    // (a keep-alive newline included), `on_closed` when a connection ends. Set before run().
    void set_liveness(std::function<void()> on_bytes, std::function<void()> on_closed) {
        on_bytes_ = std::move(on_bytes);
        on_closed_ = std::move(on_closed);
    }

  private:
    Api& api_;
    Handler on_event_;
    std::function<void()> on_bytes_;
    std::function<void()> on_closed_;
    StreamOptions options_;
    StreamStats stats_;
};

}  // namespace lichess
