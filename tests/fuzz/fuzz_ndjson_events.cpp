// Fuzz target: NDJSON stream framing plus event parsing (lichess_client). The input's first
// bytes choose where the body is cut into chunks; every framed line goes through parse_event,
// parse_game_event and parse_challenge. Framing must not depend on where the cuts fall; the
// bounded JSON parser must agree with nlohmann's DOM parser within its limits; error messages and
// unreadable game lines must name the problem without quoting the input.
#include <spdlog/spdlog.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "fuzz_check.hpp"
#include "lichess_client/bounded_json.hpp"
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

// parse_bounded agrees with nlohmann's own DOM parser: the same document when it accepts,
// invalid JSON for both, and a limit only for JSON that nlohmann does read.
void check_bounded_json(const std::string& line) {
    const auto bounded = lichess::parse_bounded(line);
    const auto plain = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (bounded.ok()) {
        fuzz::check(!plain.is_discarded() && plain == bounded.value(), "the same document");
        return;
    }
    fuzz::check(bounded.error().unusable, "a limit or syntax refusal is marked unusable");
    // A limit may be met before a syntax error further on, so only this way round.
    if (bounded.error().message.starts_with("invalid JSON"))
        fuzz::check(plain.is_discarded(), "invalid for both");
}

// Error messages never quote the line (a control byte from the server cannot reach a log).
void check_error(const lichess::ParseError& e) {
    fuzz::check(!e.message.empty(), "an error says what was wrong");
    fuzz::check(fuzz::no_control_bytes(e.message), "an error message is printable");
}

// An unreadable game line names what it was and which field failed, printably.
void check_game_event(const lichess::GameEvent& e) {
    const auto* u = std::get_if<lichess::GameUnreadable>(&e);
    if (u == nullptr) return;
    fuzz::check(u->type == "gameFull" || u->type == "gameState", "an unreadable game line's type");
    fuzz::check(!u->field.empty() && !u->problem.empty(), "it names the field and the problem");
    fuzz::check(fuzz::no_control_bytes(u->field + u->problem), "its texts are printable");
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
        check_bounded_json(line);
        const auto event = lichess::parse_event(line);
        if (!event.ok()) check_error(event.error());
        const auto game = lichess::parse_game_event(line);
        if (!game.ok()) {
            check_error(game.error());
        } else if (game.value()) {
            check_game_event(*game.value());
        }
        const auto challenge = lichess::parse_challenge(line);
        if (!challenge.ok()) check_error(challenge.error());
    }
    return 0;
}
