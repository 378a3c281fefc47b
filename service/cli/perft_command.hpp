// `outpost perft`: one position (--fen/--depth, optional --divide) or an EPD suite (--suite).
#pragma once

#include <CLI/CLI.hpp>

namespace cli {

void add_perft_command(CLI::App& app);

}  // namespace cli
