// Text forms of ApiError and body excerpts for error messages.
#include "lichess_client/api_error.hpp"

#include "common/text.hpp"
#include "lichess_client/json_util.hpp"

namespace lichess {

const char* to_string(ApiError::Kind kind) {
    switch (kind) {
        case ApiError::Kind::Network:
            return "network";
        case ApiError::Kind::Http:
            return "http";
        case ApiError::Kind::RateLimited:
            return "rate-limited";
        case ApiError::Kind::Parse:
            return "parse";
        case ApiError::Kind::Config:
            return "config";
        case ApiError::Kind::Cancelled:
            return "cancelled";
    }
    return "?";
}

std::string ApiError::describe() const {
    std::string s = to_string(kind);
    if (status != 0) s += " " + std::to_string(status);
    if (!message.empty()) s += ": " + common::printable(message);
    if (!excerpt.empty()) s += " [body: " + excerpt + "]";
    if (retry_after) s += " (retry after " + std::to_string(retry_after->count()) + " ms)";
    return s;
}

namespace detail {

std::string excerpt(std::string_view body, std::size_t max) {
    // Runs of line breaks, tabs and other C0 controls become one space (an HTML page reads as
    // one line); then printable() escapes what is left (bytes that are not UTF-8, C1 controls).
    std::string flat;
    bool space = false;
    for (const char ch : body.substr(0, max + 4)) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f) {
            space = !flat.empty();
            continue;
        }
        if (space) flat += ' ';
        space = false;
        flat += ch;
    }
    return common::printable_prefix(flat, max);
}

}  // namespace detail
}  // namespace lichess
