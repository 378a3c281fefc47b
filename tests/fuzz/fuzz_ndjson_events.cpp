// Fuzz target: NDJSON stream framing plus event parsing (lichess_client). The input's first
// bytes choose where the body is cut into chunks; every framed line goes through parse_event,
// parse_game_event and parse_challenge. Framing must not depend on where the cuts fall.
#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include "fuzz_check.hpp"
#include "lichess_client/events.hpp"
#include "lichess_client/ndjson_stream.hpp"

namespace {

struct Framed {
    std::vector<std::string> lines;
    std::size_t keep_alives = 0;
};

Framed frame(std::string_view body, const std::vector<std::size_t>& cuts, std::size_t max_line) {
    Framed f;
    lichess::NdjsonStream stream(max_line);
    const auto on_line = [&](std::string_view line) {
        fuzz::check(!line.empty(), "no empty line is delivered");
        fuzz::check(line.find('\n') == std::string_view::npos, "a line holds no newline");
        f.lines.emplace_back(line);
    };
    std::size_t at = 0;
    for (std::size_t i = 0; at < body.size(); ++i) {
        const std::size_t n = cuts.empty() ? body.size() : cuts[i % cuts.size()];
        stream.feed(body.substr(at, n), on_line);
        at += n;
    }
    stream.finish(on_line);
    fuzz::check(stream.buffered() == 0, "finish empties the buffer");
    f.keep_alives = stream.keep_alives();
    return f;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    spdlog::set_level(spdlog::level::off);  // parse warnings are expected here
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    // Byte 0: low 3 bits = number of chunk lengths that follow, bit 3 = a tiny line limit.
    const std::size_t count = data[0] & 7;
    const bool tiny_limit = data[0] & 8;
    if (size < 1 + count) return 0;
    std::vector<std::size_t> cuts;
    for (std::size_t i = 0; i < count; ++i) cuts.push_back(std::size_t(data[1 + i] % 64) + 1);
    const std::string_view body = fuzz::as_text(data + 1 + count, size - 1 - count);

    const std::size_t max_line = tiny_limit ? 48 : lichess::NdjsonStream::kDefaultMaxLine;
    const Framed chunked = frame(body, cuts, max_line);
    if (!tiny_limit) {
        // Lines are never longer than the limit here, so cuts cannot change the framing.
        const Framed whole = frame(body, {}, max_line);
        fuzz::check(chunked.lines == whole.lines, "framing does not depend on chunk cuts");
        fuzz::check(chunked.keep_alives == whole.keep_alives, "keep-alives counted the same");
    }
    for (const std::string& line : chunked.lines) {
        (void)lichess::parse_event(line);
        (void)lichess::parse_game_event(line);
        (void)lichess::parse_challenge(line);
    }
    return 0;
}
