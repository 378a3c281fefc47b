// Fuzz target: lichess::parse_tablebase (GET /standard replies of the Lichess tablebase).
// Never throws; every category is one of the enum's (its text parses back to it); an error is
// a parse error.
#include "fuzz_check.hpp"
#include "lichess_client/online_sources.hpp"

namespace {
void check_category(lichess::TablebaseCategory c) {
    const auto back = lichess::parse_tablebase_category(lichess::to_string(c));
    fuzz::check(back == c, "a category prints and parses back");
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto r = lichess::parse_tablebase(fuzz::as_text(data, size));
    if (!r.ok()) {
        fuzz::check(r.error().kind == lichess::ApiError::Kind::Parse, "errors are parse errors");
        fuzz::check(!r.error().message.empty(), "an error says what was wrong");
        fuzz::check(fuzz::no_control_bytes(r.error().message + r.error().excerpt),
                    "an error's texts are printable");
        return 0;
    }
    check_category(r->category);
    for (const auto& m : r->moves) check_category(m.category);
    return 0;
}
