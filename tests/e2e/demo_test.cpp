// `make demo` (tests/emulator/demo.sh) as a newcomer runs it, with a 30-second clock: while the
// game runs it shows the address of the bot's status page (the bot's own health endpoint) and
// each move the bot plays; then the result and the PGN.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "lichess_client/http_client.hpp"
#include "tests/engine/polyglot_test_util.hpp"

namespace e2e {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

TEST(E2eDemo, ShowsTheStatusAddressAndEachMoveWhileTheGameRunsThenTheResultAndPgn) {
    using namespace std::chrono_literals;
    test_util::BookDir dir("e2e-demo");
    const std::string out = (dir.path() / "demo.out").string();
    // TMPDIR: the demo's files (log, PGN) go into the test's folder, removed with it.
    ChildProcess demo("/usr/bin/env",
                      {"TMPDIR=" + dir.path().string(), "bash",
                       std::string(OUTPOST_SOURCE_DIR) + "/tests/emulator/demo.sh",
                       OUTPOST_BUILD_DIR, "--clock", "30+0"},
                      out, out);
    ASSERT_TRUE(demo.started());

    // The address shows first; it is the bot's health endpoint (its /metrics answers).
    const std::regex address_line(R"(status page: (http://127\.0\.0\.1:(\d+)/))");
    std::smatch address;
    std::string text;
    ASSERT_TRUE(wait_for(
        [&] {
            text = read_file(out);
            return std::regex_search(text, address, address_line);
        },
        30s))
        << text;
    const std::string base = address[1].str();
    lichess::HttpConfig hc;
    hc.base_url = base.substr(0, base.size() - 1);
    hc.request_timeout = 5s;
    lichess::HttpClient http(hc);
    auto metrics = http.perform({lichess::Method::Get, "/metrics", {}, {}, false, "text/plain"});
    ASSERT_TRUE(metrics) << metrics.error().describe();
    EXPECT_EQ(metrics->status, 200);
    EXPECT_NE(metrics->body.find("\noutpost_build_info{"), std::string::npos) << metrics->body;

    // A move line appears while the game is still on: the demo shows moves as they are played.
    const std::regex move_line(R"( ply (\d+) move [a-h][1-8][a-h][1-8][qrbn]? )");
    ASSERT_TRUE(wait_for(
        [&] {
            text = read_file(out);
            return std::regex_search(text, move_line);
        },
        60s))
        << text;
    EXPECT_EQ(text.find("== result"), std::string::npos) << "the moves came only at the end";
    EXPECT_TRUE(demo.running());

    const auto status = demo.wait(180s);
    text = read_file(out);
    ASSERT_TRUE(status.has_value()) << "the demo did not end in 180 s:\n" << text;
    EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 0) << text;

    // Every move of the bot (plies of one colour, none missing) before the result, then the PGN.
    const std::vector<std::string> lines = lines_of(text);
    std::size_t result_at = lines.size(), pgn_at = lines.size(), address_at = lines.size();
    std::vector<int> plies;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::smatch m;
        if (lines[i].find("status page: http://") != std::string::npos &&
            address_at == lines.size())
            address_at = i;
        if (lines[i] == "== result (from the emulator) ==") result_at = i;
        if (lines[i] == "== PGN written by outpost ==") pgn_at = i;
        if (std::regex_search(lines[i], m, move_line)) {
            EXPECT_EQ(result_at, lines.size()) << "a move line after the result: " << lines[i];
            plies.push_back(std::stoi(m[1].str()));
        }
    }
    ASSERT_LT(result_at, lines.size()) << text;
    EXPECT_LT(address_at, result_at);
    EXPECT_LT(result_at, pgn_at) << text;
    ASSERT_GE(plies.size(), 3U) << text;
    EXPECT_LE(plies.front(), 2) << "the bot's first move is missing";
    for (std::size_t i = 1; i < plies.size(); ++i) {
        EXPECT_EQ(plies[i], plies[i - 1] + 2)
            << "a move of the bot missing before ply " << plies[i];
    }
    // As many lines as the bot has moves in the emulator's record of the game.
    std::smatch record;
    ASSERT_TRUE(std::regex_search(text, record,
                                  std::regex(R"(: bot (white|black) vs [^\n]*\n  (1\. [^\n]*)\n)")))
        << text;
    int game_plies = 0;
    std::istringstream moves(record[2].str());
    for (std::string token; moves >> token;) {
        if (!std::regex_match(token, std::regex(R"(\d+\.)"))) ++game_plies;
    }
    const int bot_plies = record[1].str() == "white" ? (game_plies + 1) / 2 : game_plies / 2;
    EXPECT_EQ(static_cast<int>(plies.size()), bot_plies) << text;
    EXPECT_NE(text.find("  result: "), std::string::npos) << text;
    EXPECT_NE(text.find("[Result \""), std::string::npos) << "the PGN:\n" << text;
}

}  // namespace
}  // namespace e2e
