// Fuzz target: lichess::parse_chessdb (chessdb queryall replies, json=1 and text forms). Never
// throws; a parsed reply has a status, and an "ok" one only moves with a move text; an error is
// a parse error.
#include "fuzz_check.hpp"
#include "lichess_client/online_sources.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto r = lichess::parse_chessdb(fuzz::as_text(data, size));
    if (!r.ok()) {
        fuzz::check(r.error().kind == lichess::ApiError::Kind::Parse, "errors are parse errors");
        fuzz::check(!r.error().message.empty(), "an error says what was wrong");
        fuzz::check(fuzz::no_control_bytes(r.error().message + r.error().excerpt),
                    "an error's texts are printable");
        return 0;
    }
    fuzz::check(!r->status.empty(), "a reply has a status");
    fuzz::check(r->status == "ok" || r->moves.empty(), "only an ok reply lists moves");
    return 0;
}
