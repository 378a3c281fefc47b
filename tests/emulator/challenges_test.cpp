// Challenges over HTTP: scripted incoming ones (accept, decline with exact reasons, cancel by
// the challenger, refused accepts) and the bot's own (accepted, declined, bot-vs-bot limits).
#include <gtest/gtest.h>

#include "emulator_fixture.hpp"
#include "test_helpers.hpp"

namespace emu {
namespace {

TEST(Challenges, IncomingAcceptedStartsAGameWithTheScriptedOpponent) {
    EmulatorFixture emu(R"(
keepalive_ms: 200
challenges:
  - id: chal0001
    at_ms: 50
    challenger: {name: Rival, title: BOT, rating: 2222}
    clock: {limit: 180, increment: 2}
    color: white
    rated: true
    opponent: {kind: line, moves: [d2d4], think_ms: 0}
)");
    emu_test::HttpClient http(emu.port(), emu.token());
    emu_test::StreamReader events(emu.port(), "/api/stream/event", emu.token());
    auto c = emu_test::next_of_type(events, "challenge");
    ASSERT_FALSE(c.is_null());
    EXPECT_EQ(c["challenge"]["challenger"]["title"], "BOT");
    EXPECT_EQ(c["challenge"]["challenger"]["rating"], 2222);
    EXPECT_EQ(c["challenge"]["speed"], "blitz");
    EXPECT_EQ(c["challenge"]["timeControl"]["increment"], 2);
    EXPECT_EQ(c["compat"]["bot"], true);
    ASSERT_EQ(http.post("/api/challenge/chal0001/accept").body, R"({"ok":true})");
    auto start = emu_test::next_of_type(events, "gameStart");
    ASSERT_FALSE(start.is_null());
    EXPECT_EQ(start["game"]["gameId"], "chal0001");  // game id == challenge id
    EXPECT_EQ(start["game"]["color"], "black");
    EXPECT_EQ(start["game"]["rated"], true);
    emu_test::StreamReader game(emu.port(), "/api/bot/game/stream/chal0001", emu.token());
    auto full = emu_test::next_of_type(game, "gameFull");
    EXPECT_EQ(full["white"]["name"], "Rival");
    EXPECT_EQ(full["clock"]["initial"], 180000);
    ASSERT_TRUE(emu.wait_until([&] { return emu->games()[0].uci_moves == "d2d4"; }));
    EXPECT_EQ(http.post("/api/challenge/chal0001/accept").status, 404);  // already accepted (lila)
}

TEST(Challenges, DeclineRecordsTheExactReason) {
    EmulatorFixture emu(R"(
challenges:
  - {id: chal0001, challenger: {name: Fast}, clock: {limit: 30, increment: 0}}
  - {id: chal0002, challenger: {name: Other}, variant: crazyhouse, clock: {limit: 300, increment: 0}}
  - {id: chal0003, challenger: {name: Third}, days: 3}
)");
    emu_test::HttpClient http(emu.port(), emu.token());
    ASSERT_TRUE(emu.wait_until([&] { return emu->challenges().size() == 3; }));
    EXPECT_EQ(http.post("/api/challenge/chal0001/decline", "reason=tooFast").status, 200);
    EXPECT_EQ(http.post("/api/challenge/chal0002/decline", "reason=VARIANT").status, 200);
    EXPECT_EQ(http.post("/api/challenge/chal0003/decline").status, 200);
    EXPECT_EQ(http.post("/api/challenge/chal0001/accept").status, 400);
    const auto cs = emu->challenges();
    EXPECT_EQ(cs[0].status, "declined");
    EXPECT_EQ(cs[0].decline_reason, "tooFast");
    EXPECT_EQ(cs[0].decline_reason_key, "toofast");
    EXPECT_EQ(cs[1].decline_reason_key, "variant");
    EXPECT_EQ(cs[2].decline_reason, "");
    EXPECT_EQ(cs[2].decline_reason_key, "generic");
    EXPECT_EQ(emu->report()["challenges"][0]["decline_reason"], "tooFast");
}

TEST(Challenges, ChallengerCancelsAndRefusedAccepts) {
    EmulatorFixture emu(R"(
keepalive_ms: 200
challenges:
  - {id: chal0001, challenger: {name: Fickle}, clock: {limit: 300, increment: 0}, cancel_at_ms: 200}
  - {id: chal0002, challenger: {name: Limited, title: BOT}, clock: {limit: 300, increment: 0}, accept_status: 400,
     accept_error: "Limited played 100 games against other bots today, please wait until 2030-01-01T00:00:00Z to challenge them."}
  - {id: chal0003, challenger: {name: Quick}, clock: {limit: 15, increment: 0}}
)");
    emu_test::HttpClient http(emu.port(), emu.token());
    emu_test::StreamReader events(emu.port(), "/api/stream/event", emu.token());
    auto canceled = emu_test::next_of_type(events, "challengeCanceled");
    ASSERT_FALSE(canceled.is_null());
    EXPECT_EQ(canceled["challenge"]["id"], "chal0001");
    EXPECT_EQ(canceled["challenge"]["status"], "canceled");
    EXPECT_EQ(http.post("/api/challenge/chal0001/accept").status, 400);
    auto refused = http.post("/api/challenge/chal0002/accept");
    EXPECT_EQ(refused.status, 400);
    EXPECT_NE(emu_test::parse_json(refused.body)["error"].get<std::string>().find("100 games"),
              std::string::npos);
    auto ultra = http.post("/api/challenge/chal0003/accept");
    EXPECT_EQ(ultra.status, 400);  // UltraBullet is not for bots
    EXPECT_TRUE(emu->games().empty());
}

TEST(Challenges, OutgoingAcceptedAndDeclinedPerScript) {
    EmulatorFixture emu(R"(
keepalive_ms: 200
outgoing:
  - {user: Friendly, response: accept, delay_ms: 50, opponent: {kind: random, think_ms: 0}}
  - {user: Grumpy, response: decline, decline_reason: later, delay_ms: 50}
)");
    emu_test::HttpClient http(emu.port(), emu.token());
    emu_test::StreamReader events(emu.port(), "/api/stream/event", emu.token());
    auto created = http.post("/api/challenge/Friendly",
                             "clock.limit=180&clock.increment=2&rated=false&color=white");
    ASSERT_EQ(created.status, 200) << created.body;
    auto cj = emu_test::parse_json(created.body);
    EXPECT_EQ(cj["direction"], "out");
    EXPECT_EQ(cj["destUser"]["name"], "Friendly");
    EXPECT_EQ(cj["status"], "created");
    const std::string id = cj["id"];
    EXPECT_EQ(id.size(), 8u);
    auto own = emu_test::next_of_type(events, "challenge");
    EXPECT_EQ(own["challenge"]["challenger"]["id"], "outpostbot");  // the bot's own challenge
    auto start = emu_test::next_of_type(events, "gameStart");
    ASSERT_FALSE(start.is_null());
    EXPECT_EQ(start["game"]["gameId"], id);
    EXPECT_EQ(start["game"]["color"], "white");

    auto declined = http.post("/api/challenge/grumpy", "days=3");
    ASSERT_EQ(declined.status, 200);
    auto d = emu_test::next_of_type(events, "challengeDeclined");
    ASSERT_FALSE(d.is_null());
    EXPECT_EQ(d["challenge"]["declineReasonKey"], "later");
    EXPECT_TRUE(d["challenge"]["declineReason"].is_string());
    EXPECT_EQ(d["challenge"]["timeControl"]["type"], "correspondence");

    // What the bot asked for, whom, and when: in the views and in the report.
    const auto views = emu->challenges();
    ASSERT_EQ(views.size(), 2u);
    EXPECT_EQ(views[0].opponent, "Friendly");
    EXPECT_EQ(views[0].speed, "blitz");
    EXPECT_EQ(views[0].variant, "standard");
    EXPECT_FALSE(views[0].rated);
    EXPECT_EQ(views[1].opponent, "grumpy");
    EXPECT_EQ(views[1].speed, "correspondence");
    EXPECT_LE(views[0].created_ms, views[1].created_ms);
    const auto report = emu->report();
    const auto& rc = report["challenges"];
    ASSERT_EQ(rc.size(), 2u);
    EXPECT_EQ(rc[0]["opponent"], "Friendly");
    EXPECT_EQ(rc[0]["speed"], "blitz");
    EXPECT_EQ(rc[0]["direction"], "out");
    EXPECT_EQ(rc[1]["decline_reason_key"], "later");
}

TEST(Challenges, OutgoingLimitsAndValidation) {
    EmulatorFixture emu(R"(
outgoing:
  - {user: Tired, response: rate_limit, ratelimit_seconds: 86398}
  - {user: Busy, response: opponent_limit}
  - {user: Silent, response: ignore}
)");
    emu_test::HttpClient http(emu.port(), emu.token());
    auto limited = http.post("/api/challenge/Tired", "clock.limit=60&clock.increment=1");
    EXPECT_EQ(limited.status, 429);
    auto lj = emu_test::parse_json(limited.body);
    EXPECT_EQ(lj["ratelimit"]["key"], "bot.vsBot.day");
    EXPECT_EQ(lj["ratelimit"]["seconds"], 86398);
    EXPECT_NE(lj["error"].get<std::string>().find("100 games against other bots today"),
              std::string::npos);
    auto busy = http.post("/api/challenge/Busy", "clock.limit=60&clock.increment=1");
    EXPECT_EQ(busy.status, 400);
    EXPECT_NE(
        emu_test::parse_json(busy.body)["error"].get<std::string>().find("Busy played 100 games"),
        std::string::npos);
    EXPECT_EQ(http.post("/api/challenge/Silent", "clock.limit=17&clock.increment=1").status, 400);
    EXPECT_EQ(http.post("/api/challenge/Silent", "clock.limit=15&clock.increment=0").status,
              400);  // UltraBullet
    auto pending = http.post("/api/challenge/Silent", "clock.limit=300&clock.increment=0");
    ASSERT_EQ(pending.status, 200);
    const std::string id = emu_test::parse_json(pending.body)["id"];
    EXPECT_EQ(http.post("/api/challenge/" + id + "/cancel").status, 200);
    EXPECT_EQ(emu->challenges().back().status, "canceled");
    EXPECT_EQ(http.post("/api/challenge/" + id + "/cancel").status, 404);
}

TEST(Challenges, Chess960AndFromPositionGamesStartFromTheirFen) {
    EmulatorFixture emu(R"(
challenges:
  - {id: ch960001, challenger: {name: Fischer}, variant: chess960, clock: {limit: 180, increment: 2}, color: black}
  - {id: chfen001, challenger: {name: Composer}, variant: fromPosition, clock: {limit: 180, increment: 0},
     initial_fen: "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", color: black}
)");
    emu_test::HttpClient http(emu.port(), emu.token());
    ASSERT_TRUE(emu.wait_until([&] { return emu->challenges().size() == 2; }));
    ASSERT_EQ(http.post("/api/challenge/ch960001/accept").status, 200);
    ASSERT_EQ(http.post("/api/challenge/chfen001/accept").status, 200);
    emu_test::StreamReader g960(emu.port(), "/api/bot/game/stream/ch960001", emu.token());
    auto full = emu_test::next_of_type(g960, "gameFull");
    ASSERT_FALSE(full.is_null());
    EXPECT_EQ(full["variant"]["key"], "chess960");
    const std::string fen = full["initialFen"];
    EXPECT_NE(fen, "startpos");
    EXPECT_TRUE(engine::Position::from_fen(fen, true)) << fen;
    EXPECT_NE(fen.find("/pppppppp/8/8/8/8/PPPPPPPP/"), std::string::npos);
    emu_test::StreamReader gfen(emu.port(), "/api/bot/game/stream/chfen001", emu.token());
    auto ffull = emu_test::next_of_type(gfen, "gameFull");
    EXPECT_EQ(ffull["initialFen"], "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    EXPECT_EQ(ffull["variant"]["key"], "fromPosition");
    ASSERT_EQ(http.post("/api/bot/game/chfen001/move/e2e4").status, 200);
}

}  // namespace
}  // namespace emu
