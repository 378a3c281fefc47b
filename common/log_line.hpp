// LogLine: a log line as a value. The pure parts of the service (a game's rules, the challenge
// desk) hand their lines out this way, so their tests can read them; the daemon writes them
// (service/ops/logging.hpp: write_log).
#pragma once

#include <string>

namespace common {

enum class LogLevel { Debug, Info, Warn, Error };

struct LogLine {
    LogLevel level = LogLevel::Info;
    std::string text;  // the whole line
};

}  // namespace common
