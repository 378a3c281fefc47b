// Test helper: every spdlog message (trace and up) while it lives, kept in memory for checks.
#pragma once

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <mutex>
#include <string>

namespace e2e {

// A sink that appends formatted messages to a string, read under the sink's own lock.
class MemorySink : public spdlog::sinks::base_sink<std::mutex> {
  public:
    [[nodiscard]] std::string text() {
        std::lock_guard lock(mutex_);
        return text_;
    }

  protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
        spdlog::memory_buf_t formatted;
        formatter_->format(msg, formatted);
        text_.append(formatted.data(), formatted.size());
    }
    void flush_() override {}

  private:
    std::string text_;
};

// Replaces the default logger with one that writes to memory at trace level; restores the
// previous logger when destroyed.
class LogCapture {
  public:
    LogCapture() : previous_(spdlog::default_logger()), sink_(std::make_shared<MemorySink>()) {
        auto logger = std::make_shared<spdlog::logger>("e2e-capture", sink_);
        logger->set_level(spdlog::level::trace);
        logger->set_pattern("%l %v");
        spdlog::set_default_logger(logger);
    }
    ~LogCapture() { spdlog::set_default_logger(previous_); }
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;

    // Everything logged so far.
    [[nodiscard]] std::string text() { return sink_->text(); }
    [[nodiscard]] bool contains(const std::string& part) {
        return text().find(part) != std::string::npos;
    }

  private:
    std::shared_ptr<spdlog::logger> previous_;
    std::shared_ptr<MemorySink> sink_;
};

}  // namespace e2e
