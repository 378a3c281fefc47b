// Every scripted fault fires as scripted over real HTTP: dropped streams (whole or mid-line),
// silence, split and batched chunks, delays, 429 (JSON and HTML) and 5xx bursts.
#include <gtest/gtest.h>

#include <chrono>

#include "emulator_fixture.hpp"
#include "test_helpers.hpp"

namespace emu {
namespace {

const char* const TWO_CHALLENGES = R"(
keepalive_ms: 100
challenges:
  - {id: chal0001, challenger: {name: A}, clock: {limit: 180, increment: 0}}
  - {id: chal0002, challenger: {name: B}, clock: {limit: 300, increment: 0}}
  - {id: chal0003, challenger: {name: C}, clock: {limit: 600, increment: 0}}
)";

void wait_challenges(EmulatorFixture& emu) {
    ASSERT_TRUE(emu.wait_until([&] { return emu->challenges().size() == 3; }));
}

int count_faults(EmulatorFixture& emu, const std::string& kind) {
    int n = 0;
    for (const auto& f : emu->faults_fired()) n += f.kind == kind;
    return n;
}

TEST(Faults, DropEventStreamAfterALineThenReplayOnReconnect) {
    EmulatorFixture emu(std::string(TWO_CHALLENGES) +
                        "faults: [{kind: drop, target: event_stream, after_lines: 1}]\n");
    wait_challenges(emu);
    emu_test::StreamReader first(emu.port(), "/api/stream/event", emu.token());
    EXPECT_FALSE(emu_test::next_of_type(first, "challenge").is_null());
    EXPECT_TRUE(first.wait_end(3000));
    EXPECT_FALSE(first.clean_end());  // cut, not ended by the server's last chunk
    EXPECT_TRUE(emu_test::next_of_type(first, "challenge", 100).is_null());
    emu_test::StreamReader second(emu.port(), "/api/stream/event", emu.token());
    int challenges = 0;
    while (!emu_test::next_of_type(second, "challenge", 500).is_null()) ++challenges;
    EXPECT_EQ(challenges, 3);
    EXPECT_EQ(count_faults(emu, "drop"), 1);
    const auto streams = emu->streams();
    ASSERT_GE(streams.size(), 1u);
    EXPECT_EQ(streams[0].end, "dropped");
}

TEST(Faults, MidLineDropOnAGameStream) {
    EmulatorFixture emu(R"(
games: [{id: game0001, bot_color: black, clock: {limit: 600, increment: 0}, opponent: {think_ms: 0}}]
faults: [{kind: drop, target: game_stream, game: game0001, after_lines: 1, mid_line: true}]
)");
    ASSERT_TRUE(
        emu.wait_until([&] { return !emu->games().empty() && !emu->games()[0].moves.empty(); }));
    emu_test::StreamReader s(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    EXPECT_FALSE(emu_test::next_of_type(s, "gameFull").is_null());
    emu_test::HttpClient http(emu.port(), emu.token());
    ASSERT_EQ(http.post("/api/bot/game/game0001/move/e7e5").status, 200);
    EXPECT_TRUE(s.wait_end(3000));
    EXPECT_FALSE(s.clean_end());
    EXPECT_FALSE(s.partial_line().empty());  // half a JSON line, no newline
    EXPECT_EQ(s.partial_line().front(), '{');
    EXPECT_TRUE(emu_test::parse_json(s.partial_line()).is_discarded());
    // Reconnect: gameFull restores the whole state.
    emu_test::StreamReader again(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    auto full = emu_test::next_of_type(again, "gameFull");
    ASSERT_FALSE(full.is_null());
    EXPECT_NE(full["state"]["moves"].get<std::string>().find("e7e5"), std::string::npos);
}

TEST(Faults, SilentStreamSendsNothingThenResumes) {
    EmulatorFixture emu(
        std::string(TWO_CHALLENGES) +
        "faults: [{kind: silence, target: event_stream, after_lines: 3, duration_ms: 800}]\n");
    wait_challenges(emu);
    emu_test::StreamReader s(emu.port(), "/api/stream/event", emu.token());
    for (int i = 0; i < 3; ++i) ASSERT_FALSE(emu_test::next_of_type(s, "challenge").is_null());
    const int before = s.keepalives();
    EXPECT_FALSE(s.next_line(500));
    EXPECT_EQ(s.keepalives(), before);  // not even keep-alives (every 100 ms otherwise)
    EXPECT_GE(s.idle_ms(), 400);
    EXPECT_FALSE(s.ended());
    EXPECT_FALSE(s.next_line(1500));
    EXPECT_GT(s.keepalives(), before);  // resumed
    EXPECT_EQ(count_faults(emu, "silence"), 1);
}

TEST(Faults, SplitChunksStillCarryWholeLines) {
    EmulatorFixture emu(
        std::string(TWO_CHALLENGES) +
        "faults: [{kind: split, target: event_stream, min_chunk: 1, max_chunk: 7}]\n");
    wait_challenges(emu);
    emu_test::StreamReader s(emu.port(), "/api/stream/event", emu.token());
    for (int i = 0; i < 3; ++i) {
        // A line comes in a few hundred chunks 2 ms apart: on a loaded machine that can take
        // longer than the default 5 s, so this waits longer (a hang guard, not a speed test).
        auto c = emu_test::next_of_type(s, "challenge", 30000);
        ASSERT_FALSE(c.is_null());
        EXPECT_EQ(c["challenge"]["id"].get<std::string>().substr(0, 4), "chal");
    }
    ASSERT_GT(s.chunk_sizes().size(), 30u);
    for (auto size : s.chunk_sizes()) {
        EXPECT_GE(size, 1u);
        EXPECT_LE(size, 7u);
    }
}

TEST(Faults, BatchPutsManyLinesInOneChunk) {
    EmulatorFixture emu(std::string(TWO_CHALLENGES) +
                        "faults: [{kind: batch, target: event_stream, hold_ms: 100}]\n");
    wait_challenges(emu);
    emu_test::StreamReader s(emu.port(), "/api/stream/event", emu.token());
    for (int i = 0; i < 3; ++i) ASSERT_FALSE(emu_test::next_of_type(s, "challenge").is_null());
    ASSERT_FALSE(s.chunk_sizes().empty());
    // The three replayed challenges came in a single chunk.
    EXPECT_GT(s.chunk_sizes()[0], 3 * 200u);
}

TEST(Faults, DelayHoldsTheResponse) {
    EmulatorFixture emu("faults: [{kind: delay, target: account, delay_ms: 400, count: 1}]\n");
    emu_test::HttpClient http(emu.port(), emu.token());
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(http.get("/api/account").status, 200);
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    EXPECT_GE(ms, 350);
    EXPECT_EQ(count_faults(emu, "delay"), 1);
}

TEST(Faults, Http429JsonOnceThenOk) {
    EmulatorFixture emu(R"(
games: [{id: game0001, bot_color: white, clock: {limit: 600, increment: 0}}]
faults: [{kind: http_429, target: move, count: 1, ratelimit_seconds: 3}]
)");
    ASSERT_TRUE(emu.wait_until([&] { return !emu->games().empty(); }));
    emu_test::HttpClient http(emu.port(), emu.token());
    auto r = http.post("/api/bot/game/game0001/move/e2e4");
    EXPECT_EQ(r.status, 429);
    EXPECT_EQ(r.content_type, "application/json");
    auto j = emu_test::parse_json(r.body);
    EXPECT_NE(j["error"].get<std::string>().find("Too many requests"), std::string::npos);
    EXPECT_EQ(j["ratelimit"]["seconds"], 3);
    EXPECT_EQ(http.post("/api/bot/game/game0001/move/e2e4").status, 200);
    EXPECT_TRUE(emu->games()[0].moves.size() >= 1u);
    const auto reqs = emu->requests();
    int limited = 0;
    for (const auto& q : reqs) limited += q.status == 429 && q.fault == "http_429";
    EXPECT_EQ(limited, 1);
}

TEST(Faults, Http429HtmlAndSkip) {
    EmulatorFixture emu(
        "faults: [{kind: http_429, target: account, body: html, skip: 1, count: 2}]\n");
    emu_test::HttpClient http(emu.port(), emu.token());
    EXPECT_EQ(http.get("/api/account").status, 200);  // skipped
    for (int i = 0; i < 2; ++i) {
        auto r = http.get("/api/account");
        EXPECT_EQ(r.status, 429);
        EXPECT_NE(r.content_type.find("text/html"), std::string::npos);
        EXPECT_NE(r.body.find("<html>"), std::string::npos);
    }
    EXPECT_EQ(http.get("/api/account").status, 200);
}

TEST(Faults, FiveHundredBurstThenSuccess) {
    EmulatorFixture emu(
        "faults: [{kind: http_5xx, target: event_stream, status: 502, count: 3}]\n");
    for (int i = 0; i < 3; ++i) {
        emu_test::StreamReader s(emu.port(), "/api/stream/event", emu.token());
        EXPECT_EQ(s.status(), 502);
        EXPECT_NE(s.error_body().find("502 Bad Gateway"), std::string::npos);
    }
    emu_test::StreamReader ok(emu.port(), "/api/stream/event", emu.token());
    EXPECT_EQ(ok.status(), 200);
    EXPECT_EQ(count_faults(emu, "http_5xx"), 3);
    EXPECT_EQ(emu->report()["traffic"]["faults"].size(), 3u);
}

}  // namespace
}  // namespace emu
