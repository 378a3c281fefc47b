// Text forms of ApiError and body excerpts for error messages.
#include "lichess_client/result.hpp"

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
    if (!message.empty()) s += ": " + detail::escape_controls(message);
    if (!excerpt.empty()) s += " [body: " + excerpt + "]";
    if (retry_after) s += " (retry after " + std::to_string(retry_after->count()) + " ms)";
    return s;
}

namespace detail {

std::string escape_controls(std::string_view text) {
    std::string out;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '\n') {
            out += "\\n";
        } else if (c < 0x20 || c == 0x7f) {
            static constexpr char kHex[] = "0123456789abcdef";
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xf];
        } else {
            out += ch;
        }
    }
    return out;
}

std::string excerpt(std::string_view body, std::size_t max) {
    std::string out;
    bool space = false;
    for (const char ch : body) {
        if (out.size() >= max) {
            out += "...";
            break;
        }
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f) {  // newlines, tabs and control bytes become one space
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += ch;
    }
    return out;
}

}  // namespace detail
}  // namespace lichess
