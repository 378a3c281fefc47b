// parse_bounded(): the one JSON parser of lichess_client. It builds the document through
// nlohmann's SAX interface and stops at the first value past a size, depth or count limit, so a
// hostile body ("[[[[…" sixteen megabytes deep, or a million empty objects) is refused having
// cost its own bytes and no more, instead of a DOM forty times its size.
#pragma once

#include <cstddef>

#include <nlohmann/json.hpp>

#include "lichess_client/api_error.hpp"

namespace lichess {

// What any document from a server may be. Lichess's replies and stream lines nest at most 5
// levels deep and hold at most a few thousand values (a tablebase reply with every move, 50
// ongoing games); within these limits a document costs at most about 4 MB besides its text
// (measured: tests/lichess_client/bounded_json_test.cpp).
struct JsonLimits {
    std::size_t max_bytes = 4 * 1024 * 1024;
    std::size_t max_depth = 32;
    std::size_t max_values = 20'000;
};

// The parsed document, or a ParseError saying which limit was passed or where the JSON broke
// ("nested deeper than 32 levels", "invalid JSON at byte 17"). The message holds no byte of
// the input, so it is safe to log as it is.
[[nodiscard]] Result<nlohmann::json, ParseError> parse_bounded(std::string_view text,
                                                               const JsonLimits& limits = {});

}  // namespace lichess
