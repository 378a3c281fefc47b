// engine.tablebases.syzygy_paths and syzygy_max_pieces: the defaults, a list of folders, and a
// missing or empty folder as a warning naming the key and its line (the bot plays without it:
// the engine checks the tables themselves when it loads them).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "config/load.hpp"
#include "tests/config/test_support.hpp"

namespace config {
namespace {

LoadResult load_syzygy_yaml(const std::string& yaml) {
    LoadOptions options;
    options.env = testing::fake_env({{kTokenEnvVar, "lip_env"}});
    return load_string("engine:\n  tablebases:\n" + yaml, "c.yml", options);
}

TEST(ConfigSyzygy, OffByDefaultThenAFolderListAndALimit) {
    LoadResult r = load_syzygy_yaml("    max_pieces: 5\n");
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r.config->engine.tablebases.syzygy_paths.empty());
    EXPECT_EQ(r.config->engine.tablebases.syzygy_max_pieces, 7);

    testing::TempDir dir;
    dir.write("KQvK.rtbw", "the engine checks what is inside");
    std::filesystem::create_directories(dir.path() / "dtz");
    std::ofstream(dir.path() / "dtz" / "KQvK.rtbz") << "x";
    r = load_syzygy_yaml("    syzygy_paths: [" + dir.path().string() + ", " +
                         (dir.path() / "dtz").string() + "]\n    syzygy_max_pieces: 5\n");
    ASSERT_TRUE(r.ok()) << r.errors.front().message;
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_EQ(r.config->engine.tablebases.syzygy_paths,
              (std::vector<std::string>{dir.path().string(), (dir.path() / "dtz").string()}));
    EXPECT_EQ(r.config->engine.tablebases.syzygy_max_pieces, 5);
}

TEST(ConfigSyzygy, MissingOrEmptyFoldersAreWarningsNamingTheirLine) {
    testing::TempDir dir;
    dir.write("KQvK.rtbw", "x");
    std::filesystem::create_directories(dir.path() / "empty");
    const std::string missing = (dir.path() / "gone").string();
    const std::string empty = (dir.path() / "empty").string();
    const std::string file = dir.write("notes.txt", "a file, not a folder");
    LoadResult r =
        load_syzygy_yaml("    syzygy_paths:\n      - " + dir.path().string() + "\n      - " +
                         missing + "\n      - " + empty + "\n      - " + file + "\n");
    ASSERT_TRUE(r.ok()) << r.errors.front().message;  // the bot starts without them
    ASSERT_EQ(r.warnings.size(), 3u);
    for (const auto& w : r.warnings) EXPECT_EQ(w.key_path, "engine.tablebases.syzygy_paths");
    EXPECT_EQ(r.warnings[0].line, 5);
    EXPECT_EQ(r.warnings[0].message, "\"" + missing +
                                         "\": no such folder (relative paths start from the "
                                         "folder Outpost runs in); the bot plays without it");
    EXPECT_EQ(r.warnings[1].line, 6);
    EXPECT_EQ(r.warnings[1].message, "\"" + empty +
                                         "\" holds no Syzygy tablebase files (names like "
                                         "KQvK.rtbw); the bot plays without it");
    EXPECT_EQ(r.warnings[2].line, 7);
    EXPECT_EQ(r.warnings[2].message, "\"" + file + "\" is not a folder; the bot plays without it");
}

TEST(ConfigSyzygy, MaxPiecesIsThreeToSeven) {
    for (const char* bad : {"2", "8", "many"}) {
        LoadResult r = load_syzygy_yaml(std::string("    syzygy_max_pieces: ") + bad + "\n");
        ASSERT_EQ(r.errors.size(), 1u) << bad;
        EXPECT_EQ(r.errors[0].key_path, "engine.tablebases.syzygy_max_pieces");
        EXPECT_EQ(r.errors[0].line, 3);
    }
    EXPECT_TRUE(load_syzygy_yaml("    syzygy_max_pieces: 3\n").ok());
}

}  // namespace
}  // namespace config
