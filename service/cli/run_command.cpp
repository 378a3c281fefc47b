// `outpost run`: loading the config, logging in (patiently), checking the account, then handing
// over to the Bot with the health endpoint beside it.
#include "service/cli/run_command.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>

#include "common/text.hpp"
#include "engine/tablebase.hpp"
#include "lichess_client/api.hpp"
#include "service/cli/start_checks.hpp"
#include "service/cli/start_up.hpp"
#include "service/daemon/bot.hpp"
#include "service/ops/hardening.hpp"
#include "service/ops/health_server.hpp"
#include "service/ops/logging.hpp"
#include "service/ops/metrics.hpp"
#include "service/ops/pgn_writer.hpp"
#include "service/ops/signals.hpp"

namespace cli {

namespace {

struct RunOptions {
    std::string config_path = "config.yml";
};

// What a stop may take beyond shutdown_grace_s: declining the queue, cancelling our challenge,
// stopping the searches and the streams (each bounded by its request timeout).
constexpr std::chrono::seconds kStopSlack{15};

// Waits between log-in attempts at start: 1 s doubling to 30 s, each drawn from [d/2, d].
constexpr lichess::BackoffConfig kLoginBackoff{lichess::Millis{1000}, lichess::Millis{30000}, 2.0,
                                               0.5};

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
        if (log_in_failure_is_fatal(e)) {
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
    // What this machine must give (PGN folder, log file, memory): check-config asks the same.
    if (print_start_problems(start_problems(*cfg), std::cerr) > 0) {
        std::cerr << "outpost: " << o.config_path
                  << ": the start-up checks failed (outpost check-config says the same); "
                     "nothing was started\n";
        return 1;
    }
    if (auto err = service::setup_logging(cfg->log)) {
        std::cerr << "outpost: " << *err << "\n";
        return 1;
    }
    // No core dumps and no ptrace/proc access by other processes of this user: the token is in
    // memory. (systemd's LimitCORE=0 and the container's settings say the same from outside.)
    if (auto err = service::make_non_dumpable())
        spdlog::warn("could not make the process non-dumpable: {}", *err);
    // Signals are blocked before any thread starts, so only the signal thread receives them.
    // A stop that takes longer than the games' grace plus kStopSlack ends the process anyway.
    service::ShutdownSignals signals(std::chrono::seconds(cfg->shutdown_grace_s) + kStopSlack);
    spdlog::info("outpost {} starting against {}", OUTPOST_VERSION, cfg->url);
    if (!cfg->pgn_directory.empty()) {
        // A PGN folder the daemon cannot write is found now, not after the first game.
        auto prepared = service::prepare_pgn_directory(cfg->pgn_directory);
        if (!prepared) {
            spdlog::critical("pgn_directory: {}", prepared.error().message);
            return 1;
        }
        if (*prepared > 0)
            spdlog::info("removed {} temporary PGN file(s) left by an earlier run from {}",
                         *prepared, cfg->pgn_directory);
    }
    // Gaviota tables that cannot be loaded stop the start-up now, not after the log-in; held
    // here, the Bot's engines get this same set.
    std::shared_ptr<const engine::Tablebase> tablebase;
    if (const auto& folders = cfg->engine.tablebases.gaviota_paths; !folders.empty()) {
        auto loaded = engine::Tablebase::load(folders);
        if (!loaded) {
            spdlog::critical("engine.tablebases.gaviota_paths: {}", loaded.error());
            return 1;
        }
        tablebase = *loaded;
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
                common::printable(account->username), o.config_path);
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
                     common::printable(account->username), cfg->challenge.concurrency);
        return bot.run(signals.graceful(), signals.immediate());
    } catch (const std::exception& e) {
        spdlog::critical("outpost: {}", e.what());
        return 1;
    }
}

}  // namespace

void add_run_command(CLI::App& app) {
    auto o = std::make_shared<RunOptions>();
    auto* cmd = app.add_subcommand("run", "Run the bot: accept challenges and play on Lichess");
    cmd->add_option("--config,-c", o->config_path, "YAML config file")->capture_default_str();
    cmd->callback([o] { fail_with(run_daemon(*o)); });
}

}  // namespace cli
