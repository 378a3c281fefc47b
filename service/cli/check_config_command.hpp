// `outpost check-config FILE`: validate a config file and print the effective settings (token
// hidden) or the errors; the work is config::check_config_command.
#pragma once

#include <CLI/CLI.hpp>

namespace cli {

void add_check_config_command(CLI::App& app);

}  // namespace cli
