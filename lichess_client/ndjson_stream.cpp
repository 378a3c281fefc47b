// NdjsonStream: line framing for application/x-ndjson bodies.
#include "lichess_client/ndjson_stream.hpp"

#include <spdlog/spdlog.h>

namespace lichess {

void NdjsonStream::emit(std::string_view line, const LineHandler& on_line) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) {
        ++keep_alives_;
        return;
    }
    ++lines_;
    on_line(line);
}

void NdjsonStream::feed(std::string_view chunk, const LineHandler& on_line) {
    while (!chunk.empty()) {
        const auto nl = chunk.find('\n');
        if (nl == std::string_view::npos) {
            if (!overflow_) {
                if (buffer_.size() + chunk.size() > max_line_) {
                    spdlog::warn("ndjson: line longer than {} bytes dropped", max_line_);
                    buffer_.clear();
                    overflow_ = true;
                } else {
                    buffer_.append(chunk);
                }
            }
            return;
        }
        const std::string_view head = chunk.substr(0, nl);
        chunk.remove_prefix(nl + 1);
        if (overflow_) {  // the tail of an oversized line: skip it
            overflow_ = false;
            continue;
        }
        if (buffer_.empty()) {
            emit(head, on_line);  // the common case: no copy
        } else if (buffer_.size() + head.size() > max_line_) {
            spdlog::warn("ndjson: line longer than {} bytes dropped", max_line_);
            buffer_.clear();
        } else {
            buffer_.append(head);
            std::string line;
            line.swap(buffer_);
            emit(line, on_line);
        }
    }
}

void NdjsonStream::finish(const LineHandler& on_line) {
    if (!overflow_ && !buffer_.empty()) {
        std::string line;
        line.swap(buffer_);
        emit(line, on_line);
    }
    reset();
}

}  // namespace lichess
