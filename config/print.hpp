// Writing the effective config back out as YAML, with the token redacted.
#pragma once

#include <string>

#include "config.hpp"

namespace config {

inline constexpr const char* kRedacted = "***";

// Every key in table order; the token is written as "***", never as itself.
[[nodiscard]] std::string to_yaml(const Config& config);

}  // namespace config
