// The one table of every config key: its type, allowed range or names, and where it lives in
// Config. The loader, the validator, the printer and the example-file test all read it.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "config.hpp"

namespace config {

// Tournaments: `tournaments:`, a list of arenas, each `{id, team, password}` (or just its id).
enum class Kind { Section, Bool, Int, String, StringList, BookFiles, Tournaments };

using FieldRef = std::variant<std::monostate, bool*, int*, std::string*, std::vector<std::string>*,
                              BookFiles*, std::vector<TournamentConfig>*>;

struct KeySpec {
    std::string_view path;  // dotted
    Kind kind = Kind::Section;
    FieldRef (*field)(Config&) = nullptr;  // null for sections
    long long min = 0;                     // Int only: inclusive range
    long long max = 0;
    std::string_view unit;                  // Int only: "seconds", "megabytes", ...
    std::vector<std::string_view> choices;  // String/StringList: allowed names; empty = free text
    bool secret = false;                    // never echo the value in messages or output

    // The last part of the path ("min_base" for "challenge.min_base").
    [[nodiscard]] std::string_view name() const;
    // The section path ("challenge"), empty for top-level keys.
    [[nodiscard]] std::string_view parent() const;
};

// All keys in the order the printer writes them; a section comes before its children.
[[nodiscard]] const std::vector<KeySpec>& known_keys();

// The spec for a dotted path, or nullptr.
[[nodiscard]] const KeySpec* find_key(std::string_view path);

// The known key closest to an unknown one (same section preferred), or "" if none is close.
[[nodiscard]] std::string nearest_key(std::string_view path);

// Where Outpost calls a key that the Python lichess-bot names differently, or "" if not known.
[[nodiscard]] std::string_view renamed_key(std::string_view lichess_bot_path);

// Pairs of keys where the first must not be larger than the second.
struct MinMaxPair {
    std::string_view min_key;
    std::string_view max_key;
};
[[nodiscard]] const std::vector<MinMaxPair>& min_max_pairs();

// Levenshtein distance, for "did you mean".
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace config
