// `outpost upgrade --config FILE --yes`: turn the Lichess account into a BOT account
// (irreversible; only for an account that has played no game).
#pragma once

#include <CLI/CLI.hpp>

namespace cli {

void add_upgrade_command(CLI::App& app);

}  // namespace cli
