// read_bounded_file and file_problem: a FIFO, /dev/zero, a folder and a file over the limit
// (sparse, so it costs no disk) are refused by their kind or size before a byte is read, and
// neither call blocks on the FIFO; a regular file, and a symbolic link to one, are read whole.
#include "common/bounded_file.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace common {
namespace {

namespace fs = std::filesystem;

struct BoundedTempDir {
    fs::path path;
    BoundedTempDir() {
        std::string tmpl = (fs::temp_directory_path() / "outpost-bounded-XXXXXX").string();
        path = ::mkdtemp(tmpl.data());
    }
    ~BoundedTempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

void write_file(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

struct FileRow {
    const char* name;
    const char* reason_part;  // empty: readable
};

TEST(BoundedFile, EachKindOfFileIsJudgedBeforeItIsRead) {
    BoundedTempDir dir;
    write_file(dir.path / "small.txt", "hello");
    write_file(dir.path / "exact.txt", std::string(64, 'x'));
    write_file(dir.path / "over.txt", std::string(65, 'x'));
    ASSERT_EQ(::mkfifo((dir.path / "fifo").c_str(), 0600), 0);
    { std::ofstream sparse(dir.path / "sparse.bin"); }
    fs::resize_file(dir.path / "sparse.bin", 20ULL * 1024 * 1024 * 1024);  // 20 GB, no blocks
    fs::create_symlink(dir.path / "small.txt", dir.path / "link.txt");
    fs::create_directory(dir.path / "folder");

    const FileRow rows[] = {
        {"small.txt", ""},
        {"exact.txt", ""},
        {"link.txt", ""},
        {"over.txt", "65 bytes, larger than the 64"},
        {"sparse.bin", "21474836480 bytes, larger than the 64"},
        {"fifo", "FIFO"},
        {"folder", "folder"},
        {"missing.txt", "does not exist"},
    };
    for (const FileRow& row : rows) {
        const fs::path path = dir.path / row.name;
        const auto problem = file_problem(path, 64);
        const auto read = read_bounded_file(path, 64);
        if (std::string(row.reason_part).empty()) {
            EXPECT_FALSE(problem.has_value()) << row.name << ": " << *problem;
            ASSERT_TRUE(read.ok()) << row.name << ": " << read.error().message;
            EXPECT_EQ(*read, std::string(row.name) == "exact.txt" ? std::string(64, 'x') : "hello");
        } else {
            ASSERT_TRUE(problem.has_value()) << row.name;
            EXPECT_NE(problem->find(row.reason_part), std::string::npos) << *problem;
            ASSERT_FALSE(read.ok()) << row.name;
            EXPECT_EQ(read.error().message, *problem);
        }
    }
}

TEST(BoundedFile, DevicesAreRefusedWithoutReadingThem) {
    for (const char* device : {"/dev/zero", "/dev/urandom", "/dev/null"}) {
        if (!fs::exists(device)) continue;
        const auto read = read_bounded_file(device, 1024 * 1024);
        ASSERT_FALSE(read.ok()) << device;
        EXPECT_NE(read.error().message.find("device"), std::string::npos) << read.error().message;
    }
    EXPECT_TRUE(file_problem("/dev/zero", 1024).has_value());
}

}  // namespace
}  // namespace common
