// Formatting a ConfigError as one line a person can act on.
#include "error.hpp"

namespace config {

std::string format_error(const ConfigError& error, std::string_view source_name) {
    std::string out(source_name);
    if (error.line > 0) out += ":" + std::to_string(error.line);
    out += ": ";
    if (!error.key_path.empty()) out += error.key_path + ": ";
    out += error.message;
    return out;
}

}  // namespace config
