// `outpost perft`: prints counts like Stockfish's `go perft` ("move: count" lines, then
// "Nodes searched: N") so scripts written for Stockfish work unchanged; with --suite it checks
// every count of an EPD file (or of scalachess's variant suites) and exits 1 on any mismatch.
// --variant picks the game (Lichess's keys: crazyhouse, antichess, atomic, horde, kingOfTheHill,
// racingKings, threeCheck; standard, chess960, fromPosition).
#include "service/cli/perft_command.hpp"

#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "common/text.hpp"
#include "engine/fen.hpp"
#include "engine/perft.hpp"
#include "engine/position.hpp"
#include "engine/variant_table.hpp"

namespace cli {

namespace {

struct PerftOptions {
    std::string fen;  // empty: the variant's start position
    int depth = 5;
    bool divide = false;
    bool chess960 = false;
    std::string suite;
    int max_depth = 99;
    std::uint64_t max_nodes = 0;  // 0 = no limit
    std::string variant_key = "standard";
    engine::Variant variant = engine::Variant::STANDARD;
};

int run_single(const PerftOptions& o) {
    auto pos = engine::Position::from_fen(o.fen.empty() ? engine::start_fen(o.variant) : o.fen,
                                          o.variant, o.chess960);
    if (!pos) {
        std::cerr << "perft: " << pos.error() << "\n";
        return 2;
    }
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    if (o.divide) {
        for (const auto& [move, count] : engine::perft_divide(*pos, o.depth)) {
            std::cout << pos->to_uci(move) << ": " << count << "\n";
            total += count;
        }
        std::cout << "\n";
    } else {
        total = engine::perft(*pos, o.depth);
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cerr << "time " << static_cast<long long>(seconds * 1000) << " ms, "
              << static_cast<long long>(double(total) / std::max(seconds, 1e-9)) << " nodes/s\n";
    std::cout << "Nodes searched: " << total << "\n";
    return 0;
}

int run_suite(const PerftOptions& o) {
    std::ifstream in(o.suite);
    if (!in) {
        std::cerr << "perft: cannot read suite file '" << o.suite << "'\n";
        return 2;
    }
    std::stringstream text;
    text << in.rdbuf();
    int checked = 0, failed = 0, skipped = 0;
    std::uint64_t nodes = 0;
    const auto start = std::chrono::steady_clock::now();
    for (const engine::PerftSuiteEntry& entry : engine::parse_perft_suite(text.str())) {
        if (!entry.test) {
            std::cout << o.suite << ":" << entry.line << ": " << entry.error << "\n";
            ++failed;
            continue;
        }
        const engine::PerftCase& c = *entry.test;
        // Shredder letters imply Chess960 by themselves.
        auto pos = engine::Position::from_fen(c.fen, o.variant, o.chess960);
        if (!pos) {
            std::cout << o.suite << ":" << entry.line << ": " << pos.error() << "\n";
            ++failed;
            continue;
        }
        for (const auto& [depth, expected] : c.expected) {
            if (depth > o.max_depth || (o.max_nodes && expected > o.max_nodes)) {
                ++skipped;
                continue;
            }
            const std::uint64_t got = engine::perft(*pos, depth);
            nodes += got;
            ++checked;
            if (got != expected) {
                ++failed;
                std::cout << o.suite << ":" << entry.line << ": D" << depth << " expected "
                          << expected << " got " << got << "  " << c.fen << "\n";
            }
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "perft suite " << o.suite << ": " << checked << " counts checked, " << failed
              << " mismatches, " << skipped << " over the limits, " << nodes << " nodes in "
              << static_cast<long long>(seconds * 1000) << " ms\n";
    return failed ? 1 : 0;
}

// "standard, chess960, ..., threeCheck": every key --variant takes, from the game-type table.
std::string game_type_keys_text() {
    std::string text;
    for (const engine::GameType& row : engine::GAME_TYPES)
        text += (text.empty() ? "" : ", ") + std::string(row.key);
    return text;
}

}  // namespace

void add_perft_command(CLI::App& app) {
    auto opts = std::make_shared<PerftOptions>();
    auto* cmd = app.add_subcommand("perft", "Count move-tree leaves (move generator check)");
    cmd->add_option("--fen", opts->fen, "position (default: the variant's start position)");
    cmd->add_option("--variant", opts->variant_key, game_type_keys_text() + " (Lichess's keys)");
    cmd->add_option("--depth,-d", opts->depth, "depth in plies")->check(CLI::Range(0, 20));
    cmd->add_flag("--divide", opts->divide, "print the count under each root move");
    cmd->add_flag("--chess960", opts->chess960, "treat KQkq castling as Chess960");
    cmd->add_option("--suite", opts->suite, "EPD file with ;D<depth> <nodes> fields to check");
    cmd->add_option("--max-depth", opts->max_depth, "with --suite: skip deeper counts");
    cmd->add_option("--max-nodes", opts->max_nodes, "with --suite: skip larger counts");
    cmd->callback([opts] {
        const auto variant = engine::parse_variant(opts->variant_key);
        if (!variant) {
            std::cerr << "perft: unknown variant '" << opts->variant_key << "' ("
                      << game_type_keys_text() << ")\n";
            throw CLI::RuntimeError(2);
        }
        opts->variant = *variant;
        for (const engine::GameType& row : engine::GAME_TYPES)
            if (row.chess960 && common::iequals(row.key, opts->variant_key)) opts->chess960 = true;
        const int rc = opts->suite.empty() ? run_single(*opts) : run_suite(*opts);
        if (rc != 0) throw CLI::RuntimeError(rc);
    });
}

}  // namespace cli
