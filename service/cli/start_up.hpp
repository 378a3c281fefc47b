// The start-up steps `outpost run` and `outpost upgrade` share: loading the config, the Api's
// options, one log-in attempt and how a failed one is judged and said.
#pragma once

#include <optional>
#include <string>

#include "config/config.hpp"
#include "lichess_client/api.hpp"

namespace cli {

// Loads and validates the config, printing errors and warnings; nullopt on errors.
std::optional<config::Config> load_config(const std::string& path);

lichess::ApiOptions api_options(const config::Config& cfg, const std::string& username);

// One log-in attempt: the token must be valid with bot:play, then the account is read.
lichess::Result<lichess::Account> try_log_in(lichess::Api& api);

// Retrying cannot help: a refused token (401/403, invalid or revoked, no bot:play), or another
// config error (a bad url).
bool log_in_failure_is_fatal(const lichess::ApiError& e);

// A failed attempt as what it is, for the log: unreachable, server error, rate limit, ...
std::string what_failed(const lichess::ApiError& e, const std::string& url);

// Logs (critical) why a fatal failure is fatal, and for a refused token where to make one.
void say_refused(const lichess::ApiError& e, const config::Config& cfg);

// A subcommand's exit code: 0 returns, anything else leaves through CLI11 with that code.
void fail_with(int rc);

}  // namespace cli
