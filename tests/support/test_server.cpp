// Loopback HTTP/1.1 test server: Beast parses requests, replies are written as raw bytes so
// tests control chunk boundaries, drops and silence exactly.
#include "test_server.hpp"

#include <sys/socket.h>
#include <sys/time.h>

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <cctype>
#include <cerrno>
#include <cstdio>

namespace test_support {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

struct TestServer::Impl {
    asio::io_context ioc;
    tcp::acceptor acceptor{ioc};
};

namespace {
std::string reason(int status) {
    switch (status) {
        case 200:
            return "OK";
        case 400:
            return "Bad Request";
        case 401:
            return "Unauthorized";
        case 404:
            return "Not Found";
        case 429:
            return "Too Many Requests";
        case 500:
            return "Internal Server Error";
        case 502:
            return "Bad Gateway";
        case 503:
            return "Service Unavailable";
        default:
            return "Status";
    }
}
}  // namespace

bool Connection::write_all(std::string_view bytes) {
    while (!bytes.empty() && !closed_) {
        const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return !closed_;
}

void Connection::respond(int status, std::string_view body, std::string_view content_type) {
    std::string out = "HTTP/1.1 " + std::to_string(status) + " " + reason(status) + "\r\n";
    out += "Content-Type: " + std::string(content_type) + "\r\n";
    out += "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
    out += body;
    write_all(out);
}

void Connection::begin_stream(int status, std::string_view content_type) {
    std::string out = "HTTP/1.1 " + std::to_string(status) + " " + reason(status) + "\r\n";
    out += "Content-Type: " + std::string(content_type) + "\r\n";
    out += "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
    write_all(out);
}

bool Connection::send_chunk(std::string_view data) {
    if (data.empty()) return true;  // an empty chunk would end the body
    char size[32];
    std::snprintf(size, sizeof size, "%zx\r\n", data.size());
    std::string out = size;
    out += data;
    out += "\r\n";
    return write_all(out);
}

void Connection::end_stream() { write_all("0\r\n\r\n"); }

void Connection::send_raw(std::string_view bytes) { write_all(bytes); }

void Connection::drop() {
    if (closed_) return;
    ::shutdown(fd_, SHUT_RDWR);
    closed_ = true;
}

bool Connection::wait_peer_closed(std::chrono::milliseconds max) {
    timeval tv{0, 20000};
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    const auto deadline = std::chrono::steady_clock::now() + max;
    char buf[256];
    while (!stopping_ && !closed_ && std::chrono::steady_clock::now() < deadline) {
        const ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
        if (n == 0) return true;
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) return true;
    }
    return false;
}

void Connection::sleep(std::chrono::milliseconds d) {
    const auto deadline = std::chrono::steady_clock::now() + d;
    while (!stopping_ && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

void Connection::hold_until(const std::atomic<bool>& release, std::chrono::milliseconds max) {
    const auto deadline = std::chrono::steady_clock::now() + max;
    while (!release && !stopping_ && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

TestServer::TestServer(Handler handler)
    : handler_(std::move(handler)), impl_(std::make_unique<Impl>()) {
    const tcp::endpoint ep(asio::ip::address_v4::loopback(), 0);
    impl_->acceptor.open(ep.protocol());
    impl_->acceptor.set_option(tcp::acceptor::reuse_address(true));
    impl_->acceptor.bind(ep);
    impl_->acceptor.listen();
    port_ = impl_->acceptor.local_endpoint().port();
    acceptor_thread_ = std::thread([this] { accept_loop(); });
}

TestServer::~TestServer() { stop(); }

std::string TestServer::base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }

std::vector<Request> TestServer::requests() const {
    std::lock_guard lock(mutex_);
    return requests_;
}

std::size_t TestServer::count(std::string_view prefix) const {
    std::lock_guard lock(mutex_);
    return static_cast<std::size_t>(std::count_if(
        requests_.begin(), requests_.end(),
        [&](const Request& r) { return std::string_view(r.target).starts_with(prefix); }));
}

void TestServer::accept_loop() {
    while (!stopping_) {
        auto socket = std::make_shared<tcp::socket>(impl_->ioc);
        boost::system::error_code ec;
        impl_->acceptor.accept(*socket, ec);
        if (stopping_) break;
        if (ec) continue;
        std::lock_guard lock(mutex_);
        const int index = ++connections_;
        const int fd = socket->native_handle();
        open_fds_.push_back(fd);
        workers_.emplace_back([this, socket, fd, index] {
            serve(fd, index);
            std::lock_guard inner(mutex_);
            open_fds_.erase(std::remove(open_fds_.begin(), open_fds_.end(), fd), open_fds_.end());
            boost::system::error_code ignored;
            socket->close(ignored);  // closed under the lock: stop() never shuts a reused fd
        });
    }
}

void TestServer::serve(int fd, int index) {
    // Reads the request through a non-owning socket view of the same descriptor.
    asio::io_context ioc;
    tcp::socket view(ioc);
    boost::system::error_code ec;
    view.assign(tcp::v4(), ::dup(fd), ec);
    if (ec) return;
    boost::beast::flat_buffer buffer;
    http::request<http::string_body> req;
    http::read(view, buffer, req, ec);
    view.close(ec);
    if (stopping_) return;
    if (ec) return;
    Request r;
    r.method = std::string(req.method_string());
    r.target = std::string(req.target());
    r.body = req.body();
    r.connection = index;
    for (const auto& field : req) {
        std::string name(field.name_string());
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        r.headers[name] = std::string(field.value());
    }
    {
        std::lock_guard lock(mutex_);
        requests_.push_back(r);
    }
    Connection conn(fd, std::move(r), stopping_);
    try {
        handler_(conn);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "test server handler threw: %s\n", e.what());
    }
}

void TestServer::stop() {
    if (stopping_.exchange(true)) return;
    {
        // Unblocks accept() with a throwaway connection.
        asio::io_context ioc;
        tcp::socket s(ioc);
        boost::system::error_code ec;
        s.connect(tcp::endpoint(asio::ip::address_v4::loopback(), port_), ec);
    }
    if (acceptor_thread_.joinable()) acceptor_thread_.join();
    std::vector<std::thread> workers;
    {
        std::lock_guard lock(mutex_);
        for (int fd : open_fds_) ::shutdown(fd, SHUT_RDWR);
        workers.swap(workers_);
    }
    for (auto& t : workers) t.join();
    boost::system::error_code ec;
    impl_->acceptor.close(ec);
}

}  // namespace test_support
