// The token stays in its own keys: a config value that holds it (pasted under the wrong key,
// say `greeting.hello`) would be printed by check-config, written to logs or sent to an
// opponent's chat, so it is an error naming the key, and chat text can be checked the same way.
#pragma once

#include <string_view>
#include <vector>

#include "config.hpp"
#include "error.hpp"
#include "validate.hpp"

namespace config {

// Shorter texts are not taken for a token (a real one is "lip_" and 20 characters): a test's
// "tok" would otherwise be found inside every other value.
inline constexpr std::size_t kMinTokenLength = 6;

// A Lichess token's secret part: what follows its "lip_" prefix (the whole of any other token).
[[nodiscard]] constexpr std::string_view token_body(std::string_view token) {
    return token.starts_with("lip_") ? token.substr(4) : token;
}

// Whether `text` contains `token`, or its body without the "lip_" prefix (a token or body
// shorter than kMinTokenLength is never found).
[[nodiscard]] bool holds_token(std::string_view text, std::string_view token);

// One error for each key other than `token` whose value (or a list entry) holds config.token,
// at the key's place in the file; the message never quotes the value.
[[nodiscard]] std::vector<ConfigError> token_leaks(const Config& config,
                                                   const KeyPositions& positions);

}  // namespace config
