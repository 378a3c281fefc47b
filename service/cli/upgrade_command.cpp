// `outpost upgrade`: log in once, then ask Lichess to make the account a BOT account.
#include "service/cli/upgrade_command.hpp"

#include <spdlog/spdlog.h>

#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include "common/text.hpp"
#include "lichess_client/api.hpp"
#include "service/cli/start_up.hpp"
#include "service/ops/logging.hpp"

namespace cli {

namespace {

struct UpgradeOptions {
    std::string config_path = "config.yml";
    bool yes = false;
};

// Logs in once. Returns the account, or nullopt after saying what is wrong.
std::optional<lichess::Account> log_in(lichess::Api& api, const config::Config& cfg) {
    auto account = try_log_in(api);
    if (account) return *account;
    if (log_in_failure_is_fatal(account.error()))
        say_refused(account.error(), cfg);
    else
        spdlog::critical("could not log in: {}", what_failed(account.error(), cfg.url));
    return std::nullopt;
}

int upgrade(const UpgradeOptions& o) {
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
            std::cout << common::printable(account->username) << " is already a BOT account\n";
            return 0;
        }
        auto r = api.upgrade_to_bot();
        if (!r) {
            std::cerr << "outpost: upgrade failed: " << r.error().describe() << "\n";
            return 1;
        }
        std::cout << common::printable(account->username) << " is now a BOT account\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "outpost: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace

void add_upgrade_command(CLI::App& app) {
    auto o = std::make_shared<UpgradeOptions>();
    auto* cmd = app.add_subcommand("upgrade",
                                   "Upgrade the Lichess account to a BOT account (irreversible)");
    cmd->add_option("--config,-c", o->config_path, "YAML config file")->capture_default_str();
    cmd->add_flag("--yes", o->yes, "confirm the irreversible upgrade");
    cmd->callback([o] { fail_with(upgrade(*o)); });
}

}  // namespace cli
