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
#include "tests/support/temp_dir.hpp"

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
using outpost::testing::TempDir;

}  // namespace config::testing
