// Helpers shared by the engine tests: reading EPD files from tests/data.
#pragma once

#include <fstream>
#include <string>
#include <vector>

namespace test_util {

inline std::vector<std::string> read_lines(const std::string& relative_path) {
    std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/" + relative_path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line.find_first_not_of(" \t\r") != std::string::npos)
            lines.push_back(line);
    return lines;
}

}  // namespace test_util
