// `outpost run` (the daemon), `outpost check-config` and `outpost upgrade`: loading the config,
// logging in, checking the account, then handing over to the Bot.
#include "service/cli/run_command.hpp"

#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>

#include "config/check_command.hpp"
#include "config/error.hpp"
#include "config/load.hpp"
#include "lichess_client/api.hpp"
#include "service/bot.hpp"
#include "service/hardening.hpp"
#include "service/health_server.hpp"
#include "service/logging.hpp"
#include "service/metrics.hpp"
#include "service/pgn_writer.hpp"
#include "service/signals.hpp"

namespace cli {

namespace {

struct RunOptions {
    std::string config_path = "config.yml";
    bool yes = false;
};

// Loads and validates the config, printing errors and warnings; nullopt on errors.
std::optional<config::Config> load_config(const std::string& path) {
    auto loaded = config::load_file(path);
    for (const auto& w : loaded.warnings)
        std::cerr << "warning: " << config::format_error(w, loaded.source_name) << "\n";
    if (!loaded.ok()) {
        for (const auto& e : loaded.errors)
            std::cerr << config::format_error(e, loaded.source_name) << "\n";
        std::cerr << "outpost: the configuration has errors; nothing was started\n";
        return std::nullopt;
    }
    return loaded.config;
}

lichess::ApiOptions api_options(const config::Config& cfg, const std::string& username) {
    lichess::ApiOptions o;
    o.http.base_url = cfg.url;
    o.http.token = cfg.token;
    o.http.username = username;
    return o;
}

// Logs in: the token must be valid with bot:play. Returns the account, or nullopt after
// printing what is wrong.
std::optional<lichess::Account> log_in(lichess::Api& api, const config::Config& cfg) {
    auto token = api.token_test();
    if (!token) {
        spdlog::critical(
            "the token was refused by {}: {}. Create a token with the bot:play scope "
            "at {}/account/oauth/token",
            cfg.url, token.error().describe(), cfg.url);
        return std::nullopt;
    }
    auto account = api.account();
    if (!account) {
        spdlog::critical("could not read the account: {}", account.error().describe());
        return std::nullopt;
    }
    return *account;
}

int run_daemon(const RunOptions& o) {
    auto cfg = load_config(o.config_path);
    if (!cfg) return 1;
    if (auto err = service::setup_logging(cfg->log)) {
        std::cerr << "outpost: " << *err << "\n";
        return 1;
    }
    // No core dumps and no ptrace/proc access by other processes of this user: the token is in
    // memory. (systemd's LimitCORE=0 and the container's settings say the same from outside.)
    if (auto err = service::make_non_dumpable())
        spdlog::warn("could not make the process non-dumpable: {}", *err);
    // Signals are blocked before any thread starts, so only the signal thread receives them.
    service::ShutdownSignals signals;
    spdlog::info("outpost {} starting against {}", OUTPOST_VERSION, cfg->url);
    if (!cfg->pgn_directory.empty()) {
        // A PGN folder the daemon cannot write is found now, not after the first game.
        auto prepared = service::prepare_pgn_directory(cfg->pgn_directory);
        if (!prepared) {
            spdlog::critical("pgn_directory: {}", prepared.error());
            return 1;
        }
        if (*prepared > 0)
            spdlog::info("removed {} temporary PGN file(s) left by an earlier run from {}",
                         *prepared, cfg->pgn_directory);
    }

    try {
        std::optional<lichess::Account> account;
        {
            lichess::Api probe(api_options(*cfg, ""));
            account = log_in(probe, *cfg);
        }
        if (!account) return 1;
        if (!account->is_bot()) {
            spdlog::critical(
                "the account '{}' is not a BOT account. Upgrade it (irreversible, and "
                "only possible before it played any game) with: outpost upgrade "
                "--config {} --yes",
                account->username, o.config_path);
            return 1;
        }
        lichess::Api api(api_options(*cfg, account->username));
        service::Metrics metrics;
        service::Bot bot(*cfg, api, {.id = account->id, .name = account->username}, metrics);

        service::HealthServer::Options health_options;
        health_options.listen = cfg->health.listen;
        health_options.health = [&bot]() -> std::optional<std::string> {
            if (!bot.event_stream_connected()) return "event stream not connected";
            return std::nullopt;
        };
        auto [health, health_error] = service::HealthServer::start(health_options, metrics);
        if (!health_error.empty()) {
            spdlog::critical("{}", health_error);
            return 1;
        }
        if (health) spdlog::info("health endpoint on http://{}/healthz", health->address());
        spdlog::info("logged in as {} (BOT); waiting for challenges (concurrency {})",
                     account->username, cfg->challenge.concurrency);
        return bot.run(signals.graceful(), signals.immediate());
    } catch (const std::exception& e) {
        spdlog::critical("outpost: {}", e.what());
        return 1;
    }
}

int upgrade(const RunOptions& o) {
    auto cfg = load_config(o.config_path);
    if (!cfg) return 1;
    (void)service::setup_logging(cfg->log);
    if (!o.yes) {
        std::cerr << "outpost upgrade turns the account into a BOT account. This cannot be undone, "
                     "and works only for an account that has played no game. Run again with "
                     "--yes to do it.\n";
        return 1;
    }
    try {
        lichess::Api api(api_options(*cfg, ""));
        auto account = log_in(api, *cfg);
        if (!account) return 1;
        if (account->is_bot()) {
            std::cout << account->username << " is already a BOT account\n";
            return 0;
        }
        auto r = api.upgrade_to_bot();
        if (!r) {
            std::cerr << "outpost: upgrade failed: " << r.error().describe() << "\n";
            return 1;
        }
        std::cout << account->username << " is now a BOT account\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "outpost: " << e.what() << "\n";
        return 1;
    }
}

void fail_with(int rc) {
    if (rc != 0) throw CLI::RuntimeError(rc);
}

}  // namespace

void add_run_command(CLI::App& app) {
    auto o = std::make_shared<RunOptions>();
    auto* cmd = app.add_subcommand("run", "Run the bot: accept challenges and play on Lichess");
    cmd->add_option("--config,-c", o->config_path, "YAML config file")->capture_default_str();
    cmd->callback([o] { fail_with(run_daemon(*o)); });
}

void add_check_config_command(CLI::App& app) {
    auto path = std::make_shared<std::string>();
    auto* cmd = app.add_subcommand(
        "check-config", "Validate a config file and print the effective settings (token hidden)");
    cmd->add_option("file", *path, "YAML config file")->required();
    cmd->callback([path] { fail_with(config::check_config_command(*path, std::cout, std::cerr)); });
}

void add_upgrade_command(CLI::App& app) {
    auto o = std::make_shared<RunOptions>();
    auto* cmd = app.add_subcommand("upgrade",
                                   "Upgrade the Lichess account to a BOT account (irreversible)");
    cmd->add_option("--config,-c", o->config_path, "YAML config file")->capture_default_str();
    cmd->add_flag("--yes", o->yes, "confirm the irreversible upgrade");
    cmd->callback([o] { fail_with(upgrade(*o)); });
}

}  // namespace cli
