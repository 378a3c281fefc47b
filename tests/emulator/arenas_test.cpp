// Arenas over HTTP as lila runs them for a bot: the JSON of an arena before, during and after
// it runs; join refusals with lila's texts; pairing the bot again after each game; a withdrawal;
// a noStart that withdraws the bot.
#include <gtest/gtest.h>

#include "emulator_fixture.hpp"
#include "test_helpers.hpp"

namespace emu {
namespace {

ArenaView arena_of(EmulatorFixture& emu, const std::string& id) {
    for (auto& a : emu->arenas())
        if (a.id == id) return a;
    return {};
}

TEST(Arenas, JsonJoinPairingAndTheEnd) {
    EmulatorFixture emu(R"(
keepalive_ms: 200
tournaments:
  - {id: arena001, name: Bot Arena, starts_at_ms: 600, duration_ms: 4000, clock: {limit: 60, increment: 0},
     pair_delay_ms: 100, opponent: {kind: random, think_ms: 0, resign_at_ply: 0}}
  - {id: nobots01, name: Humans, bots_allowed: false, clock: {limit: 180, increment: 0}}
  - {id: secret01, password: open-sesame, team: my-team, starts_at_ms: 600000, clock: {limit: 180, increment: 0}}
)");
    emu_test::HttpClient http(emu.port(), emu.token());
    emu_test::StreamReader events(emu.port(), "/api/stream/event", emu.token());
    // Before the start: secondsToStart, botsAllowed, no `me` yet.
    auto before = emu_test::parse_json(http.get("/api/tournament/arena001").body);
    EXPECT_EQ(before["fullName"], "Bot Arena");
    EXPECT_EQ(before["botsAllowed"], true);
    EXPECT_EQ(before["clock"]["limit"], 60);
    EXPECT_EQ(before["minutes"], 1);
    EXPECT_TRUE(before.contains("secondsToStart"));
    EXPECT_FALSE(before.contains("isStarted"));
    EXPECT_FALSE(before.contains("me"));
    // lila writes botsAllowed only when true.
    EXPECT_FALSE(
        emu_test::parse_json(http.get("/api/tournament/nobots01").body).contains("botsAllowed"));
    EXPECT_EQ(http.get("/api/tournament/unknown1").status, 404);
    // Refusals, with lila's texts.
    auto refused = http.post("/api/tournament/nobots01/join");
    EXPECT_EQ(refused.status, 400);
    EXPECT_EQ(emu_test::parse_json(refused.body)["error"], "Tournament restrictions");
    EXPECT_EQ(emu_test::parse_json(
                  http.post("/api/tournament/secret01/join", "team=my-team").body)["error"],
              "Wrong entry code");
    EXPECT_EQ(emu_test::parse_json(
                  http.post("/api/tournament/secret01/join", "password=open-sesame").body)["error"],
              "Missing team");
    EXPECT_EQ(
        http.post("/api/tournament/secret01/join", "password=open-sesame&team=my-team").status,
        200);
    // Joined before the start: paired once it runs, with the arena's id, again after each game.
    ASSERT_EQ(http.post("/api/tournament/arena001/join").status, 200);
    auto start = emu_test::next_of_type(events, "gameStart");
    ASSERT_FALSE(start.is_null());
    EXPECT_EQ(start["game"]["source"], "arena");
    EXPECT_EQ(start["game"]["tournamentId"], "arena001");
    const std::string first = start["game"]["gameId"];
    emu_test::StreamReader game(emu.port(), "/api/bot/game/stream/" + first, emu.token());
    EXPECT_EQ(emu_test::next_of_type(game, "gameFull")["tournamentId"], "arena001");
    auto during = emu_test::parse_json(http.get("/api/tournament/arena001").body);
    EXPECT_EQ(during["isStarted"], true);
    EXPECT_EQ(during["me"]["gameId"], first);
    // An arena game is never abortable, and takes no takeback.
    EXPECT_EQ(http.post("/api/bot/game/" + first + "/abort").status, 400);
    const bool white = start["game"]["color"] == "white";
    if (white) {
        ASSERT_EQ(http.post("/api/bot/game/" + first + "/move/e2e4").status, 200);
    }
    ASSERT_TRUE(emu.wait_until([&] { return arena_of(emu, "arena001").games.size() >= 2; }));
    ASSERT_TRUE(emu.wait_until([&] { return arena_of(emu, "arena001").finished; }));
    auto after = emu_test::parse_json(http.get("/api/tournament/arena001").body);
    EXPECT_EQ(after["isFinished"], true);
    EXPECT_FALSE(after.contains("isStarted"));
    EXPECT_EQ(emu_test::parse_json(http.post("/api/tournament/arena001/join").body)["error"],
              "This tournament no longer exists");
}

TEST(Arenas, AWithdrawalPausesAndANoStartWithdraws) {
    EmulatorFixture emu(R"(
keepalive_ms: 200
tournaments:
  - {id: arena002, starts_at_ms: 0, duration_ms: 60000, first_move_timeout_ms: 500, pair_delay_ms: 50,
     clock: {limit: 60, increment: 0}, opponent: {kind: random, think_ms: 0}}
)");
    emu_test::HttpClient http(emu.port(), emu.token());
    ASSERT_EQ(http.post("/api/tournament/arena002/join", "pairMeAsap=true").status, 200);
    EXPECT_EQ(arena_of(emu, "arena002").pair_me_asap, 1);
    // The bot never moves: its game ends as noStart and lila withdraws it; no second pairing.
    ASSERT_TRUE(emu.wait_until([&] { return arena_of(emu, "arena002").withdrawn; }));
    const auto a = arena_of(emu, "arena002");
    ASSERT_EQ(a.games.size(), 1u);
    std::string status;
    for (const auto& g : emu->games())
        if (g.id == a.games[0]) status = g.status;
    EXPECT_EQ(status, "noStart");
    EXPECT_EQ(emu_test::parse_json(http.get("/api/tournament/arena002").body)["me"]["withdraw"],
              true);
    // Joining again makes it active; withdrawing while it runs pauses it (10 s).
    ASSERT_EQ(http.post("/api/tournament/arena002/join").status, 200);
    ASSERT_EQ(http.post("/api/tournament/arena002/withdraw").status, 200);
    auto paused = emu_test::parse_json(http.get("/api/tournament/arena002").body);
    EXPECT_TRUE(paused["me"].contains("pauseDelay"));
    EXPECT_EQ(emu_test::parse_json(http.post("/api/tournament/arena002/join").body)["error"],
              "Your pause is not over yet");
}

// Pause.scala: a pause is the user's, in every arena, and the next one is longer (a 5+0 arena's
// games last about 300 s, so a second pause is 300 / 15 = 20 s).
TEST(Arenas, APauseHoldsInEveryArenaAndGrowsWithTheNext) {
    EmulatorFixture emu(R"(
keepalive_ms: 200
tournaments:
  - {id: arenaaaa, starts_at_ms: 0, duration_ms: 600000, clock: {limit: 300, increment: 0}, max_games: 0}
  - {id: arenabbb, starts_at_ms: 0, duration_ms: 600000, clock: {limit: 300, increment: 0}, max_games: 0}
)");
    emu_test::HttpClient http(emu.port(), emu.token());
    ASSERT_EQ(http.post("/api/tournament/arenaaaa/join").status, 200);
    ASSERT_EQ(http.post("/api/tournament/arenabbb/join").status, 200);
    EXPECT_FALSE(emu_test::parse_json(http.get("/api/tournament/arenabbb").body)["me"].contains(
        "pauseDelay"));
    ASSERT_EQ(http.post("/api/tournament/arenaaaa/withdraw").status, 200);
    const auto first = emu_test::parse_json(http.get("/api/tournament/arenabbb").body);
    EXPECT_GE(first["me"]["pauseDelay"].get<int>(), 9);
    EXPECT_LE(first["me"]["pauseDelay"].get<int>(), 10);
    ASSERT_EQ(http.post("/api/tournament/arenabbb/withdraw").status, 200);
    const auto second = emu_test::parse_json(http.get("/api/tournament/arenabbb").body);
    EXPECT_GE(second["me"]["pauseDelay"].get<int>(), 19);
    EXPECT_LE(second["me"]["pauseDelay"].get<int>(), 20);
    const auto refused = http.post("/api/tournament/arenaaaa/join");
    EXPECT_EQ(refused.status, 400);
    EXPECT_EQ(emu_test::parse_json(refused.body)["error"], "Your pause is not over yet");
}

}  // namespace
}  // namespace emu
