// `outpost healthcheck` (the image's HEALTHCHECK) against a real HealthServer: 200 is healthy,
// 503 and a closed port are not.
#include <gtest/gtest.h>

#include <atomic>
#include <string>

#include "service/cli/healthcheck_command.hpp"
#include "service/ops/health_server.hpp"
#include "service/ops/metrics.hpp"

namespace {

struct Server {
    service::Metrics metrics;
    std::atomic<bool> healthy{true};
    std::unique_ptr<service::HealthServer> server;

    Server() {
        service::HealthServer::Options options;
        options.listen = "127.0.0.1:0";
        options.health = [this]() -> std::optional<std::string> {
            if (healthy) return std::nullopt;
            return "event stream not connected";
        };
        auto started = service::HealthServer::start(options, metrics);
        EXPECT_TRUE(started.error.empty()) << started.error;
        server = std::move(started.server);
    }
    std::string url(const std::string& path) const { return "http://" + server->address() + path; }
};

TEST(Healthcheck, HealthyServerIsHealthy) {
    using namespace std::chrono_literals;
    Server s;
    ASSERT_TRUE(s.server);
    cli::HealthcheckResult r = cli::check_health_url(s.url("/healthz"), 3000ms);
    EXPECT_TRUE(r.healthy) << r.message;
    EXPECT_NE(r.message.find("200 ok"), std::string::npos) << r.message;
}

TEST(Healthcheck, ServiceUnavailableIsUnhealthyAndSaysWhy) {
    using namespace std::chrono_literals;
    Server s;
    ASSERT_TRUE(s.server);
    s.healthy = false;
    cli::HealthcheckResult r = cli::check_health_url(s.url("/healthz"), 3000ms);
    EXPECT_FALSE(r.healthy);
    EXPECT_NE(r.message.find("503"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("event stream not connected"), std::string::npos) << r.message;
}

TEST(Healthcheck, NotFoundIsUnhealthy) {
    using namespace std::chrono_literals;
    Server s;
    ASSERT_TRUE(s.server);
    EXPECT_FALSE(cli::check_health_url(s.url("/nothing"), 3000ms).healthy);
}

TEST(Healthcheck, NothingListeningIsUnhealthy) {
    using namespace std::chrono_literals;
    std::string url;
    {
        Server s;  // a port that was free a moment ago and is closed again
        ASSERT_TRUE(s.server);
        url = s.url("/healthz");
    }
    cli::HealthcheckResult r = cli::check_health_url(url, 3000ms);
    EXPECT_FALSE(r.healthy);
    EXPECT_NE(r.message.find(url), std::string::npos) << r.message;
}

TEST(Healthcheck, OnlyHttpUrls) {
    using namespace std::chrono_literals;
    EXPECT_FALSE(cli::check_health_url("file:///etc/passwd", 1000ms).healthy);
}

}  // namespace
