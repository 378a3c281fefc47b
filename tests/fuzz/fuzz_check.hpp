// Helpers shared by the fuzz targets: property checks that stop the run, and input splitting.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string_view>
#include <vector>

namespace fuzz {

// A violated property: print what and stop, so libFuzzer saves the input as a crash.
inline void check(bool ok, const char* what) {
    if (ok) return;
    std::fprintf(stderr, "fuzz property violated: %s\n", what);
    __builtin_trap();
}

// A text for a log line: no C0 control byte and no DEL (server bytes never pass into it raw).
inline bool no_control_bytes(std::string_view text) {
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7f) return false;
    }
    return true;
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
    return {reinterpret_cast<const char*>(data), size};
}

// Splits at '\n' (a trailing '\r' is kept: the code under test must cope with it), at most
// max_lines lines so one input cannot run for long.
inline std::vector<std::string_view> lines(std::string_view text, std::size_t max_lines) {
    std::vector<std::string_view> out;
    while (!text.empty() && out.size() < max_lines) {
        const auto nl = text.find('\n');
        out.push_back(text.substr(0, nl));
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
    }
    return out;
}

}  // namespace fuzz
