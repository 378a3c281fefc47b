// The Prometheus text exposition format read back as Prometheus reads it, for the tests that
// check /metrics (the rendering, the live endpoint, the Grafana dashboard's queries).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace test_support {

// A reader of the Prometheus text exposition format 0.0.4 that applies the rules Prometheus's
// own parser (expfmt's TextParser) applies: metric and label names, HELP escapes (\\ and \n
// only), one HELP and one TYPE per family before its samples, each family's lines together,
// label escapes (\\, \" and \n only), no repeated label, values Go's ParseFloat accepts, and
// for histograms a `le` on every _bucket (a float), +Inf present, buckets cumulative and the
// +Inf bucket equal to _count, and a _sum. Ours also wants counters named *_total, >= 0.
struct Sample {
    std::string name;  // as written, e.g. outpost_x_bucket
    std::map<std::string, std::string> labels;
    double value = 0;
};
struct Family {
    std::string type;  // "untyped" when there was no TYPE line
    std::optional<std::string> help;
    std::vector<Sample> samples;
};
struct Exposition {
    std::map<std::string, Family> families;
    std::vector<std::string> errors;  // empty: Prometheus would take it
};

// `text` parsed; errors lists every rule it breaks.
[[nodiscard]] Exposition parse_prometheus(std::string_view text);

// Every problem found checking `text` as Prometheus reads it (empty: valid).
[[nodiscard]] std::vector<std::string> prometheus_format_errors(std::string_view text);

// The family a sample name belongs to: `x` for `x_bucket`, `x_sum` and `x_count` when `x` is a
// histogram or summary among `families`, else the name itself.
[[nodiscard]] std::string family_of(const std::string& name,
                                    const std::map<std::string, Family>& families);

}  // namespace test_support
