// The repository the deploy checks read (README, .gitignore, deploy/ manifests, config example).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace deploy_test {

inline const std::filesystem::path kSource = OUTPOST_SOURCE_DIR;

// A whole file as text; empty when it cannot be read (the checks then fail on its content).
inline std::string read_text(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace deploy_test
