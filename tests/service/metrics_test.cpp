// Tests of Metrics: histogram buckets, labelled counters, and the Prometheus text rendering.
#include "service/metrics.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace service::test {

namespace {

bool valid_metric_name(std::string_view name) {
    if (name.empty()) return false;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
    }
    return true;
}

bool valid_value(const std::string& text) {
    if (text == "+Inf" || text == "-Inf" || text == "NaN") return true;
    if (text.empty()) return false;
    char* end = nullptr;
    std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size();
}

// Parses `{a="x",b="y"}` starting at text[pos] == '{'; advances pos past '}'. False if malformed.
bool parse_labels(std::string_view text, std::size_t& pos,
                  std::map<std::string, std::string>& out) {
    ++pos;
    while (pos < text.size() && text[pos] != '}') {
        const std::size_t eq = text.find('=', pos);
        if (eq == std::string_view::npos) return false;
        const std::string name(text.substr(pos, eq - pos));
        if (!valid_metric_name(name) || name.find(':') != std::string::npos) return false;
        pos = eq + 1;
        if (pos >= text.size() || text[pos] != '"') return false;
        ++pos;
        std::string value;
        while (pos < text.size() && text[pos] != '"') {
            if (text[pos] == '\\') {
                if (pos + 1 >= text.size()) return false;
                const char e = text[pos + 1];
                if (e != '\\' && e != '"' && e != 'n') return false;
                value += e == 'n' ? '\n' : e;
                pos += 2;
            } else {
                if (text[pos] == '\n') return false;
                value += text[pos++];
            }
        }
        if (pos >= text.size()) return false;
        ++pos;  // closing quote
        if (!out.emplace(name, value).second) return false;
        if (pos < text.size() && text[pos] == ',') ++pos;
    }
    if (pos >= text.size()) return false;
    ++pos;  // '}'
    return true;
}

}  // namespace

// Every problem found checking `text` against the Prometheus text format 0.0.4 (empty: valid).
// Also used by health_server_test.cpp on a /metrics body fetched over HTTP.
std::vector<std::string> prometheus_format_errors(std::string_view text) {
    std::vector<std::string> errors;
    if (text.empty() || text.back() != '\n') errors.push_back("output must end with a newline");
    std::map<std::string, std::string> types;  // family -> type
    std::string family;                        // the last TYPE seen
    std::set<std::string> seen_series;
    std::size_t line_start = 0;
    int line_number = 0;
    while (line_start < text.size()) {
        std::size_t line_end = text.find('\n', line_start);
        if (line_end == std::string_view::npos) line_end = text.size();
        const std::string line(text.substr(line_start, line_end - line_start));
        line_start = line_end + 1;
        ++line_number;
        const std::string where = "line " + std::to_string(line_number) + " '" + line + "': ";
        if (line.empty()) continue;
        if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) {
            std::istringstream in(line.substr(7));
            std::string name, rest;
            in >> name >> rest;
            if (!valid_metric_name(name)) errors.push_back(where + "bad metric name");
            if (!name.starts_with("outpost_")) errors.push_back(where + "missing outpost_ prefix");
            if (rest.empty()) errors.push_back(where + "missing text");
            if (line.starts_with("# TYPE ")) {
                static const std::set<std::string> kTypes{"counter", "gauge", "histogram",
                                                          "summary", "untyped"};
                if (!kTypes.contains(rest)) errors.push_back(where + "unknown type");
                if (!types.emplace(name, rest).second) errors.push_back(where + "second TYPE");
                if (rest == "counter" && !name.ends_with("_total")) {
                    errors.push_back(where + "counter name must end in _total");
                }
                family = name;
            }
            continue;
        }
        if (line.starts_with("#")) continue;  // other comments are allowed

        std::size_t pos = 0;
        while (pos < line.size() && line[pos] != '{' && line[pos] != ' ') ++pos;
        const std::string name = line.substr(0, pos);
        std::map<std::string, std::string> labels;
        if (!valid_metric_name(name)) errors.push_back(where + "bad sample name");
        if (pos < line.size() && line[pos] == '{' && !parse_labels(line, pos, labels)) {
            errors.push_back(where + "bad labels");
            continue;
        }
        if (pos >= line.size() || line[pos] != ' ') {
            errors.push_back(where + "missing value");
            continue;
        }
        const std::string value = line.substr(pos + 1);
        if (!valid_value(value)) errors.push_back(where + "bad value '" + value + "'");

        const std::string type = types.contains(family) ? types[family] : "";
        bool belongs = name == family;
        if (type == "histogram") {
            belongs =
                name == family + "_bucket" || name == family + "_sum" || name == family + "_count";
            if (name == family + "_bucket" && !labels.contains("le")) {
                errors.push_back(where + "bucket without le");
            }
        }
        if (!belongs) errors.push_back(where + "sample outside its TYPE family " + family);
        std::string series = name;
        for (const auto& [k, v] : labels) series += "|" + k + "=" + v;
        if (!seen_series.insert(series).second) errors.push_back(where + "duplicate series");
    }
    return errors;
}

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
    EXPECT_EQ(prometheus_format_errors(text), std::vector<std::string>{}) << text;
    EXPECT_EQ(sample_value(text, "outpost_games_started_total"), "0");
    EXPECT_EQ(sample_value(text, "outpost_games_finished_total{result=\"aborted\"}"), "0");
    EXPECT_EQ(sample_value(text, "outpost_event_stream_connected"), "0");
    EXPECT_EQ(sample_value(text, "outpost_move_reaction_latency_seconds_bucket{le=\"+Inf\"}"), "0");
    EXPECT_EQ(sample_value(text, "outpost_move_reaction_latency_seconds_count"), "0");
    // No activity yet: the family is described but has no sample.
    EXPECT_NE(text.find("# TYPE outpost_event_stream_last_activity_age_seconds gauge"),
              std::string::npos);
    EXPECT_EQ(sample_value(text, "outpost_event_stream_last_activity_age_seconds"), "<absent>");
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

    const std::string text = render_prometheus(metrics);
    EXPECT_EQ(prometheus_format_errors(text), std::vector<std::string>{}) << text;
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
    EXPECT_EQ(prometheus_format_errors(text), std::vector<std::string>{}) << text;
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
    EXPECT_EQ(prometheus_format_errors(text), std::vector<std::string>{}) << text;
    EXPECT_EQ(
        sample_value(text, "outpost_challenges_declined_total{reason=\"we\\\"ird\\\\reason\"}"),
        "1");
    EXPECT_EQ(sample_value(text, "outpost_challenges_declined_total{reason=\"line_break\"}"), "1");
    EXPECT_EQ(sample_value(text, "outpost_challenges_declined_total{reason=\"unknown\"}"), "1");
}

TEST(Metrics, TimesAreRelativeToTheGivenNow) {
    Metrics metrics;
    const auto now = metrics.start_time + std::chrono::seconds(90);
    metrics.record_event_stream_activity(metrics.start_time + std::chrono::milliseconds(87500));
    ASSERT_TRUE(metrics.last_event_stream_activity().has_value());

    const std::string text = render_prometheus(metrics, now);
    EXPECT_EQ(prometheus_format_errors(text), std::vector<std::string>{}) << text;
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
        EXPECT_EQ(prometheus_format_errors(render_prometheus(metrics)), std::vector<std::string>{});
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
    EXPECT_FALSE(prometheus_format_errors("outpost_x 1").empty());  // no newline at the end
    EXPECT_FALSE(prometheus_format_errors("# TYPE outpost_x counter\noutpost_x 1\n").empty());
    EXPECT_FALSE(
        prometheus_format_errors("# TYPE outpost_x_total counter\noutpost_x_total one\n").empty());
    EXPECT_FALSE(prometheus_format_errors("# TYPE outpost_y gauge\noutpost_y{a=\"b} 1\n").empty());
    EXPECT_TRUE(prometheus_format_errors("# HELP outpost_y why\n# TYPE outpost_y gauge\n"
                                         "outpost_y{a=\"b\\\"c\"} 1.5\n")
                    .empty());
}

}  // namespace
}  // namespace service::test
