// `outpost uci`: the engine over the UCI protocol on stdin/stdout (for GUIs and match runners).
#pragma once

#include <CLI/CLI.hpp>

namespace cli {

void add_uci_command(CLI::App& app);

}  // namespace cli
