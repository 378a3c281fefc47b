// Logging set-up for the daemon: spdlog to standard error and optionally a file.
#pragma once

#include <optional>
#include <string>

#include "common/log_line.hpp"
#include "config/config.hpp"

namespace service {

// Writes a line that a pure part of the service (a game's rules, the challenge desk) handed out.
void write_log(const common::LogLine& line);

// Returns an error text when the level is unknown or the log file cannot be opened.
std::optional<std::string> setup_logging(const config::LogConfig& log);

// What reopen_log_file did, in words for the log; ok is false when the file could not be opened
// again (logging to the old file then goes on).
struct ReopenResult {
    bool ok = true;
    std::string text;
};

// Closes and opens again the default logger's log file (log.file), e.g. after logrotate moved
// it away; on SIGHUP. Safe while other threads log.
ReopenResult reopen_log_file();

}  // namespace service
