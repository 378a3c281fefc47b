// Small text helpers shared by the loader and the validator (not part of the public API).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "common/text.hpp"
#include "keys.hpp"

namespace config::detail {

// trim and iequals are Outpost's one implementation (common/text.hpp).
using common::iequals;
using common::trim;

// `"value"` with control and non-ASCII bytes escaped and long values cut, for messages.
[[nodiscard]] std::string quote(std::string_view value);

// true/false, yes/no, on/off in any letter case.
[[nodiscard]] std::optional<bool> parse_bool(std::string_view s);

struct IntParse {
    enum Status { Ok, NotANumber, TooLarge } status = NotANumber;
    long long value = 0;
};
// Decimal whole numbers with an optional sign; "64.0", "0x40" and "fast" are not numbers.
[[nodiscard]] IntParse parse_int(std::string_view s);

// "must be between 1 and 65536 megabytes, got 100000".
[[nodiscard]] std::string range_message(const KeySpec& spec, std::string_view got);

// A value matching one of spec.choices in any letter case becomes that choice's spelling.
[[nodiscard]] std::string canonical_choice(const KeySpec& spec, std::string_view value);

// "a, b or c".
[[nodiscard]] std::string join_choices(const KeySpec& spec);

// A token is one word of printable characters.
[[nodiscard]] bool token_looks_valid(std::string_view token);

}  // namespace config::detail
