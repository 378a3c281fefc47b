// The `outpost` executable: one subcommand per job (run the bot, play UCI, perft, bench, ...).
#include <CLI/CLI.hpp>
#include <iostream>

#include "engine/attacks.hpp"
#include "service/cli/bench_command.hpp"
#include "service/cli/check_config_command.hpp"
#include "service/cli/eval_command.hpp"
#include "service/cli/healthcheck_command.hpp"
#include "service/cli/perft_command.hpp"
#include "service/cli/run_command.hpp"
#include "service/cli/uci_command.hpp"
#include "service/cli/upgrade_command.hpp"

namespace {

// A binary built for BMI2 (PEXT attacks) would die with SIGILL on an older CPU: say why instead.
bool cpu_supports_build() {
#if OUTPOST_USE_PEXT
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("bmi2")) {
        std::cerr << "outpost: this binary was built for CPUs with BMI2 (PEXT), which this CPU "
                     "lacks; rebuild with -DOUTPOST_MARCH=x86-64-v2\n";
        return false;
    }
#endif
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (!cpu_supports_build()) return 1;
    engine::init_attacks();

    CLI::App app{"Outpost: a Lichess bot with its own chess engine"};
    app.set_version_flag("--version", std::string("outpost ") + OUTPOST_VERSION +
                                          (engine::uses_pext() ? " (pext)" : " (magic)"));
    app.require_subcommand(1);
    cli::add_run_command(app);
    cli::add_check_config_command(app);
    cli::add_upgrade_command(app);
    cli::add_perft_command(app);
    cli::add_uci_command(app);
    cli::add_bench_command(app);
    cli::add_eval_command(app);
    cli::add_healthcheck_command(app);

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // CLI11 gives each kind of usage error a code of its own from 100 up; the README
        // promises one code for them all, the 2 a bad FEN or variant exits with. A command's
        // own failure (run's 1, perft's mismatch) keeps its code.
        const int code = app.exit(e);
        return code >= 100 ? 2 : code;
    }
    return 0;
}
