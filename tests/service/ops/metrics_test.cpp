// Tests of Metrics: histogram buckets, labelled counters, and the Prometheus text rendering
// (prometheus-cpp's), read back by a parser that applies Prometheus's rules.
#include "service/ops/metrics.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "lichess_client/api.hpp"
#include "tests/support/documented_metrics.hpp"
#include "tests/support/prometheus_text.hpp"

namespace service::test {

namespace {

// The value of the sample line that starts with `series ` (e.g. `outpost_x{a="b"}`).
std::string sample_value(const std::string& text, const std::string& series) {
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        if (line.starts_with(series + " ")) return line.substr(series.size() + 1);
    }
    return "<absent>";
}

TEST(Metrics, FreshMetricsRenderValidText) {
    Metrics metrics;
    const std::string text = render_prometheus(metrics);
    EXPECT_EQ(test_support::prometheus_format_errors(text), std::vector<std::string>{}) << text;
    EXPECT_EQ(sample_value(text, "outpost_games_started_total"), "0");
    EXPECT_EQ(sample_value(text, "outpost_games_finished_total{result=\"aborted\"}"), "0");
    EXPECT_EQ(sample_value(text, "outpost_event_stream_connected"), "0");
    EXPECT_EQ(sample_value(text, "outpost_move_reaction_latency_seconds_bucket{le=\"+Inf\"}"), "0");
    EXPECT_EQ(sample_value(text, "outpost_move_reaction_latency_seconds_count"), "0");
    // No activity yet: no sample, and prometheus-cpp leaves a family without samples out.
    EXPECT_EQ(sample_value(text, "outpost_event_stream_last_activity_age_seconds"), "<absent>");
    EXPECT_FALSE(test_support::parse_prometheus(text).families.contains(
        "outpost_event_stream_last_activity_age_seconds"));
}

// Every metric docs/OPERATIONS.md lists, with its type and labels; nothing else.
TEST(Metrics, EveryDocumentedMetricIsThereWithItsTypeAndLabels) {
    struct Expected {
        std::string type;
        std::set<std::string> labels;
    };
    const std::map<std::string, Expected> expected{
        {"outpost_build_info", {"gauge", {"version"}}},
        {"outpost_start_time_seconds", {"gauge", {}}},
        {"outpost_uptime_seconds", {"gauge", {}}},
        {"outpost_games_started_total", {"counter", {}}},
        {"outpost_games_active", {"gauge", {}}},
        {"outpost_games_finished_total", {"counter", {"result"}}},
        {"outpost_moves_played_total", {"counter", {}}},
        {"outpost_syzygy_moves_total", {"counter", {}}},
        {"outpost_challenges_accepted_total", {"counter", {}}},
        {"outpost_challenges_declined_total", {"counter", {"reason"}}},
        {"outpost_challenges_queued", {"gauge", {}}},
        {"outpost_time_forfeits_total", {"counter", {}}},
        {"outpost_pgn_write_errors_total", {"counter", {}}},
        {"outpost_rate_limited_total", {"counter", {}}},
        {"outpost_http_errors_total", {"counter", {}}},
        {"outpost_stream_reconnects_total", {"counter", {}}},
        {"outpost_bot_game_limit_total", {"counter", {}}},
        {"outpost_bot_games_paused_seconds", {"gauge", {}}},
        {"outpost_games_aborted_over_limit_total", {"counter", {}}},
        {"outpost_tournament_games_total", {"counter", {}}},
        {"outpost_tournaments_joined", {"gauge", {}}},
        {"outpost_event_stream_connected", {"gauge", {}}},
        {"outpost_event_stream_last_activity_age_seconds", {"gauge", {}}},
        {"outpost_move_reaction_latency_seconds", {"histogram", {}}},
        {"outpost_move_think_time_seconds", {"histogram", {}}},
        {"outpost_move_clock_left_seconds", {"histogram", {}}},
        {"outpost_online_requests_total", {"counter", {"source", "result"}}},
        {"outpost_online_source_paused", {"gauge", {"source"}}},
        {"outpost_online_request_duration_seconds", {"histogram", {"source"}}},
        {"outpost_online_source_pauses_total", {"counter", {"source"}}},
        {"outpost_process_resident_memory_bytes", {"gauge", {}}},
    };
    Metrics metrics;
    metrics.record_event_stream_activity();
    metrics.challenges_declined.increment("tooFast");
    const test_support::Exposition parsed =
        test_support::parse_prometheus(render_prometheus(metrics));
    EXPECT_EQ(parsed.errors, std::vector<std::string>{});
    std::set<std::string> names;
    for (const auto& [name, family] : parsed.families) {
        names.insert(name);
        auto it = expected.find(name);
        if (it == expected.end()) {
            ADD_FAILURE() << name
                          << " is not documented: add it to docs/OPERATIONS.md's table "
                             "and to this list";
            continue;
        }
        EXPECT_EQ(family.type, it->second.type) << name;
        EXPECT_FALSE(family.help.value_or("").empty()) << name;
        for (const test_support::Sample& sample : family.samples) {
            std::set<std::string> labels;
            for (const auto& [label, value] : sample.labels) {
                if (label != "le") labels.insert(label);
            }
            EXPECT_EQ(labels, it->second.labels) << sample.name;
        }
    }
    for (const auto& [name, _] : expected) EXPECT_TRUE(names.contains(name)) << name << " missing";

    // The operator's table names each of them (without the outpost_ prefix) with its type, and
    // no other.
    const auto documented =
        test_support::documented_metrics(std::string(OUTPOST_SOURCE_DIR) + "/docs/OPERATIONS.md");
    ASSERT_FALSE(documented.empty()) << "docs/OPERATIONS.md";
    std::map<std::string, std::string> all;
    for (const auto& [name, what] : expected) all[name] = what.type;
    EXPECT_EQ(documented, all);
}

TEST(Metrics, ClockLeftPausesAndMemoryShowTheirValues) {
    Metrics metrics;
    metrics.move_clock_left.observe(std::chrono::seconds(25));
    metrics.move_clock_left.observe(std::chrono::milliseconds(800));
    metrics.online[1].pauses = 2;
    const std::string text = render_prometheus(metrics);
    EXPECT_EQ(sample_value(text, "outpost_move_clock_left_seconds_bucket{le=\"1\"}"), "1");
    EXPECT_EQ(sample_value(text, "outpost_move_clock_left_seconds_bucket{le=\"20\"}"), "1");
    EXPECT_EQ(sample_value(text, "outpost_move_clock_left_seconds_bucket{le=\"30\"}"), "2");
    EXPECT_EQ(sample_value(text, "outpost_move_clock_left_seconds_sum"), "25.8");
    EXPECT_EQ(sample_value(text, "outpost_online_source_pauses_total{source=\"cloud\"}"), "2");
    EXPECT_EQ(sample_value(text, "outpost_online_source_pauses_total{source=\"chessdb\"}"), "0");
    // This process's own resident set: more than a megabyte, less than this machine has.
    const auto rss = resident_memory_bytes();
    ASSERT_TRUE(rss);
    EXPECT_GT(*rss, 1u << 20);
    EXPECT_LT(*rss, std::uint64_t(1) << 40);
    const double shown = std::stod(sample_value(text, "outpost_process_resident_memory_bytes"));
    EXPECT_GT(shown, 1 << 20);
}

TEST(Metrics, ParserReadsEscapesAndHistogramsAsPrometheusDoes) {
    const test_support::Exposition parsed = test_support::parse_prometheus(
        R"(# HELP outpost_x_total back\\slash and\nnewline
# TYPE outpost_x_total counter
outpost_x_total{a="q\"uote",b="back\\slash",c="new\nline",} 3 1700000000000
# TYPE outpost_h histogram
# HELP outpost_h h
outpost_h_bucket{le="0.5"} 1
outpost_h_bucket{le="+Inf"} 2
outpost_h_sum 1.5e0
outpost_h_count 2
)");
    EXPECT_EQ(parsed.errors, std::vector<std::string>{});
    ASSERT_TRUE(parsed.families.contains("outpost_x_total"));
    const test_support::Family& x = parsed.families.at("outpost_x_total");
    EXPECT_EQ(x.help, std::optional<std::string>("back\\slash and\nnewline"));
    ASSERT_EQ(x.samples.size(), 1u);
    EXPECT_EQ(x.samples[0].labels,
              (std::map<std::string, std::string>{
                  {"a", "q\"uote"}, {"b", "back\\slash"}, {"c", "new\nline"}}));
    EXPECT_EQ(x.samples[0].value, 3);
    ASSERT_TRUE(parsed.families.contains("outpost_h"));
    EXPECT_EQ(parsed.families.at("outpost_h").samples.size(), 4u);
}

TEST(Metrics, ParserRejectsWhatPrometheusRejects) {
    const std::string head = "# HELP outpost_h h\n# TYPE outpost_h histogram\n";
    const std::map<std::string, std::string> bad{
        {"no newline at the end",
         "# HELP outpost_x_total x\n# TYPE outpost_x_total counter\n"
         "outpost_x_total 1"},
        {"counter not *_total", "# HELP outpost_x x\n# TYPE outpost_x counter\noutpost_x 1\n"},
        {"bad value", "# HELP outpost_y y\n# TYPE outpost_y gauge\noutpost_y one\n"},
        {"unterminated label", "# HELP outpost_y y\n# TYPE outpost_y gauge\noutpost_y{a=\"b} 1\n"},
        {"escape \\t in a label",
         "# HELP outpost_y y\n# TYPE outpost_y gauge\n"
         "outpost_y{a=\"\\t\"} 1\n"},
        {"escape \\\" in HELP",
         "# HELP outpost_y a \\\"b\\\"\n# TYPE outpost_y gauge\noutpost_y 1\n"},
        {"label repeated",
         "# HELP outpost_y y\n# TYPE outpost_y gauge\noutpost_y{a=\"1\",a=\"2\"} 1\n"},
        {"reserved label name",
         "# HELP outpost_y y\n# TYPE outpost_y gauge\noutpost_y{__a=\"1\"} 1\n"},
        {"no TYPE", "# HELP outpost_y y\noutpost_y 1\n"},
        {"no HELP", "# TYPE outpost_y gauge\noutpost_y 1\n"},
        {"second TYPE",
         "# HELP outpost_y y\n# TYPE outpost_y gauge\n# TYPE outpost_y gauge\n"
         "outpost_y 1\n"},
        {"family split",
         "# HELP outpost_y y\n# TYPE outpost_y gauge\noutpost_y{a=\"1\"} 1\n"
         "# HELP outpost_z z\n# TYPE outpost_z gauge\noutpost_z 1\n"
         "outpost_y{a=\"2\"} 1\n"},
        {"duplicate series",
         "# HELP outpost_y y\n# TYPE outpost_y gauge\noutpost_y 1\noutpost_y 2\n"},
        {"no +Inf bucket",
         head + "outpost_h_bucket{le=\"1\"} 1\noutpost_h_sum 1\noutpost_h_count 1\n"},
        {"not cumulative", head + "outpost_h_bucket{le=\"1\"} 2\noutpost_h_bucket{le=\"+Inf\"} 1\n"
                                  "outpost_h_sum 1\noutpost_h_count 1\n"},
        {"count is not +Inf", head + "outpost_h_bucket{le=\"+Inf\"} 2\noutpost_h_sum 1\n"
                                     "outpost_h_count 3\n"},
        {"bucket without le", head + "outpost_h_bucket 2\noutpost_h_bucket{le=\"+Inf\"} 2\n"
                                     "outpost_h_sum 1\noutpost_h_count 2\n"},
        {"no _sum", head + "outpost_h_bucket{le=\"+Inf\"} 2\noutpost_h_count 2\n"},
    };
    for (const auto& [what, text] : bad) {
        EXPECT_FALSE(test_support::prometheus_format_errors(text).empty()) << what << ":\n" << text;
    }
}

TEST(Metrics, CountersAndGaugesShowTheirValues) {
    Metrics metrics;
    metrics.games_started += 7;
    metrics.record_game_finished(GameResult::Win);
    metrics.record_game_finished(GameResult::Win);
    metrics.record_game_finished(GameResult::Draw);
    metrics.record_game_finished(GameResult::Aborted);
    metrics.games_active = 2;
    metrics.moves_played = 345;
    metrics.challenges_accepted = 4;
    metrics.challenges_declined.increment("tooFast");
    metrics.challenges_declined.increment("tooFast");
    metrics.challenges_declined.increment("noBot");
    metrics.stream_reconnects = 3;
    metrics.rate_limited_429 = 1;
    metrics.http_errors = 5;
    metrics.time_forfeits = 0;
    metrics.pgn_write_errors = 2;
    metrics.event_stream_connected = true;
    metrics.record_event_stream_activity();

    const std::string text = render_prometheus(metrics);
    EXPECT_EQ(test_support::prometheus_format_errors(text), std::vector<std::string>{}) << text;
    EXPECT_EQ(sample_value(text, "outpost_games_started_total"), "7");
    EXPECT_EQ(sample_value(text, "outpost_games_finished_total{result=\"win\"}"), "2");
    EXPECT_EQ(sample_value(text, "outpost_games_finished_total{result=\"loss\"}"), "0");
    EXPECT_EQ(sample_value(text, "outpost_games_finished_total{result=\"draw\"}"), "1");
    EXPECT_EQ(sample_value(text, "outpost_games_finished_total{result=\"aborted\"}"), "1");
    EXPECT_EQ(sample_value(text, "outpost_games_active"), "2");
    EXPECT_EQ(sample_value(text, "outpost_moves_played_total"), "345");
    EXPECT_EQ(sample_value(text, "outpost_challenges_accepted_total"), "4");
    EXPECT_EQ(sample_value(text, "outpost_challenges_declined_total{reason=\"tooFast\"}"), "2");
    EXPECT_EQ(sample_value(text, "outpost_challenges_declined_total{reason=\"noBot\"}"), "1");
    EXPECT_EQ(sample_value(text, "outpost_stream_reconnects_total"), "3");
    EXPECT_EQ(sample_value(text, "outpost_rate_limited_total"), "1");
    EXPECT_EQ(sample_value(text, "outpost_http_errors_total"), "5");
    EXPECT_EQ(sample_value(text, "outpost_time_forfeits_total"), "0");
    EXPECT_EQ(sample_value(text, "outpost_pgn_write_errors_total"), "2");
    EXPECT_EQ(sample_value(text, "outpost_event_stream_connected"), "1");
    EXPECT_NE(text.find("outpost_build_info{version=\""), std::string::npos);
}

TEST(Metrics, HistogramBucketsAreCumulativeAndInclusive) {
    Metrics metrics;
    using std::chrono::microseconds;
    metrics.move_reaction_latency.observe(microseconds(500));      // 0.5 ms
    metrics.move_reaction_latency.observe(microseconds(1000));     // exactly 1 ms: le="0.001"
    metrics.move_reaction_latency.observe(microseconds(3000));     // 3 ms
    metrics.move_reaction_latency.observe(microseconds(2000000));  // 2 s: only +Inf
    metrics.move_reaction_latency.observe(microseconds(-5));       // clamped to 0

    const std::string text = render_prometheus(metrics);
    EXPECT_EQ(test_support::prometheus_format_errors(text), std::vector<std::string>{}) << text;
    const std::string b = "outpost_move_reaction_latency_seconds_bucket";
    EXPECT_EQ(sample_value(text, b + "{le=\"0.001\"}"), "3");
    EXPECT_EQ(sample_value(text, b + "{le=\"0.002\"}"), "3");
    EXPECT_EQ(sample_value(text, b + "{le=\"0.005\"}"), "4");
    EXPECT_EQ(sample_value(text, b + "{le=\"0.5\"}"), "4");
    EXPECT_EQ(sample_value(text, b + "{le=\"1\"}"), "4");
    EXPECT_EQ(sample_value(text, b + "{le=\"+Inf\"}"), "5");
    EXPECT_EQ(sample_value(text, "outpost_move_reaction_latency_seconds_count"), "5");
    EXPECT_EQ(std::stod(sample_value(text, "outpost_move_reaction_latency_seconds_sum")), 2.0045);
    // Think time has its own, wider buckets.
    EXPECT_EQ(sample_value(text, "outpost_move_think_time_seconds_bucket{le=\"300\"}"), "0");
    EXPECT_EQ(sample_value(text, "outpost_move_think_time_seconds_count"), "0");
}

TEST(Metrics, HistogramSnapshotKeepsInfEqualToCount) {
    DurationHistogram histogram(kReactionBucketsMs);
    for (int i = 0; i < 100; ++i) histogram.observe(std::chrono::microseconds(i * 100));
    const DurationHistogram::Snapshot snap = histogram.snapshot();
    ASSERT_EQ(snap.cumulative.size(), kReactionBucketsMs.size() + 1);
    EXPECT_EQ(snap.cumulative.back(), snap.count);
    EXPECT_EQ(snap.count, 100u);
    for (std::size_t i = 1; i < snap.cumulative.size(); ++i) {
        EXPECT_LE(snap.cumulative[i - 1], snap.cumulative[i]);
    }
}

TEST(Metrics, DeclineReasonsAreEscapedAndBounded) {
    Metrics metrics;
    metrics.challenges_declined.increment("we\"ird\\reason");
    metrics.challenges_declined.increment("line\nbreak");
    metrics.challenges_declined.increment("");
    metrics.challenges_declined.increment(std::string(500, 'x'));
    for (int i = 0; i < 200; ++i) metrics.challenges_declined.increment("r" + std::to_string(i));

    const auto counts = metrics.challenges_declined.snapshot();
    EXPECT_LE(counts.size(), LabeledCounter::kMaxKeys);
    EXPECT_GT(metrics.challenges_declined.get(LabeledCounter::kOverflowKey), 0u);
    EXPECT_EQ(metrics.challenges_declined.get("line\nbreak"), 1u);  // stored as "line_break"

    const std::string text = render_prometheus(metrics);
    EXPECT_EQ(test_support::prometheus_format_errors(text), std::vector<std::string>{}) << text;
    EXPECT_EQ(
        sample_value(text, "outpost_challenges_declined_total{reason=\"we\\\"ird\\\\reason\"}"),
        "1");
    EXPECT_EQ(sample_value(text, "outpost_challenges_declined_total{reason=\"line_break\"}"), "1");
    EXPECT_EQ(sample_value(text, "outpost_challenges_declined_total{reason=\"unknown\"}"), "1");
    // Read back as Prometheus reads it, the label is the reason as the daemon counted it.
    const test_support::Exposition parsed = test_support::parse_prometheus(text);
    std::map<std::string, double> by_reason;
    for (const test_support::Sample& sample :
         parsed.families.at("outpost_challenges_declined_total").samples) {
        by_reason[sample.labels.at("reason")] = sample.value;
    }
    EXPECT_EQ(by_reason["we\"ird\\reason"], 1);
    // The counted reasons, and Lichess's own reasons at 0 besides (none of them counted here).
    EXPECT_EQ(by_reason.size(), counts.size() + std::size(lichess::kAllDeclineReasons));
}

// A fresh daemon shows every labelled series it knows at 0, so a dashboard panel that plots one
// has a line from the first scrape ("no data" reads as broken).
TEST(Metrics, EveryKnownLabelHasASeriesAtZeroFromTheStart) {
    const Metrics metrics;
    const std::string text = render_prometheus(metrics);
    EXPECT_EQ(test_support::prometheus_format_errors(text), std::vector<std::string>{}) << text;
    const test_support::Exposition parsed = test_support::parse_prometheus(text);
    std::set<std::string> reasons;
    for (const test_support::Sample& sample :
         parsed.families.at("outpost_challenges_declined_total").samples) {
        EXPECT_EQ(sample.value, 0) << sample.labels.at("reason");
        reasons.insert(sample.labels.at("reason"));
    }
    for (const lichess::DeclineReason reason : lichess::kAllDeclineReasons)
        EXPECT_EQ(reasons.count(lichess::to_string(reason)), 1u) << lichess::to_string(reason);
    EXPECT_EQ(reasons.size(), std::size(lichess::kAllDeclineReasons));
    EXPECT_EQ(parsed.families.at("outpost_games_finished_total").samples.size(), kGameResultCount);
    // Each source with each result, each source's pause gauge and pause counter.
    EXPECT_EQ(parsed.families.at("outpost_online_requests_total").samples.size(), 4u * 4u);
    EXPECT_EQ(parsed.families.at("outpost_online_source_paused").samples.size(), 4u);
    EXPECT_EQ(parsed.families.at("outpost_online_source_pauses_total").samples.size(), 4u);
    // Once counted, a reason's series carries its count and the others stay.
    Metrics counted;
    counted.challenges_declined.increment("later");
    const std::string after = render_prometheus(counted);
    EXPECT_EQ(sample_value(after, "outpost_challenges_declined_total{reason=\"later\"}"), "1");
    EXPECT_EQ(sample_value(after, "outpost_challenges_declined_total{reason=\"noBot\"}"), "0");
}

TEST(Metrics, TimesAreRelativeToTheGivenNow) {
    Metrics metrics;
    const auto now = metrics.start_time + std::chrono::seconds(90);
    metrics.record_event_stream_activity(metrics.start_time + std::chrono::milliseconds(87500));
    ASSERT_TRUE(metrics.last_event_stream_activity().has_value());

    const std::string text = render_prometheus(metrics, now);
    EXPECT_EQ(test_support::prometheus_format_errors(text), std::vector<std::string>{}) << text;
    EXPECT_EQ(sample_value(text, "outpost_uptime_seconds"), "90");
    EXPECT_EQ(sample_value(text, "outpost_event_stream_last_activity_age_seconds"), "2.5");
    EXPECT_GT(std::stod(sample_value(text, "outpost_start_time_seconds")), 1.6e9);
}

TEST(Metrics, ConcurrentUpdatesAreAllCounted) {
    Metrics metrics;
    constexpr int kThreads = 4;
    constexpr int kPerThread = 5000;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&metrics, t] {
            for (int i = 0; i < kPerThread; ++i) {
                metrics.moves_played.fetch_add(1, std::memory_order_relaxed);
                metrics.record_game_finished(static_cast<GameResult>(i % kGameResultCount));
                metrics.move_reaction_latency.observe(std::chrono::microseconds(i));
                metrics.challenges_declined.increment(t % 2 ? "tooFast" : "noBot");
                metrics.record_event_stream_activity();
            }
        });
    }
    // Rendering while others write must be safe (ASan/UBSan builds check it).
    for (int i = 0; i < 20; ++i) {
        EXPECT_EQ(test_support::prometheus_format_errors(render_prometheus(metrics)),
                  std::vector<std::string>{});
    }
    for (auto& thread : threads) thread.join();

    const std::string text = render_prometheus(metrics);
    const std::string total = std::to_string(kThreads * kPerThread);
    EXPECT_EQ(sample_value(text, "outpost_moves_played_total"), total);
    EXPECT_EQ(sample_value(text, "outpost_move_reaction_latency_seconds_count"), total);
    EXPECT_EQ(sample_value(text, "outpost_games_finished_total{result=\"win\"}"),
              std::to_string(kThreads * kPerThread / 4));
    EXPECT_EQ(metrics.challenges_declined.get("tooFast") + metrics.challenges_declined.get("noBot"),
              static_cast<std::uint64_t>(kThreads * kPerThread));
}

TEST(Metrics, ValidatorRejectsBadText) {
    // The checker itself must catch what it is there to catch.
    EXPECT_FALSE(
        test_support::prometheus_format_errors("outpost_x 1").empty());  // no newline at the end
    EXPECT_FALSE(
        test_support::prometheus_format_errors("# TYPE outpost_x counter\noutpost_x 1\n").empty());
    EXPECT_FALSE(test_support::prometheus_format_errors(
                     "# TYPE outpost_x_total counter\noutpost_x_total one\n")
                     .empty());
    EXPECT_FALSE(
        test_support::prometheus_format_errors("# TYPE outpost_y gauge\noutpost_y{a=\"b} 1\n")
            .empty());
    EXPECT_TRUE(
        test_support::prometheus_format_errors("# HELP outpost_y why\n# TYPE outpost_y gauge\n"
                                               "outpost_y{a=\"b\\\"c\"} 1.5\n")
            .empty());
}

TEST(Metrics, TheEventStreamIsLiveOnlyWhileBytesKeepComing) {
    // /healthz and outpost_event_stream_connected share one rule: connected, and a byte (a
    // keep-alive counts) within kEventStreamLiveFor.
    Metrics m;
    const auto t0 = m.start_time;
    EXPECT_EQ(m.event_stream_problem(t0), std::optional<std::string>("event stream not connected"));
    m.event_stream_connected = true;
    EXPECT_TRUE(m.event_stream_problem(t0).has_value());  // connected, nothing received yet
    m.record_event_stream_activity(t0);
    EXPECT_FALSE(m.event_stream_problem(t0 + std::chrono::seconds(19)).has_value());
    EXPECT_EQ(sample_value(render_prometheus(m, t0 + std::chrono::seconds(19)),
                           "outpost_event_stream_connected"),
              "1");
    const auto stale = m.event_stream_problem(t0 + std::chrono::seconds(25));
    ASSERT_TRUE(stale.has_value());
    EXPECT_NE(stale->find("no byte on the event stream for 25 s"), std::string::npos) << *stale;
    EXPECT_EQ(sample_value(render_prometheus(m, t0 + std::chrono::seconds(25)),
                           "outpost_event_stream_connected"),
              "0");
    m.event_stream_connected = false;
    EXPECT_TRUE(m.event_stream_problem(t0 + std::chrono::seconds(1)).has_value());
}

}  // namespace
}  // namespace service::test
