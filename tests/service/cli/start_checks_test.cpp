// The start-up checks that `outpost run` and `outpost check-config` share, as tables: the
// cgroup's memory limit, the hash tables against memory, the PGN folder's free space, and each
// row of the table on real paths of this machine (/proc, a folder, a file, a missing folder).
#include "service/cli/start_checks.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>

namespace cli {
namespace {

// ---- the cgroup's memory limit --------------------------------------------------------------

struct CgroupRow {
    const char* name;
    const char* proc_self_cgroup;
    std::map<std::string, std::string> files;  // path under /sys/fs/cgroup -> text
    std::optional<std::uint64_t> limit;
};

std::ostream& operator<<(std::ostream& os, const CgroupRow& r) { return os << r.name; }

const CgroupRow kCgroupRows[] = {
    {"V2ContainerAtTheNamespaceRoot",
     "0::/\n",
     {{"/sys/fs/cgroup/memory.max", "268435456\n"}},
     268435456},
    {"V2UnlimitedIsNone", "0::/\n", {{"/sys/fs/cgroup/memory.max", "max\n"}}, std::nullopt},
    {"V2SystemdServiceAndItsSlice",
     "0::/system.slice/outpost.service\n",
     {{"/sys/fs/cgroup/system.slice/outpost.service/memory.max", "536870912\n"},
      {"/sys/fs/cgroup/system.slice/memory.max", "max\n"}},
     536870912},
    {"AParentsSmallerLimitApplies",
     "0::/a/b\n",
     {{"/sys/fs/cgroup/a/b/memory.max", "1073741824"}, {"/sys/fs/cgroup/a/memory.max", "1048576"}},
     1048576},
    {"V1MemoryController",
     "12:pids:/x\n4:memory:/docker/abc\n0::/\n",
     {{"/sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes", "134217728\n"},
      {"/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n"}},
     134217728},
    {"V1NoLimitIsNone",
     "4:memory:/process_api/84e6\n",
     {{"/sys/fs/cgroup/memory/process_api/84e6/memory.limit_in_bytes", "9223372036854771712"},
      {"/sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712"}},
     std::nullopt},
    {"V1JoinedControllers",
     "3:cpu,memory:/job\n",
     {{"/sys/fs/cgroup/memory/job/memory.limit_in_bytes", "2097152"}},
     2097152},
    {"HybridV2Mount", "0::/svc\n", {{"/sys/fs/cgroup/unified/svc/memory.max", "4194304"}}, 4194304},
    {"JunkAndMissingFilesAreNoLimit",
     "garbage\n0::/q\n",
     {{"/sys/fs/cgroup/q/memory.max", "lots"}},
     std::nullopt},
};

class CgroupTable : public ::testing::TestWithParam<CgroupRow> {};

TEST_P(CgroupTable, FindsTheLimit) {
    const CgroupRow& row = GetParam();
    const auto read = [&](const std::string& path) -> std::optional<std::string> {
        const auto it = row.files.find(path);
        if (it == row.files.end()) return std::nullopt;
        return it->second;
    };
    EXPECT_EQ(cgroup_memory_limit(row.proc_self_cgroup, read), row.limit);
}

INSTANTIATE_TEST_SUITE_P(StartChecks, CgroupTable, ::testing::ValuesIn(kCgroupRows),
                         [](const auto& info) { return std::string(info.param.name); });

// ---- hash tables against memory -------------------------------------------------------------

TEST(StartChecks, HashTablesMustFitTheMemoryWithRoomForTheRest) {
    config::Config c;
    c.engine.hash_mb = 64;
    c.challenge.concurrency = 1;
    c.correspondence.max_concurrent_searches = 1;
    // 64 x 2 + 64 = 192 MB: the shipped Kubernetes and compose limits (256 MB) take it.
    EXPECT_EQ(hash_memory_problem(c, 256, "the cgroup"), std::nullopt);
    EXPECT_EQ(hash_memory_problem(c, 192, "the cgroup"), std::nullopt);
    const auto p = hash_memory_problem(c, 191, "the cgroup");
    ASSERT_TRUE(p.has_value());
    EXPECT_EQ(*p,
              "64 MB for each of 2 engines (challenge.concurrency 1 + "
              "correspondence.max_concurrent_searches 1) and about 64 MB for the rest need "
              "192 MB, more than the cgroup (191 MB); lower engine.hash_mb or the concurrency");
    c.engine.hash_mb = 65536;
    c.challenge.concurrency = 64;
    EXPECT_TRUE(hash_memory_problem(c, 24 * 1024, "this machine's memory").has_value());
}

TEST(StartChecks, APgnFolderNeedsAMegabyteFree) {
    EXPECT_EQ(free_space_problem("/pgn", kMinPgnFreeBytes), std::nullopt);
    EXPECT_EQ(free_space_problem("/pgn", 1ULL << 40), std::nullopt);
    const auto full = free_space_problem("/pgn", 4096);
    ASSERT_TRUE(full.has_value());
    EXPECT_EQ(*full,
              "the PGN folder '/pgn' has 4 KB free, less than the 1024 KB a few games need; free "
              "some space or choose another folder");
    EXPECT_TRUE(free_space_problem("/pgn", 0).has_value());
}

// ---- the table on this machine's paths ------------------------------------------------------

class StartChecksOnDisk : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("outpost-start-checks-" + std::to_string(::getpid()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir_);
        std::filesystem::create_directories(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }

    // The problems of a config that is fine but for `change`, as "KEY: MESSAGE" lines.
    std::string problems(const std::function<void(config::Config&)>& change) const {
        config::Config c;
        c.engine.hash_mb = 16;
        c.health.listen = "127.0.0.1:0";  // any free port: the rows below name their own
        change(c);
        std::ostringstream out;
        for (const auto& p : start_problems(c)) out << p.key << ": " << p.message << "\n";
        return out.str();
    }
    std::filesystem::path dir_;
};

TEST_F(StartChecksOnDisk, AGoodConfigHasNone) {
    EXPECT_EQ(problems([&](config::Config& c) {
                  c.pgn_directory = (dir_ / "pgn" / "new").string();  // made at start
                  c.log.file = (dir_ / "logs" / "outpost.log").string();
              }),
              "");
    std::ofstream(dir_ / "existing.log") << "old lines\n";
    EXPECT_EQ(problems([&](config::Config& c) {
                  c.pgn_directory = dir_.string();
                  c.log.file = (dir_ / "existing.log").string();
              }),
              "");
    // The checks leave nothing behind.
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_), {}), 1);
}

TEST_F(StartChecksOnDisk, TheLogFileMustBeARegularFileWeCanOpen) {
    EXPECT_EQ(problems([](config::Config& c) { c.log.file = "/proc/self/mem"; }),
              "log.file: '/proc/self/mem' is a file the kernel makes up (/proc, /sys), not one a "
              "log can be written to\n");
    EXPECT_EQ(problems([&](config::Config& c) { c.log.file = dir_.string(); }),
              "log.file: '" + dir_.string() +
                  "' is not a regular file (a folder); name a file, or leave log.file empty to "
                  "log to standard error only\n");
    EXPECT_EQ(problems([](config::Config& c) { c.log.file = "/dev/null"; }),
              "log.file: '/dev/null' is not a regular file (a device, pipe or socket); name a "
              "file, or leave log.file empty to log to standard error only\n");
    EXPECT_EQ(problems([](config::Config& c) { c.log.file = "/proc/outpost/outpost.log"; }),
              "log.file: cannot make '/proc/outpost/outpost.log': '/proc' is made up by the "
              "kernel (/proc, /sys), not a place for a log\n");
    std::ofstream(dir_ / "plain") << "x";
    EXPECT_NE(problems([&](config::Config& c) {
                  c.log.file = (dir_ / "plain" / "outpost.log").string();
              }).find("is not a folder"),
              std::string::npos);
}

TEST_F(StartChecksOnDisk, ThePgnFolderMustBeOneWeCanWriteOrMake) {
    std::ofstream(dir_ / "plain") << "x";
    EXPECT_EQ(
        problems([&](config::Config& c) { c.pgn_directory = (dir_ / "plain").string(); }),
        "pgn_directory: the PGN folder '" + (dir_ / "plain").string() + "' is not a folder\n");
    const std::string in_proc = problems([](config::Config& c) { c.pgn_directory = "/proc/pgn"; });
    EXPECT_EQ(
        in_proc.rfind("pgn_directory: cannot make the PGN folder '/proc/pgn' in '/proc': ", 0), 0u)
        << in_proc;
    const std::string in_sys = problems([](config::Config& c) { c.pgn_directory = "/sys/kernel"; });
    EXPECT_EQ(in_sys.rfind("pgn_directory: the PGN folder '/sys/kernel' is not writable: ", 0), 0u)
        << in_sys;
}

TEST_F(StartChecksOnDisk, TooMuchHashIsRefusedWithAClearMessage) {
    const std::string p = problems([](config::Config& c) {
        c.engine.hash_mb = 65536;
        c.challenge.concurrency = 100;
    });
    EXPECT_EQ(p.rfind("engine.hash_mb: 65536 MB for each of 101 engines (challenge.concurrency 100 "
                      "+ correspondence.max_concurrent_searches 1)",
                      0),
              0u)
        << p;
    EXPECT_NE(p.find("lower engine.hash_mb or the concurrency"), std::string::npos) << p;
}

TEST_F(StartChecksOnDisk, TheHealthEndpointMustBeAnAddressAndPortWeCanListenOn) {
    // A port this test holds: run would fail to bind it after logging in.
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    ASSERT_EQ(::listen(fd, 1), 0);
    socklen_t len = sizeof addr;
    ASSERT_EQ(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len), 0);
    const std::string busy = "127.0.0.1:" + std::to_string(ntohs(addr.sin_port));
    const std::string in_use = problems([&](config::Config& c) { c.health.listen = busy; });
    ::close(fd);
    EXPECT_EQ(in_use.rfind("health.listen: cannot bind on \"" + busy + "\": ", 0), 0u) << in_use;
    // 192.0.2.1 (TEST-NET-1) is no address of this machine.
    const std::string elsewhere =
        problems([](config::Config& c) { c.health.listen = "192.0.2.1:8080"; });
    EXPECT_NE(elsewhere.find("cannot bind on \"192.0.2.1:8080\""), std::string::npos) << elsewhere;
    // Off, or a free port: nothing to say (and the check holds no port afterwards).
    EXPECT_EQ(problems([](config::Config& c) { c.health.listen = ""; }), "");
    EXPECT_EQ(problems([&](config::Config& c) { c.health.listen = busy; }), "");
}

TEST_F(StartChecksOnDisk, TheDeclinedBotsFileMustBeReadableAndItsFolderWritable) {
    const auto with = [&](const std::string& file) {
        return problems([&](config::Config& c) {
            c.matchmaking.enabled = true;
            c.matchmaking.declined_bots_file = file;
        });
    };
    EXPECT_EQ(with((dir_ / "declined-bots.json").string()), "");  // a new file in a folder we write
    std::ofstream(dir_ / "old.json") << "{\"declined\": []}";
    EXPECT_EQ(with((dir_ / "old.json").string()), "");
    const std::string fifo = (dir_ / "fifo.json").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_EQ(with(fifo), "matchmaking.declined_bots_file: cannot read '" + fifo +
                              "': it is a FIFO (named pipe), not a regular file\n");
    const std::string huge = (dir_ / "huge.json").string();
    std::ofstream(huge).close();
    std::filesystem::resize_file(huge, 20ULL * 1024 * 1024 * 1024);
    EXPECT_NE(with(huge).find("larger than the 1048576"), std::string::npos) << with(huge);
    EXPECT_EQ(with("/proc/outpost/declined-bots.json"),
              "matchmaking.declined_bots_file: cannot save '/proc/outpost/declined-bots.json': its "
              "folder '/proc/outpost' does not exist\n");
    // A read-only root, as the compose and Kubernetes layouts have: /proc stands in for it.
    const std::string ro = with("/proc/declined-bots.json");
    EXPECT_EQ(ro.rfind("matchmaking.declined_bots_file: cannot save '/proc/declined-bots.json': "
                       "its folder '/proc' is not writable (",
                       0),
              0u)
        << ro;
    // Inside a PGN folder that run makes at start: that folder's own row judges it.
    EXPECT_EQ(problems([&](config::Config& c) {
                  c.matchmaking.enabled = true;
                  c.pgn_directory = (dir_ / "pgn").string();
                  c.matchmaking.declined_bots_file = (dir_ / "pgn" / "declined-bots.json").string();
              }),
              "");
    // Matchmaking off: the file is never used.
    EXPECT_EQ(problems([&](config::Config& c) { c.matchmaking.declined_bots_file = fifo; }), "");
}

}  // namespace
}  // namespace cli
