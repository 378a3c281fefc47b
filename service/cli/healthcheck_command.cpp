// `outpost healthcheck`: one plain libcurl GET of the health endpoint (not the Lichess client:
// no token, no rate limits, no retries), exit status 0 for a 2xx answer and 1 otherwise.
#include "service/cli/healthcheck_command.hpp"

#include <curl/curl.h>

#include <algorithm>
#include <iostream>
#include <memory>

namespace cli {

namespace {

constexpr std::size_t kMaxBody = 4096;  // /healthz answers one line; never buffer more

struct Options {
    std::string url = "http://127.0.0.1:8080/healthz";
    int timeout_ms = 3000;
    bool quiet = false;
};

std::size_t collect(char* data, std::size_t size, std::size_t count, void* user) {
    auto* body = static_cast<std::string*>(user);
    const std::size_t n = size * count;
    if (body->size() < kMaxBody) body->append(data, std::min(n, kMaxBody - body->size()));
    return n;
}

std::string first_line(const std::string& text) {
    std::string line = text.substr(0, text.find('\n'));
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return line;
}

}  // namespace

HealthcheckResult check_health_url(const std::string& url, std::chrono::milliseconds timeout) {
    std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl(curl_easy_init(), curl_easy_cleanup);
    if (!curl) return {false, "cannot initialise libcurl"};
    std::string body;
    char error[CURL_ERROR_SIZE] = {};
    curl_easy_setopt(curl.get(), CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl.get(), CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(timeout.count()));
    curl_easy_setopt(curl.get(), CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl.get(), CURLOPT_NOPROXY, "*");  // the endpoint is local; ignore http_proxy
    curl_easy_setopt(curl.get(), CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl.get(), CURLOPT_WRITEDATA, &body);
    curl_easy_setopt(curl.get(), CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl.get(), CURLOPT_USERAGENT, "outpost-healthcheck");
    const CURLcode rc = curl_easy_perform(curl.get());
    if (rc != CURLE_OK) {
        return {false, url + ": " + (error[0] != '\0' ? error : curl_easy_strerror(rc))};
    }
    long status = 0;
    curl_easy_getinfo(curl.get(), CURLINFO_RESPONSE_CODE, &status);
    const std::string line = first_line(body);
    const bool healthy = status >= 200 && status < 300;
    return {healthy, url + ": " + std::to_string(status) + (line.empty() ? "" : " " + line)};
}

void add_healthcheck_command(CLI::App& app) {
    auto o = std::make_shared<Options>();
    auto* cmd = app.add_subcommand(
        "healthcheck", "Ask a running daemon's /healthz; exit 0 when healthy, 1 otherwise");
    cmd->add_option("--url", o->url, "health endpoint (health.listen plus /healthz)")
        ->capture_default_str();
    cmd->add_option("--timeout-ms", o->timeout_ms, "give up after this long")
        ->check(CLI::Range(1, 600000))
        ->capture_default_str();
    cmd->add_flag("--quiet,-q", o->quiet, "print nothing");
    cmd->callback([o] {
        HealthcheckResult r = check_health_url(o->url, std::chrono::milliseconds(o->timeout_ms));
        if (!o->quiet) (r.healthy ? std::cout : std::cerr) << r.message << "\n";
        if (!r.healthy) throw CLI::RuntimeError(1);
    });
}

}  // namespace cli
