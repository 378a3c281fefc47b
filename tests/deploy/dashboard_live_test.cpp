// The Grafana dashboard against a live bot: the real `outpost run` against the emulator declines
// a challenge and plays a game, then every metric, label and label value the dashboard's queries
// name must be in what its /metrics serves (docs/OPERATIONS.md's list is dashboard_test.cpp's).
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "dashboard_queries.hpp"
#include "lichess_client/http_client.hpp"
#include "tests/e2e/bot_fixture.hpp"
#include "tests/e2e/child_process.hpp"
#include "tests/engine/polyglot_test_util.hpp"
#include "tests/support/prometheus_text.hpp"

namespace deploy_test {
namespace {

// Labels Prometheus adds to every scraped series (the target's), which the dashboard may use.
const std::set<std::string> kTargetLabels{"instance", "job"};

// Each sample name of the exposition with its labels and the values seen for each.
std::map<std::string, std::map<std::string, std::set<std::string>>> series_of(
    const test_support::Exposition& exposition) {
    std::map<std::string, std::map<std::string, std::set<std::string>>> out;
    for (const auto& [family, f] : exposition.families) {
        for (const test_support::Sample& sample : f.samples) {
            auto& labels = out[sample.name];
            for (const auto& [label, value] : sample.labels) labels[label].insert(value);
        }
    }
    return out;
}

// /metrics of the real daemon after it declined one challenge and played one game.
std::string live_metrics() {
    using namespace std::chrono_literals;
    test_util::BookDir dir("dashboard-live");
    auto fx = std::make_unique<emu::EmulatorFixture>("name: dashboard\nseed: 43\n");
    std::string config = e2e::config_text(*fx, e2e::settings("{concurrency: 1}"));
    const std::string off = "health: {listen: \"\"}";
    config.replace(config.find(off), off.size(), "health: {listen: \"127.0.0.1:0\"}");
    const std::string config_path = (dir.path() / "config.yml").string();
    std::ofstream(config_path) << config;
    const std::string log = (dir.path() / "outpost.log").string();
    e2e::ChildProcess bot(OUTPOST_EXE, {"run", "--config", config_path}, log, log);
    EXPECT_TRUE(bot.started());

    // The health port is the kernel's pick; the daemon logs it.
    const std::string marker = "health endpoint on http://127.0.0.1:";
    std::string text, port;
    const bool listening = fx->wait_until(
        [&] {
            text = e2e::read_file(log);
            const auto at = text.find(marker);
            const auto end = text.find("/healthz", at);
            if (at == std::string::npos || end == std::string::npos) return false;
            port = text.substr(at + marker.size(), end - at - marker.size());
            return true;
        },
        15s);
    EXPECT_TRUE(listening) << text;
    if (!listening || !e2e::wait_event_stream(*fx)) return {};

    // An ultraBullet challenge (declined: tooFast, so the reason label exists) and a short game.
    e2e::send_challenges(*fx, R"(
challenges:
  - id: toofast1
    at_ms: 0
    challenger: {name: Speedy, rating: 1500}
    clock: {limit: 15, increment: 0}
    opponent: {kind: random, think_ms: 30}
  - id: dashgame
    at_ms: 300
    challenger: {name: Randy, rating: 1500}
    clock: {limit: 60, increment: 0}
    color: black
    opponent: {kind: random, think_ms: 30, resign_at_ply: 6}
)");
    const auto game = fx->wait_game_over("dashgame", 120s);
    EXPECT_TRUE(game.over) << e2e::describe(e2e::game(*fx, "dashgame"));
    EXPECT_GE(e2e::bot_moves(game), 1);
    EXPECT_EQ(e2e::challenge(*fx, "toofast1").status, "declined");

    lichess::HttpConfig hc;
    hc.base_url = "http://127.0.0.1:" + port;
    hc.request_timeout = 5s;
    lichess::HttpClient http(hc);
    auto reply = http.perform({lichess::Method::Get, "/metrics", {}, {}, false, "text/plain"});
    EXPECT_TRUE(reply && reply->status == 200) << (reply ? reply->body : reply.error().describe());
    return reply ? reply->body : std::string{};
}

TEST(DashboardLive, EveryQueryNamesMetricsLabelsAndValuesTheBotServes) {
    const std::string text = live_metrics();
    ASSERT_FALSE(text.empty());
    const test_support::Exposition exposition = test_support::parse_prometheus(text);
    ASSERT_EQ(exposition.errors, std::vector<std::string>{}) << text;
    const auto series = series_of(exposition);

    const std::vector<DashboardQuery> queries = dashboard_queries(load_dashboard());
    ASSERT_FALSE(queries.empty());
    for (const DashboardQuery& q : queries) {
        std::set<std::string> labels_here = kTargetLabels;
        for (const std::string& metric : q.names.metrics) {
            auto it = series.find(metric);
            if (it == series.end()) {
                ADD_FAILURE() << q.where << " names " << metric << ", not in the bot's /metrics:\n"
                              << q.expr;
                continue;
            }
            for (const auto& [label, values] : it->second) labels_here.insert(label);
        }
        for (const std::string& label : q.names.labels) {
            EXPECT_TRUE(labels_here.contains(label))
                << q.where << " uses label " << label << ", which none of its metrics has:\n"
                << q.expr;
        }
        for (const EqualMatcher& m : q.names.equal_matchers) {
            auto it = series.find(m.metric);
            const bool served = it != series.end() && it->second.contains(m.label) &&
                                it->second.at(m.label).contains(m.value);
            EXPECT_TRUE(served) << q.where << " matches " << m.metric << "{" << m.label << "=\""
                                << m.value << "\"}, which the bot does not serve";
        }
    }
}

}  // namespace
}  // namespace deploy_test
