// Beast implementation of the emulator's HTTP server: a polling accept loop, a thread per
// connection with keep-alive, plain replies, and chunked NDJSON streams via run_stream.
#include "http_server.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <list>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "stream_writer.hpp"

namespace emu {

namespace net = boost::asio;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;

namespace {

constexpr int POLL_MS = 50;
constexpr int IDLE_LIMIT_MS = 120'000;  // an idle keep-alive connection is closed after this

class SocketSink : public ByteSink {
  public:
    explicit SocketSink(tcp::socket& s) : socket_(s) {}
    bool write(std::string_view data) override {
        boost::system::error_code ec;
        net::write(socket_, net::buffer(data.data(), data.size()), ec);
        return !ec;
    }
    bool peer_gone() override {
        pollfd p{socket_.native_handle(), POLLIN | POLLRDHUP, 0};
        if (::poll(&p, 1, 0) <= 0) return false;
        if (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) return true;
        char c;
        return ::recv(socket_.native_handle(), &c, 1, MSG_PEEK | MSG_DONTWAIT) == 0;
    }

  private:
    tcp::socket& socket_;
};

const char* reason(int status) {
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

struct HttpServer::Impl {
    Handler handler;
    net::io_context io;
    tcp::acceptor acceptor{io};
    std::atomic<bool> stopping{false};
    std::thread accept_thread;
    std::mutex mutex;
    struct Conn {
        std::thread thread;
        std::shared_ptr<std::atomic<bool>> done;
    };
    std::list<Conn> conns;
    std::set<int> live_fds;
    int port = 0;

    void accept_loop() {
        while (!stopping) {
            pollfd p{acceptor.native_handle(), POLLIN, 0};
            if (::poll(&p, 1, POLL_MS) <= 0) continue;
            boost::system::error_code ec;
            tcp::socket socket(io);
            acceptor.accept(socket, ec);
            if (ec) continue;
            socket.set_option(tcp::no_delay(true), ec);
            std::lock_guard lock(mutex);
            reap();
            if (stopping) break;
            auto done = std::make_shared<std::atomic<bool>>(false);
            live_fds.insert(socket.native_handle());
            conns.push_back({std::thread([this, s = std::move(socket), done]() mutable {
                                 serve(s);
                                 done->store(true);
                             }),
                             done});
        }
    }

    // Joins finished connection threads (mutex held).
    void reap() {
        for (auto it = conns.begin(); it != conns.end();) {
            if (it->done->load()) {
                it->thread.join();
                it = conns.erase(it);
            } else {
                ++it;
            }
        }
    }

    bool wait_readable(tcp::socket& s, boost::beast::flat_buffer& buffer) {
        if (buffer.size() > 0) return true;
        for (int waited = 0; waited < IDLE_LIMIT_MS && !stopping; waited += POLL_MS) {
            pollfd p{s.native_handle(), POLLIN, 0};
            if (::poll(&p, 1, POLL_MS) > 0) return true;
        }
        return false;
    }

    void serve(tcp::socket& socket) {
        boost::beast::flat_buffer buffer;
        while (!stopping) {
            if (!wait_readable(socket, buffer)) break;
            http::request<http::string_body> req;
            boost::system::error_code ec;
            http::read(socket, buffer, req, ec);
            if (ec) break;
            Request r;
            r.method = std::string(req.method_string());
            const std::string target(req.target());
            const auto q = target.find('?');
            r.path = target.substr(0, q);
            if (q != std::string::npos) r.query = target.substr(q + 1);
            r.authorization = std::string(req[http::field::authorization]);
            r.content_type = std::string(req[http::field::content_type]);
            r.body = req.body();
            Routed routed = handler(r);
            if (routed.stream) {
                run(socket, *routed.stream);
                break;  // a stream always ends its connection
            }
            http::response<http::string_body> res{static_cast<http::status>(routed.reply->status),
                                                  req.version()};
            res.reason(reason(routed.reply->status));
            res.set(http::field::server, "outpost-emulator");
            res.set(http::field::content_type, routed.reply->content_type);
            for (const auto& [name, value] : routed.reply->headers) res.set(name, value);
            res.keep_alive(req.keep_alive());
            res.body() = std::move(routed.reply->body);
            res.prepare_payload();
            http::write(socket, res, ec);
            if (ec || !req.keep_alive()) break;
        }
        close(socket);
    }

    void run(tcp::socket& socket, const StreamStart& stream) {
        const std::string head =
            "HTTP/1.1 200 OK\r\nServer: outpost-emulator\r\nContent-Type: application/x-ndjson\r\n"
            "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
        SocketSink sink(socket);
        StreamEnd end = StreamEnd::WRITE_FAILED;
        if (sink.write(head)) end = run_stream(stream, sink);
        if (stream.queue) stream.queue->close("connection ended");
        stream.on_end(end, 0);
    }

    void close(tcp::socket& socket) {
        {
            std::lock_guard lock(mutex);
            live_fds.erase(socket.native_handle());
        }
        boost::system::error_code ec;
        socket.shutdown(tcp::socket::shutdown_both, ec);
        socket.close(ec);
    }
};

HttpServer::HttpServer(Handler handler) : impl_(std::make_unique<Impl>()) {
    impl_->handler = std::move(handler);
}

HttpServer::~HttpServer() { stop(); }

int HttpServer::start(int port) {
    boost::system::error_code ec;
    const tcp::endpoint ep(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port));
    impl_->acceptor.open(ep.protocol(), ec);
    if (!ec) impl_->acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
    if (!ec) impl_->acceptor.bind(ep, ec);
    if (!ec) impl_->acceptor.listen(net::socket_base::max_listen_connections, ec);
    if (ec)
        throw std::runtime_error("emulator: cannot listen on 127.0.0.1:" + std::to_string(port) +
                                 ": " + ec.message());
    impl_->port = impl_->acceptor.local_endpoint().port();
    impl_->accept_thread = std::thread([this] { impl_->accept_loop(); });
    return impl_->port;
}

void HttpServer::stop() {
    if (!impl_ || impl_->stopping.exchange(true)) return;
    if (impl_->accept_thread.joinable()) impl_->accept_thread.join();
    boost::system::error_code ec;
    impl_->acceptor.close(ec);
    std::list<Impl::Conn> conns;
    {
        std::lock_guard lock(impl_->mutex);
        // Wake threads blocked in read or write; each closes its own socket afterwards.
        for (int fd : impl_->live_fds) ::shutdown(fd, SHUT_RDWR);
        conns.swap(impl_->conns);
    }
    for (auto& c : conns) c.thread.join();
}

int HttpServer::port() const { return impl_->port; }

}  // namespace emu
