// `outpost check-config FILE`: the subcommand around config::check_config_command.
#include "service/cli/check_config_command.hpp"

#include <iostream>
#include <memory>
#include <string>

#include "config/check_command.hpp"
#include "service/cli/start_up.hpp"

namespace cli {

void add_check_config_command(CLI::App& app) {
    auto path = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand(
        "check-config", "Validate a config file and print the effective settings (token hidden)");
    cmd->add_option("file", *path, "YAML config file")->required();
    cmd->callback([path] { fail_with(config::check_config_command(*path, std::cout, std::cerr)); });
}

}  // namespace cli
