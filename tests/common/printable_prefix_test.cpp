// printable() and printable_prefix(): what a server string becomes in a log line.
#include "common/text.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace common {
namespace {

struct Row {
    std::string in;
    std::string out;
};

TEST(LogEscape, ServerStringsOfEveryShape) {
    const std::vector<Row> rows = {
        {"abcdefgh", "abcdefgh"},                                       // a game id
        {"Größe 象棋 ♞", "Größe 象棋 ♞"},                               // UTF-8 kept
        {"id\n2026-01-01 info forged", "id\\n2026-01-01 info forged"},  // no second line
        {"black\x1b", "black\\x1b"},  // the winner of a hostile server
        {"\x1b[31mred", "\\x1b[31mred"},
        {std::string("nul\0", 4), "nul\\x00"},
        {"cr\rlf\ntab\t", "cr\\rlf\\ntab\\t"},
        {"\\x1b", "\\\\x1b"},                 // a typed backslash cannot pose as an escape
        {"\xff\xfe", "\\xff\\xfe"},           // not UTF-8
        {"\xc2\x9b", "\\xc2\\x9b"},           // C1 CSI as UTF-8
        {"\xe2\x80\xae", "\\u202e"},          // right-to-left override
        {"\xed\xa0\x80", "\\xed\\xa0\\x80"},  // a surrogate
        {"\xc3", "\\xc3"},                    // a sequence cut at the end
    };
    for (const Row& r : rows) EXPECT_EQ(printable(r.in), r.out) << r.out;
}

TEST(LogEscape, NoByteComesOutUnprintable) {
    std::string all;
    for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
    for (const char ch : printable(all + all)) {
        const auto c = static_cast<unsigned char>(ch);
        EXPECT_TRUE(c >= 0x20 && c < 0x7f) << int(c);
    }
}

TEST(LogEscape, PrefixIsBoundedAndNeverCutsASequence) {
    EXPECT_EQ(printable_prefix("short", 10), "short");
    EXPECT_EQ(printable_prefix("0123456789abc", 10), "0123456789...");
    EXPECT_EQ(printable_prefix(std::string(1 << 20, '['), 8), "[[[[[[[[...");
    // "é" is two bytes: a cut after its first byte keeps it out whole instead of showing \xc3.
    EXPECT_EQ(printable_prefix("abcé", 4), "abc...");
    EXPECT_EQ(printable_prefix("abcé", 5), "abcé");
    EXPECT_EQ(printable_prefix("\n\n\n", 2), "\\n\\n...");
}

}  // namespace
}  // namespace common
