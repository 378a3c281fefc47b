// `outpost eval`: prints the static evaluation of a position term by term.
#pragma once

#include <CLI/CLI.hpp>

namespace cli {

void add_eval_command(CLI::App& app);

}  // namespace cli
