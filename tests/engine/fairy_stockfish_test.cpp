// Random walks played with our rules in the five variants where Debian's fairy-stockfish 11.1
// agrees with Lichess (crazyhouse, antichess, horde, king of the hill, three-check; it has no
// atomic and its racing kings differs: tests/data/SOURCES.md). At every position of every walk
// its `go perft 1` must list exactly our legal moves. deploy/install-deps.sh installs it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "variant_moves.hpp"

namespace engine {
namespace {

constexpr const char* FAIRY_STOCKFISH = "/usr/games/fairy-stockfish";
constexpr int POSITIONS = 3000;
constexpr int MAX_PLIES = 60;

struct Case {
    Variant variant;
    std::uint64_t seed;
};

class FairyStockfish : public ::testing::TestWithParam<Case> {};

// One position of a walk: the UCI command that sets it up and our sorted legal moves.
struct Visited {
    std::string command;
    std::vector<std::string> moves;
};

std::vector<Visited> random_walks(Variant variant, std::uint64_t seed) {
    variant_test::Rng rng{seed};
    std::vector<Visited> out;
    while (int(out.size()) < POSITIONS) {
        engine::Position pos = engine::Position::start(variant);
        std::string command = "position startpos moves";
        for (int ply = 0; ply <= MAX_PLIES && int(out.size()) < POSITIONS; ++ply) {
            out.push_back({command, variant_test::sorted_moves(pos, false)});
            const auto legal = pos.legal_moves();
            if (legal.empty()) break;
            const engine::Move m = legal[rng.below(legal.size())];
            command += " " + pos.to_uci(m);
            pos.play(m);
        }
    }
    return out;
}

// Runs fairy-stockfish on a script; the move lists of its `go perft 1` answers, in order.
std::vector<std::vector<std::string>> fairy_perft_lists(const std::string& script) {
    // One file per process: ctest runs the variants' cases as parallel processes.
    const std::string path =
        ::testing::TempDir() + "fairy_stockfish_script." + std::to_string(::getpid()) + ".txt";
    std::ofstream(path) << script;
    std::vector<std::vector<std::string>> lists(1);
    FILE* pipe = popen((std::string(FAIRY_STOCKFISH) + " < " + path + " 2>&1").c_str(), "r");
    if (!pipe) return {};
    char buffer[4096];
    while (std::fgets(buffer, sizeof buffer, pipe)) {
        std::string line(buffer);
        while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
        if (line.rfind("Nodes searched", 0) == 0) {
            std::sort(lists.back().begin(), lists.back().end());
            lists.emplace_back();
        } else if (line.size() > 3 && line.ends_with(": 1")) {
            lists.back().push_back(line.substr(0, line.size() - 3));
        }
    }
    pclose(pipe);
    lists.pop_back();  // the list after the last answer
    return lists;
}

TEST_P(FairyStockfish, EveryLegalMoveListMatches) {
    ASSERT_TRUE(std::filesystem::exists(FAIRY_STOCKFISH))
        << FAIRY_STOCKFISH
        << " is missing: deploy/install-deps.sh installs Debian's fairy-stockfish";
    const Case& c = GetParam();
    const auto walks = random_walks(c.variant, c.seed);
    std::string script =
        "uci\nsetoption name UCI_Variant value " + std::string(engine::uci_name(c.variant)) + "\n";
    for (const Visited& v : walks) script += v.command + "\ngo perft 1\n";
    script += "isready\nquit\n";
    const auto theirs = fairy_perft_lists(script);
    ASSERT_EQ(theirs.size(), walks.size()) << "fairy-stockfish answered fewer perft commands";
    for (std::size_t i = 0; i < walks.size(); ++i)
        ASSERT_EQ(variant_test::joined(walks[i].moves), variant_test::joined(theirs[i]))
            << "variant " << engine::uci_name(c.variant) << ", " << walks[i].command;
}

INSTANTIATE_TEST_SUITE_P(Variants, FairyStockfish,
                         ::testing::Values(Case{Variant::CRAZYHOUSE, 1},
                                           Case{Variant::ANTICHESS, 2}, Case{Variant::HORDE, 3},
                                           Case{Variant::KING_OF_THE_HILL, 4},
                                           Case{Variant::THREE_CHECK, 5}),
                         [](const auto& info) {
                             return std::string(engine::lichess_key(info.param.variant));
                         });

}  // namespace
}  // namespace engine
