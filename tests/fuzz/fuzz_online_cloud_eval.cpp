// Fuzz target: lichess::parse_cloud_eval (GET /api/cloud-eval replies). Never throws; every pv
// of a parsed reply has a score (cp or mate) and no empty move; an error is a parse error.
#include "fuzz_check.hpp"
#include "lichess_client/online_sources.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto r = lichess::parse_cloud_eval(fuzz::as_text(data, size));
    if (!r.ok()) {
        fuzz::check(r.error().kind == lichess::ApiError::Kind::Parse, "errors are parse errors");
        fuzz::check(!r.error().message.empty(), "an error says what was wrong");
        fuzz::check(fuzz::no_control_bytes(r.error().message + r.error().excerpt),
                    "an error's texts are printable");
        return 0;
    }
    fuzz::check(r->knodes >= 0, "knodes >= 0");
    for (const auto& pv : r->pvs) {
        fuzz::check(pv.cp.has_value() || pv.mate.has_value(), "a pv has a score");
        for (const auto& m : pv.moves) {
            fuzz::check(!m.empty() && m.find(' ') == std::string::npos, "moves are words");
        }
    }
    return 0;
}
