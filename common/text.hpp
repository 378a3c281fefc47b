// Text helpers every layer needs: trimming, ASCII case, and printable() for strings from outside
// (a player's name, a chat line, a server message) that go into one log line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace common {

// Without the leading and trailing white space (space, \t, \n, \r, \f, \v).
[[nodiscard]] std::string_view trim(std::string_view s);

// ASCII lowercase: Lichess user ids are the lowercase usernames, and reason keys, commands and
// config choices are compared without case.
[[nodiscard]] std::string lowercase(std::string_view s);

// ASCII equality without case.
[[nodiscard]] bool iequals(std::string_view a, std::string_view b);

// Escapes what a terminal or a log reader would act on, so an ESC, CR or LF in a string from
// outside can neither forge a log line nor drive a terminal: \n, \r, \t; other C0 bytes, DEL,
// bytes that are not UTF-8 and the C1 controls' UTF-8 forms as \xNN; bidirectional overrides
// (U+202A..U+202E, U+2066..U+2069) as \u202e; a backslash as \\. Other UTF-8 is kept as it is.
[[nodiscard]] std::string printable(std::string_view text);

// printable() of at most the first `max` bytes of `text`, with "..." when it was cut: for
// bodies and lines that may be megabytes long.
[[nodiscard]] std::string printable_prefix(std::string_view text, std::size_t max);

}  // namespace common
