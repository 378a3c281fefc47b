// EventFeed: the event stream's thread, its liveness and its counts.
#include "service/daemon/event_feed.hpp"

#include <utility>

namespace service {

EventFeed::EventFeed(lichess::Api& api, const lichess::StreamOptions& options, Metrics& metrics,
                     std::atomic<bool>& connected, OnEvent on_event, OnFailed on_failed)
    : api_(api), metrics_(metrics), connected_(connected) {
    stream_.emplace(api_, std::move(on_event), options);
    stream_->set_liveness(
        [this] {
            connected_ = true;
            metrics_.event_stream_connected = true;
            metrics_.record_event_stream_activity();
        },
        [this] {
            connected_ = false;
            metrics_.event_stream_connected = false;
        });
    thread_ = std::jthread([this, on_failed = std::move(on_failed)](std::stop_token own) {
        try {
            auto fatal = stream_->run(own);
            connected_ = false;
            if (fatal) on_failed(fatal->describe(), false);
        } catch (const std::exception& e) {
            connected_ = false;
            on_failed(std::string("the event stream's thread failed: ") + e.what(), true);
        }
    });
}

EventFeed::~EventFeed() {
    if (thread_.joinable()) {
        thread_.request_stop();
        thread_.join();
    }
}

void EventFeed::sync_metrics() {
    const std::uint64_t reconnects = stream_->stats().reconnects.load();
    metrics_.stream_reconnects += reconnects - reconnects_counted_;
    reconnects_counted_ = reconnects;
    metrics_.rate_limited_429 = api_.rate_limiter().rate_limit_count();
    metrics_.http_errors = api_.error_count();
}

}  // namespace service
