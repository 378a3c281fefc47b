// The names a PromQL expression uses (metrics, labels, functions), read the way Prometheus's
// lexer splits it, so that a dashboard's queries can be held to the metrics the bot exports.
// Grafana's variables ($instance, ${datasource}, $__rate_interval) are skipped where they stand.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace deploy_test {

// One `metric{label="value"}` matcher with `=` (the others are regular expressions or negations).
struct EqualMatcher {
    std::string metric;
    std::string label;
    std::string value;
    auto operator<=>(const EqualMatcher&) const = default;
};

struct PromqlNames {
    std::set<std::string> metrics;    // metric names of the selectors
    std::set<std::string> labels;     // label names in matchers and by/without/on/ignoring lists
    std::set<std::string> functions;  // functions and aggregations called
    std::vector<EqualMatcher> equal_matchers;
    std::vector<std::string> errors;  // what the reader could not make sense of
};

[[nodiscard]] PromqlNames promql_names(std::string_view expr);

// Whether `name` is a PromQL function or aggregation operator (Prometheus 2.x).
[[nodiscard]] bool is_promql_function(std::string_view name);

}  // namespace deploy_test
