// `outpost check-config FILE`: the subcommand around config::check_config_command.
#include "service/cli/check_config_command.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "config/check_command.hpp"
#include "config/load.hpp"
#include "engine/tablebase.hpp"
#include "service/cli/start_up.hpp"

namespace cli {

namespace {

// Loads the Gaviota tables of a valid config as the start-up does, so a junk or truncated table
// fails here too (the config check sees only that the folders hold table files). 0 when fine.
int check_tablebases(const std::string& path) {
    const config::LoadResult loaded = config::load_file(path);
    if (!loaded.ok() || loaded.config->engine.tablebases.gaviota_paths.empty()) return 0;
    const auto tb = engine::Tablebase::load(loaded.config->engine.tablebases.gaviota_paths);
    if (tb) return 0;
    std::cerr << "error: engine.tablebases.gaviota_paths: " << tb.error() << "\n"
              << path << ": 1 problem to fix before Outpost can start\n";
    return 1;
}

}  // namespace

void add_check_config_command(CLI::App& app) {
    auto path = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand(
        "check-config", "Validate a config file and print the effective settings (token hidden)");
    cmd->add_option("file", *path, "YAML config file")->required();
    cmd->callback([path] {
        if (check_tablebases(*path) != 0) return fail_with(1);
        fail_with(config::check_config_command(*path, std::cout, std::cerr));
    });
}

}  // namespace cli
