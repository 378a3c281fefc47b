// The text helpers. printable() escapes byte by byte with a small UTF-8 decoder, so valid names
// in any script stay readable and everything a terminal interprets is shown as an escape instead.
#include "common/text.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>

namespace common {

namespace {

void hex_byte(std::string& out, unsigned char c) {
    static constexpr char kDigits[] = "0123456789abcdef";
    out += "\\x";
    out += kDigits[c >> 4];
    out += kDigits[c & 0xf];
}

// Length of the valid UTF-8 sequence starting at text[i] (2..4), with its code point; 0 if the
// bytes there are not one (stray continuation, overlong form, surrogate, beyond U+10FFFF).
std::size_t utf8_sequence(std::string_view text, std::size_t i, std::uint32_t& cp) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    std::size_t len = 0;
    std::uint32_t min = 0;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
        len = 2, cp = b0 & 0x1f, min = 0x80;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
        len = 3, cp = b0 & 0x0f, min = 0x800;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
        len = 4, cp = b0 & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (i + len > text.size()) return 0;
    for (std::size_t k = 1; k < len; ++k) {
        const auto b = static_cast<unsigned char>(text[i + k]);
        if ((b & 0xc0) != 0x80) return 0;
        cp = (cp << 6) | (b & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
    return len;
}

bool bidi_control(std::uint32_t cp) {
    return (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

}  // namespace

std::string_view trim(std::string_view s) {
    constexpr std::string_view kSpaces = " \t\n\r\f\v";
    const auto first = s.find_first_not_of(kSpaces);
    if (first == std::string_view::npos) return {};
    return s.substr(first, s.find_last_not_of(kSpaces) - first + 1);
}

std::string lowercase(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool iequals(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            if (c == '\n')
                out += "\\n";
            else if (c == '\r')
                out += "\\r";
            else if (c == '\t')
                out += "\\t";
            else if (c == '\\')
                out += "\\\\";
            else if (c < 0x20 || c == 0x7f)
                hex_byte(out, c);
            else
                out += static_cast<char>(c);
            ++i;
            continue;
        }
        std::uint32_t cp = 0;
        const std::size_t len = utf8_sequence(text, i, cp);
        if (len == 0 || (cp >= 0x80 && cp <= 0x9f)) {  // not UTF-8, or a C1 control
            for (std::size_t k = 0; k < (len == 0 ? 1 : len); ++k)
                hex_byte(out, static_cast<unsigned char>(text[i + k]));
            i += len == 0 ? 1 : len;
        } else if (bidi_control(cp)) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(cp));
            out += buf;
            i += len;
        } else {
            out.append(text.substr(i, len));
            i += len;
        }
    }
    return out;
}

std::string printable_prefix(std::string_view text, std::size_t max) {
    if (text.size() <= max) return printable(text);
    // Cut before a UTF-8 sequence rather than inside one (at most 3 continuation bytes back).
    std::size_t cut = max;
    for (int k = 0; k < 3 && cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80; ++k)
        --cut;
    return printable(text.substr(0, cut)) + "...";
}

}  // namespace common
