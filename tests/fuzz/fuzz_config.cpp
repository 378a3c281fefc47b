// Fuzz target: config YAML loading (config/load.hpp). Never throws; a config that loads must
// print (to_yaml, as `check-config` does) to YAML that loads again.
#include <optional>
#include <string>

#include "config/load.hpp"
#include "config/print.hpp"
#include "fuzz_check.hpp"

namespace {

config::LoadOptions options() {
    config::LoadOptions o;
    o.env = [](const std::string&) -> std::optional<std::string> { return std::nullopt; };
    // Relative token_file paths point nowhere; run.sh gives the fuzzer an empty stdin in case
    // an input names /dev/stdin.
    o.base_dir = "/nonexistent/outpost-fuzz";
    return o;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const config::LoadResult r =
        config::load_string(fuzz::as_text(data, size), "fuzz.yml", options());
    fuzz::check(r.ok() == r.config.has_value(), "config is set exactly when there are no errors");
    for (const auto& e : r.errors) fuzz::check(!e.message.empty(), "errors have a message");
    if (!r.config) return 0;
    const std::string printed = config::to_yaml(*r.config);
    const config::LoadResult again = config::load_string(printed, "printed.yml", options());
    if (!again.ok()) {
        std::fprintf(stderr, "printed config:\n%s\nfirst error: %s\n", printed.c_str(),
                     again.errors.front().message.c_str());
    }
    fuzz::check(again.ok(), "the printed config loads again");
    return 0;
}
