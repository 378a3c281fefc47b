// The Prometheus queries of the Grafana dashboard (deploy/grafana/outpost-dashboard.json): every
// panel target's expression and every query variable's, with the names each one uses.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "promql_names.hpp"

namespace deploy_test {

struct DashboardQuery {
    std::string where;  // "panel 'Games in progress' target A", "variable instance"
    std::string expr;
    PromqlNames names;
};

// The dashboard file parsed (throws nlohmann::json::parse_error when it is not JSON).
[[nodiscard]] nlohmann::json load_dashboard();

// Rows' nested panels included. A variable's `label_values(selector, label)` (Grafana's, not
// PromQL) counts as the selector plus the label.
[[nodiscard]] std::vector<DashboardQuery> dashboard_queries(const nlohmann::json& dashboard);

// The panels, rows' nested panels included.
[[nodiscard]] std::vector<nlohmann::json> dashboard_panels(const nlohmann::json& dashboard);

}  // namespace deploy_test
