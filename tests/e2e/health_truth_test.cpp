// /healthz tells the truth: the real `outpost run`, idle against the emulator with
// only keep-alive newlines on its event stream, is healthy throughout; when the server goes
// away it answers 503 within 30 s; when the server is back, 200 again. The
// outpost_event_stream_connected gauge says the same each time.
#include <gtest/gtest.h>

#include <fstream>
#include <memory>
#include <thread>

#include "bot_fixture.hpp"
#include "child_process.hpp"
#include "lichess_client/http_client.hpp"
#include "tests/engine/polyglot_test_util.hpp"

namespace e2e {
namespace {

constexpr const char* kIdle = "name: idle\nseed: 41\nkeepalive_ms: 6000\n";  // lila: every 6 s

struct Probe {
    int status = 0;  // 0: no answer
    std::string gauge;
};

Probe probe(lichess::HttpClient& http) {
    Probe p;
    auto h = http.perform({lichess::Method::Get, "/healthz", {}, {}, false, "text/plain"});
    if (h) p.status = h->status;
    auto m = http.perform({lichess::Method::Get, "/metrics", {}, {}, false, "text/plain"});
    if (m) {
        const auto at = m->body.find("\noutpost_event_stream_connected ");
        if (at != std::string::npos) p.gauge = m->body.substr(at + 32, 1);
    }
    return p;
}

TEST(E2eHealth, IdleIsHealthyAnOutageIsNotAndTheReturnIsAgain) {
    using namespace std::chrono_literals;
    test_util::BookDir dir("e2e-health-truth");
    auto fx = std::make_unique<emu::EmulatorFixture>(kIdle);
    const int port = fx->port();
    std::string config = config_text(*fx, settings("{concurrency: 1}"));
    config.replace(config.find("health: {listen: \"\"}"), 20, "health: {listen: \"127.0.0.1:0\"}");
    const std::string config_path = (dir.path() / "config.yml").string();
    std::ofstream(config_path) << config;
    const std::string log = (dir.path() / "outpost.log").string();
    ChildProcess bot(OUTPOST_EXE, {"run", "--config", config_path}, log, log);
    ASSERT_TRUE(bot.started());

    // The health port is picked by the kernel; the daemon logs it.
    std::string health_port;
    ASSERT_TRUE(fx->wait_until(
        [&] { return !(health_port = logged_health_port(read_file(log))).empty(); }, 15s))
        << read_file(log);
    lichess::HttpConfig hc;
    hc.base_url = "http://127.0.0.1:" + health_port;
    hc.request_timeout = 2s;
    lichess::HttpClient http(hc);

    // Healthy once the event stream delivered its first byte, then for 60 s of keep-alives only.
    ASSERT_TRUE(fx->wait_until([&] { return probe(http).status == 200; }, 15s)) << read_file(log);
    const auto idle_until = std::chrono::steady_clock::now() + 60s;
    int probes = 0;
    while (std::chrono::steady_clock::now() < idle_until) {
        const Probe p = probe(http);
        ASSERT_EQ(p.status, 200) << "after " << probes << " probes";
        ASSERT_EQ(p.gauge, "1");
        ++probes;
        std::this_thread::sleep_for(2s);
    }
    EXPECT_TRUE((*fx)->games().empty());  // nothing happened but keep-alives

    // The server vanishes: 503 within 30 s, and the gauge agrees.
    fx.reset();
    const auto gone = std::chrono::steady_clock::now();
    Probe down;
    while ((down = probe(http)).status != 503 && std::chrono::steady_clock::now() - gone < 30s)
        std::this_thread::sleep_for(500ms);
    ASSERT_EQ(down.status, 503) << "still healthy 30 s after the server went away";
    EXPECT_EQ(down.gauge, "0");

    // Back on the same port: healthy again once the bot has reconnected (its backoff grows to a
    // minute at most).
    fx = std::make_unique<emu::EmulatorFixture>(kIdle, port);
    ASSERT_TRUE(fx->wait_until([&] { return probe(http).status == 200; }, 90s)) << read_file(log);
    EXPECT_EQ(probe(http).gauge, "1");
    bot.signal(SIGTERM);
    EXPECT_TRUE(bot.wait(20s).has_value());
}

}  // namespace
}  // namespace e2e
