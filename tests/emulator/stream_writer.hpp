// Writes one NDJSON stream as an HTTP chunked body: lines from a LineQueue, keep-alives, and
// the stream faults (drop, mid-line drop, silence, split chunks, batched lines).
#pragma once

#include <string_view>

#include "http_types.hpp"

namespace emu {

// Where the bytes go; the HTTP server implements it over a socket, tests over a string.
class ByteSink {
  public:
    virtual ~ByteSink() = default;
    virtual bool write(std::string_view data) = 0;  // false: the connection failed
    virtual bool peer_gone() = 0;                   // the client closed its side
};

// Runs until the queue is closed and drained, a drop fault fires, the peer goes away or the
// server stops. The response headers must already be written.
StreamEnd run_stream(const StreamStart& stream, ByteSink& sink);

}  // namespace emu
