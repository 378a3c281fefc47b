// The tests' one loopback HTTP/1.1 server: scripted replies and raw streams, each connection
// served on its own thread; every request is recorded.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace test_support {

struct Request {
    std::string method;
    std::string target;
    std::string body;
    std::map<std::string, std::string> headers;  // lowercase names
    int connection = 0;                          // 1-based index of the connection it arrived on
    [[nodiscard]] std::string header(const std::string& name) const {
        auto it = headers.find(name);
        return it == headers.end() ? std::string() : it->second;
    }
};

// One accepted connection with its request; the handler answers through it.
class Connection {
  public:
    Connection(int fd, Request request, const std::atomic<bool>& stopping)
        : fd_(fd), request_(std::move(request)), stopping_(stopping) {}

    [[nodiscard]] const Request& request() const { return request_; }

    // A whole reply; the connection closes afterwards.
    void respond(int status, std::string_view body,
                 std::string_view content_type = "application/json");
    // Chunked NDJSON reply: headers now, then chunks.
    void begin_stream(int status = 200, std::string_view content_type = "application/x-ndjson");
    bool send_chunk(std::string_view data);
    void end_stream();  // the terminating zero-length chunk: a clean end of the body
    void send_raw(std::string_view bytes);
    // Closes the socket abruptly (e.g. in the middle of a chunk).
    void drop();
    // Waits until the client closes its side; false on timeout or server stop.
    bool wait_peer_closed(std::chrono::milliseconds max);
    // Sleeps unless the server stops first.
    void sleep(std::chrono::milliseconds d);
    // Holds the reply until the test sets `release` (or the server stops, or `max` passes), so
    // a test can check what happens while a request is held without guessing how long that takes.
    void hold_until(const std::atomic<bool>& release, std::chrono::milliseconds max);

  private:
    bool write_all(std::string_view bytes);
    int fd_;
    Request request_;
    const std::atomic<bool>& stopping_;
    bool closed_ = false;
};

class TestServer {
  public:
    using Handler = std::function<void(Connection&)>;

    explicit TestServer(Handler handler);
    ~TestServer();
    TestServer(const TestServer&) = delete;
    TestServer& operator=(const TestServer&) = delete;

    [[nodiscard]] std::string base_url() const;
    [[nodiscard]] unsigned short port() const { return port_; }
    [[nodiscard]] std::vector<Request> requests() const;
    // Requests whose target starts with `prefix`.
    [[nodiscard]] std::size_t count(std::string_view prefix) const;
    void stop();

    struct Impl;

  private:
    void accept_loop();
    void serve(int fd, int index);

    Handler handler_;
    std::unique_ptr<Impl> impl_;
    unsigned short port_ = 0;
    std::atomic<bool> stopping_{false};
    mutable std::mutex mutex_;
    std::vector<Request> requests_;
    std::vector<std::thread> workers_;
    std::vector<int> open_fds_;
    std::thread acceptor_thread_;
    int connections_ = 0;
};

}  // namespace test_support
