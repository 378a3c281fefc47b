// HealthServer's Boost.Beast implementation: accept loop, per-connection sessions, routing.
#include "service/ops/health_server.hpp"

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <exception>
#include <fstream>
#include <iterator>
#include <list>
#include <memory>
#include <optional>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>

#include "common/bounded_file.hpp"
#include "service/ops/status_page.hpp"

namespace service {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

namespace {

constexpr std::size_t kMaxReasonBytes = 200;
constexpr auto kAcceptRetryDelay = std::chrono::milliseconds(100);

std::optional<std::uint16_t> parse_port(std::string_view text) {
    if (text.empty() || text.size() > 5) return std::nullopt;
    unsigned value = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    if (value > 65535) return std::nullopt;
    return static_cast<std::uint16_t>(value);
}

std::string quote(std::string_view text) { return "\"" + std::string(text) + "\""; }

// One line, bounded: the 503 body must not let a health callback inject headers or bulk.
std::string one_line(std::string text) {
    if (text.size() > kMaxReasonBytes) text.resize(kMaxReasonBytes);
    for (char& c : text) {
        if (c == '\r' || c == '\n') c = ' ';
    }
    if (text.empty()) text = "unhealthy";
    return text + "\n";
}

// A %-encoded path segment decoded (the status page encodes every id character but letters and
// digits); none for a bad escape.
std::optional<std::string> percent_decoded(std::string_view segment) {
    std::string out;
    const auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
    };
    for (std::size_t i = 0; i < segment.size(); ++i) {
        if (segment[i] != '%') {
            out += segment[i];
            continue;
        }
        if (i + 2 >= segment.size()) return std::nullopt;
        const int high = hex(segment[i + 1]), low = hex(segment[i + 2]);
        if (high < 0 || low < 0) return std::nullopt;
        out += char(high * 16 + low);
        i += 2;
    }
    return out;
}

// A file's bytes, or none when it is not a regular file, cannot be read or is larger than `max`.
std::optional<std::string> read_small_file(const std::string& path, std::size_t max) {
    auto text = common::read_bounded_file(path, max);
    if (!text) return std::nullopt;
    return std::move(*text);
}

}  // namespace

std::optional<ListenAddress> parse_listen_address(const std::string& text) {
    const auto colon = text.rfind(':');
    if (colon == std::string::npos) return std::nullopt;
    std::string host = text.substr(0, colon);
    const auto port = parse_port(std::string_view(text).substr(colon + 1));
    if (!port) return std::nullopt;
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
        host = host.substr(1, host.size() - 2);
        error_code ec;
        asio::ip::make_address_v6(host, ec);
        if (ec) return std::nullopt;
        return ListenAddress{host, *port};
    }
    if (host == "localhost") return ListenAddress{"127.0.0.1", *port};
    error_code ec;
    asio::ip::make_address(host, ec);
    if (ec) return std::nullopt;
    return ListenAddress{host, *port};
}

namespace {

class Session;

// What sessions need from the server; it outlives them (see Impl's member order).
struct SessionShared {
    SessionShared(HealthServer::Options opts, const Metrics& m)
        : options(std::move(opts)), metrics(m) {}
    HealthServer::Options options;
    const Metrics& metrics;
    // Touched only on the I/O thread, or after it was joined (sessions freed with io_context).
    std::size_t active_connections = 0;
    std::size_t closing_connections = 0;  // closed, waiting for their handlers to unwind
    std::list<Session*> sessions;         // oldest first; each removes itself when freed

    // Closes the oldest idle connection, else the oldest one still reading its request, to make
    // room for a new one. False when every connection is writing its reply.
    bool shed_one();
};

}  // namespace

struct HealthServer::Impl {
    Impl(Options opts, const Metrics& m) : shared(std::move(opts), m) {}

    SessionShared shared;
    tcp::endpoint bound;  // written before the I/O thread starts, then only read
    // Declared after `shared`, so io_context (and the sessions its pending handlers own) is
    // destroyed first.
    asio::io_context ioc;
    tcp::acceptor acceptor{ioc};
    asio::steady_timer accept_retry{ioc};
    std::thread thread;

    void accept();
    void run() {
        // A handler that throws (e.g. bad_alloc while rendering) loses its connection, not
        // the server: unwinding frees that session, and run() is resumed.
        for (;;) {
            try {
                ioc.run();
                return;
            } catch (...) {}
        }
    }
};

namespace {

class Session : public std::enable_shared_from_this<Session> {
  public:
    using Clock = std::chrono::steady_clock;

    Session(SessionShared& server, tcp::socket socket)
        : server_(server),
          stream_(std::move(socket)),
          buffer_(2 * server.options.max_request_bytes + 1024),
          deadline_(Clock::now() + server.options.connection_timeout) {
        ++server_.active_connections;
        server_.sessions.push_back(this);
        position_ = std::prev(server_.sessions.end());
    }
    ~Session() {
        --server_.active_connections;
        if (closed_) --server_.closing_connections;
        server_.sessions.erase(position_);
    }
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    void read() {
        writing_ = false;
        parser_.emplace();
        parser_->header_limit(static_cast<std::uint32_t>(
            std::min<std::size_t>(server_.options.max_request_bytes, UINT32_MAX)));
        parser_->body_limit(server_.options.max_request_bytes);
        // An absolute deadline for the whole request, so a client trickling bytes cannot
        // hold the connection longer than read_timeout, nor past the connection's own deadline.
        stream_.expires_at(step_deadline());
        http::async_read(
            stream_, buffer_, *parser_,
            [self = shared_from_this()](error_code ec, std::size_t) { self->on_read(ec); });
    }

    [[nodiscard]] bool closed() const { return closed_; }
    [[nodiscard]] bool writing() const { return writing_; }
    // Waiting for a request of which no byte has come: the first to go when room is needed.
    [[nodiscard]] bool idle() const {
        return !writing_ && buffer_.size() == 0 && (!parser_ || !parser_->got_some());
    }

    void close() {
        if (!closed_) {
            closed_ = true;
            ++server_.closing_connections;
        }
        error_code ignored;
        stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
        stream_.socket().close(ignored);
    }

  private:
    Clock::time_point step_deadline() const {
        return std::min(Clock::now() + server_.options.read_timeout, deadline_);
    }

    void on_read(error_code ec) {
        // End of stream, timeout, a parse error or an exceeded limit: close without a reply.
        if (ec || closed_) return close();
        const auto& request = parser_->get();
        build_response(request);
        // Keep-alive never extends the connection: with less than a request's time left, the
        // reply says so and the client opens a new connection for its next request.
        if (deadline_ - Clock::now() < server_.options.read_timeout) response_.keep_alive(false);
        const bool keep_alive = response_.keep_alive();
        writing_ = true;
        stream_.expires_at(step_deadline());
        http::async_write(stream_, response_,
                          [self = shared_from_this(), keep_alive](error_code ec2, std::size_t) {
                              if (ec2 || !keep_alive || self->closed_) return self->close();
                              self->read();
                          });
    }

    void build_response(const http::request<http::string_body>& request) {
        std::string_view target(request.target().data(), request.target().size());
        target = target.substr(0, target.find('?'));
        const bool get = request.method() == http::verb::get;
        const bool head = request.method() == http::verb::head;

        http::status status = http::status::not_found;
        std::string body = "not found\n";
        std::string_view content_type = "text/plain; charset=utf-8";
        const StatusBoard* board = server_.options.status;
        constexpr std::string_view kPgnPrefix = "/pgn/";
        bool page = false;
        if ((get || head) && target == "/healthz") {
            std::optional<std::string> problem = check_health();
            status = problem ? http::status::service_unavailable : http::status::ok;
            body = problem ? one_line(std::move(*problem)) : "ok\n";
        } else if ((get || head) && target == "/metrics") {
            status = http::status::ok;
            body = render_prometheus(server_.metrics);
            content_type = kPrometheusContentType;
        } else if ((get || head) && board && target == "/") {
            StatusSnapshot snapshot = board->snapshot(server_.metrics);
            snapshot.health_problem = check_health();
            status = http::status::ok;
            body = render_status_page(snapshot);
            content_type = "text/html; charset=utf-8";
            page = true;
        } else if ((get || head) && board && target.starts_with(kPgnPrefix)) {
            const auto id = percent_decoded(target.substr(kPgnPrefix.size()));
            const auto path = id ? board->pgn_path(*id) : std::nullopt;
            auto text = path ? read_small_file(*path, HealthServer::kMaxPgnBytes) : std::nullopt;
            if (text) {
                status = http::status::ok;
                body = std::move(*text);
            }
        }

        response_ = {};
        response_.version(request.version());
        response_.result(status);
        response_.set(http::field::server, "outpost");
        response_.set(http::field::content_type,
                      beast::string_view(content_type.data(), content_type.size()));
        response_.set(http::field::cache_control, "no-store");
        response_.set("X-Content-Type-Options", "nosniff");
        if (page) {
            response_.set("Content-Security-Policy",
                          beast::string_view(kStatusPageCsp.data(), kStatusPageCsp.size()));
            response_.set("Referrer-Policy", "no-referrer");
            response_.set("X-Frame-Options", "DENY");
        }
        response_.keep_alive(request.keep_alive());
        response_.body() = std::move(body);
        response_.prepare_payload();
        if (head) response_.body().clear();  // Content-Length stays that of the GET body
    }

    std::optional<std::string> check_health() const {
        const auto& health = server_.options.health;
        if (!health) return std::nullopt;
        try {
            return health();
        } catch (const std::exception& e) {
            return std::string("health check failed: ") + e.what();
        } catch (...) {
            return std::string("health check failed");
        }
    }

    SessionShared& server_;
    beast::tcp_stream stream_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    http::response<http::string_body> response_;
    const Clock::time_point deadline_;  // of the whole connection: keep-alive does not move it
    std::list<Session*>::iterator position_;
    bool writing_ = false;
    bool closed_ = false;
};

bool SessionShared::shed_one() {
    for (const bool idle_only : {true, false}) {
        for (Session* s : sessions) {
            if (s->closed() || s->writing() || (idle_only && !s->idle())) continue;
            s->close();
            return true;
        }
    }
    return false;
}

}  // namespace

void HealthServer::Impl::accept() {
    acceptor.async_accept([this](error_code ec, tcp::socket socket) {
        if (ec == asio::error::operation_aborted || !acceptor.is_open()) return;
        if (ec) {
            // E.g. out of file descriptors: back off instead of spinning on the error.
            accept_retry.expires_after(kAcceptRetryDelay);
            accept_retry.async_wait([this](error_code wait_ec) {
                if (!wait_ec) accept();
            });
            return;
        }
        // Connections already closed but not yet unwound do not count: they go within a turn.
        const bool full = shared.active_connections - shared.closing_connections >=
                          shared.options.max_connections;
        if (full && !shared.shed_one()) {
            error_code ignored;
            socket.shutdown(tcp::socket::shutdown_both, ignored);
            socket.close(ignored);
        } else {
            std::make_shared<Session>(shared, std::move(socket))->read();
        }
        accept();
    });
}

namespace {

const char* const kListenFormat =
    "health.listen: expected host:port with an IP address (IPv6 in brackets) or "
    "localhost and a port 0-65535, like 127.0.0.1:8080, got ";

// Opens `acceptor` on `address`, bound and listening; the error naming health.listen, or empty.
std::string open_and_listen(tcp::acceptor& acceptor, const ListenAddress& address,
                            const std::string& listen) {
    error_code ec;
    const tcp::endpoint endpoint(asio::ip::make_address(address.host, ec), address.port);
    auto fail = [&](std::string_view what) {
        return "health.listen: cannot " + std::string(what) + " on " + quote(listen) + ": " +
               ec.message();
    };
    if (ec) return fail("parse the address");
    if (acceptor.open(endpoint.protocol(), ec); ec) return fail("open a socket");
    // Lets a restarted daemon bind while old connections linger in TIME_WAIT.
    if (acceptor.set_option(tcp::acceptor::reuse_address(true), ec); ec)
        return fail("set SO_REUSEADDR");
    if (acceptor.bind(endpoint, ec); ec) return fail("bind");
    if (acceptor.listen(asio::socket_base::max_listen_connections, ec); ec) return fail("listen");
    return {};
}

}  // namespace

std::string listen_problem(const std::string& listen) {
    if (listen.empty()) return {};
    const auto address = parse_listen_address(listen);
    if (!address) return kListenFormat + quote(listen);
    asio::io_context ioc;
    tcp::acceptor acceptor(ioc);
    std::string error = open_and_listen(acceptor, *address, listen);
    error_code ignored;
    acceptor.close(ignored);
    return error;
}

HealthServer::StartResult HealthServer::start(Options options, const Metrics& metrics) {
    if (options.listen.empty()) return {};
    const std::string listen = options.listen;
    const auto address = parse_listen_address(listen);
    if (!address) return {nullptr, kListenFormat + quote(listen)};
    options.max_connections = std::max<std::size_t>(options.max_connections, 1);
    options.max_request_bytes = std::max<std::size_t>(options.max_request_bytes, 256);
    options.read_timeout = std::max(options.read_timeout, std::chrono::milliseconds(1));
    options.connection_timeout = std::max(options.connection_timeout, std::chrono::milliseconds(1));

    auto impl = std::make_unique<Impl>(std::move(options), metrics);
    if (std::string error = open_and_listen(impl->acceptor, *address, listen); !error.empty())
        return {nullptr, std::move(error)};
    error_code ec;
    impl->bound = impl->acceptor.local_endpoint(ec);
    if (ec)
        return {nullptr, "health.listen: cannot read the bound address on " + quote(listen) + ": " +
                             ec.message()};
    impl->accept();
    try {
        impl->thread = std::thread([raw = impl.get()] { raw->run(); });
    } catch (const std::system_error& e) {
        return {nullptr, "health.listen: cannot start the server thread: " + std::string(e.what())};
    }
    return {std::unique_ptr<HealthServer>(new HealthServer(std::move(impl))), {}};
}

HealthServer::HealthServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

HealthServer::~HealthServer() {
    // stop() abandons pending operations at once (an idle keep-alive client must not delay
    // shutdown); the sessions they own are freed when io_context is destroyed, after the join.
    impl_->ioc.stop();
    if (impl_->thread.joinable()) impl_->thread.join();
    error_code ignored;
    impl_->acceptor.close(ignored);
}

std::uint16_t HealthServer::port() const { return impl_->bound.port(); }

std::string HealthServer::address() const {
    const tcp::endpoint& endpoint = impl_->bound;
    const std::string host = endpoint.address().to_string();
    const std::string port_text = std::to_string(endpoint.port());
    return endpoint.address().is_v6() ? "[" + host + "]:" + port_text : host + ":" + port_text;
}

}  // namespace service
