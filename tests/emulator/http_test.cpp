// The emulator over real HTTP: auth, account endpoints, status codes and bodies, the event
// stream's replay, keep-alives and one-stream-per-token rule.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "emulator_fixture.hpp"
#include "test_helpers.hpp"

namespace emu {
namespace {

const char* const BASIC = R"(
name: http
keepalive_ms: 100
account: {username: OutpostBot, token: lip_good}
online_bots: [{name: OtherBot, rating: 2100}]
)";

TEST(Http, RejectsMissingOrWrongTokenWith401) {
    EmulatorFixture emu(BASIC);
    emu_test::HttpClient http(emu.port(), "lip_good");
    for (const char* target : {"/api/account", "/api/account/playing", "/api/stream/event",
                               "/api/bot/game/stream/x", "/api/challenge/someone"}) {
        const bool post = std::string(target) == "/api/challenge/someone";
        EXPECT_EQ(http.request(post ? "POST" : "GET", target, "", "", std::string("")).status, 401)
            << target;
        const auto wrong =
            http.request(post ? "POST" : "GET", target, "", "", std::string("lip_wrong"));
        EXPECT_EQ(wrong.status, 401) << target;
        EXPECT_TRUE(emu_test::parse_json(wrong.body).contains("error"));
    }
    EXPECT_EQ(http.get("/api/account").status, 200);
    // Requests are recorded without the token anywhere.
    for (const auto& r : emu->requests()) EXPECT_EQ(r.path.find("lip_"), std::string::npos);
}

TEST(Http, AccountTokenTestAndUsers) {
    EmulatorFixture emu(BASIC);
    emu_test::HttpClient http(emu.port(), "lip_good");
    auto me = emu_test::parse_json(http.get("/api/account").body);
    EXPECT_EQ(me["id"], "outpostbot");
    EXPECT_EQ(me["username"], "OutpostBot");
    EXPECT_EQ(me["title"], "BOT");
    auto tokens =
        http.request("POST", "/api/token/test", "lip_good,lip_bad", "text/plain", std::string(""));
    ASSERT_EQ(tokens.status, 200);
    auto tj = emu_test::parse_json(tokens.body);
    EXPECT_EQ(tj["lip_good"]["userId"], "outpostbot");
    EXPECT_NE(tj["lip_good"]["scopes"].get<std::string>().find("bot:play"), std::string::npos);
    EXPECT_TRUE(tj["lip_bad"].is_null());
    auto playing = emu_test::parse_json(http.get("/api/account/playing").body);
    EXPECT_FALSE(playing.contains("nbMyTurn"));  // lila sends nowPlaying only
    EXPECT_TRUE(playing["nowPlaying"].is_array());
    auto online = http.request("GET", "/api/bot/online?nb=5", "", "", std::string(""));
    EXPECT_EQ(online.status, 200);
    EXPECT_EQ(online.content_type, "application/x-ndjson");
    EXPECT_EQ(emu_test::parse_json(online.body.substr(0, online.body.find('\n')))["username"],
              "OtherBot");
    auto status = emu_test::parse_json(http.get("/api/users/status?ids=otherbot,nobody").body);
    ASSERT_EQ(status.size(), 1u);
    EXPECT_EQ(status[0]["online"], true);
    EXPECT_EQ(http.post("/api/bot/account/upgrade").status, 400);  // already a BOT
    EXPECT_EQ(http.get("/api/nothing/here").status, 404);
    EXPECT_EQ(emu_test::parse_json(http.post("/api/bot/game/nosuchid/resign").body)["error"],
              "No such game");
    EXPECT_EQ(http.post("/api/bot/game/nosuchid/resign").status, 404);
    EXPECT_EQ(http.post("/api/challenge/nosuchid/accept").status, 404);
}

TEST(Http, UpgradeMakesAnAccountABot) {
    EmulatorFixture emu("account: {token: t, title: null}");
    emu_test::HttpClient http(emu.port(), "t");
    EXPECT_FALSE(emu_test::parse_json(http.get("/api/account").body).contains("title"));
    EXPECT_EQ(http.post("/api/bot/account/upgrade").body, R"({"ok":true})");
    EXPECT_EQ(emu_test::parse_json(http.get("/api/account").body)["title"], "BOT");
}

TEST(Http, EventStreamKeepsAliveAndReplaysOngoingGamesAndChallenges) {
    EmulatorFixture emu(std::string(BASIC) + R"(
games: [{id: game0001, bot_color: white, clock: {limit: 300, increment: 0}}]
challenges: [{id: chal0001, challenger: {name: Human, rating: 1700}, clock: {limit: 180, increment: 2}}]
)");
    ASSERT_TRUE(
        emu.wait_until([&] { return emu->games().size() == 1 && emu->challenges().size() == 1; }));
    emu_test::StreamReader events(emu.port(), "/api/stream/event", emu.token());
    ASSERT_EQ(events.status(), 200);
    auto start = emu_test::next_of_type(events, "gameStart");
    ASSERT_FALSE(start.is_null());
    EXPECT_EQ(start["game"]["gameId"], "game0001");
    EXPECT_EQ(start["game"]["isMyTurn"], true);
    auto challenge = emu_test::next_of_type(events, "challenge");
    ASSERT_FALSE(challenge.is_null());
    EXPECT_EQ(challenge["challenge"]["id"], "chal0001");
    EXPECT_EQ(challenge["challenge"]["timeControl"]["limit"], 180);
    EXPECT_FALSE(challenge["challenge"].contains("direction"));
    EXPECT_FALSE(challenge["challenge"]["challenger"].contains("title"));
    // keep-alive "\n" every 100 ms
    EXPECT_FALSE(events.next_line(450));
    EXPECT_GE(events.keepalives(), 2);
    // A reconnect replays the same game again.
    emu_test::StreamReader again(emu.port(), "/api/stream/event", emu.token());
    EXPECT_EQ(emu_test::next_of_type(again, "gameStart")["game"]["gameId"], "game0001");
}

TEST(Http, SecondEventStreamClosesTheFirst) {
    EmulatorFixture emu(BASIC);
    emu_test::StreamReader first(emu.port(), "/api/stream/event", emu.token());
    ASSERT_EQ(first.status(), 200);
    EXPECT_FALSE(first.next_line(150));  // alive: only keep-alives
    EXPECT_FALSE(first.ended());
    emu_test::StreamReader second(emu.port(), "/api/stream/event", emu.token());
    ASSERT_EQ(second.status(), 200);
    EXPECT_TRUE(first.wait_end(5000));
    EXPECT_TRUE(first.clean_end());
    EXPECT_FALSE(second.next_line(250));
    EXPECT_FALSE(second.ended());
    EXPECT_GE(second.keepalives(), 1);
}

TEST(Http, GameStreamOfUnknownGameIs404) {
    EmulatorFixture emu(BASIC);
    emu_test::StreamReader s(emu.port(), "/api/bot/game/stream/nosuchid", emu.token());
    EXPECT_EQ(s.status(), 404);
    EXPECT_EQ(emu_test::parse_json(s.error_body())["error"], "No such game");
}

TEST(Http, ExecutablePrintsItsPortServesAndWritesTheReportOnSigterm) {
    const std::string report = ::testing::TempDir() + "emulator_report_exe.json";
    std::remove(report.c_str());
    const std::string cmd =
        std::string(OUTPOST_EMULATOR_EXE) + " --scenario " + OUTPOST_EMULATOR_SCENARIOS +
        "/demo.yml --port 0 --token lip_child --report " + report + " & echo $!";
    FILE* out = popen(("sh -c '" + cmd + "' 2>/dev/null").c_str(), "r");
    ASSERT_NE(out, nullptr);
    // Three lines, the pid anywhere: the child's pid (from the shell), the port line, then the
    // online sources' port line.
    int pid = 0, port = 0, online_port = 0;
    for (int i = 0; i < 3; ++i) {
        char buf[256] = {};
        ASSERT_NE(fgets(buf, sizeof buf, out), nullptr);
        const std::string line(buf);
        if (line.rfind("listening on 127.0.0.1:", 0) == 0)
            port = std::atoi(line.c_str() + line.rfind(':') + 1);
        else if (line.rfind("online sources on 127.0.0.1:", 0) == 0)
            online_port = std::atoi(line.c_str() + line.rfind(':') + 1);
        else
            pid = std::atoi(buf);
    }
    ASSERT_GT(pid, 0);
    ASSERT_GT(port, 0);
    ASSERT_GT(online_port, 0);
    EXPECT_EQ(emu_test::HttpClient(online_port, "")
                  .get("/standard?fen=8/8/8/8/8/8/8/K1k5_w_-_-_0_1")
                  .status,
              200);
    emu_test::HttpClient http(port, "lip_child");
    EXPECT_EQ(http.get("/api/account").status, 200);
    EXPECT_EQ(http.request("GET", "/api/account", "", "", std::string("lip_demo_token")).status,
              401);
    kill(pid, SIGTERM);
    pclose(out);
    for (int i = 0; i < 100 && !std::ifstream(report).good(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream in(report);
    ASSERT_TRUE(in.good());
    std::stringstream ss;
    ss << in.rdbuf();
    auto j = emu_test::parse_json(ss.str());
    ASSERT_TRUE(j.is_object());
    EXPECT_EQ(j["scenario"], "demo");
    EXPECT_GE(j["traffic"]["requests"].size(), 2u);
}

}  // namespace
}  // namespace emu
