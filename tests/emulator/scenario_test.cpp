// Scenario loading: defaults, every section, errors that name the key, and the shipped examples.
#include "scenario.hpp"

#include <gtest/gtest.h>

#include <filesystem>

namespace emu {
namespace {

TEST(Scenario, EmptyTextGivesDefaults) {
    auto r = parse_scenario("");
    ASSERT_TRUE(r.scenario) << r.error;
    EXPECT_EQ(r.scenario->keepalive_ms, 7000);
    EXPECT_EQ(r.scenario->account.title, "BOT");
    EXPECT_TRUE(r.scenario->king_to_rook);
}

TEST(Scenario, ParsesEverySection) {
    auto r = parse_scenario(R"(
name: t
keepalive_ms: 200
castling: king_two_squares
account: {username: Me, token: tok, title: null}
online_bots: [{name: B1, rating: 2000}]
challenges:
  - {id: c1, at_ms: 5, challenger: {name: A, title: BOT}, clock: {limit: 60, increment: 1}, color: white,
     opponent: {kind: line, moves: "e7e5 g8f6", then: staller, resign_at_ply: 9}}
  - {id: c2, days: 3}
games: [{id: g1, bot_color: black, moves: "e2e4", opponent: {kind: engine, depth: 1}}]
outgoing: [{user: B1, response: rate_limit, ratelimit_seconds: 5}]
faults: [{kind: split, target: game_stream, count: 2}, {kind: http_5xx, target: move, status: 503}]
)");
    ASSERT_TRUE(r.scenario) << r.error;
    const auto& s = *r.scenario;
    EXPECT_FALSE(s.king_to_rook);
    EXPECT_FALSE(s.account.title.has_value());
    EXPECT_EQ(s.online_bots.at(0).title, "BOT");
    EXPECT_EQ(s.challenges.at(0).time_control.limit_s, 60);
    EXPECT_EQ(s.challenges.at(0).opponent.line.size(), 2u);
    EXPECT_EQ(s.challenges.at(0).opponent.then, OpponentSpec::Kind::STALLER);
    EXPECT_EQ(s.challenges.at(0).opponent.user.name, "A");
    EXPECT_EQ(s.challenges.at(1).time_control.days, 3);
    EXPECT_EQ(s.games.at(0).opponent.kind, OpponentSpec::Kind::ENGINE);
    EXPECT_EQ(s.outgoing.at(0).response, OutgoingRule::Response::RATE_LIMIT);
    EXPECT_EQ(s.faults.at(1).status, 503);
    EXPECT_TRUE(s.faults.at(1).html);  // 5xx pages are HTML unless body: json
}

TEST(Scenario, JsonWorksToo) {
    auto r = parse_scenario(
        R"({"name": "j", "keepalive_ms": 300, "faults": [{"kind": "http_429", "target": "move"}]})");
    ASSERT_TRUE(r.scenario) << r.error;
    EXPECT_EQ(r.scenario->keepalive_ms, 300);
    EXPECT_FALSE(r.scenario->faults.at(0).html);
}

TEST(Scenario, ErrorsNameTheKey) {
    EXPECT_NE(parse_scenario("keepalive: 5").error.find("keepalive"), std::string::npos);
    EXPECT_NE(parse_scenario("challenges: [{colour: white}]").error.find("challenges[0].colour"),
              std::string::npos);
    EXPECT_NE(parse_scenario("faults: [{kind: explode}]").error.find("explode"), std::string::npos);
    EXPECT_NE(parse_scenario("keepalive_ms: soon").error.find("keepalive_ms"), std::string::npos);
    EXPECT_NE(parse_scenario("games: [{opponent: {kind: line}}]").error.find("moves"),
              std::string::npos);
    EXPECT_FALSE(parse_scenario("a: [").scenario);
}

TEST(Scenario, ShippedExamplesLoad) {
    int n = 0;
    for (const auto& e : std::filesystem::directory_iterator(OUTPOST_EMULATOR_SCENARIOS)) {
        auto r = load_scenario_file(e.path().string());
        EXPECT_TRUE(r.scenario) << r.error;
        ++n;
    }
    EXPECT_GE(n, 2);
}

}  // namespace
}  // namespace emu
