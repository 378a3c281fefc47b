// outpost-epd: searches every position of an EPD suite (bm answers) at a time or node budget
// and counts the ones whose best move is an answer, as docs/STRENGTH.md measures WAC.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "engine/attacks.hpp"
#include "engine/position.hpp"
#include "engine/san.hpp"
#include "engine/search.hpp"
#include "tools/epd/epd.hpp"
#include "tools/tool_options.hpp"

namespace {

void usage() {
    std::cerr << "usage: outpost-epd --file SUITE.epd (--movetime MS | --nodes N) "
                 "[--evaluation nnue|hce] [--net NNUE] [--hash MB] [--every K]\n";
}

}  // namespace

int main(int argc, char** argv) {
    engine::init_attacks();
    const auto parsed = tools::parse_options(argc, argv, "outpost-epd");
    if (!parsed || !parsed->count("--file")) {
        usage();
        return 2;
    }
    const tools::Options& o = *parsed;
    engine::SearchLimits limits;
    limits.movetime = tools::int_option(o, "--movetime", 0);
    limits.nodes = std::uint64_t(tools::int_option(o, "--nodes", 0));
    limits.move_overhead_ms = 0;  // a budget for the search alone
    if ((limits.movetime > 0) == (limits.nodes > 0)) {
        std::cerr << "outpost-epd: give one budget, --movetime or --nodes\n";
        usage();
        return 2;
    }
    const std::string evaluation = o.count("--evaluation") ? o.at("--evaluation") : "";
    if (!evaluation.empty() && evaluation != "nnue" && evaluation != "hce") {
        std::cerr << "outpost-epd: --evaluation is nnue or hce, not '" << evaluation << "'\n";
        return 2;
    }
    const long long every = std::max(1LL, tools::int_option(o, "--every", 1));

    engine::Engine eng({.hash_mb = int(tools::int_option(o, "--hash", 16)), .threads = 1});
    if (!evaluation.empty()) eng.set_nnue(evaluation == "nnue");
    if (o.count("--net")) {
        if (auto r = eng.load_net(o.at("--net")); !r) {
            std::cerr << "outpost-epd: --net: " << r.error() << "\n";
            return 2;
        }
    }

    std::ifstream in(o.at("--file"));
    if (!in) {
        std::cerr << "outpost-epd: cannot read '" << o.at("--file") << "'\n";
        return 2;
    }
    long long line_number = 0, tried = 0, solved = 0;
    std::uint64_t nodes = 0;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || (line_number++ % every) != 0) continue;
        const epd::Problem p = epd::parse_problem(line);
        const auto pos = engine::Position::from_fen(p.fen);
        if (!pos) {
            std::cerr << "outpost-epd: line " << line_number << ": " << pos.error() << "\n";
            return 1;
        }
        std::vector<engine::Move> answers;
        for (const std::string& text : p.best) {
            const engine::Move m = epd::parse_answer(pos->board(), text);
            if (m == engine::Move::none()) {
                std::cerr << "outpost-epd: line " << line_number << ": bm " << text
                          << " is not a legal move\n";
                return 1;
            }
            answers.push_back(m);
        }
        eng.new_game();
        std::atomic<bool> stop{false};
        const engine::SearchResult r = eng.search(*pos, limits, stop);
        nodes += r.nodes;
        ++tried;
        if (std::find(answers.begin(), answers.end(), r.best) != answers.end()) {
            ++solved;
        } else {
            std::printf("miss %s: %s\n", p.id.c_str(),
                        engine::move_to_san(pos->board(), r.best).c_str());
        }
    }
    const std::string budget = limits.nodes ? std::to_string(limits.nodes) + " nodes"
                                            : std::to_string(limits.movetime) + " ms";
    std::printf("solved %lld/%lld (%s, %s), %.2f M nodes a position\n", solved, tried,
                budget.c_str(), eng.nnue() ? "NNUE" : "HCE",
                tried ? double(nodes) / double(tried) / 1e6 : 0.0);
    return 0;
}
