// Reading one YAML config file into a Config, with every problem reported as a ConfigError.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config.hpp"
#include "error.hpp"

namespace config {

// Looks up an environment variable; tests pass their own instead of calling setenv.
using Environment = std::function<std::optional<std::string>(const std::string& name)>;

// The real process environment (getenv).
[[nodiscard]] Environment process_environment();

// The environment variable that, when set and not empty, overrides token_file and token.
inline constexpr const char* kTokenEnvVar = "LICHESS_BOT_TOKEN";

enum class TokenSource { None, Environment, TokenFile, ConfigFile };
[[nodiscard]] std::string_view describe(TokenSource source);

struct LoadOptions {
    Environment env = process_environment();
    // Relative token_file paths are taken from here; load_file uses the config file's folder.
    std::filesystem::path base_dir = ".";
    // Whether pgn_directory must be writable (or creatable) now; load_file turns it on, so
    // check-config and run both refuse a PGN folder the daemon could never write.
    bool check_pgn_directory = false;
};

struct LoadResult {
    std::optional<Config> config;     // set exactly when errors is empty
    std::vector<ConfigError> errors;  // in file order, at most a few dozen
    std::vector<ConfigError> warnings;
    TokenSource token_source = TokenSource::None;
    std::string source_name;  // the file name used in messages
    [[nodiscard]] bool ok() const { return errors.empty(); }
};

// Never throws; an unreadable file or broken YAML comes back as errors.
[[nodiscard]] LoadResult load_file(const std::string& path, const LoadOptions& options = {});
[[nodiscard]] LoadResult load_string(std::string_view text, std::string_view source_name,
                                     const LoadOptions& options = {});

}  // namespace config
