// The seven variants' move generators against chessops (Lichess's own TypeScript rules
// library): random walks it played, with the number and a hash of its legal moves at every
// position (tests/data/variant-walks, generated offline; SOURCES.md says how). Each walk is
// replayed here with our rules and every legal move list must be the same.
#include <gtest/gtest.h>

#include <sstream>

#include "engine/position.hpp"
#include "test_util.hpp"
#include "variant_moves.hpp"

namespace engine {
namespace {

struct WalkFile {
    Variant variant;
    const char* file;
};

class ChessopsWalks : public ::testing::TestWithParam<WalkFile> {};

std::vector<std::string> words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

TEST_P(ChessopsWalks, EveryLegalMoveListMatches) {
    const WalkFile& w = GetParam();
    const auto lines = test_util::read_lines(std::string("variant-walks/") + w.file);
    ASSERT_FALSE(lines.empty()) << "no data in variant-walks/" << w.file;
    int positions = 0;
    for (const std::string& line : lines) {
        if (line[0] == '#') continue;
        // "<start FEN>;<moves played>;<count>:<hash> per position (one more than moves)"
        const auto first = line.find(';'), second = line.find(';', first + 1);
        ASSERT_NE(second, std::string::npos) << line;
        const std::string fen = line.substr(0, first);
        const auto moves = words(line.substr(first + 1, second - first - 1));
        const auto stats = words(line.substr(second + 1));
        ASSERT_EQ(stats.size(), moves.size() + 1) << line;
        auto pos = engine::Position::from_fen(fen, w.variant);
        ASSERT_TRUE(pos.ok()) << fen << ": " << pos.error();
        std::string played;
        for (std::size_t i = 0; i < stats.size(); ++i) {
            const auto ours = variant_test::sorted_moves(*pos, true);
            char expected[32];
            std::snprintf(expected, sizeof expected, "%zu:%08x", ours.size(),
                          variant_test::fnv1a(variant_test::joined(ours)));
            ++positions;
            ASSERT_EQ(stats[i], expected)
                << "start " << fen << " after '" << played << "' (" << pos->fen()
                << ")\nour moves: " << variant_test::joined(ours);
            if (i == moves.size()) break;
            const auto m = pos->play_uci(moves[i]);
            ASSERT_TRUE(m.ok()) << m.error();
            played += (played.empty() ? "" : " ") + moves[i];
        }
    }
    EXPECT_GE(positions, 3000);
}

INSTANTIATE_TEST_SUITE_P(Variants, ChessopsWalks,
                         ::testing::Values(WalkFile{Variant::CRAZYHOUSE, "crazyhouse.txt"},
                                           WalkFile{Variant::ANTICHESS, "antichess.txt"},
                                           WalkFile{Variant::ATOMIC, "atomic.txt"},
                                           WalkFile{Variant::HORDE, "horde.txt"},
                                           WalkFile{Variant::KING_OF_THE_HILL, "kingOfTheHill.txt"},
                                           WalkFile{Variant::RACING_KINGS, "racingKings.txt"},
                                           WalkFile{Variant::THREE_CHECK, "threeCheck.txt"}),
                         [](const auto& info) {
                             return std::string(engine::lichess_key(info.param.variant));
                         });

}  // namespace
}  // namespace engine
