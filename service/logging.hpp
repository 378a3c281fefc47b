// Logging set-up for the daemon: spdlog to standard error and optionally a file.
#pragma once

#include <optional>
#include <string>

#include "config/config.hpp"

namespace service {

// Returns an error text when the level is unknown or the log file cannot be opened.
std::optional<std::string> setup_logging(const config::LogConfig& log);

}  // namespace service
