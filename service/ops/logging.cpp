// Logging set-up: one logger with a console sink and an optional rotating file sink that can be
// reopened (SIGHUP) while the daemon runs.
#include "service/ops/logging.hpp"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <mutex>

namespace service {

namespace {

// 10 files of 20 MB: months of move logs without filling a small disk.
constexpr std::size_t kLogFileBytes = 20 * 1024 * 1024;
constexpr std::size_t kLogFiles = 10;

// A rotating file sink behind a lock that reopen() can swap for a freshly opened one: spdlog's
// own file sinks keep their descriptor for life.
class ReopenableFileSink final : public spdlog::sinks::base_sink<std::mutex> {
  public:
    explicit ReopenableFileSink(std::string path) : path_(std::move(path)), inner_(open()) {}

    ReopenResult reopen() {
        std::lock_guard lock(mutex_);
        try {
            auto fresh = open();
            fresh->set_formatter(formatter_->clone());
            inner_ = std::move(fresh);
        } catch (const spdlog::spdlog_ex& e) {
            return {false, "could not reopen the log file '" + path_ + "': " + e.what()};
        }
        return {true, "reopened the log file '" + path_ + "'"};
    }

  protected:
    void sink_it_(const spdlog::details::log_msg& msg) override { inner_->log(msg); }
    void flush_() override { inner_->flush(); }
    void set_formatter_(std::unique_ptr<spdlog::formatter> formatter) override {
        formatter_ = std::move(formatter);
        inner_->set_formatter(formatter_->clone());
    }

  private:
    using Inner = spdlog::sinks::rotating_file_sink_st;  // our mutex_ guards it
    std::unique_ptr<Inner> open() const {
        return std::make_unique<Inner>(path_, kLogFileBytes, kLogFiles);
    }

    std::string path_;
    std::unique_ptr<Inner> inner_;
};

}  // namespace

void write_log(const common::LogLine& line) {
    switch (line.level) {
        case common::LogLevel::Debug:
            return spdlog::debug("{}", line.text);
        case common::LogLevel::Info:
            return spdlog::info("{}", line.text);
        case common::LogLevel::Warn:
            return spdlog::warn("{}", line.text);
        case common::LogLevel::Error:
            return spdlog::error("{}", line.text);
    }
}

std::optional<std::string> setup_logging(const config::LogConfig& log) {
    const auto level = spdlog::level::from_str(log.level);
    if (level == spdlog::level::off && log.level != "off")
        return "log.level: unknown level '" + log.level + "'";
    std::vector<spdlog::sink_ptr> sinks;
    sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    if (!log.file.empty()) {
        try {
            sinks.push_back(std::make_shared<ReopenableFileSink>(log.file));
        } catch (const spdlog::spdlog_ex& e) {
            return "log.file: cannot open '" + log.file + "': " + e.what();
        }
    }
    auto logger = std::make_shared<spdlog::logger>("outpost", sinks.begin(), sinks.end());
    logger->set_level(level);
    logger->set_pattern("%Y-%m-%d %H:%M:%S.%e %^%l%$ %v");
    logger->flush_on(spdlog::level::info);
    spdlog::set_default_logger(logger);
    return std::nullopt;
}

ReopenResult reopen_log_file() {
    // The sink list is fixed after setup_logging, so reading it here races with nothing.
    const auto logger = spdlog::default_logger();
    for (const auto& sink : logger->sinks())
        if (auto file = std::dynamic_pointer_cast<ReopenableFileSink>(sink)) return file->reopen();
    return {true, "no log file to reopen (log.file is not set)"};
}

}  // namespace service
