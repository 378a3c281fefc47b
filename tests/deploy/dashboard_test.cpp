// The Grafana dashboard and the compose profile `monitoring`: the dashboard is one Grafana can
// provision, every query names only metrics docs/OPERATIONS.md documents (the live check is
// dashboard_live_test.cpp), and Prometheus and Grafana are wired to the bot and to each other.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dashboard_queries.hpp"
#include "promql_names.hpp"
#include "source_tree.hpp"
#include "tests/support/documented_metrics.hpp"

namespace deploy_test {
namespace {

const std::filesystem::path kDeploy = kSource / "deploy";

std::map<std::string, std::string> documented() {
    return test_support::documented_metrics((kSource / "docs" / "OPERATIONS.md").string());
}

// The documented metric a sample name of a query belongs to (x for x_bucket, x_sum and x_count
// when x is a histogram), or empty.
std::string documented_family(const std::string& name,
                              const std::map<std::string, std::string>& docs) {
    if (docs.contains(name)) return name;
    for (std::string_view suffix : {"_bucket", "_sum", "_count"}) {
        if (!name.ends_with(suffix)) continue;
        const std::string base = name.substr(0, name.size() - suffix.size());
        auto it = docs.find(base);
        if (it != docs.end() && it->second == "histogram") return base;
    }
    return {};
}

std::string datasource_uid(const nlohmann::json& j) {
    if (!j.contains("datasource") || !j["datasource"].is_object()) return {};
    return j["datasource"].value("uid", "");
}

YAML::Node compose() { return YAML::LoadFile((kDeploy / "docker-compose.yml").string()); }

// The port of health.listen in the example config (the default the compose file relies on).
std::string default_health_port() {
    const std::string listen =
        YAML::LoadFile((kSource / "config" / "config.example.yml").string())["health"]["listen"]
            .as<std::string>();
    return listen.substr(listen.rfind(':') + 1);
}

TEST(PromqlNames, ReadsSelectorsFunctionsAndGroupingLabels) {
    const PromqlNames q = promql_names(
        "histogram_quantile(0.99, sum by (le) (rate(outpost_x_seconds_bucket{instance=~"
        "\"$instance\"}[$__rate_interval])))");
    EXPECT_EQ(q.errors, std::vector<std::string>{});
    EXPECT_EQ(q.metrics, std::set<std::string>{"outpost_x_seconds_bucket"});
    EXPECT_EQ(q.labels, (std::set<std::string>{"le", "instance"}));
    EXPECT_EQ(q.functions, (std::set<std::string>{"histogram_quantile", "sum", "rate"}));
    EXPECT_TRUE(q.equal_matchers.empty());

    const PromqlNames join = promql_names(
        "sum by(source, result) (rate(outpost_a_total{result=\"hit\", source != 'cloud'}[5m])) "
        "* 60 / on (instance) group_left outpost_b offset 1h30m > bool 1e-3");
    EXPECT_EQ(join.errors, std::vector<std::string>{});
    EXPECT_EQ(join.metrics, (std::set<std::string>{"outpost_a_total", "outpost_b"}));
    EXPECT_EQ(join.labels, (std::set<std::string>{"source", "result", "instance"}));
    EXPECT_EQ(join.equal_matchers,
              (std::vector<EqualMatcher>{{"outpost_a_total", "result", "hit"}}));

    // Strings are not names; a Grafana variable is skipped wherever it stands.
    const PromqlNames strings =
        promql_names("label_replace(outpost_c, \"dst\", \"$1\", \"src\", \"(.*)\") * ${factor}");
    EXPECT_EQ(strings.errors, std::vector<std::string>{});
    EXPECT_EQ(strings.metrics, std::set<std::string>{"outpost_c"});
}

TEST(PromqlNames, ReportsWhatItCannotRead) {
    EXPECT_EQ(promql_names("rat(outpost_a_total[5m])").errors.size(), 1U) << "unknown function";
    EXPECT_EQ(promql_names("{__name__=\"outpost_a\"}").errors.size(), 1U) << "no metric name";
    EXPECT_FALSE(promql_names("outpost_a{x=\"y\"").errors.empty()) << "unclosed matchers";
    EXPECT_FALSE(promql_names("outpost_a{x=y}").errors.empty()) << "unquoted value";
    EXPECT_FALSE(promql_names("sum by (le outpost_a").errors.empty()) << "unclosed list";
    EXPECT_TRUE(is_promql_function("histogram_quantile"));
    EXPECT_TRUE(is_promql_function("topk"));
    EXPECT_FALSE(is_promql_function("outpost_games_active"));
}

TEST(Dashboard, IsOneGrafanaCanProvision) {
    const nlohmann::json d = load_dashboard();
    EXPECT_EQ(d.value("uid", ""), "outpost");
    EXPECT_FALSE(d.value("title", "").empty());
    EXPECT_GE(d.value("schemaVersion", 0), 36) << "Grafana 9 or later";
    const std::vector<nlohmann::json> panels = dashboard_panels(d);
    ASSERT_GE(panels.size(), 10U);

    // The datasource is a variable whose default is the provisioned Prometheus.
    const YAML::Node provisioned = YAML::LoadFile(
        (kDeploy / "grafana" / "provisioning" / "datasources" / "outpost.yml").string());
    const std::string uid = provisioned["datasources"][0]["uid"].as<std::string>();
    bool has_datasource_variable = false;
    for (const auto& v : d["templating"]["list"]) {
        if (v.value("type", "") != "datasource") continue;
        has_datasource_variable = true;
        EXPECT_EQ(v.value("name", ""), "datasource");
        EXPECT_EQ(v.value("query", ""), "prometheus");
        EXPECT_EQ(v["current"].value("value", ""), uid);
    }
    EXPECT_TRUE(has_datasource_variable);

    std::set<int> ids;
    struct Box {
        std::string title;
        int x, y, w, h;
    };
    std::vector<Box> boxes;
    for (const auto& p : panels) {
        const std::string title = p.value("title", "");
        EXPECT_FALSE(title.empty()) << p.dump();
        EXPECT_TRUE(ids.insert(p.value("id", 0)).second) << "id repeated: " << title;
        const auto& g = p["gridPos"];
        const Box box{title, g.value("x", -1), g.value("y", -1), g.value("w", 0), g.value("h", 0)};
        EXPECT_TRUE(box.x >= 0 && box.y >= 0 && box.w > 0 && box.h > 0 && box.x + box.w <= 24)
            << title << ": " << g.dump();
        for (const Box& other : boxes) {
            const bool apart = box.x >= other.x + other.w || other.x >= box.x + box.w ||
                               box.y >= other.y + other.h || other.y >= box.y + box.h;
            EXPECT_TRUE(apart) << "'" << title << "' overlaps '" << other.title << "'";
        }
        boxes.push_back(box);
        if (p.value("type", "") == "row") continue;
        EXPECT_EQ(datasource_uid(p), "${datasource}") << title;
        ASSERT_TRUE(p.contains("targets") && p["targets"].is_array() && !p["targets"].empty())
            << title;
        std::set<std::string> refs;
        for (const auto& t : p["targets"]) {
            EXPECT_TRUE(refs.insert(t.value("refId", "")).second) << title << ": refId repeated";
            EXPECT_FALSE(t.value("expr", "").empty()) << title;
            EXPECT_EQ(datasource_uid(t), "${datasource}") << title;
        }
    }
}

TEST(Dashboard, EveryQueryNamesOnlyDocumentedMetrics) {
    const auto docs = documented();
    ASSERT_FALSE(docs.empty()) << "docs/OPERATIONS.md";
    const std::vector<DashboardQuery> queries = dashboard_queries(load_dashboard());
    ASSERT_GE(queries.size(), 15U);
    for (const DashboardQuery& q : queries) {
        EXPECT_EQ(q.names.errors, std::vector<std::string>{}) << q.where;
        EXPECT_FALSE(q.names.metrics.empty()) << q.where << ": " << q.expr;
        for (const std::string& metric : q.names.metrics) {
            EXPECT_FALSE(documented_family(metric, docs).empty())
                << q.where << " names " << metric
                << ", which docs/OPERATIONS.md does not list (a histogram is queried as "
                   "_bucket, _sum or _count)";
        }
    }
}

// The issue an operator has with a bot left running: what it is doing, how it does, what it
// refuses and why, whether its online sources answer, whether records get lost.
TEST(Dashboard, ShowsGamesMovesChallengesSourcesLostRecordsAndMemory) {
    const auto docs = documented();
    std::set<std::string> used;
    for (const DashboardQuery& q : dashboard_queries(load_dashboard())) {
        for (const std::string& metric : q.names.metrics)
            used.insert(documented_family(metric, docs));
    }
    for (const char* wanted :
         {"outpost_games_active", "outpost_games_finished_total",
          "outpost_move_reaction_latency_seconds", "outpost_move_think_time_seconds",
          "outpost_challenges_accepted_total", "outpost_challenges_declined_total",
          "outpost_online_requests_total", "outpost_online_source_paused",
          "outpost_pgn_write_errors_total", "outpost_event_stream_connected",
          "outpost_http_errors_total", "outpost_move_clock_left_seconds",
          "outpost_online_source_pauses_total", "outpost_process_resident_memory_bytes"}) {
        EXPECT_TRUE(used.contains(wanted)) << "no panel shows " << wanted;
    }
}

TEST(Monitoring, ComposeProfileStartsPrometheusAndGrafanaFromOfficialImages) {
    const YAML::Node services = compose()["services"];
    EXPECT_FALSE(services["outpost"]["profiles"]) << "the bot starts without a profile";
    const std::map<std::string, std::string> image_of{{"prometheus", "prom/prometheus:"},
                                                      {"grafana", "grafana/grafana-oss:"}};
    for (const auto& [name, repository] : image_of) {
        const YAML::Node svc = services[name];
        ASSERT_TRUE(svc.IsMap()) << name;
        std::set<std::string> profiles;
        for (const auto& p : svc["profiles"]) profiles.insert(p.as<std::string>());
        EXPECT_EQ(profiles, std::set<std::string>{"monitoring"}) << name;
        const std::string image = svc["image"].as<std::string>();
        EXPECT_TRUE(image.starts_with(repository)) << name << ": " << image;
        const std::string tag = image.substr(image.find(':') + 1);
        EXPECT_TRUE(tag != "latest" && tag.find_first_of("0123456789") != std::string::npos)
            << name << " pins a version: " << image;
        EXPECT_EQ(svc["restart"].as<std::string>(), "unless-stopped") << name;
        for (const auto& v : svc["volumes"]) {
            const std::string volume = v.as<std::string>();
            if (!volume.starts_with("./")) continue;  // a named volume
            const std::string source = volume.substr(2, volume.find(':') - 2);
            EXPECT_TRUE(std::filesystem::exists(kDeploy / source)) << name << " mounts " << volume;
        }
    }
    // Grafana on this machine only; Prometheus not published at all.
    ASSERT_TRUE(services["grafana"]["ports"].IsSequence());
    for (const auto& port : services["grafana"]["ports"])
        EXPECT_TRUE(port.as<std::string>().starts_with("127.0.0.1:")) << port.as<std::string>();
    EXPECT_FALSE(services["prometheus"]["ports"]);
}

TEST(Monitoring, PrometheusScrapesTheBotAndGrafanaReadsPrometheusAndTheDashboard) {
    const YAML::Node services = compose()["services"];
    const YAML::Node prometheus =
        YAML::LoadFile((kDeploy / "prometheus" / "prometheus.yml").string());
    std::set<std::string> targets;
    for (const auto& job : prometheus["scrape_configs"]) {
        EXPECT_EQ(job["metrics_path"].as<std::string>("/metrics"), "/metrics");
        for (const auto& sc : job["static_configs"])
            for (const auto& t : sc["targets"]) targets.insert(t.as<std::string>());
    }
    EXPECT_TRUE(targets.contains("outpost:" + default_health_port()))
        << "the bot's service name and health.listen's port";
    EXPECT_TRUE(services["outpost"].IsMap());
    std::set<std::string> prometheus_mounts;
    for (const auto& v : services["prometheus"]["volumes"])
        prometheus_mounts.insert(v.as<std::string>());
    EXPECT_TRUE(prometheus_mounts.contains(
        "./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro"));

    const YAML::Node datasource =
        YAML::LoadFile((kDeploy / "grafana" / "provisioning" / "datasources" / "outpost.yml")
                           .string())["datasources"][0];
    EXPECT_EQ(datasource["type"].as<std::string>(), "prometheus");
    EXPECT_EQ(datasource["url"].as<std::string>(), "http://prometheus:9090");

    // The provider reads the folder the compose file mounts the dashboard into.
    const YAML::Node provider =
        YAML::LoadFile((kDeploy / "grafana" / "provisioning" / "dashboards" / "outpost.yml")
                           .string())["providers"][0];
    EXPECT_EQ(provider["type"].as<std::string>(), "file");
    const std::string folder = provider["options"]["path"].as<std::string>();
    std::set<std::string> grafana_mounts;
    for (const auto& v : services["grafana"]["volumes"]) grafana_mounts.insert(v.as<std::string>());
    EXPECT_TRUE(grafana_mounts.contains("./grafana/outpost-dashboard.json:" + folder +
                                        "/outpost-dashboard.json:ro"))
        << folder;
    for (const char* kind : {"datasources", "dashboards"}) {
        EXPECT_TRUE(grafana_mounts.contains(std::string("./grafana/provisioning/") + kind +
                                            ":/etc/grafana/provisioning/" + kind + ":ro"))
            << kind;
    }
}

}  // namespace
}  // namespace deploy_test
