// Chat texts: placeholder expansion for greetings and the trim to Lichess's chat limit.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace service {

// Lichess drops chat messages longer than this many characters.
inline constexpr std::size_t kChatLimit = 140;

// The version this binary was built as ("0.1.0").
[[nodiscard]] std::string outpost_version();

struct ChatVars {
    std::string me;        // our username
    std::string opponent;  // the opponent's username
    std::string engine = "Outpost";
    std::string version = outpost_version();
};

// Replaces {me}, {opponent}, {engine} and {version}; "{{" and "}}" give literal braces; any
// other {name} is removed (as the Python lichess-bot does, so a config typo never shows up in
// chat); an unclosed "{" stays as it is. Then fit_chat. Empty when the template is empty.
[[nodiscard]] std::string expand_chat(std::string_view text, const ChatVars& vars);

// Turns line breaks and tabs into spaces (chat is one line), trims surrounding whitespace and
// cuts to at most `limit` characters (UTF-8 code points, never splitting one), dropping
// whitespace left at the end by the cut.
[[nodiscard]] std::string fit_chat(std::string_view text, std::size_t limit = kChatLimit);

}  // namespace service
