// deploy/: the Kubernetes manifests, the Compose file and the systemd unit parse and carry what
// an operator relies on (one replica, probes on /healthz, token from a Secret, non-root, grace
// periods longer than shutdown_grace_s, memory sized from the hash).
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "config/load.hpp"
#include "source_tree.hpp"

namespace {

namespace fs = std::filesystem;
const fs::path kKube = deploy_test::kSource / "deploy" / "kubernetes";

// Every document of every YAML file under deploy/kubernetes, by kind.
std::map<std::string, YAML::Node> kube_objects() {
    std::map<std::string, YAML::Node> by_kind;
    for (const auto& entry : fs::directory_iterator(kKube)) {
        if (entry.path().extension() != ".yaml" || entry.path().filename() == "kustomization.yaml")
            continue;
        for (const YAML::Node& doc : YAML::LoadAllFromFile(entry.path().string())) {
            if (!doc.IsMap()) continue;
            by_kind[doc["kind"].as<std::string>()] = doc;
        }
    }
    return by_kind;
}

// Mebibytes in a Kubernetes quantity ("128Mi", "1Gi").
long long mebibytes(const std::string& quantity) {
    const long long n = std::stoll(quantity);
    if (quantity.ends_with("Gi")) return n * 1024;
    if (quantity.ends_with("Mi")) return n;
    ADD_FAILURE() << "use Mi or Gi: " << quantity;
    return 0;
}

// The default shutdown_grace_s: the example config's value.
int default_grace_s() {
    return YAML::LoadFile((deploy_test::kSource / "config" / "config.example.yml")
                              .string())["shutdown_grace_s"]
        .as<int>();
}

// The config.yml inside the ConfigMap, loaded the way `outpost run` loads it.
config::Config configmap_config(const YAML::Node& configmap) {
    const std::string text = configmap["data"]["config.yml"].as<std::string>();
    config::LoadOptions options;
    options.env = [](const std::string& name) -> std::optional<std::string> {
        if (name == config::kTokenEnvVar) return "lip_from_the_secret";
        return std::nullopt;
    };
    config::LoadResult r = config::load_string(text, "configmap config.yml", options);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : config::format_error(r.errors.front(), r.source_name));
    for (const auto& w : r.warnings)  // the only expected warning: a non-loopback health.listen
        EXPECT_EQ(w.key_path, "health.listen") << config::format_error(w, r.source_name);
    return r.config.value_or(config::Config{});
}

TEST(Kubernetes, EveryFileParsesAndKustomizationListsThemAll) {
    YAML::Node kustomization = YAML::LoadFile((kKube / "kustomization.yaml").string());
    EXPECT_EQ(kustomization["kind"].as<std::string>(), "Kustomization");
    std::set<std::string> listed;
    for (const auto& r : kustomization["resources"]) listed.insert(r.as<std::string>());
    std::set<std::string> present;
    for (const auto& entry : fs::directory_iterator(kKube)) {
        const std::string name = entry.path().filename().string();
        if (entry.path().extension() != ".yaml" || name == "kustomization.yaml") continue;
        present.insert(name);
        for (const YAML::Node& doc : YAML::LoadAllFromFile(entry.path().string())) {
            EXPECT_TRUE(doc["apiVersion"].IsScalar()) << name;
            EXPECT_TRUE(doc["kind"].IsScalar()) << name;
            EXPECT_TRUE(doc["metadata"]["name"].IsScalar()) << name;
        }
    }
    EXPECT_EQ(listed, present);
    for (const std::string kind : {"Deployment", "ConfigMap"})
        EXPECT_TRUE(kube_objects().contains(kind)) << kind;
    // kustomize's image override must match the Deployment's image name.
    EXPECT_EQ(kustomization["images"][0]["name"].as<std::string>(),
              kube_objects()["Deployment"]["spec"]["template"]["spec"]["containers"][0]["image"]
                  .as<std::string>());
}

TEST(Kubernetes, OneReplicaRecreatedSoOneEventStreamPerToken) {
    YAML::Node spec = kube_objects()["Deployment"]["spec"];
    EXPECT_EQ(spec["replicas"].as<int>(), 1);
    EXPECT_EQ(spec["strategy"]["type"].as<std::string>(), "Recreate");
    for (auto it = spec["selector"]["matchLabels"].begin();
         it != spec["selector"]["matchLabels"].end(); ++it) {
        EXPECT_EQ(spec["template"]["metadata"]["labels"][it->first.Scalar()].as<std::string>(),
                  it->second.Scalar());
    }
}

TEST(Kubernetes, ConfigMapIsAValidConfigListeningForTheProbes) {
    auto objects = kube_objects();
    config::Config cfg = configmap_config(objects["ConfigMap"]);
    EXPECT_TRUE(cfg.health.listen.starts_with("0.0.0.0:")) << cfg.health.listen;
    EXPECT_TRUE(cfg.token.empty() || cfg.token == "lip_from_the_secret");

    YAML::Node pod = objects["Deployment"]["spec"]["template"]["spec"];
    YAML::Node container = pod["containers"][0];
    const int port = std::stoi(cfg.health.listen.substr(cfg.health.listen.rfind(':') + 1));
    std::map<std::string, int> ports;
    for (const auto& p : container["ports"])
        ports[p["name"].as<std::string>("")] = p["containerPort"].as<int>();
    for (const std::string probe : {"livenessProbe", "readinessProbe"}) {
        YAML::Node get = container[probe]["httpGet"];
        ASSERT_TRUE(get.IsMap()) << probe;
        EXPECT_EQ(get["path"].as<std::string>(), "/healthz") << probe;
        const std::string p = get["port"].as<std::string>();
        const int probed = ports.contains(p) ? ports[p] : std::stoi(p);
        EXPECT_EQ(probed, port) << probe << " must reach health.listen";
    }
    // Liveness gives the daemon's own reconnects time before a restart.
    EXPECT_GE(container["livenessProbe"]["periodSeconds"].as<int>() *
                  container["livenessProbe"]["failureThreshold"].as<int>(),
              120);

    // The config file and the PGN folder are where the config says.
    std::map<std::string, std::string> mounts;
    for (const auto& m : container["volumeMounts"])
        mounts[m["name"].as<std::string>()] = m["mountPath"].as<std::string>();
    std::map<std::string, YAML::Node> volumes;
    for (const auto& v : pod["volumes"])
        volumes[v["name"].as<std::string>()] = static_cast<const YAML::Node&>(v);
    EXPECT_EQ(container["args"].as<std::vector<std::string>>(),
              (std::vector<std::string>{"run", "--config", "/config/config.yml"}));
    ASSERT_TRUE(mounts.contains("config"));
    EXPECT_EQ(mounts["config"], "/config");
    EXPECT_EQ(volumes["config"]["configMap"]["name"].as<std::string>(),
              objects["ConfigMap"]["metadata"]["name"].as<std::string>());
    bool pgn_mounted = false;
    for (const auto& [name, path] : mounts) {
        if (path != cfg.pgn_directory) continue;
        pgn_mounted = true;
        YAML::Node v = volumes[name];
        EXPECT_TRUE(v["emptyDir"] || v["persistentVolumeClaim"]) << name;
        if (v["persistentVolumeClaim"]) {
            ASSERT_TRUE(objects.contains("PersistentVolumeClaim"));
            EXPECT_EQ(v["persistentVolumeClaim"]["claimName"].as<std::string>(),
                      objects["PersistentVolumeClaim"]["metadata"]["name"].as<std::string>());
        }
    }
    EXPECT_TRUE(pgn_mounted) << "no volume mounted at pgn_directory " << cfg.pgn_directory;

    // Memory: at least hash_mb x concurrency + 64 Mi; the grace period outlasts the games'.
    const long long need =
        static_cast<long long>(cfg.engine.hash_mb) * cfg.challenge.concurrency + 64;
    const long long requested =
        mebibytes(container["resources"]["requests"]["memory"].as<std::string>());
    EXPECT_GE(requested, need);
    EXPECT_GE(mebibytes(container["resources"]["limits"]["memory"].as<std::string>()), requested);
    EXPECT_GT(pod["terminationGracePeriodSeconds"].as<int>(), cfg.shutdown_grace_s);
}

// The words of the README's `kubectl create secret generic` commands, in ```sh blocks.
std::vector<std::vector<std::string>> readme_secret_commands() {
    std::vector<std::vector<std::string>> commands;
    std::istringstream lines(deploy_test::read_text(deploy_test::kSource / "README.md"));
    bool in_block = false;
    for (std::string line; std::getline(lines, line);) {
        if (line.starts_with("```")) {
            in_block = line == "```sh";
            continue;
        }
        if (!in_block || !line.starts_with("kubectl create secret generic ")) continue;
        std::istringstream in(line);
        std::vector<std::string> words;
        for (std::string w; in >> w;) words.push_back(w);
        commands.push_back(words);
    }
    return commands;
}

TEST(Kubernetes, TokenComesFromASecretTheOperatorCreatesNotFromATrackedFile) {
    auto objects = kube_objects();
    EXPECT_FALSE(objects.contains("Secret")) << "no manifest may hold the token";
    for (const auto& entry : fs::directory_iterator(kKube)) {
        const std::string text = deploy_test::read_text(entry.path());
        EXPECT_EQ(text.find("stringData"), std::string::npos) << entry.path();
        EXPECT_EQ(text.find("lip_"), std::string::npos) << entry.path();
    }
    YAML::Node container = objects["Deployment"]["spec"]["template"]["spec"]["containers"][0];
    std::string name;
    std::string key;
    for (const auto& env : container["env"]) {
        if (env["name"].as<std::string>() != "LICHESS_BOT_TOKEN") continue;
        YAML::Node ref = env["valueFrom"]["secretKeyRef"];
        name = ref["name"].as<std::string>();
        key = ref["key"].as<std::string>();
        EXPECT_FALSE(env["value"]) << "the token must not be written in the Deployment";
    }
    ASSERT_FALSE(name.empty());
    // The README creates exactly that Secret and key, from a file.
    const auto commands = readme_secret_commands();
    ASSERT_FALSE(commands.empty());
    bool from_file = false;
    for (const auto& words : commands) {
        ASSERT_GE(words.size(), 6u);
        EXPECT_EQ(words[4], name);
        const std::string flag = words[5];
        EXPECT_TRUE(flag.starts_with("--from-file=" + key + "=") ||
                    flag.starts_with("--from-literal=" + key + "="))
            << flag;
        from_file = from_file || flag.starts_with("--from-file=" + key + "=");
    }
    EXPECT_TRUE(from_file);
}

TEST(Kubernetes, NonRootReadOnlyNoPrivileges) {
    YAML::Node pod = kube_objects()["Deployment"]["spec"]["template"]["spec"];
    EXPECT_TRUE(pod["securityContext"]["runAsNonRoot"].as<bool>());
    EXPECT_EQ(pod["securityContext"]["runAsUser"].as<int>(), 10001);  // the image's USER
    YAML::Node sc = pod["containers"][0]["securityContext"];
    EXPECT_TRUE(sc["readOnlyRootFilesystem"].as<bool>());
    EXPECT_FALSE(sc["allowPrivilegeEscalation"].as<bool>());
    EXPECT_EQ(sc["capabilities"]["drop"][0].as<std::string>(), "ALL");
}

// Whether `file` lies inside `folder` (both absolute, plain paths).
bool inside(const std::string& file, const std::string& folder) {
    const fs::path rel =
        fs::path(file).lexically_normal().lexically_relative(fs::path(folder).lexically_normal());
    return !rel.empty() && *rel.begin() != "..";
}

// The matchmaker's memory by default (declined_bots_file ""): on the one volume each layout
// lets the daemon write, since the root file system is read-only there (a save on it fails).
TEST(Layouts, TheDefaultDeclinedBotsFileLandsOnAWritableVolume) {
    auto objects = kube_objects();
    const config::Config kube = configmap_config(objects["ConfigMap"]);
    ASSERT_FALSE(kube.matchmaking.declined_bots_file.empty());
    std::vector<std::string> writable;
    for (const auto& mount :
         objects["Deployment"]["spec"]["template"]["spec"]["containers"][0]["volumeMounts"])
        if (!mount["readOnly"].as<bool>(false))
            writable.push_back(mount["mountPath"].as<std::string>());
    EXPECT_TRUE(std::any_of(writable.begin(), writable.end(), [&](const std::string& m) {
        return inside(kube.matchmaking.declined_bots_file, m);
    })) << kube.matchmaking.declined_bots_file;

    // Compose: the example config with the pgn_directory its comment asks for.
    YAML::Node svc = YAML::LoadFile(
        (deploy_test::kSource / "deploy" / "docker-compose.yml").string())["services"]["outpost"];
    ASSERT_TRUE(svc["read_only"].as<bool>());
    config::LoadOptions options;
    options.env = [](const std::string& name) -> std::optional<std::string> {
        if (name == config::kTokenEnvVar) return "lip_from_the_env_file";
        return std::nullopt;
    };
    std::string example =
        deploy_test::read_text(deploy_test::kSource / "config" / "config.example.yml");
    const std::string unset = "\npgn_directory: \"\"";
    const auto at = example.find(unset);
    ASSERT_NE(at, std::string::npos);
    example.replace(at, unset.size(), "\npgn_directory: \"/data/pgn\"");
    config::LoadResult compose = config::load_string(example, "config.yml", options);
    ASSERT_TRUE(compose.ok()) << config::format_error(compose.errors.front(), "config.yml");
    bool on_volume = false;
    for (const auto& v : svc["volumes"]) {
        const std::string spec = v.as<std::string>();
        const auto colon = spec.find(':');
        const std::string target = spec.substr(colon + 1, spec.find(':', colon + 1) - colon - 1);
        if (!spec.ends_with(":ro") &&
            inside(compose.config->matchmaking.declined_bots_file, target))
            on_volume = true;
    }
    EXPECT_TRUE(on_volume) << compose.config->matchmaking.declined_bots_file;
}

TEST(Kubernetes, NetworkPolicyLetsInOnlyTheHealthPortAndOutOnlyDnsAndHttps) {
    auto objects = kube_objects();
    ASSERT_TRUE(objects.contains("NetworkPolicy"));
    YAML::Node spec = objects["NetworkPolicy"]["spec"];
    // It selects the Deployment's pods.
    YAML::Node pod_labels = objects["Deployment"]["spec"]["template"]["metadata"]["labels"];
    ASSERT_TRUE(spec["podSelector"]["matchLabels"].IsMap());
    for (auto it = spec["podSelector"]["matchLabels"].begin();
         it != spec["podSelector"]["matchLabels"].end(); ++it)
        EXPECT_EQ(pod_labels[it->first.Scalar()].as<std::string>(), it->second.Scalar());
    std::set<std::string> types;
    for (const auto& t : spec["policyTypes"]) types.insert(t.as<std::string>());
    EXPECT_EQ(types, (std::set<std::string>{"Ingress", "Egress"}));

    // Every rule names its ports (a rule without ports would allow every port).
    auto ports_of = [](const YAML::Node& rules) {
        std::set<std::string> ports;
        for (const auto& rule : rules) {
            EXPECT_TRUE(rule["ports"].IsSequence()) << YAML::Dump(rule);
            for (const auto& p : rule["ports"])
                ports.insert(p["protocol"].as<std::string>("TCP") + "/" +
                             p["port"].as<std::string>());
        }
        return ports;
    };
    // In: only the container's health port, which is where health.listen listens.
    std::string health_port;
    for (const auto& p :
         objects["Deployment"]["spec"]["template"]["spec"]["containers"][0]["ports"])
        if (p["name"].as<std::string>() == "health")
            health_port = p["containerPort"].as<std::string>();
    ASSERT_FALSE(health_port.empty());
    EXPECT_EQ(ports_of(spec["ingress"]), (std::set<std::string>{"TCP/" + health_port}));
    const config::Config cfg = configmap_config(objects["ConfigMap"]);
    EXPECT_TRUE(cfg.health.listen.ends_with(":" + health_port)) << cfg.health.listen;
    // Out: DNS and HTTPS only.
    EXPECT_EQ(ports_of(spec["egress"]), (std::set<std::string>{"UDP/53", "TCP/53", "TCP/443"}));
    EXPECT_TRUE(cfg.url.starts_with("https://")) << cfg.url;
}

TEST(Compose, LimitsProcessesAndRestartsLikeTheUnit) {
    YAML::Node svc = YAML::LoadFile(
        (deploy_test::kSource / "deploy" / "docker-compose.yml").string())["services"]["outpost"];
    ASSERT_TRUE(svc["pids_limit"].IsScalar());
    EXPECT_GE(svc["pids_limit"].as<int>(), 64);
    EXPECT_EQ(svc["restart"].as<std::string>(), "unless-stopped");
    EXPECT_TRUE(svc["read_only"].as<bool>());
    std::set<std::string> dropped;
    for (const auto& c : svc["cap_drop"]) dropped.insert(c.as<std::string>());
    EXPECT_TRUE(dropped.contains("ALL"));
}

TEST(Compose, RunsTheImageWithMountedConfigAndEnvToken) {
    YAML::Node svc = YAML::LoadFile(
        (deploy_test::kSource / "deploy" / "docker-compose.yml").string())["services"]["outpost"];
    ASSERT_TRUE(svc.IsMap());
    EXPECT_TRUE(svc["image"].IsScalar());
    EXPECT_EQ(svc["restart"].as<std::string>(), "unless-stopped");
    EXPECT_TRUE(svc["mem_limit"].IsScalar());
    EXPECT_TRUE(svc["env_file"].IsSequence());
    std::set<std::string> volumes;
    for (const auto& v : svc["volumes"]) volumes.insert(v.as<std::string>());
    EXPECT_TRUE(volumes.contains("./config:/config:ro")) << "config folder mounted read-only";
    EXPECT_TRUE(volumes.contains("./pgn:/data/pgn"));
    const std::string test = YAML::Dump(svc["healthcheck"]["test"]);
    EXPECT_NE(test.find("healthcheck"), std::string::npos);
    EXPECT_NE(test.find("/healthz"), std::string::npos);
    // stop_grace_period "330s" must outlast shutdown_grace_s.
    EXPECT_GT(std::stoi(svc["stop_grace_period"].as<std::string>()), default_grace_s());
    // The env file example sets the token variable.
    EXPECT_NE(deploy_test::read_text(deploy_test::kSource / "deploy" / "outpost.env.example")
                  .find("\nLICHESS_BOT_TOKEN="),
              std::string::npos);
}

TEST(Systemd, UnitIsHardenedAndStopsGracefully) {
    std::map<std::string, std::string> keys;
    std::istringstream in(
        deploy_test::read_text(deploy_test::kSource / "deploy" / "outpost.service"));
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#' || line[0] == '[') continue;
        const auto eq = line.find('=');
        if (eq != std::string::npos) keys[line.substr(0, eq)] = line.substr(eq + 1);
    }
    const std::map<std::string, std::string> required = {
        {"User", "outpost"},
        {"Restart", "on-failure"},
        {"NoNewPrivileges", "yes"},
        {"ProtectSystem", "strict"},
        {"ProtectHome", "yes"},
        {"PrivateTmp", "yes"},
        {"KillSignal", "SIGTERM"},
        {"ReadWritePaths", "/var/lib/outpost"},
        {"EnvironmentFile", "/etc/outpost/outpost.env"},
        {"ExecStart", "/usr/local/bin/outpost run --config /etc/outpost/config.yml"},
    };
    for (const auto& [key, value] : required) EXPECT_EQ(keys[key], value) << key;
    ASSERT_TRUE(keys.contains("TimeoutStopSec"));
    EXPECT_GT(std::stoi(keys["TimeoutStopSec"]), default_grace_s());
    // The user the unit runs as is the one sysusers.d creates.
    EXPECT_NE(deploy_test::read_text(deploy_test::kSource / "deploy" / "outpost.sysusers.conf")
                  .find("\nu outpost "),
              std::string::npos);
}

// Every `Key=value` line of the unit, in order (a key may repeat, like SystemCallFilter).
std::vector<std::pair<std::string, std::string>> unit_lines() {
    std::vector<std::pair<std::string, std::string>> lines;
    std::istringstream in(
        deploy_test::read_text(deploy_test::kSource / "deploy" / "outpost.service"));
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#' || line[0] == '[') continue;
        const auto eq = line.find('=');
        if (eq != std::string::npos) lines.emplace_back(line.substr(0, eq), line.substr(eq + 1));
    }
    return lines;
}

TEST(Systemd, UnitIsHardenedAndBounded) {
    std::map<std::string, std::string> last;
    std::vector<std::string> filters;
    for (const auto& [key, value] : unit_lines()) {
        last[key] = value;
        if (key == "SystemCallFilter") filters.push_back(value);
    }
    ASSERT_FALSE(filters.empty());
    EXPECT_EQ(filters.front(), "@system-service");  // an allow list first, then exceptions
    for (std::size_t i = 1; i < filters.size(); ++i) EXPECT_TRUE(filters[i].starts_with("~"));
    EXPECT_EQ(last["ProtectProc"], "invisible");
    EXPECT_EQ(last["LimitCORE"], "0");
    EXPECT_EQ(last["NoNewPrivileges"], "yes");
    // MemoryMax in M or G, at least the default hash (64 MB) plus the 64 MB the rest needs.
    const std::string memory = last["MemoryMax"];
    ASSERT_FALSE(memory.empty());
    const long long mb = std::stoll(memory) * (memory.ends_with("G") ? 1024 : 1);
    EXPECT_TRUE(memory.ends_with("M") || memory.ends_with("G")) << memory;
    EXPECT_GE(mb, 128);
    ASSERT_FALSE(last["TasksMax"].empty());
    EXPECT_GE(std::stoi(last["TasksMax"]), 64);  // 5 + 2 per game + engine threads
    // SIGHUP reopens the log file: `systemctl reload` sends it.
    EXPECT_NE(last["ExecReload"].find("-HUP"), std::string::npos);
    // Restarts for crashes and fatal errors, with a start limit (outages are waited out inside).
    EXPECT_EQ(last["Restart"], "on-failure");
    EXPECT_FALSE(last["RestartSec"].empty());
}

TEST(Systemd, SecurityExposureIsLowWhereSystemdAnalyzeIsInstalled) {
    if (std::system("command -v systemd-analyze >/dev/null 2>&1") != 0)
        GTEST_SKIP() << "systemd-analyze is not installed";
    // --offline reads the unit file alone; --threshold fails above an exposure of 2.0 ("OK").
    const std::string command = "systemd-analyze security --offline=true --threshold=20 '" +
                                (deploy_test::kSource / "deploy" / "outpost.service").string() +
                                "' >/dev/null 2>&1";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
}

}  // namespace
