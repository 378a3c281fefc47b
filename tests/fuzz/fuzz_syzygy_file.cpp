// Fuzz target: Syzygy table files, as engine::check_syzygy_file and engine::Syzygy::load see
// them before fathom does. The first byte picks the file's name (a WDL or DTZ table of 3 to 6
// pieces, with and without pawns on both sides); the rest is the file. A file that passes the
// checks has a table's size and its kind's magic bytes, and a set of it loads (a lone DTZ file
// is no table, so that set is an error naming the folder); one that does not is named in the
// error. Probing is not fuzzed: fathom trusts a table's body, which these checks cannot vouch
// for (see docs/OPERATIONS.md).
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <string>

#include "engine/syzygy.hpp"
#include "fuzz_check.hpp"

namespace {

namespace fs = std::filesystem;

constexpr std::array<const char*, 8> kNames{"KQvK.rtbw",   "KQvK.rtbz",   "KRvKP.rtbw",
                                            "KRvKP.rtbz",  "KPvKP.rtbw",  "KPvKP.rtbz",
                                            "KRPvKR.rtbw", "KQRvKRP.rtbw"};

const fs::path& folder() {
    static const fs::path dir = [] {
        fs::path d =
            fs::temp_directory_path() / ("outpost-fuzz-syzygy-" + std::to_string(::getpid()));
        fs::create_directories(d);
        return d;
    }();
    return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const std::string name = kNames[data[0] % kNames.size()];
    const fs::path file = folder() / name;
    for (const char* other : kNames) fs::remove(folder() / other);
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char*>(data + 1), std::streamsize(size - 1));
    }
    const auto problem = engine::check_syzygy_file(file.string());
    const std::size_t bytes = size - 1;
    if (!problem) {
        fuzz::check(bytes >= 80 && bytes % 64 == 16, "a passing file has a table's size");
        const bool wdl = name.ends_with(".rtbw");
        fuzz::check(data[1] == (wdl ? 0x71 : 0xD7), "a passing file starts with its magic");
    }
    const auto loaded = engine::Syzygy::load({folder().string()});
    const bool table = !problem && name.ends_with(".rtbw");
    fuzz::check(loaded.ok() == table, "a set loads exactly when its one WDL file passes");
    if (loaded) {
        fuzz::check((*loaded)->tables().size() == 1, "one table");
        fuzz::check((*loaded)->problems().empty(), "no problem");
    } else {
        fuzz::check(loaded.error().find(folder().string()) != std::string::npos,
                    "the error names the folder");
        if (problem)
            fuzz::check(loaded.error().find(name + ": " + *problem) != std::string::npos,
                        "the error names the file and its problem");
    }
    return 0;
}
