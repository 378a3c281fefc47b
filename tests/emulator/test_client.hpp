// A small scripted HTTP client for the emulator's own tests (plain Beast/Asio, deliberately
// sharing nothing with lichess_client): one-shot requests and an NDJSON stream reader that
// keeps the server's chunk boundaries so tests can see split and batched lines.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace emu_test {

struct HttpResult {
    int status = 0;  // 0: no answer (connection failed)
    std::string content_type;
    std::string retry_after;  // the Retry-After header, empty when absent
    std::string body;
};

class HttpClient {
  public:
    HttpClient(int port, std::string token) : port_(port), token_(std::move(token)) {}
    HttpResult get(const std::string& target) const { return request("GET", target, "", ""); }
    HttpResult post(const std::string& target, const std::string& form = "") const {
        return request("POST", target, form, "application/x-www-form-urlencoded");
    }
    // token: nullopt = the client's token, "" = no Authorization header.
    HttpResult request(const std::string& method, const std::string& target,
                       const std::string& body, const std::string& content_type,
                       std::optional<std::string> token = std::nullopt) const;

  private:
    int port_;
    std::string token_;
};

class StreamReader {
  public:
    StreamReader(int port, const std::string& target, const std::string& token);
    ~StreamReader();
    StreamReader(const StreamReader&) = delete;
    StreamReader& operator=(const StreamReader&) = delete;

    int status() const { return status_; }
    const std::string& error_body() const { return error_body_; }
    // The next non-empty line; nothing on timeout or when the stream ended.
    std::optional<std::string> next_line(int timeout_ms);
    // Reads until the server ends the stream (or timeout); true when it ended.
    bool wait_end(int timeout_ms);
    bool ended() const { return ended_; }
    bool clean_end() const { return clean_end_; }   // the terminating 0-size chunk arrived
    int keepalives() const { return keepalives_; }  // empty lines seen
    const std::vector<std::size_t>& chunk_sizes() const { return chunk_sizes_; }
    const std::string& partial_line() const { return line_buffer_; }  // bytes after the last '\n'
    // Milliseconds since the last byte arrived.
    long long idle_ms() const;
    void close();

  private:
    bool read_more(int timeout_ms);
    void decode();

    struct Impl;
    std::unique_ptr<Impl> impl_;
    int status_ = 0;
    std::string error_body_;
    std::string raw_;          // undecoded body bytes
    std::string line_buffer_;  // decoded bytes not yet ending in '\n'
    std::vector<std::string> lines_;
    std::vector<std::size_t> chunk_sizes_;
    std::size_t chunk_left_ = 0;
    bool in_chunk_ = false;
    bool ended_ = false, clean_end_ = false;
    int keepalives_ = 0;
    long long last_byte_ms_ = 0;
};

}  // namespace emu_test
