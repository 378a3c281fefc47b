// outpost-match: plays two UCI engines against each other in a Lichess variant and reports
// the score and Elo; `outpost-match uci-random` is a random-moving UCI engine.
// Usage: tools/match/README.md.
#include <csignal>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "engine/attacks.hpp"
#include "tools/match/cli.hpp"
#include "tools/match/random_mover.hpp"

int main(int argc, char** argv) {
    engine::init_attacks();
    std::vector<std::string> args(argv + 1, argv + argc);
    if (!args.empty() && args[0] == "uci-random") {
        const std::uint64_t seed = args.size() == 3 && args[1] == "--seed"
                                       ? std::strtoull(args[2].c_str(), nullptr, 10)
                                       : std::uint64_t(std::random_device{}());
        match::run_random_mover(std::cin, std::cout, seed);
        return 0;
    }
    auto parsed = match::parse_command_line(args);
    if (auto* error = std::get_if<std::string>(&parsed)) {
        std::cerr << "outpost-match: " << *error << "\nusage: outpost-match --variant V "
                  << "--engine name=A cmd=PATH [args=...] --engine name=B cmd=PATH "
                  << "--each tc=10+0.1 [option.Hash=16] [--games N] [--concurrency N] "
                  << "[--openings plies=6 seed=1] [--resign movecount=3 score=1000] "
                  << "[--draw movenumber=40 movecount=8 score=5] [--maxplies N] [--margin MS] "
                  << "[--pgn FILE]\n       outpost-match uci-random [--seed S]\n";
        return 2;
    }
    // An engine that dies makes a write fail with EPIPE instead of killing the runner.
    std::signal(SIGPIPE, SIG_IGN);
    const match::MatchConfig& config = std::get<match::MatchConfig>(parsed);
    const match::Tally tally = match::run_match(config, std::cout);
    match::print_summary(config, tally, std::cout);
    return 0;
}
