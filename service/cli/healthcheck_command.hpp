// `outpost healthcheck`: asks a running daemon's /healthz and exits 0 (healthy) or 1, so a
// container health check needs no curl or wget in the image.
#pragma once

#include <CLI/CLI.hpp>
#include <chrono>
#include <string>

namespace cli {

struct HealthcheckResult {
    bool healthy = false;
    std::string message;  // the response's first line, or what went wrong
};

// One GET of `url`; healthy when the answer is a 2xx. No retries: the caller's schedule retries.
[[nodiscard]] HealthcheckResult check_health_url(const std::string& url,
                                                 std::chrono::milliseconds timeout);

void add_healthcheck_command(CLI::App& app);

}  // namespace cli
