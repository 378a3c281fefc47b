// `outpost run --config FILE`: the daemon.
#pragma once

#include <CLI/CLI.hpp>

namespace cli {

void add_run_command(CLI::App& app);

}  // namespace cli
