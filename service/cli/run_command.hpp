// `outpost run`: the daemon. Also `check-config` and `upgrade`, which share its start-up steps.
#pragma once

#include <CLI/CLI.hpp>

namespace cli {

void add_run_command(CLI::App& app);
void add_check_config_command(CLI::App& app);
void add_upgrade_command(CLI::App& app);

}  // namespace cli
