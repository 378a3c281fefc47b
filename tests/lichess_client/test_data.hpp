// Reads the copied Lichess API examples under tests/data/lichess-api.
#pragma once

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace lichess::test {

inline std::string read_example(const std::string& name) {
    const std::string path = std::string(OUTPOST_TEST_DATA) + "/lichess-api/" + name;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("missing test data file " + path);
    std::ostringstream ss;
    ss << in.rdbuf();
    std::string text = ss.str();
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    return text;
}

}  // namespace lichess::test
