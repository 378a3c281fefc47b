// Checks on a Config's values (ranges, names, min <= max, the token, URLs) after loading.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "config.hpp"
#include "error.hpp"

namespace config {

struct FilePosition {
    int line = 0;  // 1-based
    int column = 0;
};

// Where each key (and list entry, as "key[i]") was written in the file, to put lines on errors.
using KeyPositions = std::map<std::string, FilePosition, std::less<>>;

struct ValidationResult {
    std::vector<ConfigError> errors;
    std::vector<ConfigError> warnings;
};

// Every rule from the key table plus the rules that relate keys to each other.
[[nodiscard]] ValidationResult validate(const Config& config, const KeyPositions& positions = {});

// The message for a missing token, naming the three ways to give one.
[[nodiscard]] std::string missing_token_message();

}  // namespace config
