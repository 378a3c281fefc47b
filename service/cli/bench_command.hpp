// `outpost bench [depth]`: the fixed-depth search benchmark whose node count is the signature.
#pragma once

#include <CLI/CLI.hpp>

namespace cli {

void add_bench_command(CLI::App& app);

}  // namespace cli
