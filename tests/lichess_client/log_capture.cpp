// LogCapture: an spdlog sink that keeps formatted lines in memory.
#include "log_capture.hpp"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>

namespace lichess::test {

struct LogCapture::Sink : spdlog::sinks::base_sink<std::mutex> {
    mutable std::mutex lines_mutex;
    std::vector<std::string> lines;

  protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        spdlog::memory_buf_t formatted;
        formatter_->format(msg, formatted);
        std::lock_guard lock(lines_mutex);
        lines.emplace_back(formatted.data(), formatted.size());
    }
    void flush_() override {}
};

LogCapture::LogCapture() : sink_(std::make_shared<Sink>()) {
    auto logger = spdlog::default_logger();
    previous_level_ = static_cast<int>(logger->level());
    sink_->set_level(spdlog::level::trace);
    logger->sinks().push_back(sink_);
    logger->set_level(spdlog::level::trace);
}

LogCapture::~LogCapture() {
    auto logger = spdlog::default_logger();
    auto& sinks = logger->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
    logger->set_level(static_cast<spdlog::level::level_enum>(previous_level_));
}

std::vector<std::string> LogCapture::lines() const {
    std::lock_guard lock(sink_->lines_mutex);
    return sink_->lines;
}

std::size_t LogCapture::count(std::string_view needle) const {
    std::lock_guard lock(sink_->lines_mutex);
    return static_cast<std::size_t>(
        std::count_if(sink_->lines.begin(), sink_->lines.end(),
                      [&](const std::string& l) { return l.find(needle) != std::string::npos; }));
}

}  // namespace lichess::test
