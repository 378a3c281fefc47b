// ConfigError: one problem (or warning) found in a config file, with the key and line it concerns.
#pragma once

#include <string>
#include <string_view>

namespace config {

struct ConfigError {
    std::string key_path;  // dotted, e.g. "challenge.min_base"; empty when about the whole file
    int line = 0;          // 1-based; 0 when unknown (the key is absent or the file unreadable)
    int column = 0;        // 1-based; 0 when unknown
    std::string message;   // for a person who is not a programmer; never contains the token
    bool operator==(const ConfigError&) const = default;
};

// "config.yml:12: challenge.min_base: expected a whole number of seconds, got \"fast\"".
[[nodiscard]] std::string format_error(const ConfigError& error, std::string_view source_name);

}  // namespace config
