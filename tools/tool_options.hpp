// Command-line options of the engine's offline tools (outpost-datagen, outpost-train,
// outpost-epd): every argument is a `--name value` pair.
#pragma once

#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>
#include <string>

namespace tools {

using Options = std::map<std::string, std::string>;

// The pairs, or none (after naming the bad argument on stderr) when an argument is not one.
inline std::optional<Options> parse_options(int argc, char** argv, const char* program) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string key = argv[i];
        if (key.rfind("--", 0) != 0 || i + 1 >= argc) {
            std::cerr << program << ": expected --option value, got '" << key << "'\n";
            return std::nullopt;
        }
        o[key] = argv[++i];
    }
    return o;
}

// `--key`'s value as an integer, or `fallback` when it is not given.
inline long long int_option(const Options& o, const std::string& key, long long fallback) {
    const auto it = o.find(key);
    return it == o.end() ? fallback : std::strtoll(it->second.c_str(), nullptr, 10);
}

}  // namespace tools
