// ASCII lowercase: Lichess user ids are the lowercase usernames, and reason keys and commands
// are compared without case.
#pragma once

#include <cctype>
#include <string>
#include <string_view>

namespace service {

inline std::string lowercase(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace service
