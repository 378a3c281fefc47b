// Collecting the dashboard's queries (dashboard_queries.hpp).
#include "dashboard_queries.hpp"

#include <fstream>

#include "source_tree.hpp"

namespace deploy_test {

namespace {

std::string text_of(const nlohmann::json& j, const char* key) {
    if (!j.is_object() || !j.contains(key) || !j[key].is_string()) return {};
    return j[key].get<std::string>();
}

// Grafana's `label_values(selector, label)`; a plain PromQL expression otherwise.
PromqlNames variable_names(const std::string& query) {
    constexpr std::string_view kLabelValues = "label_values(";
    if (!query.starts_with(kLabelValues) || !query.ends_with(")")) return promql_names(query);
    const std::string inner =
        query.substr(kLabelValues.size(), query.size() - kLabelValues.size() - 1);
    const std::size_t comma = inner.rfind(',');
    if (comma == std::string::npos) {
        PromqlNames names;
        names.errors.push_back("label_values without a metric: " + query);
        return names;
    }
    PromqlNames names = promql_names(inner.substr(0, comma));
    std::string label = inner.substr(comma + 1);
    label.erase(0, label.find_first_not_of(' '));
    label.erase(label.find_last_not_of(' ') + 1);
    names.labels.insert(label);
    return names;
}

}  // namespace

nlohmann::json load_dashboard() {
    std::ifstream in(kSource / "deploy" / "grafana" / "outpost-dashboard.json");
    return nlohmann::json::parse(in);
}

std::vector<nlohmann::json> dashboard_panels(const nlohmann::json& dashboard) {
    std::vector<nlohmann::json> out;
    if (!dashboard.contains("panels") || !dashboard["panels"].is_array()) return out;
    for (const auto& panel : dashboard["panels"]) {
        out.push_back(panel);
        if (panel.contains("panels") && panel["panels"].is_array()) {
            for (const auto& nested : panel["panels"]) out.push_back(nested);
        }
    }
    return out;
}

std::vector<DashboardQuery> dashboard_queries(const nlohmann::json& dashboard) {
    std::vector<DashboardQuery> out;
    for (const auto& panel : dashboard_panels(dashboard)) {
        if (!panel.contains("targets") || !panel["targets"].is_array()) continue;
        for (const auto& target : panel["targets"]) {
            const std::string expr = text_of(target, "expr");
            out.push_back(
                {"panel '" + text_of(panel, "title") + "' target " + text_of(target, "refId"), expr,
                 promql_names(expr)});
        }
    }
    if (dashboard.contains("templating") && dashboard["templating"].contains("list")) {
        for (const auto& variable : dashboard["templating"]["list"]) {
            if (text_of(variable, "type") != "query") continue;
            const auto& query = variable["query"];
            const std::string expr =
                query.is_string() ? query.get<std::string>() : text_of(query, "query");
            out.push_back({"variable " + text_of(variable, "name"), expr, variable_names(expr)});
        }
    }
    return out;
}

}  // namespace deploy_test
