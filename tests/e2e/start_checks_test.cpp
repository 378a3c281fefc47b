// `outpost check-config` agrees with `outpost run`: what run refuses at start-up (a log file on
// /proc or a folder, a PGN folder it cannot make, more hash than memory, a plain-http address
// that is not this machine's, a book or declined-bots file that is a FIFO or a device, a
// declined-bots file it cannot save) check-config refuses first, with the same message, and
// neither starts anything (nor waits on a FIFO).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <set>
#include <sstream>

#include "child_process.hpp"
#include "tests/engine/polyglot_test_util.hpp"

namespace e2e {
namespace {

struct Refusal {
    const char* name;
    std::string config;          // the config's keys beside url, token and health
    std::string key;             // what the message is about
    const char* fifo = nullptr;  // a FIFO made in DIR first, by this name
};

std::ostream& operator<<(std::ostream& os, const Refusal& r) { return os << r.name; }

// The lines of `output` that name `key` (config errors come with or without "error: ").
std::set<std::string> lines_about(const std::string& output, const std::string& key) {
    std::set<std::string> found;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("error: ", 0) == 0) line = line.substr(7);
        if (line.find(key) != std::string::npos && line.find("problem") == std::string::npos &&
            line.find("outpost:") == std::string::npos)
            found.insert(line);
    }
    return found;
}

class StartChecksAgree : public ::testing::TestWithParam<Refusal> {};

TEST_P(StartChecksAgree, CheckConfigRefusesWhatRunRefusesWithTheSameMessage) {
    const Refusal& row = GetParam();
    test_util::BookDir dir(std::string("e2e-start-checks-") + row.name);
    const std::string path = (dir.path() / "config.yml").string();
    std::string text = row.config;
    for (std::size_t at; (at = text.find("DIR")) != std::string::npos;)
        text.replace(at, 3, dir.path().string());
    if (row.fifo) {
        ASSERT_EQ(::mkfifo((dir.path() / row.fifo).c_str(), 0600), 0);
    }
    // Nothing listens on port 9: a run that got past its checks would wait to log in.
    std::ofstream(path) << "token: \"lip_StartChecksToken_0123\"\nhealth: {listen: \"\"}\n" << text;

    const auto check = run_to_end(OUTPOST_EXE, {"check-config", path}, dir.path().string());
    const auto run = run_to_end(OUTPOST_EXE, {"run", "--config", path}, dir.path().string());
    EXPECT_EQ(check.rc, 1) << check.output;
    EXPECT_EQ(run.rc, 1) << run.output;
    const auto said_by_check = lines_about(check.output, row.key);
    ASSERT_FALSE(said_by_check.empty()) << check.output;
    EXPECT_EQ(lines_about(run.output, row.key), said_by_check) << run.output;
    EXPECT_EQ(run.output.find("waiting for challenges"), std::string::npos);
    EXPECT_EQ(run.output.find("logged in"), std::string::npos);
}

const std::string kUrl = "url: \"http://127.0.0.1:9\"\n";

INSTANTIATE_TEST_SUITE_P(
    E2e, StartChecksAgree,
    ::testing::Values(
        Refusal{"LogFileInProc", kUrl + "log: {file: /proc/self/mem}\n", "log.file"},
        Refusal{"LogFileIsAFolder", kUrl + "log: {file: \"DIR\"}\n", "log.file"},
        Refusal{"PgnFolderInProc", kUrl + "pgn_directory: /proc/outpost-pgn\n", "pgn_directory"},
        Refusal{"HashBeyondMemory",
                kUrl + "engine: {hash_mb: 65536}\nchallenge: {concurrency: 16}\n",
                "engine.hash_mb"},
        Refusal{"PlainHttpToANameThatLooksLocal", "url: \"http://127.example.com\"\n", "url"},
        Refusal{"PlainHttpToAShorthandAddress", "url: \"http://127.1:8080\"\n", "url"},
        // Files that are not what they seem: refused at once, never waited on or read whole.
        Refusal{"BookIsAFifo",
                kUrl + "engine: {book: {enabled: true, files: {standard: [\"DIR/b.bin\"]}}}\n",
                "engine.book.files", "b.bin"},
        Refusal{"BookIsDevZero",
                kUrl + "engine: {book: {enabled: true, files: {standard: [/dev/zero]}}}\n",
                "engine.book.files"},
        Refusal{"DeclinedBotsFileIsAFifo",
                kUrl + "matchmaking: {enabled: true, declined_bots_file: \"DIR/d.json\"}\n",
                "matchmaking.declined_bots_file", "d.json"},
        Refusal{"DeclinedBotsFileOnAReadOnlyFolder",
                kUrl + "matchmaking: {enabled: true, declined_bots_file: /proc/d.json}\n",
                "matchmaking.declined_bots_file"},
        Refusal{"BlockListOnANipIoName",
                kUrl + "challenge: {online_block_list: [\"http://127.0.0.1.nip.io/list.txt\"]}\n",
                "online_block_list"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace e2e
