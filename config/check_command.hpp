// The `outpost check-config FILE` subcommand: load, then print the effective config or the errors.
#pragma once

#include <iosfwd>
#include <string>

#include "load.hpp"

namespace config {

// Prints the effective config (token redacted) to `out` and warnings to `err`, or the errors to
// `err`. Returns the exit code: 0 when the config is usable, 1 otherwise.
int check_config_command(const std::string& path, std::ostream& out, std::ostream& err,
                         const LoadOptions& options = {});

}  // namespace config
