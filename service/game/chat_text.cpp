// Chat texts: {placeholder} expansion and the 140-character cut.
#include "service/game/chat_text.hpp"

#include "common/text.hpp"

namespace service {

namespace {

// A UTF-8 continuation byte (10xxxxxx) never starts a character.
bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

}  // namespace

std::string outpost_version() { return OUTPOST_VERSION; }

std::string fit_chat(std::string_view input, std::size_t limit) {
    std::string one_line(input);
    for (char& c : one_line)
        if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    std::string_view text = common::trim(one_line);
    std::size_t chars = 0, end = 0;
    for (; end < text.size(); ++end) {
        if (continuation(text[end])) continue;
        if (chars == limit) break;
        ++chars;
    }
    return std::string(common::trim(text.substr(0, end)));
}

std::string expand_chat(std::string_view text, const ChatVars& vars) {
    std::string out;
    for (std::size_t i = 0; i < text.size();) {
        const char c = text[i];
        if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
            out += c;
            i += 2;
            continue;
        }
        if (c == '{') {
            const std::size_t close = text.find('}', i + 1);
            if (close == std::string_view::npos) {
                out += text.substr(i);
                break;
            }
            const std::string_view name = text.substr(i + 1, close - i - 1);
            if (name == "me")
                out += vars.me;
            else if (name == "opponent")
                out += vars.opponent;
            else if (name == "engine")
                out += vars.engine;
            else if (name == "version")
                out += vars.version;
            i = close + 1;
            continue;
        }
        out += c;
        ++i;
    }
    return fit_chat(out);
}

}  // namespace service
