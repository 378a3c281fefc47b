// `outpost run` (the daemon), `outpost check-config` and `outpost upgrade`: loading the config,
// logging in, checking the account, then handing over to the Bot.
#include "service/cli/run_command.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <stop_token>

#include "config/check_command.hpp"
#include "config/error.hpp"
#include "config/load.hpp"
#include "lichess_client/api.hpp"
#include "service/bot.hpp"
#include "service/hardening.hpp"
#include "service/health_server.hpp"
#include "service/log_text.hpp"
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

// Waits between log-in attempts at start: 1 s doubling to 30 s, each drawn from [d/2, d].
constexpr lichess::BackoffConfig kLoginBackoff{lichess::Millis{1000}, lichess::Millis{30000}, 2.0,
                                               0.5};

// One log-in attempt: the token must be valid with bot:play, then the account is read.
lichess::Result<lichess::Account> try_log_in(lichess::Api& api) {
    auto token = api.token_test();
    if (!token) return token.error();
    return api.account();
}

// The token's fault (refused: 401/403, invalid or revoked, no bot:play): retrying cannot help.
bool token_refused(const lichess::ApiError& e) {
    if (e.kind == lichess::ApiError::Kind::Http) return e.status == 401 || e.status == 403;
    return e.kind == lichess::ApiError::Kind::Config &&
           e.message.find("token") != std::string::npos;
}

// Retrying cannot help: a refused token, or another config error (a bad url).
bool fatal(const lichess::ApiError& e) {
    return token_refused(e) || e.kind == lichess::ApiError::Kind::Config;
}

// A failed attempt as what it is, for the log: unreachable, server error, rate limit, ...
std::string what_failed(const lichess::ApiError& e, const std::string& url) {
    using Kind = lichess::ApiError::Kind;
    switch (e.kind) {
        case Kind::Network:
            return "cannot reach " + url + " (" + e.describe() + ")";
        case Kind::Http:
            return url + (e.status >= 500 ? " has a server error (" : " answered an error (") +
                   e.describe() + ")";
        case Kind::RateLimited:
            return url + " rate-limited the log-in (" + e.describe() + ")";
        case Kind::Parse:
            return url + " sent a reply that is not the Lichess API's (" + e.describe() + ")";
        default:
            return e.describe();
    }
}

void say_refused(const lichess::ApiError& e, const config::Config& cfg) {
    if (token_refused(e)) {
        spdlog::critical(
            "the token was refused by {}: {}. Create a token with the bot:play scope "
            "at {}/account/oauth/token",
            cfg.url, e.describe(), cfg.url);
    } else {
        spdlog::critical("cannot log in to {}: {}", cfg.url, e.describe());
    }
}

// Logs in once (`outpost upgrade`). Returns the account, or nullopt after saying what is wrong.
std::optional<lichess::Account> log_in(lichess::Api& api, const config::Config& cfg) {
    auto account = try_log_in(api);
    if (account) return *account;
    if (fatal(account.error()))
        say_refused(account.error(), cfg);
    else
        spdlog::critical("could not log in: {}", what_failed(account.error(), cfg.url));
    return std::nullopt;
}

// Logs in for `outpost run`: network errors, 5xx, 429s and odd replies are retried for ever
// with capped backoff and jitter (a machine that boots before its network, a Lichess outage),
// each logged as what it is; only a refused token or a config error gives up. nullopt: refused
// (said so), or `stop` fired first.
std::optional<lichess::Account> log_in_patiently(lichess::Api& api, const config::Config& cfg,
                                                 std::stop_token stop, bool& refused) {
    refused = false;
    lichess::Backoff backoff(kLoginBackoff);
    for (int attempt = 0;; ++attempt) {
        auto account = try_log_in(api);
        if (account) {
            if (attempt > 0) spdlog::info("logged in to {} at attempt {}", cfg.url, attempt + 1);
            return *account;
        }
        const lichess::ApiError& e = account.error();
        if (e.kind == lichess::ApiError::Kind::Cancelled) return std::nullopt;
        if (fatal(e)) {
            refused = true;
            say_refused(e, cfg);
            return std::nullopt;
        }
        lichess::Millis wait = backoff.delay(std::min(attempt, 30));
        if (e.retry_after) wait = std::max(wait, *e.retry_after);
        spdlog::warn("start-up: {}; trying again in {:.1f} s (attempt {})", what_failed(e, cfg.url),
                     std::chrono::duration<double>(wait).count(), attempt + 1);
        if (!api.sleep_for(wait, stop)) return std::nullopt;
    }
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
        bool refused = false;
        {
            // One try per attempt: the loop paces and logs the retries itself.
            lichess::ApiOptions probe_options = api_options(*cfg, "");
            probe_options.retry.max_attempts = 1;
            lichess::Api probe(probe_options);
            account = log_in_patiently(probe, *cfg, signals.graceful(), refused);
        }
        if (!account) {
            if (refused) return 1;
            spdlog::info("stopped before logging in");
            return 0;
        }
        if (!account->is_bot()) {
            spdlog::critical(
                "the account '{}' is not a BOT account. Upgrade it (irreversible, and "
                "only possible before it played any game) with: outpost upgrade "
                "--config {} --yes",
                service::printable(account->username), o.config_path);
            return 1;
        }
        lichess::Api api(api_options(*cfg, account->username));
        service::Metrics metrics;
        service::Bot bot(*cfg, api, {.id = account->id, .name = account->username}, metrics);

        service::HealthServer::Options health_options;
        health_options.listen = cfg->health.listen;
        health_options.health = [&bot] { return bot.health_problem(); };
        auto [health, health_error] = service::HealthServer::start(health_options, metrics);
        if (!health_error.empty()) {
            spdlog::critical("{}", health_error);
            return 1;
        }
        if (health) spdlog::info("health endpoint on http://{}/healthz", health->address());
        spdlog::info("logged in as {} (BOT); waiting for challenges (concurrency {})",
                     service::printable(account->username), cfg->challenge.concurrency);
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
            std::cout << service::printable(account->username) << " is already a BOT account\n";
            return 0;
        }
        auto r = api.upgrade_to_bot();
        if (!r) {
            std::cerr << "outpost: upgrade failed: " << r.error().describe() << "\n";
            return 1;
        }
        std::cout << service::printable(account->username) << " is now a BOT account\n";
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
