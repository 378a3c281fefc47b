// The match runner's command line: a full match, defaults, and a clear error for each mistake.
#include "tools/match/cli.hpp"

#include <gtest/gtest.h>

namespace {

std::variant<match::MatchConfig, std::string> parse(std::vector<std::string> args) {
    return match::parse_command_line(args);
}

TEST(MatchCli, ReadsAWholeMatch) {
    const auto parsed = parse({"--variant",
                               "kingOfTheHill",
                               "--engine",
                               "name=Outpost",
                               "cmd=build/outpost",
                               "args=uci --flag",
                               "option.Hash=64",
                               "--engine",
                               "cmd=/usr/games/fairy-stockfish",
                               "--each",
                               "tc=10+0.1",
                               "option.Threads=1",
                               "--games",
                               "100",
                               "--concurrency",
                               "2",
                               "--openings",
                               "plies=4",
                               "seed=9",
                               "--resign",
                               "movecount=3",
                               "score=1000",
                               "--draw",
                               "movenumber=40",
                               "movecount=8",
                               "score=5",
                               "--maxplies",
                               "500",
                               "--margin",
                               "80",
                               "--pgn",
                               "out.pgn"});
    ASSERT_TRUE(std::holds_alternative<match::MatchConfig>(parsed))
        << std::get<std::string>(parsed);
    const auto& c = std::get<match::MatchConfig>(parsed);
    EXPECT_EQ(c.variant, engine::Variant::KING_OF_THE_HILL);
    EXPECT_EQ(c.engines[0].name, "Outpost");
    EXPECT_EQ(c.engines[0].args, (std::vector<std::string>{"uci", "--flag"}));
    ASSERT_EQ(c.engines[0].options.size(), 2u);
    EXPECT_EQ(c.engines[0].options[0].first, "Hash");
    EXPECT_EQ(c.engines[0].options[1].first, "Threads");
    EXPECT_EQ(c.engines[1].name, "/usr/games/fairy-stockfish");  // no name: the command
    EXPECT_EQ(c.time_control.base_ms, 10000);
    EXPECT_EQ(c.time_control.inc_ms, 100);
    EXPECT_EQ(c.games, 100);
    EXPECT_EQ(c.concurrency, 2);
    EXPECT_EQ(c.opening_plies, 4);
    EXPECT_EQ(c.seed, 9u);
    EXPECT_EQ(c.adjudication.resign_moves, 3);
    EXPECT_EQ(c.adjudication.resign_score, 1000);
    EXPECT_EQ(c.adjudication.draw_after_move, 40);
    EXPECT_EQ(c.adjudication.draw_moves, 8);
    EXPECT_EQ(c.adjudication.draw_score, 5);
    EXPECT_EQ(c.adjudication.max_plies, 500);
    EXPECT_EQ(c.margin_ms, 80);
    EXPECT_EQ(c.pgn_path, "out.pgn");
}

TEST(MatchCli, SameNamesAreToldApart) {
    const auto parsed = parse({"--variant", "3check", "--engine", "name=X", "cmd=a", "--engine",
                               "name=X", "cmd=a", "--each", "nodes=1000"});
    ASSERT_TRUE(std::holds_alternative<match::MatchConfig>(parsed));
    const auto& c = std::get<match::MatchConfig>(parsed);
    EXPECT_EQ(c.engines[1].name, "X-2");
    EXPECT_EQ(c.time_control.nodes, 1000);
    EXPECT_EQ(c.games, 2);
}

TEST(MatchCli, EachMistakeIsNamed) {
    const std::vector<std::string> engines = {"--engine", "cmd=a", "--engine", "cmd=b"};
    auto with = [&](std::vector<std::string> extra) {
        std::vector<std::string> args = engines;
        args.insert(args.end(), extra.begin(), extra.end());
        return parse(args);
    };
    const std::pair<std::vector<std::string>, std::string> rows[] = {
        {{"--each", "tc=10+0.1"}, "--variant is required"},
        {{"--variant", "giveaway", "--each", "tc=1"}, "unknown variant 'giveaway'"},
        {{"--variant", "atomic"}, "no time control"},
        {{"--variant", "atomic", "--each", "tc=fast"}, "tc=fast"},
        {{"--variant", "atomic", "--each", "nodes=0"}, "nodes=0"},
        {{"--variant", "atomic", "--each", "colour=red"}, "unknown key 'colour'"},
        {{"--variant", "atomic", "--each", "tc=1", "--games", "many"}, "--games many"},
        {{"--variant", "atomic", "--each", "tc=1", "--games"}, "--games takes one value"},
        {{"--variant", "atomic", "--each", "tc=1", "--openings", "plies"}, "expected key=value"},
        {{"--variant", "atomic", "--each", "tc=1", "--resign", "score=x"}, "score=x"},
        {{"--variant", "atomic", "--each", "tc=1", "--ponder", "1"}, "unknown option '--ponder'"},
        {{"--variant", "atomic", "--each", "tc=1", "--engine", "cmd=c"}, "two engines"},
    };
    for (const auto& [extra, message] : rows) {
        const auto parsed = with(extra);
        ASSERT_TRUE(std::holds_alternative<std::string>(parsed)) << message;
        EXPECT_NE(std::get<std::string>(parsed).find(message), std::string::npos)
            << std::get<std::string>(parsed);
    }
    EXPECT_NE(std::get<std::string>(parse({"stray"})).find("'stray'"), std::string::npos);
    EXPECT_NE(std::get<std::string>(parse({"--variant", "atomic", "--engine", "name=a", "--engine",
                                           "cmd=b", "--each", "tc=1"}))
                  .find("cmd= is required"),
              std::string::npos);
}

}  // namespace
