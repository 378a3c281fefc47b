// Logging set-up: one logger with a console sink and an optional rotating file sink.
#include "service/logging.hpp"

#include <spdlog/sinks/rotating_file_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace service {

std::optional<std::string> setup_logging(const config::LogConfig& log) {
    const auto level = spdlog::level::from_str(log.level);
    if (level == spdlog::level::off && log.level != "off")
        return "log.level: unknown level '" + log.level + "'";
    std::vector<spdlog::sink_ptr> sinks;
    sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    if (!log.file.empty()) {
        try {
            // 10 files of 20 MB: months of move logs without filling a small disk.
            sinks.push_back(std::make_shared<spdlog::sinks::rotating_file_sink_mt>(
                log.file, 20 * 1024 * 1024, 10));
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

}  // namespace service
