// `outpost bench [depth] [--evaluation nnue|hce]`: prints per-position lines, then
// "Nodes searched: N" and nps.
#include "service/cli/bench_command.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "engine/bench.hpp"

namespace cli {

void add_bench_command(CLI::App& app) {
    auto depth = std::make_shared<int>(engine::BENCH_DEFAULT_DEPTH);
    auto* cmd = app.add_subcommand("bench", "Search the bench positions; print the node signature");
    auto eval = std::make_shared<std::string>("default");
    cmd->add_option("depth", *depth, "search depth per position")->check(CLI::Range(1, 64));
    cmd->add_option("--evaluation", *eval,
                    "nnue, hce or default (the build's: OUTPOST_NNUE_DEFAULT)")
        ->check(CLI::IsMember({"default", "nnue", "hce"}));
    cmd->callback([depth, eval] {
        const auto which = *eval == "nnue"  ? engine::BenchEval::Nnue
                           : *eval == "hce" ? engine::BenchEval::Hce
                                            : engine::BenchEval::Default;
        engine::run_bench(*depth, &std::cout, which);
    });
}

}  // namespace cli
