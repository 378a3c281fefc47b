// parse_bounded(): the same documents as nlohmann's parser within the limits, a clear refusal
// past each of them, and hostile bodies (sixteen megabytes of "[[[", a million "{}") that cost a
// few megabytes instead of hundreds (peak RSS measured through /proc/self/status).
#include "lichess_client/bounded_json.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "lichess_client/events.hpp"
#include "lichess_client/online_sources.hpp"

namespace lichess {
namespace {

std::string nested(std::size_t depth, const std::string& prefix = "",
                   const std::string& suffix = "") {
    return prefix + std::string(depth, '[') + std::string(depth, ']') + suffix;
}

TEST(BoundedJson, ParsesWhatNlohmannParses) {
    const std::vector<std::string> docs = {
        R"({"type":"gameState","moves":"e2e4 e7e5","wtime":180000,"winc":0.5,"status":"started"})",
        R"([1,-2,3.25,18446744073709551615,-9223372036854775808,1e300,true,false,null,"x"])",
        R"({"a":{"b":{"c":[[],{},[{}]]}},"e":"\u00e9\ud83d\ude42\n","n":{}})",
        R"({"k":1,"k":2})",  // duplicate keys: the last one wins, as in nlohmann's DOM parser
        R"(  "just a string"  )",
        R"(0)",
    };
    for (const std::string& text : docs) {
        auto r = parse_bounded(text);
        ASSERT_TRUE(r.ok()) << text << ": " << r.error().message;
        EXPECT_EQ(r.value(), nlohmann::json::parse(text)) << text;
    }
}

TEST(BoundedJson, RefusesPastEachLimitWithAMessageNamingIt) {
    struct Row {
        std::string text;
        JsonLimits limits;
        std::string problem;  // empty: parses
    };
    const JsonLimits defaults;
    std::string values_ok = "[0";
    for (std::size_t i = 2; i < defaults.max_values; ++i) values_ok += ",0";
    values_ok += "]";  // the array and its elements: exactly max_values values
    const std::string values_over = values_ok.substr(0, values_ok.size() - 1) + ",0]";
    const std::vector<Row> rows = {
        {nested(32), defaults, ""},
        {nested(33), defaults, "nested deeper than 32 levels"},
        {nested(31, R"({"a":)", "}"), defaults, ""},
        {nested(32, R"({"a":)", "}"), defaults, "nested deeper than 32 levels"},
        {nested(4), JsonLimits{1024, 3, 100}, "nested deeper than 3 levels"},
        {values_ok, defaults, ""},
        {values_over, defaults, "more than 20000 values"},
        {R"({"a":1,"b":2,"c":3})", JsonLimits{1024, 8, 3}, "more than 3 values"},
        {std::string(100, ' ') + "1", JsonLimits{100, 8, 8}, "larger than 100 bytes"},
        {std::string(99, ' ') + "1", JsonLimits{100, 8, 8}, ""},
        {"", defaults, "invalid JSON at byte 1"},
        {"{} x", defaults, "invalid JSON at byte 4"},
        {"{\"a\":\x1b[31m}", defaults, "invalid JSON at byte 6"},
        {"[1,", defaults, "invalid JSON at byte 4"},
        {"NaN", defaults, "invalid JSON at byte 1"},
        {"1e400", defaults, "invalid JSON at byte 5"},  // beyond a double: not a number
    };
    for (const Row& row : rows) {
        const auto r = parse_bounded(row.text, row.limits);
        const std::string shown = row.text.substr(0, 40);
        if (row.problem.empty()) {
            EXPECT_TRUE(r.ok()) << shown << ": " << r.error().message;
        } else {
            ASSERT_FALSE(r.ok()) << shown;
            EXPECT_EQ(r.error().message, row.problem) << shown;
        }
    }
}

// The process's peak resident memory, in KB, after resetting it to the current size
// (/proc/self/clear_refs "5", Linux 4.0 and later).
long peak_rss_kb(bool reset) {
    if (reset) std::ofstream("/proc/self/clear_refs") << "5";
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);) {
        if (line.starts_with("VmHWM:")) return std::stol(line.substr(6));
    }
    return -1;
}

TEST(BoundedJson, AHostileBodyCostsAFewMegabytesNotHundreds) {
    // Without limits (nlohmann's DOM): 16 MB of nesting took 616 MB, a 4 MB nested line 155 MB,
    // 3.9 MB of "{}," 129 MB (release build). The bodies are built first; only the parse is
    // measured.
    const std::string deep_body = nested(8 << 20, R"({"status":"ok","moves":)", "}");     // 16 MB
    const std::string deep_line = nested(1800 << 10, R"({"type":"gameFull","x":)", "}");  // 3.5 MB
    std::string wide_body = "[{}";
    while (wide_body.size() < (3900 << 10)) wide_body += ",{}";
    wide_body += "]";
    struct Case {
        const char* what;
        std::function<std::string()> parse;  // the error message
        std::string problem;
    };
    const std::vector<Case> cases = {
        {"tablebase, 16 MB nested", [&] { return parse_tablebase(deep_body).error().message; },
         "larger than"},
        {"chessdb, 16 MB nested", [&] { return parse_chessdb(deep_body).error().message; },
         "larger than"},
        {"event line, 3.5 MB nested", [&] { return parse_event(deep_line).error().message; },
         "nested deeper than 32 levels"},
        {"game line, 3.5 MB nested", [&] { return parse_game_event(deep_line).error().message; },
         "nested deeper than 32 levels"},
        {"tablebase, 3.9 MB of {}", [&] { return parse_tablebase(wide_body).error().message; },
         "more than 20000 values"},
    };
    ASSERT_GT(peak_rss_kb(true), 0);
    for (const Case& c : cases) {
        const long before = peak_rss_kb(true);
        const std::string message = c.parse();
        const long grown_kb = peak_rss_kb(false) - before;
        EXPECT_NE(message.find(c.problem), std::string::npos) << c.what << ": " << message;
        EXPECT_LT(grown_kb, 8 * 1024) << c.what;
        std::cout << "[ measured ] " << c.what << ": peak RSS +" << grown_kb << " KB\n";
    }
}

}  // namespace
}  // namespace lichess
