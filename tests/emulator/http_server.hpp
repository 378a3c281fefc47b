// A loopback HTTP/1.1 server (Boost.Beast, one thread per connection) that hands requests to
// a handler and runs NDJSON streams on their connections; the only Beast code of the emulator.
#pragma once

#include <functional>
#include <memory>

#include "http_types.hpp"

namespace emu {

class HttpServer {
  public:
    using Handler = std::function<Routed(const Request&)>;
    explicit HttpServer(Handler handler);
    ~HttpServer();
    HttpServer(const HttpServer&) = delete;
    HttpServer& operator=(const HttpServer&) = delete;

    // Binds 127.0.0.1:port (0 = any free port) and starts accepting; returns the port.
    // Throws std::runtime_error when the port cannot be bound.
    int start(int port);
    // Stops accepting, wakes every connection thread and joins them all.
    void stop();
    int port() const;

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace emu
