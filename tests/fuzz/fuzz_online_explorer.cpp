// Fuzz target: lichess::parse_explorer (opening explorer replies: masters, lichess, and each
// line of the player stream). Never throws; a reply has no negative game count; an error is a
// parse error with a message.
#include <string>

#include "fuzz_check.hpp"
#include "lichess_client/online_sources.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view body = fuzz::as_text(data, size);
    const auto r = lichess::parse_explorer(body);
    if (!r.ok()) {
        fuzz::check(r.error().kind == lichess::ApiError::Kind::Parse, "errors are parse errors");
        fuzz::check(!r.error().message.empty(), "an error says what was wrong");
        fuzz::check(fuzz::no_control_bytes(r.error().message + r.error().excerpt),
                    "an error's texts are printable");
        return 0;
    }
    fuzz::check(r->white >= 0 && r->draws >= 0 && r->black >= 0, "position counts >= 0");
    for (const auto& m : r->moves) {
        fuzz::check(m.white >= 0 && m.draws >= 0 && m.black >= 0, "move counts >= 0");
    }
    // The same body parses to the same reply (no hidden state).
    const auto again = lichess::parse_explorer(std::string(body));
    fuzz::check(again.ok() && again->moves.size() == r->moves.size(), "parsing is repeatable");
    return 0;
}
