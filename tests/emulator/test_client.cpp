// Implementation of the test client: Beast for one-shot requests, a hand-written chunked
// decoder for streams so chunk boundaries stay visible.
#include "test_client.hpp"

#include <poll.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <chrono>

namespace emu_test {

namespace net = boost::asio;
namespace http = boost::beast::http;
using tcp = net::ip::tcp;

namespace {

long long now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

bool readable(int fd, int timeout_ms) {
    pollfd p{fd, POLLIN, 0};
    return ::poll(&p, 1, timeout_ms) > 0;
}

}  // namespace

HttpResult HttpClient::request(const std::string& method, const std::string& target,
                               const std::string& body, const std::string& content_type,
                               std::optional<std::string> token) const {
    HttpResult out;
    net::io_context io;
    tcp::socket socket(io);
    boost::system::error_code ec;
    socket.connect(
        tcp::endpoint(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port_)), ec);
    if (ec) return out;
    http::request<http::string_body> req{http::string_to_verb(method), target, 11};
    req.set(http::field::host, "127.0.0.1");
    req.set(http::field::user_agent, "emulator-test");
    const std::string tok = token.value_or(token_);
    if (!tok.empty()) req.set(http::field::authorization, "Bearer " + tok);
    if (!content_type.empty()) req.set(http::field::content_type, content_type);
    req.body() = body;
    req.keep_alive(false);
    req.prepare_payload();
    http::write(socket, req, ec);
    if (ec) return out;
    // Bounded: a server that never answers makes the request fail after 20 s.
    if (!readable(socket.native_handle(), 20000)) return out;
    boost::beast::flat_buffer buffer;
    http::response<http::string_body> res;
    http::read(socket, buffer, res, ec);
    if (ec) return out;
    out.status = res.result_int();
    out.content_type = std::string(res[http::field::content_type]);
    out.retry_after = std::string(res[http::field::retry_after]);
    out.body = res.body();
    return out;
}

struct StreamReader::Impl {
    net::io_context io;
    tcp::socket socket{io};
};

StreamReader::StreamReader(int port, const std::string& target, const std::string& token)
    : impl_(std::make_unique<Impl>()) {
    boost::system::error_code ec;
    impl_->socket.connect(
        tcp::endpoint(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)), ec);
    if (ec) {
        ended_ = true;
        return;
    }
    std::string req =
        "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: emulator-test\r\n";
    if (!token.empty()) req += "Authorization: Bearer " + token + "\r\n";
    req += "Accept: application/x-ndjson\r\n\r\n";
    net::write(impl_->socket, net::buffer(req), ec);
    if (ec) {
        ended_ = true;
        return;
    }
    last_byte_ms_ = now_ms();
    // Headers first.
    const long long deadline = now_ms() + 10000;
    std::size_t end = std::string::npos;
    while ((end = raw_.find("\r\n\r\n")) == std::string::npos && now_ms() < deadline && !ended_)
        read_more(int(deadline - now_ms()));
    if (end == std::string::npos) {
        ended_ = true;
        return;
    }
    const std::string head = raw_.substr(0, end);
    raw_.erase(0, end + 4);
    if (head.size() > 12) status_ = std::stoi(head.substr(9, 3));
    if (head.find("Transfer-Encoding: chunked") == std::string::npos) {
        // A plain (error) reply: the body follows with a Content-Length.
        const auto cl = head.find("Content-Length: ");
        const std::size_t len = cl == std::string::npos ? 0 : std::stoul(head.substr(cl + 16));
        while (raw_.size() < len && !ended_ && now_ms() < deadline)
            read_more(int(deadline - now_ms()));
        error_body_ = raw_;
        raw_.clear();
        ended_ = true;
        return;
    }
    decode();
}

StreamReader::~StreamReader() { close(); }

void StreamReader::close() {
    boost::system::error_code ec;
    impl_->socket.shutdown(tcp::socket::shutdown_both, ec);
    impl_->socket.close(ec);
}

long long StreamReader::idle_ms() const { return now_ms() - last_byte_ms_; }

bool StreamReader::read_more(int timeout_ms) {
    if (ended_ || !impl_->socket.is_open()) return false;
    if (!readable(impl_->socket.native_handle(), std::max(timeout_ms, 0))) return false;
    char buf[4096];
    boost::system::error_code ec;
    const auto n = impl_->socket.read_some(net::buffer(buf), ec);
    if (ec || n == 0) {
        ended_ = true;
        return false;
    }
    raw_.append(buf, n);
    last_byte_ms_ = now_ms();
    return true;
}

void StreamReader::decode() {
    for (;;) {
        if (!in_chunk_) {
            const auto eol = raw_.find("\r\n");
            if (eol == std::string::npos) return;
            const std::size_t size = std::stoul(raw_.substr(0, eol), nullptr, 16);
            raw_.erase(0, eol + 2);
            if (size == 0) {
                clean_end_ = ended_ = true;
                return;
            }
            chunk_sizes_.push_back(size);
            chunk_left_ = size;
            in_chunk_ = true;
        }
        if (chunk_left_ > 0) {
            const auto take = std::min(chunk_left_, raw_.size());
            line_buffer_.append(raw_, 0, take);
            raw_.erase(0, take);
            chunk_left_ -= take;
            for (std::size_t nl; (nl = line_buffer_.find('\n')) != std::string::npos;) {
                const auto line = line_buffer_.substr(0, nl);
                line_buffer_.erase(0, nl + 1);
                if (line.empty())
                    ++keepalives_;
                else
                    lines_.push_back(line);
            }
            if (chunk_left_ > 0) return;
        }
        if (raw_.size() < 2) return;
        raw_.erase(0, 2);  // CRLF after the chunk data
        in_chunk_ = false;
    }
}

std::optional<std::string> StreamReader::next_line(int timeout_ms) {
    const long long deadline = now_ms() + timeout_ms;
    for (;;) {
        if (!lines_.empty()) {
            auto line = lines_.front();
            lines_.erase(lines_.begin());
            return line;
        }
        if (ended_ || now_ms() >= deadline) return std::nullopt;
        if (read_more(int(std::min<long long>(50, deadline - now_ms())))) decode();
    }
}

bool StreamReader::wait_end(int timeout_ms) {
    const long long deadline = now_ms() + timeout_ms;
    while (!ended_ && now_ms() < deadline)
        if (read_more(int(std::min<long long>(50, deadline - now_ms())))) decode();
    return ended_;
}

}  // namespace emu_test
