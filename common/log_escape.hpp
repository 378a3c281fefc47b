// printable(): a string from outside (a server's id, a player's name, a chat line, an error body)
// made safe for one log line, so an ESC, CR or LF in it can neither forge a line nor drive a
// terminal, and bytes that are not UTF-8 never reach a log file raw.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace common {

// Escapes what a terminal or a log reader would act on: \n, \r, \t; other C0 bytes, DEL, bytes
// that are not UTF-8 and the C1 controls' UTF-8 forms as \xNN; bidirectional overrides
// (U+202A..U+202E, U+2066..U+2069) as \u202e; a backslash as \\. Other UTF-8 is kept as it is.
[[nodiscard]] std::string printable(std::string_view text);

// printable() of at most the first `max` bytes of `text`, with "..." when it was cut: for
// bodies and lines that may be megabytes long.
[[nodiscard]] std::string printable_prefix(std::string_view text, std::size_t max);

}  // namespace common
