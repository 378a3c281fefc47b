// `outpost bench [depth]`: prints per-position lines, then "Nodes searched: N" and nps.
#include "service/cli/bench_command.hpp"

#include <iostream>
#include <memory>

#include "engine/bench.hpp"

namespace cli {

void add_bench_command(CLI::App& app) {
    auto depth = std::make_shared<int>(engine::BENCH_DEFAULT_DEPTH);
    auto* cmd = app.add_subcommand("bench", "Search the bench positions; print the node signature");
    cmd->add_option("depth", *depth, "search depth per position")->check(CLI::Range(1, 64));
    cmd->callback([depth] { engine::run_bench(*depth, &std::cout); });
}

}  // namespace cli
