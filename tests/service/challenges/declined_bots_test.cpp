// DeclinedBotsFile: what the matchmaker remembers of declines survives a restart, ends when it
// would have, and a file that is not ours is a warning and a fresh start, never a crash.
#include "service/challenges/declined_bots.hpp"
#include "tests/support/temp_dir.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <utility>

namespace service {
namespace {

void write(const std::filesystem::path& p, const std::string& text) { std::ofstream(p) << text; }

TEST(DeclinedBotsFile, ASavedMemoryIsReadBackAfterARestartWithItsEnds) {
    using namespace std::chrono_literals;
    outpost::testing::TempDir dir{"outpost-declined-"};
    const auto file = (dir.path() / "declined-bots.json").string();
    const auto steady = std::chrono::steady_clock::now();
    const auto wall = std::chrono::system_clock::now();
    const std::vector<Refusal> refusals{Refusal{"grumpy", "", "", "", steady + 24h},
                                        Refusal{"picky", "bullet", "", "rated", steady + 2h},
                                        Refusal{"gone", "", "", "", steady - 1s}};
    ASSERT_EQ(DeclinedBotsFile(file).save(refusals, steady, wall), std::nullopt);
    // Renamed over: nothing left beside it but the file itself.
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                            std::filesystem::directory_iterator()),
              1);

    // A restart an hour later, with another steady clock: the same wall-clock ends.
    const auto steady2 = steady + 5000h;
    const auto loaded = DeclinedBotsFile(file).load(steady2, wall + 1h);
    EXPECT_EQ(loaded.warning, std::nullopt);
    ASSERT_EQ(loaded.refusals.size(), 2u);
    EXPECT_EQ(loaded.refusals[0].bot, "grumpy");
    EXPECT_EQ(loaded.refusals[0].until, steady2 + 23h);
    EXPECT_EQ(loaded.refusals[1].bot, "picky");
    EXPECT_EQ(loaded.refusals[1].speed, "bullet");
    EXPECT_EQ(loaded.refusals[1].mode, "rated");
    EXPECT_EQ(loaded.refusals[1].until, steady2 + 1h);
    // Three hours on, only Grumpy's decline still holds.
    EXPECT_EQ(DeclinedBotsFile(file).load(steady2, wall + 3h).refusals.size(), 1u);
}

TEST(DeclinedBotsFile, NoFileIsAnEmptyMemoryWithoutAWarning) {
    outpost::testing::TempDir dir{"outpost-declined-"};
    const auto loaded =
        DeclinedBotsFile((dir.path() / "none.json").string())
            .load(std::chrono::steady_clock::now(), std::chrono::system_clock::now());
    EXPECT_TRUE(loaded.refusals.empty());
    EXPECT_EQ(loaded.warning, std::nullopt);
}

TEST(DeclinedBotsFile, AFileThatIsNotOursIsAWarningAndAFreshStart) {
    outpost::testing::TempDir dir{"outpost-declined-"};
    const auto file = dir.path() / "declined-bots.json";
    for (const std::string& text :
         {std::string("{not json"), std::string("[]"), std::string("{\"declined\": 5}"),
          std::string("{\"declined\": [{\"bot\": 3, \"until\": 1}]}"),
          std::string("{\"declined\": [{\"bot\": \"a\", \"until\": 99999999999999}, {}]}"),
          std::string(2 * 1024 * 1024, ' ')}) {
        write(file, text);
        const auto loaded =
            DeclinedBotsFile(file.string())
                .load(std::chrono::steady_clock::now(), std::chrono::system_clock::now());
        EXPECT_TRUE(loaded.refusals.empty()) << text.substr(0, 40);
        ASSERT_TRUE(loaded.warning.has_value()) << text.substr(0, 40);
        EXPECT_NE(loaded.warning->find(file.string()), std::string::npos) << *loaded.warning;
    }
}

TEST(DeclinedBotsFile, AnEndFarOffIsCutToAWeek) {
    outpost::testing::TempDir dir{"outpost-declined-"};
    const auto file = dir.path() / "declined-bots.json";
    write(file, "{\"declined\": [{\"bot\": \"Far\", \"until\": 9223372036854775807}]}");
    const auto steady = std::chrono::steady_clock::now();
    const auto loaded =
        DeclinedBotsFile(file.string()).load(steady, std::chrono::system_clock::now());
    EXPECT_FALSE(loaded.warning.has_value()) << *loaded.warning;
    ASSERT_EQ(loaded.refusals.size(), 1u);
    EXPECT_EQ(loaded.refusals[0].bot, "far");
    EXPECT_GT(loaded.refusals[0].until, steady + std::chrono::hours(24 * 6));
    EXPECT_LE(loaded.refusals[0].until, steady + std::chrono::hours(24 * 7));
}

TEST(DeclinedBotsFile, AFileItCannotWriteIsAnErrorNotACrash) {
    using namespace std::chrono_literals;
    outpost::testing::TempDir dir{"outpost-declined-"};
    const auto error =
        DeclinedBotsFile((dir.path() / "no-such-folder" / "declined-bots.json").string())
            .save({Refusal{"x", "", "", "", std::chrono::steady_clock::now() + 1h}},
                  std::chrono::steady_clock::now(), std::chrono::system_clock::now());
    ASSERT_TRUE(error.has_value());
    EXPECT_NE(error->find("cannot write"), std::string::npos) << *error;
}

// Files that are not what they seem: a FIFO (which blocked start-up when read), a link to
// /dev/zero and a 20 GB sparse file are each a warning at once, before a byte is read.
TEST(DeclinedBotsFile, AFifoADeviceOrAHugeFileIsAWarningWithoutAReadOrAWait) {
    outpost::testing::TempDir dir{"outpost-declined-"};
    const auto fifo = dir.path() / "fifo.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const auto zero = dir.path() / "zero.json";
    std::filesystem::create_symlink("/dev/zero", zero);
    const auto huge = dir.path() / "huge.json";
    write(huge, "");
    std::filesystem::resize_file(huge, 20ULL * 1024 * 1024 * 1024);
    for (const auto& [file, reason] :
         {std::pair{fifo, "FIFO"}, std::pair{zero, "device"}, std::pair{huge, "larger than"}}) {
        const auto loaded =
            DeclinedBotsFile(file.string())
                .load(std::chrono::steady_clock::now(), std::chrono::system_clock::now());
        EXPECT_TRUE(loaded.refusals.empty());
        ASSERT_TRUE(loaded.warning.has_value()) << file;
        EXPECT_NE(loaded.warning->find(reason), std::string::npos) << *loaded.warning;
    }
}

// A symbolic link planted where an older save put its temporary file (FILE.tmp) is neither
// followed nor written through: the save goes to a fresh name and only the file is replaced.
TEST(DeclinedBotsFile, ASaveFollowsNoLinkPlantedBesideTheFile) {
    using namespace std::chrono_literals;
    outpost::testing::TempDir dir{"outpost-declined-"};
    const auto file = (dir.path() / "declined-bots.json").string();
    const auto victim = dir.path() / "victim.txt";
    write(victim, "keep me\n");
    std::filesystem::create_symlink(victim, file + ".tmp");
    const auto steady = std::chrono::steady_clock::now();
    ASSERT_EQ(DeclinedBotsFile(file).save({Refusal{"grumpy", "", "", "", steady + 1h}}, steady,
                                          std::chrono::system_clock::now()),
              std::nullopt);
    std::ifstream in(victim);
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    EXPECT_EQ(text, "keep me\n");
    EXPECT_TRUE(std::filesystem::is_symlink(file + ".tmp"));
    EXPECT_FALSE(std::filesystem::is_symlink(file));
    EXPECT_EQ(DeclinedBotsFile(file).load(steady, std::chrono::system_clock::now()).refusals.size(),
              1u);
}

}  // namespace
}  // namespace service
