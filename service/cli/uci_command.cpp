// `outpost uci`: runs engine::Uci on the standard streams; --debug logs ignored input to stderr.
#include "service/cli/uci_command.hpp"

#include <iostream>
#include <memory>

#include "engine/uci.hpp"

namespace cli {

void add_uci_command(CLI::App& app) {
    auto debug = std::make_shared<bool>(false);
    auto* cmd = app.add_subcommand("uci", "Speak the UCI protocol on stdin/stdout");
    cmd->add_flag("--debug", *debug, "log ignored commands and options to stderr");
    cmd->callback([debug] {
        std::ios::sync_with_stdio(false);
        engine::Uci uci(std::cout, *debug ? &std::cerr : nullptr);
        uci.loop(std::cin);
    });
}

}  // namespace cli
