// EventFeed: the event stream on a thread of its own. Each event goes to `on_event` (the Bot's
// queue); a stream that ends for good (refused, or its thread failed) goes to `on_failed`. Every
// byte, keep-alives included, marks the stream live in /metrics: an idle bot's stream is alive
// (lila writes a newline every 6 s), a stream that delivers nothing is not.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <thread>

#include "lichess_client/api.hpp"
#include "lichess_client/event_stream.hpp"
#include "service/ops/metrics.hpp"

namespace service {

class EventFeed {
  public:
    using OnEvent = std::function<void(const lichess::Event&)>;
    // `broken`: the stream's thread failed (else: the server refused the stream).
    using OnFailed = std::function<void(std::string error, bool broken)>;

    // Opens the stream and starts its thread; `connected` follows the stream's liveness.
    EventFeed(lichess::Api& api, const lichess::StreamOptions& options, Metrics& metrics,
              std::atomic<bool>& connected, OnEvent on_event, OnFailed on_failed);
    ~EventFeed();  // stops the stream and joins its thread
    EventFeed(const EventFeed&) = delete;
    EventFeed& operator=(const EventFeed&) = delete;

    // The client keeps its own counts; /metrics shows them. Game sessions add their streams'
    // reconnects to stream_reconnects themselves, so the event stream's are added as they grow.
    void sync_metrics();

  private:
    lichess::Api& api_;
    Metrics& metrics_;
    std::atomic<bool>& connected_;
    std::optional<lichess::EventStream> stream_;
    std::uint64_t reconnects_counted_ = 0;
    std::jthread thread_;  // last: stopped and joined before the stream goes
};

}  // namespace service
