// HealthServer: a small HTTP/1.1 endpoint serving GET /healthz, GET /metrics and the status page
// (GET / and the PGN files it links) on one I/O thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "service/ops/metrics.hpp"
#include "service/ops/status_board.hpp"

namespace service {

// Only GET and HEAD of /healthz, /metrics and, with a StatusBoard, / (the status page) and
// /pgn/<game id> are served (a query string is ignored); every other method or path gets 404.
// /pgn/ serves only the file a session wrote for a game on the page's list of finished games (the
// id is a key to that list, never a path), at most kMaxPgnBytes. A request
// that does not parse, or whose header or body exceeds max_request_bytes, or that is not
// complete within read_timeout, is closed without a reply.
//
// It cannot be starved: a connection lives at most connection_timeout from its
// accept, however many keep-alive requests it makes (the reply says `Connection: close` once
// less than read_timeout is left). A new connection beyond max_connections makes room: the
// oldest idle connection (waiting for a request, no byte of it received) is closed, else the
// oldest one still sending its request; only when all are being answered is the new one closed.
// So a probe is answered at once however many idle or slow connections are open.
class HealthServer {
  public:
    // Returns why the daemon is unhealthy (one line), or nullopt when it is healthy. It runs on
    // the server's I/O thread, so it must be quick and thread-safe; an exception counts as
    // unhealthy.
    using HealthCheck = std::function<std::optional<std::string>()>;

    struct Options {
        // "host:port" with host an IPv4 address, a bracketed IPv6 address or "localhost"; port 0
        // picks a free port (see port()). Empty: the endpoint is off. A non-loopback host is
        // served as configured; the config layer warns about it.
        std::string listen = "127.0.0.1:8080";
        HealthCheck health;                            // empty: always healthy
        std::size_t max_request_bytes = 8 * 1024;      // header limit, and separately body limit
        std::chrono::milliseconds read_timeout{5000};  // whole request, and writing the reply
        std::chrono::milliseconds connection_timeout{15000};  // whole connection, from accept
        std::size_t max_connections = 16;
        // The status page's board; null: no page (/ and /pgn/ get 404). Must outlive the server.
        const StatusBoard* status = nullptr;
    };
    static constexpr std::size_t kMaxPgnBytes = 1 << 20;

    // `server` is null when listen is empty (disabled; error empty) or on failure (error says
    // what was wrong, naming health.listen). Never throws for bad input.
    struct StartResult {
        std::unique_ptr<HealthServer> server;
        std::string error;
    };

    // Binds, listens and starts the I/O thread. `metrics` must outlive the server.
    [[nodiscard]] static StartResult start(Options options, const Metrics& metrics);

    // Stops accepting, closes open connections and joins the I/O thread.
    ~HealthServer();
    HealthServer(const HealthServer&) = delete;
    HealthServer& operator=(const HealthServer&) = delete;

    [[nodiscard]] std::uint16_t port() const;   // the bound port (useful with port 0)
    [[nodiscard]] std::string address() const;  // the bound "host:port", e.g. "127.0.0.1:8080"

  private:
    struct Impl;
    explicit HealthServer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// Parsed form of a listen address; exposed for tests and for `check-config`-style callers.
struct ListenAddress {
    std::string host;  // without brackets; "localhost" is turned into 127.0.0.1
    std::uint16_t port = 0;
};
// nullopt when `text` is not "host:port" as described in HealthServer::Options::listen.
[[nodiscard]] std::optional<ListenAddress> parse_listen_address(const std::string& text);

// Why HealthServer::start could not listen on `listen` on this machine now (the same message it
// would give: an address of another host, a port in use or below 1024 without the right), or
// empty when it could; binds a socket the same way and closes it again. check-config and run's
// start-up checks ask it, so a port in use is found before logging in.
[[nodiscard]] std::string listen_problem(const std::string& listen);

}  // namespace service
