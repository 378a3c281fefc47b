// PGN of a match game: tags with Lichess's variant name, SAN with drops, book and score
// comments, and the text of an illegal last move kept as a comment.
#include "tools/match/pgn.hpp"

#include <gtest/gtest.h>

#include "tools/match/openings.hpp"

namespace match {
namespace {

TEST(MatchPgn, CrazyhouseGameWithDrops) {
    GameRecord g;
    g.white = "A";
    g.black = "B";
    g.variant = engine::Variant::CRAZYHOUSE;
    g.round = 3;
    g.time_control = "10+0.1";
    g.date = "2026.11.27";
    g.moves = {{"e2e4", true, std::nullopt, 0},
               {"d7d5", true, std::nullopt, 0},
               {"e4d5", false, EngineScore{false, 45}, 120},
               {"d8d5", false, EngineScore{false, -30}, 95},
               {"P@e4", false, EngineScore{true, 7}, 1500}};
    g.end = match::GameEnd{match::Outcome::WHITE_WINS, "adjudication: resigned"};
    std::string pgn = match::to_pgn(g);
    // Movetext lines wrap at 79 characters; compare it as one line.
    for (std::size_t at = pgn.find("\n1. "); (at = pgn.find('\n', at + 1)) < pgn.size() - 2;)
        pgn[at] = ' ';
    for (const char* expected :
         {"[Variant \"Crazyhouse\"]", "[Round \"3\"]", "[Result \"1-0\"]",
          "[TimeControl \"10+0.1\"]", "[PlyCount \"5\"]",
          "1. e4 {book} 1... d5 {book} 2. exd5 {+0.45 0.120s} 2... Qxd5",
          "{-0.30 0.095s} 3. P@e4 {+M7 1.500s}", "{adjudication: resigned} 1-0\n\n"})
        EXPECT_NE(pgn.find(expected), std::string::npos) << expected << "\n" << pgn;
}

TEST(MatchPgn, IllegalMoveIsKeptAsText) {
    GameRecord g;
    g.variant = engine::Variant::KING_OF_THE_HILL;
    g.moves = {{"e2e4", false, std::nullopt, 10}, {"e7e4", false, std::nullopt, 10}};
    g.end = match::loss_of(engine::BLACK, "illegal move e7e4");
    const std::string pgn = match::to_pgn(g);
    EXPECT_NE(pgn.find("[Variant \"King of the Hill\"]"), std::string::npos);
    EXPECT_NE(pgn.find("1. e4 {0.010s} 1... {illegal move: e7e4} {illegal move e7e4} 1-0"),
              std::string::npos)
        << pgn;
}

TEST(MatchOpenings, RandomOpeningsAreLegalRepeatableAndVaried) {
    for (const engine::Variant v : engine::ALL_VARIANTS) {
        const auto line = match::random_opening(v, 8, 42);
        ASSERT_EQ(line.size(), 8u) << engine::uci_name(v);
        EXPECT_EQ(line, match::random_opening(v, 8, 42));
        engine::Position pos = engine::Position::start(v);
        for (const auto& m : line) ASSERT_TRUE(pos.play_uci(m)) << m;
        EXPECT_EQ(pos.result().status, engine::PositionStatus::ONGOING);
    }
    int differ = 0;
    for (std::uint64_t seed = 0; seed < 10; ++seed)
        differ += match::random_opening(engine::Variant::HORDE, 6, seed) !=
                  match::random_opening(engine::Variant::HORDE, 6, seed + 100);
    EXPECT_GE(differ, 9);
}

}  // namespace
}  // namespace match
