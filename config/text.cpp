// Small text helpers shared by the loader and the validator.
#include "text.hpp"

#include <charconv>
#include <cstdio>

namespace config::detail {

std::string quote(std::string_view value) {
    constexpr std::size_t kMaxShown = 60;
    std::string out = "\"";
    for (std::size_t i = 0; i < value.size() && i < kMaxShown; ++i) {
        auto c = static_cast<unsigned char>(value[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c >= 0x7f) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    if (value.size() > kMaxShown) out += "...";
    out += '"';
    return out;
}

std::optional<bool> parse_bool(std::string_view s) {
    s = trim(s);
    for (std::string_view yes : {"true", "yes", "on"})
        if (iequals(s, yes)) return true;
    for (std::string_view no : {"false", "no", "off"})
        if (iequals(s, no)) return false;
    return std::nullopt;
}

IntParse parse_int(std::string_view s) {
    s = trim(s);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    if (s.empty()) return {};
    long long value = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (end != s.data() + s.size()) return {};
    if (ec == std::errc::result_out_of_range) return {IntParse::TooLarge, 0};
    if (ec != std::errc{}) return {};
    return {IntParse::Ok, value};
}

std::string range_message(const KeySpec& spec, std::string_view got) {
    std::string unit = spec.unit.empty() ? "" : " " + std::string(spec.unit);
    return "must be between " + std::to_string(spec.min) + " and " + std::to_string(spec.max) +
           unit + ", got " + std::string(got);
}

std::string canonical_choice(const KeySpec& spec, std::string_view value) {
    std::string_view trimmed = trim(value);
    for (std::string_view choice : spec.choices)
        if (iequals(trimmed, choice)) return std::string(choice);
    return std::string(value);
}

std::string join_choices(const KeySpec& spec) {
    std::string out;
    for (std::size_t i = 0; i < spec.choices.size(); ++i) {
        if (i > 0) out += i + 1 == spec.choices.size() ? " or " : ", ";
        out += spec.choices[i];
    }
    return out;
}

bool token_looks_valid(std::string_view token) {
    if (token.empty()) return false;
    for (char c : token) {
        auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u >= 0x7f) return false;
    }
    return true;
}

}  // namespace config::detail
