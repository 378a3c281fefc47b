// The match runner's command line, fastchess-like: groups that start with `--name` followed
// by their values, most of them `key=value` pairs. Usage in tools/match/README.md.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "tools/match/match.hpp"

namespace match {

// The configuration, or a message naming the argument that is wrong.
std::variant<MatchConfig, std::string> parse_command_line(const std::vector<std::string>& args);

}  // namespace match
