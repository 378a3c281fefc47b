// Plain request/reply types between the Beast server and the router, so only the server's
// translation unit includes Beast.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "line_queue.hpp"
#include "scenario.hpp"

namespace emu {

struct Request {
    std::string method;  // GET, POST, ...
    std::string path;    // without the query
    std::string query;   // after '?', still encoded
    std::string authorization;
    std::string content_type;
    std::string body;
};

struct Reply {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers{};  // extra ones (Retry-After)
};

enum class StreamEnd { COMPLETED, DROPPED, PEER_GONE, STOPPED, WRITE_FAILED };
const char* stream_end_name(StreamEnd e);

// What a stream connection needs: its lines, its faults, and callbacks into the server.
struct StreamStart {
    std::shared_ptr<LineQueue> queue;
    std::vector<FaultSpec> faults;
    Ms keepalive_ms = 7000;
    Ms chunk_gap_ms = 2;
    std::uint64_t seed = 1;
    std::function<Ms()> now;
    std::function<bool()> stopping;
    std::function<void(const Line&)> on_sent;
    std::function<void(const FaultSpec&, const std::string& detail)> on_fault;
    std::function<void(StreamEnd, int lines)> on_end;
};

// The router's answer: a plain reply, or a stream to run on the connection.
struct Routed {
    std::optional<Reply> reply;
    std::optional<StreamStart> stream;
};

}  // namespace emu
