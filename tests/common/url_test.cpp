// is_loopback_host as a table, and the rule it is for: `check-config` and `outpost run` accept
// and refuse the same plain-http addresses.
#include "common/url.hpp"

#include <gtest/gtest.h>

#include <string>

#include "config/config.hpp"
#include "config/validate.hpp"
#include "lichess_client/http_client.hpp"

namespace common {
namespace {

struct HostRow {
    const char* host;
    bool loopback;
    const char* why;
};

constexpr HostRow kHosts[] = {
    {"localhost", true, "the name of this machine"},
    {"LOCALHOST", true, "host names have no letter case"},
    {"LocalHost", true, "host names have no letter case"},
    {"127.0.0.1", true, "the IPv4 loopback address"},
    {"127.1.2.3", true, "all of 127.0.0.0/8 is loopback"},
    {"127.255.255.255", true, "the last loopback address"},
    {"[::1]", true, "the IPv6 loopback address, as a URL writes it"},
    {"::1", true, "the IPv6 loopback address, bare"},
    {"127.example.com", false, "a DNS name that starts with 127."},
    {"127.0.0.1.nip.io", false, "a DNS name that answers 127.0.0.1 today"},
    {"127.1", false, "a shorthand resolvers read differently"},
    {"127.0.0.256", false, "a part above 255"},
    {"127.0.0.1.", false, "a trailing dot"},
    {"127.0.0", false, "three parts"},
    {"128.0.0.1", false, "outside 127.0.0.0/8"},
    {"0.0.0.0", false, "every interface, not this machine"},
    {"localhost.example.com", false, "a DNS name"},
    {"[::2]", false, "another IPv6 address"},
    {"", false, "no host"},
};

TEST(LoopbackHost, Table) {
    for (const HostRow& row : kHosts)
        EXPECT_EQ(is_loopback_host(row.host), row.loopback) << row.host << ": " << row.why;
}

// `check-config` (config::validate) and `outpost run` (lichess::check_base_url, which every
// request to the server passes) take and refuse the same `url`.
TEST(LoopbackHost, CheckConfigAndRunAgreeOnEveryPlainHttpUrl) {
    for (const HostRow& row : kHosts) {
        const std::string host = row.host;
        // A URL has a host (an IPv6 address only in brackets): those two rows are no URL.
        if (host.empty() || host == "::1") continue;
        const std::string url = "http://" + host + ":8080";
        config::Config cfg;
        cfg.token = "lip_0123456789abcdefghij";
        cfg.url = url;
        bool config_refuses = false;
        for (const auto& e : config::validate(cfg).errors) config_refuses |= e.key_path == "url";
        const bool run_refuses = lichess::check_base_url(url).has_value();
        EXPECT_EQ(config_refuses, !row.loopback) << url << ": " << row.why;
        EXPECT_EQ(run_refuses, !row.loopback) << url << ": " << row.why;
    }
}

}  // namespace
}  // namespace common
