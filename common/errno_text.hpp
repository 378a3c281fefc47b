// errno_text(): an errno value in words, for messages that name a file and what went wrong.
#pragma once

#include <string>

namespace common {

// "No such file or directory", "Permission denied", ...: the C library's words, read in a
// thread-safe way (std::strerror may share one buffer between threads).
[[nodiscard]] std::string errno_text(int error_number);

}  // namespace common
