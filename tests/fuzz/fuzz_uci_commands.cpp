// Fuzz target: the UCI front end (engine/uci.hpp) driven by the input as its command lines.
// Searches are kept short: every `go` gets a node limit appended, `perft` depths, the hash
// size and the thread count are clamped, and the session ends with `stop` and `quit`.
#include <algorithm>
#include <charconv>
#include <sstream>
#include <string>

#include "engine/uci.hpp"
#include "fuzz_check.hpp"

namespace {

constexpr int kMaxGoPerInput = 4;

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// The first whitespace-separated word of s (UCI tokens split on whitespace).
std::string_view first_word(std::string_view s) {
    const auto begin = s.find_first_not_of(" \t\r\n\v\f");
    if (begin == std::string_view::npos) return {};
    s.remove_prefix(begin);
    return s.substr(0, s.find_first_of(" \t\r\n\v\f"));
}

// Replaces the number that follows `key` (as std::stoll/stoi would read it) by `limit` when
// it reads as larger, so the front end still parses the fuzzer's spelling of small values.
std::string clamp_after(std::string line, std::string_view key, long long limit) {
    std::string low = lower(line);
    for (std::size_t at = low.find(key); at != std::string::npos; at = low.find(key, at + 1)) {
        std::size_t pos = at + key.size();
        while (pos < line.size() && std::isspace(static_cast<unsigned char>(line[pos]))) ++pos;
        std::size_t end = pos;
        while (end < line.size() && !std::isspace(static_cast<unsigned char>(line[end]))) ++end;
        const std::string word = line.substr(pos, end - pos);
        long long v = 0;
        try {
            v = std::stoll(word);
        } catch (const std::exception&) {
            continue;  // not a number (or out of range): the front end rejects it too
        }
        if (v > limit) {
            line.replace(pos, end - pos, std::to_string(limit));
            low = lower(line);  // positions after this one moved
        }
    }
    return line;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::string script;
    int gos = 0;
    for (const std::string_view raw : fuzz::lines(fuzz::as_text(data, size), 200)) {
        std::string line(raw);
        const std::string cmd = lower(first_word(line));
        if (cmd == "go") {
            if (++gos > kMaxGoPerInput) continue;
            line = clamp_after(line, "perft", 3);
            // The last `nodes` wins; the pair is doubled in case the line ends in a token
            // that swallows the next word as its number.
            line += " nodes 2000 nodes 2000";
        } else if (cmd == "setoption") {
            line = clamp_after(line, "value", 4);  // hash MB and threads stay small
        }
        script += line;
        script += '\n';
    }
    script += "stop\nquit\n";

    std::istringstream in(script);
    std::ostringstream out, log;
    {
        engine::Uci uci(out, &log);
        uci.loop(in);
    }
    const std::string text = out.str();
    fuzz::check(text.empty() || text.back() == '\n', "UCI output ends with a full line");
    return 0;
}
