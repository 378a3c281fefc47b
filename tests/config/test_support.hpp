// Helpers for the config tests: a fake environment and a per-test temporary folder.
#pragma once

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "config/load.hpp"

namespace config::testing {

inline constexpr const char* kSecret = "lip_SuperSecret123XYZ";

inline Environment fake_env(std::map<std::string, std::string> vars) {
    return [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
        auto it = vars.find(name);
        if (it == vars.end()) return std::nullopt;
        return it->second;
    };
}

inline LoadOptions with_env_token() {
    LoadOptions options;
    options.env = fake_env({{kTokenEnvVar, kSecret}});
    return options;
}

inline LoadOptions without_env() {
    LoadOptions options;
    options.env = fake_env({});
    return options;
}

// A fresh folder per test, removed at the end.
class TempDir {
  public:
    TempDir() {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        std::string name = std::string("outpost_config_") + info->test_suite_name() + "_" +
                           info->name() + "_" + std::to_string(::getpid());
        for (char& c : name)
            if (c == '/') c = '_';
        path_ = std::filesystem::temp_directory_path() / name;
        std::filesystem::remove_all(path_);
        std::filesystem::create_directories(path_);
    }
    ~TempDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    // Writes a file with the given permission bits and returns its path.
    std::string write(const std::string& name, const std::string& content,
                      ::mode_t mode = 0600) const {
        std::filesystem::path file = path_ / name;
        {
            std::ofstream out(file, std::ios::binary);
            out << content;
        }
        ::chmod(file.c_str(), mode);
        return file.string();
    }
    const std::filesystem::path& path() const { return path_; }

  private:
    std::filesystem::path path_;
};

}  // namespace config::testing
