// LogCapture: a logger at trace level whose sink keeps formatted messages in memory.
#include "log_capture.hpp"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <mutex>

namespace test_support {

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

LogCapture::LogCapture() : previous_(spdlog::default_logger()), sink_(std::make_shared<Sink>()) {
    auto logger = std::make_shared<spdlog::logger>("test-capture", sink_);
    logger->set_level(spdlog::level::trace);
    logger->set_pattern("%l %v");
    spdlog::set_default_logger(logger);
}

LogCapture::~LogCapture() { spdlog::set_default_logger(previous_); }

std::vector<std::string> LogCapture::lines() const {
    std::lock_guard lock(sink_->lines_mutex);
    return sink_->lines;
}

std::string LogCapture::text() const {
    std::string all;
    for (const std::string& line : lines()) all += line;
    return all;
}

bool LogCapture::contains(std::string_view part) const {
    return text().find(part) != std::string::npos;
}

std::size_t LogCapture::count(std::string_view needle) const {
    std::lock_guard lock(sink_->lines_mutex);
    return static_cast<std::size_t>(
        std::count_if(sink_->lines.begin(), sink_->lines.end(),
                      [&](const std::string& l) { return l.find(needle) != std::string::npos; }));
}

}  // namespace test_support
