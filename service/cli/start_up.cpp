// The start-up steps `outpost run` and `outpost upgrade` share.
#include "service/cli/start_up.hpp"

#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "config/error.hpp"
#include "config/load.hpp"

namespace cli {

namespace {

// The token's fault (refused: 401/403, invalid or revoked, no bot:play): retrying cannot help.
bool token_refused(const lichess::ApiError& e) {
    if (e.kind == lichess::ApiError::Kind::Http) return e.status == 401 || e.status == 403;
    return e.kind == lichess::ApiError::Kind::Config &&
           e.message.find("token") != std::string::npos;
}

}  // namespace

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

lichess::Result<lichess::Account> try_log_in(lichess::Api& api) {
    auto token = api.token_test();
    if (!token) return token.error();
    return api.account();
}

bool log_in_failure_is_fatal(const lichess::ApiError& e) {
    return token_refused(e) || e.kind == lichess::ApiError::Kind::Config;
}

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

void fail_with(int rc) {
    if (rc != 0) throw CLI::RuntimeError(rc);
}

}  // namespace cli
