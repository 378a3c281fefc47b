// The `outpost check-config FILE` subcommand.
#include "check_command.hpp"

#include <exception>
#include <ostream>

#include "print.hpp"

namespace config {

int check_config_command(const std::string& path, std::ostream& out, std::ostream& err,
                         const LoadOptions& options) {
    try {
        LoadResult result = load_file(path, options);
        for (const ConfigError& warning : result.warnings)
            err << "warning: " << format_error(warning, result.source_name) << "\n";
        if (!result.ok()) {
            for (const ConfigError& error : result.errors)
                err << "error: " << format_error(error, result.source_name) << "\n";
            err << path << ": " << result.errors.size()
                << (result.errors.size() == 1 ? " problem" : " problems")
                << " to fix before Outpost can start\n";
            return 1;
        }
        out << "# Effective configuration from " << path << " (token from "
            << describe(result.token_source) << ", shown as " << kRedacted << ")\n"
            << to_yaml(*result.config);
        err << path << ": OK\n";
        return 0;
    } catch (const std::exception& e) {
        err << "error: " << path << ": could not check the config (" << e.what() << ")\n";
    } catch (...) {
        err << "error: " << path << ": could not check the config\n";
    }
    return 1;
}

}  // namespace config
