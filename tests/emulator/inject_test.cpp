// The `inject` fault: bad input from the server, made by merge-patching one game-stream line
// (the writer alone, the scenario schema, and over real HTTP).
#include <gtest/gtest.h>

#include "emulator_fixture.hpp"
#include "stream_writer.hpp"
#include "test_helpers.hpp"

namespace emu {
namespace {

struct CapturingSink : ByteSink {
    std::string bytes;
    bool write(std::string_view d) override {
        bytes += d;
        return true;
    }
    bool peer_gone() override { return false; }
};

TEST(Inject, PatchesTheFirstDueLineOfTheWantedTypeOnly) {
    FaultSpec f;
    f.kind = FaultSpec::Kind::INJECT;
    f.line_type = "gameState";
    f.after_lines = 1;
    f.patch = R"({"status":"weird","moves":"e2e4 e2e4"})";
    StreamStart start;
    start.queue = std::make_shared<LineQueue>();
    start.faults = {f};
    start.keepalive_ms = 10000;
    start.chunk_gap_ms = 0;
    start.now = [] {
        return Ms(std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now().time_since_epoch())
                      .count());
    };
    start.stopping = [] { return false; };
    std::vector<std::string> sent, fired;
    start.on_sent = [&](const Line& l) { sent.push_back(l.text); };
    start.on_fault = [&](const FaultSpec& spec, const std::string&) {
        fired.push_back(fault_kind_name(spec.kind));
    };
    start.on_end = [](StreamEnd, int) {};
    for (const char* l : {R"({"type":"gameState","moves":"","status":"started"})",
                          R"({"type":"chatLine","text":"hi"})",
                          R"({"type":"gameState","moves":"e2e4","status":"started"})",
                          R"({"type":"gameState","moves":"e2e4 e7e5","status":"started"})"})
        start.queue->push(Line{l, "", -1, false});
    start.queue->close("done");
    CapturingSink sink;
    EXPECT_EQ(run_stream(start, sink), StreamEnd::COMPLETED);
    ASSERT_EQ(sent.size(), 4u);
    // Line 0 is before after_lines, line 1 is the wrong type; line 2 is patched, line 3 is not.
    EXPECT_EQ(sent[0], R"({"type":"gameState","moves":"","status":"started"})");
    EXPECT_EQ(sent[1], R"({"type":"chatLine","text":"hi"})");
    const auto patched = emu_test::parse_json(sent[2]);
    EXPECT_EQ(patched["moves"], "e2e4 e2e4");
    EXPECT_EQ(patched["status"], "weird");
    EXPECT_EQ(patched["type"], "gameState");
    EXPECT_EQ(sent[3], R"({"type":"gameState","moves":"e2e4 e7e5","status":"started"})");
    EXPECT_EQ(fired, std::vector<std::string>{"inject"});
    EXPECT_NE(sink.bytes.find(sent[2] + "\n"), std::string::npos);
}

TEST(Inject, ScenarioNeedsAJsonObjectPatch) {
    auto ok = parse_scenario(R"(
faults: [{kind: inject, target: game_stream, line_type: gameFull, patch: '{"initialFen": "x"}'}]
)");
    ASSERT_TRUE(ok.scenario) << ok.error;
    EXPECT_EQ(ok.scenario->faults.at(0).kind, FaultSpec::Kind::INJECT);
    EXPECT_EQ(ok.scenario->faults.at(0).line_type, "gameFull");
    EXPECT_NE(parse_scenario("faults: [{kind: inject, patch: 'not json'}]").error.find("patch"),
              std::string::npos);
    EXPECT_NE(parse_scenario("faults: [{kind: inject}]").error.find("patch"), std::string::npos);
}

TEST(Inject, ReplacesTheGameFullPlayersOverHttp) {
    EmulatorFixture emu(R"(
games: [{id: game0001, bot_color: white, clock: {limit: 600, increment: 0}, opponent: {think_ms: 0}}]
faults:
  - {kind: inject, target: game_stream, game: game0001, line_type: gameFull,
     patch: '{"white": {"id": "someoneelse", "name": "SomeoneElse"}, "initialFen": "not a fen"}'}
)");
    ASSERT_TRUE(emu.wait_until([&] { return emu->games().size() == 1; }));
    emu_test::StreamReader first(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    const auto bad = emu_test::next_of_type(first, "gameFull");
    ASSERT_FALSE(bad.is_null());
    EXPECT_EQ(bad["white"]["id"], "someoneelse");
    EXPECT_EQ(bad["initialFen"], "not a fen");
    EXPECT_EQ(bad["black"]["id"], "opponent");  // untouched keys stay
    // count: 1 — the next connection gets the real line.
    emu_test::StreamReader second(emu.port(), "/api/bot/game/stream/game0001", emu.token());
    const auto good = emu_test::next_of_type(second, "gameFull");
    ASSERT_FALSE(good.is_null());
    EXPECT_EQ(good["white"]["id"], "outpostbot");
    EXPECT_EQ(good["initialFen"], "startpos");
    const auto fired = emu->faults_fired();
    ASSERT_EQ(fired.size(), 1u);
    EXPECT_EQ(fired[0].kind, "inject");
}

}  // namespace
}  // namespace emu
