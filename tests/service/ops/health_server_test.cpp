// Tests of HealthServer over loopback: routing, health states, the status page and its PGN files,
// limits, timeouts and shutdown.
#include "service/ops/health_server.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "service/ops/status_page.hpp"
#include "tests/support/prometheus_text.hpp"
#include "tests/support/time_scale.hpp"

namespace service::test {

namespace {

// A blocking loopback client on a raw socket; every receive gives up after 10 s (or the given
// time) so a broken server fails a test instead of hanging it.
class Client {
  public:
    explicit Client(std::uint16_t port, std::chrono::milliseconds wait = std::chrono::seconds(10)) {
        fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
        timeval timeout{static_cast<time_t>(wait.count() / 1000),
                        static_cast<suseconds_t>(wait.count() % 1000 * 1000)};
        ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
        ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
        sockaddr_in addr{};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(port);
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
    }
    ~Client() {
        if (fd_ >= 0) ::close(fd_);
    }
    Client(const Client&) = delete;
    Client& operator=(const Client&) = delete;

    [[nodiscard]] bool connected() const { return connected_; }

    // False when the server closed or reset the connection before everything was sent.
    bool send(std::string_view bytes) {
        while (!bytes.empty()) {
            const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return false;
            bytes.remove_prefix(static_cast<std::size_t>(n));
        }
        return true;
    }

    enum class End { Closed, Reset, TimedOut };
    struct Received {
        std::string bytes;
        End end = End::Closed;
    };
    // Everything until the server ends the connection (or 10 s pass).
    Received read_to_end() {
        Received out;
        out.bytes = std::exchange(pending_, {});
        char buf[4096];
        for (;;) {
            const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
            if (n > 0) {
                out.bytes.append(buf, static_cast<std::size_t>(n));
                continue;
            }
            if (n < 0 && errno == EINTR) continue;
            if (n == 0) {
                out.end = End::Closed;
            } else {
                out.end = (errno == EAGAIN || errno == EWOULDBLOCK) ? End::TimedOut : End::Reset;
            }
            return out;
        }
    }

    // One response on a keep-alive connection: headers, then Content-Length bytes of body.
    // Bytes after it (a pipelined next response) are kept for the next read.
    std::string read_response(bool head = false) {
        std::string data = std::exchange(pending_, {});
        char buf[4096];
        std::size_t want = std::string::npos;
        for (;;) {
            if (want == std::string::npos) {
                const std::size_t header_end = data.find("\r\n\r\n");
                if (header_end != std::string::npos) {
                    const auto cl = data.find("Content-Length: ");
                    const std::size_t length = cl == std::string::npos || cl > header_end
                                                   ? 0
                                                   : std::stoul(data.substr(cl + 16));
                    want = header_end + 4 + (head ? 0 : length);
                }
            }
            if (want != std::string::npos && data.size() >= want) break;
            const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) return data;
            data.append(buf, static_cast<std::size_t>(n));
        }
        pending_ = data.substr(want);
        data.resize(want);
        return data;
    }

  private:
    int fd_ = -1;
    bool connected_ = false;
    std::string pending_;
};

struct Reply {
    int status = 0;
    std::string head;  // status line and headers
    std::string body;
};

Reply parse_reply(const std::string& raw) {
    Reply reply;
    const auto split = raw.find("\r\n\r\n");
    if (!raw.starts_with("HTTP/1.1 ") || split == std::string::npos) return reply;
    reply.status = std::stoi(raw.substr(9, 3));
    reply.head = raw.substr(0, split + 2);
    reply.body = raw.substr(split + 4);
    return reply;
}

// One request with Connection: close; the reply is whatever came before the server closed.
Reply fetch(std::uint16_t port, std::string_view method, std::string_view target) {
    Client client(port);
    if (!client.connected()) return {};
    std::string request = std::string(method) + " " + std::string(target) +
                          " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if (!client.send(request)) return {};
    return parse_reply(client.read_to_end().bytes);
}

// A server on an ephemeral loopback port; the test fails at once if it cannot start.
std::unique_ptr<HealthServer> start_server(const Metrics& metrics,
                                           HealthServer::Options options = {}) {
    options.listen = "127.0.0.1:0";
    HealthServer::StartResult started = HealthServer::start(std::move(options), metrics);
    EXPECT_EQ(started.error, "");
    EXPECT_NE(started.server, nullptr);
    if (started.server) {
        EXPECT_NE(started.server->port(), 0);
    }
    return std::move(started.server);
}

void expect_still_serving(std::uint16_t port) {
    const Reply reply = fetch(port, "GET", "/healthz");
    EXPECT_EQ(reply.status, 200);
    EXPECT_EQ(reply.body, "ok\n");
}

TEST(HealthServer, HealthzIsOkByDefault) {
    Metrics metrics;
    auto server = start_server(metrics);
    ASSERT_TRUE(server);
    EXPECT_EQ(server->address(), "127.0.0.1:" + std::to_string(server->port()));
    const Reply reply = fetch(server->port(), "GET", "/healthz");
    EXPECT_EQ(reply.status, 200);
    EXPECT_EQ(reply.body, "ok\n");
    EXPECT_NE(reply.head.find("Content-Type: text/plain"), std::string::npos);
}

TEST(HealthServer, HealthzReportsTheCallbacksProblem) {
    Metrics metrics;
    std::mutex mutex;
    std::optional<std::string> problem;
    HealthServer::Options options;
    options.health = [&]() -> std::optional<std::string> {
        std::lock_guard lock(mutex);
        return problem;
    };
    auto server = start_server(metrics, options);
    ASSERT_TRUE(server);
    EXPECT_EQ(fetch(server->port(), "GET", "/healthz").status, 200);

    {
        std::lock_guard lock(mutex);
        problem = "event stream silent for 95 s";
    }
    Reply reply = fetch(server->port(), "GET", "/healthz");
    EXPECT_EQ(reply.status, 503);
    EXPECT_EQ(reply.body, "event stream silent for 95 s\n");

    {
        std::lock_guard lock(mutex);
        problem = "two\r\nX-Injected: yes";  // must stay one line of body, never a header
    }
    reply = fetch(server->port(), "GET", "/healthz");
    EXPECT_EQ(reply.status, 503);
    EXPECT_EQ(reply.head.find("X-Injected"), std::string::npos);
    EXPECT_EQ(reply.body, "two  X-Injected: yes\n");

    {
        std::lock_guard lock(mutex);
        problem.reset();
    }
    EXPECT_EQ(fetch(server->port(), "GET", "/healthz").status, 200);
}

TEST(HealthServer, ThrowingHealthCheckIsUnhealthyNotFatal) {
    Metrics metrics;
    HealthServer::Options options;
    options.health = []() -> std::optional<std::string> { throw std::runtime_error("boom"); };
    auto server = start_server(metrics, options);
    ASSERT_TRUE(server);
    const Reply reply = fetch(server->port(), "GET", "/healthz");
    EXPECT_EQ(reply.status, 503);
    EXPECT_EQ(reply.body, "health check failed: boom\n");
}

TEST(HealthServer, MetricsServesPrometheusText) {
    Metrics metrics;
    metrics.games_started = 12;
    metrics.moves_played = 480;
    metrics.rate_limited_429 = 2;
    metrics.stream_reconnects = 3;
    metrics.challenges_declined.increment("tooSlow");
    metrics.move_reaction_latency.observe(std::chrono::microseconds(1500));
    auto server = start_server(metrics);
    ASSERT_TRUE(server);

    const Reply reply = fetch(server->port(), "GET", "/metrics");
    EXPECT_EQ(reply.status, 200);
    EXPECT_NE(reply.head.find("Content-Type: text/plain; version=0.0.4"), std::string::npos);
    EXPECT_EQ(test_support::prometheus_format_errors(reply.body), std::vector<std::string>{})
        << reply.body;
    EXPECT_NE(reply.body.find("\noutpost_games_started_total 12\n"), std::string::npos);
    EXPECT_NE(reply.body.find("\noutpost_moves_played_total 480\n"), std::string::npos);
    EXPECT_NE(reply.body.find("\noutpost_rate_limited_total 2\n"), std::string::npos);
    EXPECT_NE(reply.body.find("\noutpost_stream_reconnects_total 3\n"), std::string::npos);
    EXPECT_NE(reply.body.find("\noutpost_challenges_declined_total{reason=\"tooSlow\"} 1\n"),
              std::string::npos);
    EXPECT_NE(reply.body.find("\noutpost_move_reaction_latency_seconds_bucket{le=\"0.002\"} 1\n"),
              std::string::npos);

    // A query string does not change the route; later updates show on the next scrape.
    metrics.games_started += 1;
    const Reply again = fetch(server->port(), "GET", "/metrics?x=1");
    EXPECT_EQ(again.status, 200);
    EXPECT_NE(again.body.find("\noutpost_games_started_total 13\n"), std::string::npos);
}

TEST(HealthServer, HeadHasHeadersOnly) {
    Metrics metrics;
    auto server = start_server(metrics);
    ASSERT_TRUE(server);
    const Reply reply = fetch(server->port(), "HEAD", "/healthz");
    EXPECT_EQ(reply.status, 200);
    EXPECT_NE(reply.head.find("Content-Length: 3\r\n"), std::string::npos);
    EXPECT_EQ(reply.body, "");
    EXPECT_EQ(fetch(server->port(), "HEAD", "/metrics").status, 200);
}

TEST(HealthServer, EverythingElseIsNotFound) {
    Metrics metrics;
    auto server = start_server(metrics);
    ASSERT_TRUE(server);
    const std::uint16_t port = server->port();
    EXPECT_EQ(fetch(port, "GET", "/").status, 404);
    EXPECT_EQ(fetch(port, "GET", "/healthz/").status, 404);
    EXPECT_EQ(fetch(port, "GET", "/metricsx").status, 404);
    EXPECT_EQ(fetch(port, "GET", "/../etc/passwd").status, 404);
    EXPECT_EQ(fetch(port, "POST", "/healthz").status, 404);
    EXPECT_EQ(fetch(port, "PUT", "/metrics").status, 404);
    EXPECT_EQ(fetch(port, "DELETE", "/metrics").status, 404);
    EXPECT_EQ(fetch(port, "OPTIONS", "*").status, 404);
    EXPECT_EQ(fetch(port, "BREW", "/healthz").status, 404);  // a method Beast does not know
    expect_still_serving(port);
}

TEST(HealthServer, PostWithBodyIsNotFound) {
    Metrics metrics;
    auto server = start_server(metrics);
    ASSERT_TRUE(server);
    Client client(server->port());
    ASSERT_TRUE(client.connected());
    ASSERT_TRUE(
        client.send("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                    "Connection: close\r\n\r\nhello"));
    EXPECT_EQ(parse_reply(client.read_to_end().bytes).status, 404);
}

TEST(HealthServer, KeepAliveServesSeveralRequests) {
    Metrics metrics;
    auto server = start_server(metrics);
    ASSERT_TRUE(server);
    Client client(server->port());
    ASSERT_TRUE(client.connected());
    ASSERT_TRUE(client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
    EXPECT_EQ(parse_reply(client.read_response()).body, "ok\n");
    ASSERT_TRUE(client.send("GET /nope HTTP/1.1\r\nHost: x\r\n\r\n"));
    EXPECT_EQ(parse_reply(client.read_response()).status, 404);
    // Two pipelined requests in one write.
    ASSERT_TRUE(
        client.send("HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n"
                    "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
    EXPECT_EQ(parse_reply(client.read_response(/*head=*/true)).status, 200);
    const Reply last = parse_reply(client.read_to_end().bytes);
    EXPECT_EQ(last.status, 200);
    EXPECT_EQ(last.body, "ok\n");
}

TEST(HealthServer, OversizedHeaderIsClosed) {
    Metrics metrics;
    auto server = start_server(metrics);
    ASSERT_TRUE(server);
    {
        Client client(server->port());
        ASSERT_TRUE(client.connected());
        std::string request = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ";
        request += std::string(100 * 1024, 'a');
        request += "\r\n\r\n";
        client.send(request);  // may fail part-way: the server closes as soon as it has had enough
        const Client::Received received = client.read_to_end();
        EXPECT_NE(received.end, Client::End::TimedOut);
        EXPECT_EQ(received.bytes.find("200"), std::string::npos) << received.bytes;
    }
    {
        // Many small headers add up the same way.
        Client client(server->port());
        ASSERT_TRUE(client.connected());
        std::string request = "GET /healthz HTTP/1.1\r\nHost: x\r\n";
        for (int i = 0; i < 2000; ++i) request += "X-H" + std::to_string(i) + ": v\r\n";
        request += "\r\n";
        client.send(request);
        const Client::Received received = client.read_to_end();
        EXPECT_NE(received.end, Client::End::TimedOut);
        EXPECT_EQ(received.bytes.find("200"), std::string::npos);
    }
    {
        // A body over the limit is closed too.
        Client client(server->port());
        ASSERT_TRUE(client.connected());
        std::string request = "POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n";
        request += std::string(100000, 'b');
        client.send(request);
        const Client::Received received = client.read_to_end();
        EXPECT_NE(received.end, Client::End::TimedOut);
        EXPECT_EQ(received.bytes, "");
    }
    expect_still_serving(server->port());
}

TEST(HealthServer, MalformedRequestsAreClosed) {
    Metrics metrics;
    auto server = start_server(metrics);
    ASSERT_TRUE(server);
    const std::vector<std::string> bad = {
        "GARBAGE\r\n\r\n",
        "GET /healthz HTTP/9.9\r\n\r\n",
        "GET  HTTP/1.1\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nNo colon here\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nContent-Length: -4\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        std::string("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 11) + "\r\n\r\n",  // TLS hello
        std::string("GET /he\0althz HTTP/1.1\r\n\r\n", 26),
    };
    for (const std::string& request : bad) {
        Client client(server->port());
        ASSERT_TRUE(client.connected());
        client.send(request);
        const Client::Received received = client.read_to_end();
        EXPECT_NE(received.end, Client::End::TimedOut) << request;
        EXPECT_EQ(received.bytes, "") << request;
    }
    expect_still_serving(server->port());
}

TEST(HealthServer, SlowClientIsCutOffAfterTheReadTimeout) {
    using namespace std::chrono_literals;
    Metrics metrics;
    HealthServer::Options options;
    options.read_timeout = 300ms;
    auto server = start_server(metrics, options);
    ASSERT_TRUE(server);

    Client slow(server->port());
    ASSERT_TRUE(slow.connected());
    const auto begin = std::chrono::steady_clock::now();
    // Trickling bytes does not extend the deadline: it covers the whole request.
    ASSERT_TRUE(slow.send("GET /healthz HTTP/1.1\r\n"));
    for (int i = 0; i < 3; ++i) {
        std::this_thread::sleep_for(100ms);
        slow.send("X-A: b\r\n");
    }
    const Client::Received received = slow.read_to_end();
    EXPECT_NE(received.end, Client::End::TimedOut);
    EXPECT_EQ(received.bytes, "");
    // generous: the timeout is 300 ms
    EXPECT_LT(std::chrono::steady_clock::now() - begin, test_time::scaled(5s));
    expect_still_serving(server->port());
}

TEST(HealthServer, ANewConnectionBeyondTheLimitShedsTheOldestIdleOne) {
    Metrics metrics;
    HealthServer::Options options;
    options.max_connections = 2;
    auto server = start_server(metrics, options);
    ASSERT_TRUE(server);

    Client idle1(server->port());
    Client idle2(server->port());
    ASSERT_TRUE(idle1.connected() && idle2.connected());
    // Make sure both are accepted (and counted) before the third arrives.
    ASSERT_TRUE(idle1.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
    ASSERT_EQ(parse_reply(idle1.read_response()).status, 200);
    ASSERT_TRUE(idle2.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
    ASSERT_EQ(parse_reply(idle2.read_response()).status, 200);

    // The third is served; the oldest idle keep-alive connection made room for it.
    EXPECT_EQ(fetch(server->port(), "GET", "/healthz").status, 200);
    const Client::Received shed = idle1.read_to_end();
    EXPECT_EQ(shed.end, Client::End::Closed);
    EXPECT_EQ(shed.bytes, "");
    ASSERT_TRUE(idle2.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
    EXPECT_EQ(parse_reply(idle2.read_response()).status, 200) << "the younger one stays";
}

TEST(HealthServer, IdleConnectionsAreShedBeforeSlowOnes) {
    using namespace std::chrono_literals;
    Metrics metrics;
    HealthServer::Options options;
    options.max_connections = 3;
    auto server = start_server(metrics, options);
    ASSERT_TRUE(server);

    // The oldest connection is a slow one, half-way through its request...
    Client slow(server->port());
    ASSERT_TRUE(slow.connected());
    ASSERT_TRUE(slow.send("GET /healthz HTTP/1.1\r\n"));
    std::this_thread::sleep_for(200ms);  // let the server read those bytes
    // ...then two idle keep-alive connections.
    Client idle1(server->port());
    Client idle2(server->port());
    for (Client* c : {&idle1, &idle2}) {
        ASSERT_TRUE(c->send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
        ASSERT_EQ(parse_reply(c->read_response()).status, 200);
    }
    // A probe needs room: the oldest idle one goes, not the older slow one.
    EXPECT_EQ(fetch(server->port(), "GET", "/healthz").status, 200);
    EXPECT_EQ(idle1.read_to_end().end, Client::End::Closed);
    ASSERT_TRUE(slow.send("Host: x\r\nConnection: close\r\n\r\n"));
    EXPECT_EQ(parse_reply(slow.read_to_end().bytes).status, 200);
}

TEST(HealthServer, WhenAllAreSlowTheOldestMakesRoom) {
    using namespace std::chrono_literals;
    Metrics metrics;
    HealthServer::Options options;
    options.max_connections = 2;
    auto server = start_server(metrics, options);
    ASSERT_TRUE(server);
    Client slow1(server->port());
    Client slow2(server->port());
    for (Client* c : {&slow1, &slow2}) ASSERT_TRUE(c->send("GET /metrics HTTP/1.1\r\nX: "));
    std::this_thread::sleep_for(200ms);
    EXPECT_EQ(fetch(server->port(), "GET", "/healthz").status, 200);
    const Client::Received shed = slow1.read_to_end();
    EXPECT_EQ(shed.end, Client::End::Closed);
    EXPECT_EQ(shed.bytes, "");
}

TEST(HealthServer, AProbeIsAnsweredWithinASecondWith200IdleAndSlowConnectionsOpen) {
    using namespace std::chrono_literals;
    // Sixteen idle keep-alive connections must not starve the endpoint.
    Metrics metrics;
    auto server = start_server(metrics);  // defaults: 16 connections, 5 s read timeout
    ASSERT_TRUE(server);
    std::vector<std::unique_ptr<Client>> crowd;
    for (int i = 0; i < 200; ++i) {
        crowd.push_back(std::make_unique<Client>(server->port()));
        ASSERT_TRUE(crowd.back()->connected()) << i;
        if (i % 2 == 1) crowd.back()->send("GET /healthz HTTP/1.1\r\nHost: x\r\n");  // slow
    }
    for (int probe = 0; probe < 5; ++probe) {
        // a receive that waits longer fails the probe
        Client client(server->port(), test_time::scaled(1000ms));
        ASSERT_TRUE(client.connected());
        ASSERT_TRUE(client.send("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
        const auto begin = std::chrono::steady_clock::now();
        const Client::Received received = client.read_to_end();
        EXPECT_NE(received.end, Client::End::TimedOut) << "probe " << probe;
        EXPECT_EQ(parse_reply(received.bytes).status, 200) << "probe " << probe;
        EXPECT_LT(std::chrono::steady_clock::now() - begin, test_time::scaled(1s))
            << "probe " << probe;
    }
}

TEST(HealthServer, KeepAliveDoesNotExtendTheConnection) {
    using namespace std::chrono_literals;
    Metrics metrics;
    HealthServer::Options options;
    options.read_timeout = 200ms;
    options.connection_timeout = 600ms;
    auto server = start_server(metrics, options);
    ASSERT_TRUE(server);
    Client client(server->port());
    ASSERT_TRUE(client.connected());
    // A request every 50 ms, each within the read timeout: before, every one re-armed the
    // deadline and the connection lived for ever.
    int answered = 0;
    bool told_to_close = false;
    for (int i = 0; i < 100 && !told_to_close; ++i) {
        if (!client.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")) break;
        const Reply reply = parse_reply(client.read_response());
        if (reply.status != 200) break;
        ++answered;
        told_to_close = reply.head.find("Connection: close") != std::string::npos;
        std::this_thread::sleep_for(50ms);
    }
    EXPECT_TRUE(told_to_close) << answered << " requests answered on one connection";
    EXPECT_GE(answered, 2);
    EXPECT_LT(answered, 100);
    EXPECT_EQ(client.read_to_end().end, Client::End::Closed);
}

TEST(HealthServer, DestructorReturnsPromptlyWithIdleClients) {
    using namespace std::chrono_literals;
    Metrics metrics;
    HealthServer::Options options;
    options.read_timeout = 60s;  // the clients would otherwise be kept for a minute
    auto server = start_server(metrics, options);
    ASSERT_TRUE(server);

    Client idle(server->port());
    Client partial(server->port());
    ASSERT_TRUE(idle.connected() && partial.connected());
    ASSERT_TRUE(idle.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"));
    ASSERT_EQ(parse_reply(idle.read_response()).status, 200);  // now idle in keep-alive
    ASSERT_TRUE(partial.send("GET /metr"));
    std::this_thread::sleep_for(50ms);

    const auto begin = std::chrono::steady_clock::now();
    server.reset();
    // generous; it is immediate in practice (the read timeout would be a minute)
    EXPECT_LT(std::chrono::steady_clock::now() - begin, test_time::scaled(5s));
    EXPECT_NE(idle.read_to_end().end, Client::End::TimedOut);
    EXPECT_NE(partial.read_to_end().end, Client::End::TimedOut);
}

TEST(HealthServer, ManyClientsAtOnce) {
    Metrics metrics;
    auto server = start_server(metrics);
    ASSERT_TRUE(server);
    std::atomic<int> ok{0};
    std::vector<std::thread> threads;
    // Eight clients, each one request at a time, stay under the limit of 16 connections: every
    // one of the 80 requests is answered.
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 10; ++i) {
                metrics.moves_played.fetch_add(1);
                const Reply reply = fetch(server->port(), "GET", i % 2 ? "/metrics" : "/healthz");
                if (reply.status == 200) ok.fetch_add(1);
            }
        });
    }
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(ok.load(), 80);
    expect_still_serving(server->port());
}

TEST(HealthServer, ServesTheStatusPageWithItsBoard) {
    Metrics metrics;
    StatusBoard board;
    board.set_account("OutpostBot", "https://lichess.org");
    StatusBoard::GameEntry entry(&board, "abcd1234");
    GameStatus game;
    game.id = "abcd1234";
    game.fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    entry.publish(game);
    HealthServer::Options options;
    options.status = &board;
    options.health = [] { return std::optional<std::string>("no byte on the event stream"); };
    auto server = start_server(metrics, options);
    ASSERT_TRUE(server);

    const Reply reply = fetch(server->port(), "GET", "/?refresh=1");
    EXPECT_EQ(reply.status, 200);
    EXPECT_NE(reply.head.find("Content-Type: text/html; charset=utf-8\r\n"), std::string::npos);
    EXPECT_NE(reply.head.find("Content-Security-Policy: " + std::string(kStatusPageCsp) + "\r\n"),
              std::string::npos)
        << reply.head;
    EXPECT_NE(reply.head.find("X-Content-Type-Options: nosniff\r\n"), std::string::npos);
    EXPECT_NE(reply.head.find("Referrer-Policy: no-referrer\r\n"), std::string::npos);
    EXPECT_NE(reply.head.find("Cache-Control: no-store\r\n"), std::string::npos);
    EXPECT_NE(reply.body.find("<h1>OutpostBot</h1>"), std::string::npos);
    EXPECT_NE(reply.body.find(R"(data-game="abcd1234")"), std::string::npos);
    EXPECT_NE(reply.body.find(R"(data-sq="e4")"), std::string::npos);
    // What /healthz says, from the same check.
    EXPECT_NE(reply.body.find("/healthz: no byte on the event stream"), std::string::npos);
    EXPECT_EQ(fetch(server->port(), "GET", "/healthz").status, 503);

    const Reply head = fetch(server->port(), "HEAD", "/");
    EXPECT_EQ(head.status, 200);
    EXPECT_EQ(head.body, "");
    EXPECT_EQ(fetch(server->port(), "POST", "/").status, 404);
    EXPECT_EQ(fetch(server->port(), "GET", "/index.html").status, 404);
}

TEST(HealthServer, ServesThePgnFilesOfTheFinishedGamesOnly) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() /
                                      ("outpost-health-pgn-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const std::string pgn = "[Event \"Casual blitz game\"]\n\n1. e4 e5 *\n";
    std::ofstream(dir / "kept0001.pgn") << pgn;
    std::ofstream(dir / "other.pgn") << "not on the list\n";
    std::ofstream(dir / "huge0001.pgn") << std::string(HealthServer::kMaxPgnBytes + 1, 'x');

    Metrics metrics;
    StatusBoard board;
    // An id of other characters: the page links it %-encoded (status_page's path_segment).
    std::ofstream(dir / "odd-id_1.pgn") << pgn;
    for (const char* id : {"kept0001", "gone0001", "huge0001", "odd-id_1"}) {
        StatusBoard::GameEntry entry(&board, id);
        FinishedGameStatus f;
        f.id = id;
        f.pgn_path = (dir / (std::string(id) + ".pgn")).string();
        f.ended_at = std::chrono::system_clock::now();
        entry.finished(f);
    }
    {
        StatusBoard::GameEntry entry(&board, "none0001");  // no file kept
        FinishedGameStatus f;
        f.id = "none0001";
        entry.finished(f);
    }
    HealthServer::Options options;
    options.status = &board;
    auto server = start_server(metrics, options);
    ASSERT_TRUE(server);
    const std::uint16_t port = server->port();

    const Reply kept = fetch(port, "GET", "/pgn/kept0001");
    EXPECT_EQ(kept.status, 200);
    EXPECT_EQ(kept.body, pgn);
    EXPECT_NE(kept.head.find("Content-Type: text/plain; charset=utf-8\r\n"), std::string::npos);
    EXPECT_NE(kept.head.find("X-Content-Type-Options: nosniff\r\n"), std::string::npos);
    const Reply odd = fetch(port, "GET", "/pgn/odd%2Did%5F1");
    EXPECT_EQ(odd.status, 200);
    EXPECT_EQ(odd.body, pgn);
    EXPECT_EQ(fetch(port, "GET", "/pgn/odd%2did%5f1").status, 200);  // either case of hex
    EXPECT_EQ(fetch(port, "GET", "/pgn/odd%2").status, 404);         // a cut escape
    EXPECT_EQ(fetch(port, "GET", "/pgn/odd%zzid").status, 404);      // not hex
    EXPECT_EQ(fetch(port, "GET", "/pgn/gone0001").status, 404);      // the file is not there
    EXPECT_EQ(fetch(port, "GET", "/pgn/huge0001").status, 404);      // beyond kMaxPgnBytes
    EXPECT_EQ(fetch(port, "GET", "/pgn/none0001").status, 404);
    EXPECT_EQ(fetch(port, "GET", "/pgn/other").status, 404);  // a file, but no game of the list
    EXPECT_EQ(fetch(port, "GET", "/pgn/../other.pgn").status, 404);
    EXPECT_EQ(fetch(port, "GET", "/pgn/" + (dir / "other.pgn").string()).status, 404);
    EXPECT_EQ(fetch(port, "GET", "/pgn/").status, 404);
    EXPECT_EQ(fetch(port, "POST", "/pgn/kept0001").status, 404);
    std::filesystem::remove_all(dir);

    // Without a board there is neither a page nor a file.
    auto plain = start_server(metrics);
    ASSERT_TRUE(plain);
    EXPECT_EQ(fetch(plain->port(), "GET", "/").status, 404);
    EXPECT_EQ(fetch(plain->port(), "GET", "/pgn/kept0001").status, 404);
}

TEST(HealthServer, ManyPageRequestsAtOnce) {
    Metrics metrics;
    StatusBoard board;
    std::vector<std::unique_ptr<StatusBoard::GameEntry>> entries;
    for (int i = 0; i < 8; ++i) {
        const std::string id = "game000" + std::to_string(i);
        entries.push_back(std::make_unique<StatusBoard::GameEntry>(&board, id));
        GameStatus g;
        g.id = id;
        g.fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        entries.back()->publish(g);
    }
    HealthServer::Options options;
    options.status = &board;
    auto server = start_server(metrics, options);
    ASSERT_TRUE(server);
    std::atomic<int> pages{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 24; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 10; ++i) {
                // Over the limit of 16, a connection may be closed at once; that is not a failure.
                const Reply reply = fetch(server->port(), "GET", "/");
                if (reply.status == 200 && reply.body.ends_with("</html>")) pages.fetch_add(1);
            }
        });
    }
    // Meanwhile a game publishes its moves: each goes through (no wait on a page).
    for (int ply = 1; ply <= 500; ++ply) {
        GameStatus g;
        g.id = "game0000";
        g.plies = ply;
        entries[0]->publish(g);
    }
    for (auto& thread : threads) thread.join();
    EXPECT_GT(pages.load(), 0);
    EXPECT_EQ(board.snapshot(metrics).games.at(0).plies, 500);
    expect_still_serving(server->port());
}

TEST(HealthServer, EmptyListenMeansDisabled) {
    Metrics metrics;
    HealthServer::Options options;
    options.listen = "";
    HealthServer::StartResult started = HealthServer::start(options, metrics);
    EXPECT_EQ(started.server, nullptr);
    EXPECT_EQ(started.error, "");
}

TEST(HealthServer, BadListenAddressesAreErrors) {
    Metrics metrics;
    for (const char* listen :
         {"nonsense", "127.0.0.1", "127.0.0.1:", "127.0.0.1:99999", "127.0.0.1:-1", "127.0.0.1:+80",
          "127.0.0.1:80x", ":8080", "example.com:8080", "[::1:8080", "256.0.0.1:8080", "[]:8080"}) {
        HealthServer::Options options;
        options.listen = listen;
        HealthServer::StartResult started = HealthServer::start(options, metrics);
        EXPECT_EQ(started.server, nullptr) << listen;
        EXPECT_NE(started.error.find("health.listen"), std::string::npos) << started.error;
        EXPECT_NE(started.error.find(listen), std::string::npos) << started.error;
    }
}

TEST(HealthServer, ParsesListenAddresses) {
    auto v4 = parse_listen_address("127.0.0.1:8080");
    ASSERT_TRUE(v4);
    EXPECT_EQ(v4->host, "127.0.0.1");
    EXPECT_EQ(v4->port, 8080);
    auto local = parse_listen_address("localhost:0");
    ASSERT_TRUE(local);
    EXPECT_EQ(local->host, "127.0.0.1");
    EXPECT_EQ(local->port, 0);
    auto v6 = parse_listen_address("[::1]:9100");
    ASSERT_TRUE(v6);
    EXPECT_EQ(v6->host, "::1");
    EXPECT_EQ(v6->port, 9100);
    auto any = parse_listen_address("0.0.0.0:65535");
    ASSERT_TRUE(any);
    EXPECT_EQ(any->port, 65535);
}

TEST(HealthServer, PortInUseIsAnError) {
    Metrics metrics;
    auto first = start_server(metrics);
    ASSERT_TRUE(first);
    HealthServer::Options options;
    options.listen = "127.0.0.1:" + std::to_string(first->port());
    HealthServer::StartResult second = HealthServer::start(options, metrics);
    EXPECT_EQ(second.server, nullptr);
    EXPECT_NE(second.error.find("cannot bind"), std::string::npos) << second.error;
    EXPECT_NE(second.error.find(options.listen), std::string::npos) << second.error;
    expect_still_serving(first->port());
}

TEST(HealthServer, Ipv6LoopbackWhenAvailable) {
    Metrics metrics;
    HealthServer::Options options;
    options.listen = "[::1]:0";
    HealthServer::StartResult started = HealthServer::start(options, metrics);
    if (!started.server) GTEST_SKIP() << "no IPv6 loopback here: " << started.error;
    EXPECT_TRUE(started.server->address().starts_with("[::1]:")) << started.server->address();
}

}  // namespace
}  // namespace service::test
