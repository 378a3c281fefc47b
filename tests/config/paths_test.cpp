// Files and folders the config names: token_file and the config itself must be regular files
// (a FIFO is an error, never a hang), pgn_directory must be writable or creatable, and each
// engine.tablebases.gaviota_paths entry a folder holding Gaviota tables.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "config/load.hpp"
#include "test_support.hpp"

namespace config {
namespace {

LoadOptions no_env(const std::filesystem::path& dir) {
    LoadOptions options;
    options.env = testing::fake_env({});
    options.base_dir = dir;
    return options;
}

// Should a reader ever block on the FIFO, this opens its write end and closes it, so the read
// ends (with an empty file) and the test fails on its assertions instead of hanging.
class FifoUnblocker {
  public:
    explicit FifoUnblocker(std::string path)
        : thread_([this, path = std::move(path)] {
              for (int i = 0; i < 500 && !done_; ++i)
                  std::this_thread::sleep_for(std::chrono::milliseconds(10));
              while (!done_) {
                  const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
                  if (fd >= 0) ::close(fd);
                  std::this_thread::sleep_for(std::chrono::milliseconds(10));
              }
          }) {}
    ~FifoUnblocker() {
        done_ = true;
        thread_.join();
    }

  private:
    std::atomic<bool> done_{false};
    std::thread thread_;
};

TEST(ConfigPaths, FifoAsTokenFileIsAClearError) {
    testing::TempDir dir;
    const std::string fifo = (dir.path() / "token.fifo").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    FifoUnblocker unblocker(fifo);
    LoadResult r = load_string("token_file: token.fifo\n", "c.yml", no_env(dir.path()));
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].key_path, "token_file");
    EXPECT_EQ(r.errors[0].line, 1);
    EXPECT_NE(r.errors[0].message.find("FIFO"), std::string::npos) << r.errors[0].message;
    EXPECT_NE(r.errors[0].message.find("not a regular file"), std::string::npos);
}

TEST(ConfigPaths, FifoAsConfigFileIsAClearError) {
    testing::TempDir dir;
    const std::string fifo = (dir.path() / "config.yml").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    FifoUnblocker unblocker(fifo);
    LoadResult r = load_file(fifo, no_env(dir.path()));
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_NE(r.errors[0].message.find("cannot read the config file: it is a FIFO"),
              std::string::npos)
        << r.errors[0].message;
}

TEST(ConfigPaths, DeviceOrSocketAsTokenFileIsAnError) {
    testing::TempDir dir;
    const std::string socket_path = (dir.path() / "s").string();
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    ASSERT_LT(socket_path.size(), sizeof addr.sun_path);
    socket_path.copy(addr.sun_path, socket_path.size());
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
    for (const auto& [file, what] :
         {std::pair<std::string, std::string>{"/dev/null", "device"}, {socket_path, "socket"}}) {
        LoadResult r = load_string("token_file: \"" + file + "\"\n", "c.yml", no_env(dir.path()));
        ASSERT_EQ(r.errors.size(), 1u) << file;
        EXPECT_NE(r.errors[0].message.find("it is a " + what + ", not a regular file"),
                  std::string::npos)
            << r.errors[0].message;
    }
    ::close(fd);
}

TEST(ConfigPaths, SymlinkToARegularTokenFileIsRead) {
    // Kubernetes mounts Secrets as symbolic links to regular files.
    testing::TempDir dir;
    dir.write("real", "lip_linked\n");
    std::filesystem::create_symlink(dir.path() / "real", dir.path() / "token");
    LoadResult r = load_string("token_file: token\n", "c.yml", no_env(dir.path()));
    ASSERT_TRUE(r.ok()) << r.errors.front().message;
    EXPECT_EQ(r.config->token, "lip_linked");
}

// A config file with the token from the environment and the given pgn_directory.
LoadResult load_with_pgn(const testing::TempDir& dir, const std::string& pgn_directory) {
    const std::string file =
        dir.write("config.yml", "pgn_directory: \"" + pgn_directory + "\"\n", 0600);
    LoadOptions options;
    options.env = testing::fake_env({{kTokenEnvVar, "lip_env"}});
    return load_file(file, options);
}

TEST(ConfigPaths, WritableOrCreatablePgnDirectoryIsAccepted) {
    testing::TempDir dir;
    std::filesystem::create_directories(dir.path() / "pgn");
    EXPECT_TRUE(load_with_pgn(dir, (dir.path() / "pgn").string()).ok());
    const std::filesystem::path later = dir.path() / "not" / "yet";
    LoadResult r = load_with_pgn(dir, later.string());
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.errors.front().message);
    EXPECT_FALSE(std::filesystem::exists(later)) << "checking must not create it";
}

TEST(ConfigPaths, PgnDirectoryThatIsAFileIsAnError) {
    testing::TempDir dir;
    const std::string file = dir.write("plain", "x");
    for (const std::string& pgn : {file, file + "/below"}) {
        LoadResult r = load_with_pgn(dir, pgn);
        ASSERT_EQ(r.errors.size(), 1u) << pgn;
        EXPECT_EQ(r.errors[0].key_path, "pgn_directory");
        EXPECT_EQ(r.errors[0].line, 1);
        EXPECT_NE(r.errors[0].message.find(pgn), std::string::npos) << r.errors[0].message;
        EXPECT_NE(r.errors[0].message.find("not a folder"), std::string::npos)
            << r.errors[0].message;
    }
}

// The messages loading each config file gives, one per line ("<n errors>" when not 1).
std::string load_messages(const std::vector<std::string>& files) {
    std::string out;
    for (const auto& file : files) {
        LoadOptions options;
        options.env = testing::fake_env({{kTokenEnvVar, "lip_env"}});
        LoadResult r = load_file(file, options);
        out += r.errors.size() == 1 ? r.errors[0].message
                                    : std::to_string(r.errors.size()) + " errors";
        out += "\n";
    }
    return out;
}

TEST(ConfigPaths, UnwritablePgnDirectoryIsAnError) {
    // Root writes anywhere, so as root the check runs in a child that has dropped to `nobody`
    // (the test runs as root in CI and in the Docker build): a real permission error either way.
    testing::TempDir dir;
    const std::filesystem::path locked = dir.path() / "locked";
    std::filesystem::create_directories(locked);
    ::chmod(dir.path().c_str(), 0755);
    ::chmod(locked.c_str(), 0555);  // may be entered, not written
    // A folder that exists but cannot be written, and one that cannot be created in it.
    const std::vector<std::string> files{
        dir.write("a.yml", "pgn_directory: \"" + locked.string() + "\"\n", 0644),
        dir.write("b.yml", "pgn_directory: \"" + (locked / "pgn").string() + "\"\n", 0644)};
    std::string messages;
    if (::geteuid() != 0) {
        messages = load_messages(files);
    } else {
        int fds[2];
        ASSERT_EQ(::pipe(fds), 0);
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            ::close(fds[0]);
            if (::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(3);
            const std::string text = load_messages(files);
            const bool written =
                ::write(fds[1], text.data(), text.size()) == static_cast<ssize_t>(text.size());
            ::_exit(written ? 0 : 4);
        }
        ::close(fds[1]);
        char buf[4096];
        for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) messages.append(buf, n);
        ::close(fds[0]);
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
    }
    EXPECT_NE(messages.find("cannot be written by this user: permission denied"), std::string::npos)
        << messages;
    EXPECT_NE(messages.find("does not exist and cannot be created in"), std::string::npos)
        << messages;
    ::chmod(locked.c_str(), 0700);
}

TEST(ConfigPaths, LoadStringChecksNoFolders) {
    // Manifests (e.g. the Kubernetes ConfigMap) are validated on machines without their volumes.
    LoadOptions options;
    options.env = testing::fake_env({{kTokenEnvVar, "lip_env"}});
    EXPECT_TRUE(load_string("pgn_directory: /nonexistent/folder/pgn\n", "c.yml", options).ok());
}

// engine.tablebases: folders of Gaviota tables (the engine checks the tables themselves).
LoadResult load_tablebases(const std::string& yaml) {
    LoadOptions options;
    options.env = testing::fake_env({{kTokenEnvVar, "lip_env"}});
    return load_string("engine:\n  tablebases:\n" + yaml, "c.yml", options);
}

TEST(ConfigTablebases, OffByDefaultFolderListAndMaxPieces) {
    LoadOptions options;
    options.env = testing::fake_env({{kTokenEnvVar, "lip_env"}});
    LoadResult r = load_string("url: https://lichess.org\n", "c.yml", options);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(r.config->engine.tablebases.gaviota_paths.empty());
    EXPECT_EQ(r.config->engine.tablebases.max_pieces, 5);

    testing::TempDir dir;
    dir.write("kqk.gtb.cp4", "the engine checks what is inside");
    std::filesystem::create_directories(dir.path() / "more");
    std::ofstream(dir.path() / "more" / "kpk.gtb.cp4") << "x";
    r = load_tablebases("    gaviota_paths: [" + dir.path().string() + ", " +
                        (dir.path() / "more").string() + "]\n    max_pieces: 3\n");
    ASSERT_TRUE(r.ok()) << r.errors.front().message;
    EXPECT_EQ(r.config->engine.tablebases.gaviota_paths,
              (std::vector<std::string>{dir.path().string(), (dir.path() / "more").string()}));
    EXPECT_EQ(r.config->engine.tablebases.max_pieces, 3);
}

TEST(ConfigTablebases, MissingFolderIsAnErrorNamingItAndItsLine) {
    testing::TempDir dir;
    dir.write("kqk.gtb.cp4", "x");
    const std::string missing = (dir.path() / "gone").string();
    LoadResult r = load_tablebases("    gaviota_paths:\n      - " + dir.path().string() +
                                   "\n      - " + missing + "\n");
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].key_path, "engine.tablebases.gaviota_paths");
    EXPECT_EQ(r.errors[0].line, 5);
    EXPECT_EQ(r.errors[0].message, "\"" + missing +
                                       "\": no such folder (relative paths start from the folder "
                                       "Outpost runs in)");
}

TEST(ConfigTablebases, FolderWithoutTablesIsAnErrorWithAHint) {
    testing::TempDir dir;
    dir.write("readme.txt", "no tables here");
    const std::string file = dir.write("kqk.gtb.cp9", "not a scheme the library reads");
    for (const char* sub : {"gtb4", "gtb1"}) {  // like Debian's folder: the cp4 one is named
        std::filesystem::create_directories(dir.path() / sub);
        std::ofstream(dir.path() / sub / "krk.gtb.cp4") << "x";
    }
    LoadResult r =
        load_tablebases("    gaviota_paths: [" + dir.path().string() + ", " + file + "]\n");
    ASSERT_EQ(r.errors.size(), 2u);
    EXPECT_EQ(r.errors[0].message,
              "\"" + dir.path().string() +
                  "\" holds no readable Gaviota tablebase files (names like kqk.gtb.cp4); its "
                  "subfolder \"" +
                  (dir.path() / "gtb4").string() + "\" does: give that folder instead");
    EXPECT_EQ(r.errors[1].message, "\"" + file + "\" is not a folder");
}

// A FIFO under a table's name is no table, and check-config does not wait on it.
TEST(ConfigTablebases, AFifoNamedLikeATableIsNoTable) {
    testing::TempDir dir;
    ASSERT_EQ(::mkfifo((dir.path() / "kqk.gtb.cp4").c_str(), 0600), 0);
    LoadResult r = load_tablebases("    gaviota_paths: [" + dir.path().string() + "]\n");
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_NE(r.errors[0].message.find("holds no readable Gaviota tablebase files"),
              std::string::npos)
        << r.errors[0].message;
}

// engine.book.files: the checks `run` makes before reading a book, made by check-config too: a
// FIFO (the read hung), a device and a file past the limit (both were read whole).
TEST(ConfigBooks, AFifoADeviceOrAHugeFileIsNoBook) {
    testing::TempDir dir;
    const std::string fifo = (dir.path() / "fifo.bin").string();
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    const std::string huge = dir.write("huge.bin", "");
    std::filesystem::resize_file(huge, kMaxBookFileBytes + 16);
    const std::string good = dir.write("good.bin", "");
    LoadOptions options;
    options.env = testing::fake_env({{kTokenEnvVar, "lip_env"}});
    LoadResult r =
        load_string("engine:\n  book:\n    enabled: true\n    files:\n      standard: [" + good +
                        ", " + fifo + ", /dev/zero, " + huge + "]\n",
                    "c.yml", options);
    ASSERT_EQ(r.errors.size(), 3u);
    EXPECT_NE(r.errors[0].message.find("FIFO"), std::string::npos) << r.errors[0].message;
    EXPECT_NE(r.errors[1].message.find("device"), std::string::npos) << r.errors[1].message;
    EXPECT_NE(r.errors[2].message.find("larger than"), std::string::npos) << r.errors[2].message;
    for (const auto& e : r.errors) EXPECT_EQ(e.key_path, "engine.book.files.standard");
}

TEST(ConfigTablebases, MaxPiecesIsThreeToFiveAndLichessBotsKeyIsNamed) {
    LoadResult r = load_tablebases("    max_pieces: 6\n");
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].key_path, "engine.tablebases.max_pieces");
    LoadOptions options;
    options.env = testing::fake_env({{kTokenEnvVar, "lip_env"}});
    r = load_string("engine:\n  lichess_bot_tbs:\n    gaviota:\n      enabled: true\n", "c.yml",
                    options);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.errors[0].message.find("Outpost uses `engine.tablebases.gaviota_paths"),
              std::string::npos)
        << r.errors[0].message;
}

}  // namespace
}  // namespace config
