// `outpost check-config FILE`: the subcommand around config::check_config_command.
#include "service/cli/check_config_command.hpp"

#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "config/check_command.hpp"
#include "config/load.hpp"
#include "engine/syzygy.hpp"
#include "engine/tablebase.hpp"
#include "service/cli/start_checks.hpp"
#include "service/cli/start_up.hpp"

namespace cli {

namespace {

// Loads the Gaviota tables of a config as the start-up does, so a junk or truncated table fails
// here too (the config check sees only that the folders hold table files).
std::optional<StartProblem> tablebase_problem(const config::Config& config) {
    if (config.engine.tablebases.gaviota_paths.empty()) return std::nullopt;
    const auto tb = engine::Tablebase::load(config.engine.tablebases.gaviota_paths);
    if (tb) return std::nullopt;
    return StartProblem{"engine.tablebases.gaviota_paths", tb.error()};
}

// Loads the Syzygy tables of a config as the start-up does and says what it found: how many
// tables, the most pieces, and each file or folder left out (a warning: the bot plays without
// them).
void report_syzygy(const config::Config& config, std::ostream& out) {
    const auto& folders = config.engine.tablebases.syzygy_paths;
    if (folders.empty()) return;
    const auto tb = engine::Syzygy::load(folders);
    if (!tb) {
        out << "warning: engine.tablebases.syzygy_paths: " << tb.error()
            << "; the bot plays without Syzygy tables\n";
        return;
    }
    for (const std::string& problem : (*tb)->problems())
        out << "warning: engine.tablebases.syzygy_paths: " << problem << "\n";
    out << "engine.tablebases.syzygy_paths: " << (*tb)->describe() << "; probed up to "
        << std::min(config.engine.tablebases.syzygy_max_pieces, (*tb)->max_pieces()) << " pieces\n";
}

// What `run` would refuse at start-up on this machine (start_checks.hpp), said as it says it.
int check_start_up(const std::string& path) {
    const config::LoadResult loaded = config::load_file(path);
    if (!loaded.ok()) return 0;  // the config's own errors: check_config_command says them
    std::vector<StartProblem> problems = start_problems(*loaded.config);
    if (auto tb = tablebase_problem(*loaded.config)) problems.push_back(std::move(*tb));
    report_syzygy(*loaded.config, std::cerr);
    const int n = print_start_problems(problems, std::cerr);
    if (n > 0)
        std::cerr << path << ": " << n << (n == 1 ? " problem" : " problems")
                  << " to fix before Outpost can start\n";
    return n;
}

}  // namespace

void add_check_config_command(CLI::App& app) {
    auto path = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand(
        "check-config",
        "Validate a config file and what `run` needs from this machine (PGN folder, log file, "
        "memory), and print the effective settings (token hidden)");
    cmd->add_option("file", *path, "YAML config file")->required();
    cmd->callback([path] {
        if (check_start_up(*path) != 0) return fail_with(1);
        fail_with(config::check_config_command(*path, std::cout, std::cerr));
    });
}

}  // namespace cli
