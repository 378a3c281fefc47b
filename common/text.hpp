// Text helpers every layer needs: trimming, ASCII case, printable() for strings from outside
// (a player's name, a chat line, a server message) that go into one log line, and html_escape()
// for the same strings on a web page.
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

// Whether `text` holds a web link: a scheme ("https://"), "www.", or a host name ending in a
// common top-level domain ("lichess.org/@/Bot"). lila drops a bot's chat line with a link and
// still answers 200 (modules/chat/src/main/ChatApi.scala makeLine: hasLinks for bots).
[[nodiscard]] bool has_link(std::string_view text);

// The one way a string gets into HTML (the status page): text for element content or a quoted
// attribute value. & < > " ' become entities; control characters (C0, DEL, C1: tab, CR and LF
// become a space), bidirectional overrides (which would reorder the rest of the line on
// screen) and bytes that are not UTF-8 become U+FFFD. At most `max_chars` code points are kept,
// then "…": a 10 kB name costs a line, not the page.
[[nodiscard]] std::string html_escape(std::string_view text,
                                      std::size_t max_chars = std::string_view::npos);

}  // namespace common
