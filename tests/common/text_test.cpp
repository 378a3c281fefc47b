// The text helpers: trim, lowercase and iequals, and what printable() makes of an outside string
// in a log line.
#include "common/text.hpp"

#include <gtest/gtest.h>

#include <string>

namespace common {
namespace {

TEST(Printable, PlainNamesAndChatAreUnchanged) {
    EXPECT_EQ(printable("OutpostBot"), "OutpostBot");
    EXPECT_EQ(printable("good game, well played! (1-0)"), "good game, well played! (1-0)");
    EXPECT_EQ(printable(""), "");
}

TEST(Printable, LineBreaksCannotForgeALogLine) {
    const std::string forged = "gg\n2026-01-01 00:00:00.000 info game abc: resigned\r\n";
    const std::string shown = printable(forged);
    EXPECT_EQ(shown.find('\n'), std::string::npos);
    EXPECT_EQ(shown.find('\r'), std::string::npos);
    EXPECT_EQ(shown, "gg\\n2026-01-01 00:00:00.000 info game abc: resigned\\r\\n");
}

TEST(Printable, TerminalEscapesAndOtherControlsAreHex) {
    EXPECT_EQ(printable("\x1b[2J\x1b]0;pwned\x07"), "\\x1b[2J\\x1b]0;pwned\\x07");
    EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
    EXPECT_EQ(printable("tab\there"), "tab\\there");
    EXPECT_EQ(printable("del\x7f"), "del\\x7f");
    EXPECT_EQ(printable("\x01\x1f"), "\\x01\\x1f");
}

TEST(Printable, BackslashIsEscapedSoEscapesStayUnambiguous) {
    // A literal "\x1b" typed by a player must not read like a real ESC in the log.
    EXPECT_EQ(printable("\\x1b"), "\\\\x1b");
}

TEST(Printable, Utf8IsKeptButC1AndBrokenBytesAreNot) {
    EXPECT_EQ(printable("Größe 象棋 ♞ 🙂"), "Größe 象棋 ♞ 🙂");
    EXPECT_EQ(printable("\xc2\x9b"
                        "31m"),
              "\\xc2\\x9b31m");  // C1 CSI in its UTF-8 form
    EXPECT_EQ(printable("\x9b"
                        "31m"),
              "\\x9b31m");                                             // a raw 8-bit CSI
    EXPECT_EQ(printable("\xc3"), "\\xc3");                             // cut sequence at the end
    EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
    EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // a surrogate
    EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // beyond U+10FFFF
}

TEST(Printable, BidiOverridesCannotReorderTheLine) {
    EXPECT_EQ(printable("alice\u202egnp.exe"), "alice\\u202egnp.exe");
    EXPECT_EQ(printable("x\u2066y\u2069"), "x\\u2066y\\u2069");
}

TEST(Printable, EveryByteComesOutPrintable) {
    std::string all;
    for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
    const std::string shown = printable(all);
    for (const char ch : shown) {
        const auto c = static_cast<unsigned char>(ch);
        EXPECT_TRUE(c >= 0x20 && c != 0x7f && c < 0x80) << int(c);  // lone high bytes are hex
    }
}

TEST(Trim, DropsWhiteSpaceAtBothEndsOnly) {
    EXPECT_EQ(trim("  alice \t\r\n"), "alice");
    EXPECT_EQ(trim("\f\valice bob\v"), "alice bob");
    EXPECT_EQ(trim(" \t\n"), "");
    EXPECT_EQ(trim(""), "");
    EXPECT_EQ(trim("x"), "x");
}

TEST(Lowercase, OnlyAsciiLettersChange) {
    EXPECT_EQ(lowercase("OutpostBot_2"), "outpostbot_2");
    EXPECT_EQ(lowercase("TooFast"), "toofast");
    EXPECT_EQ(lowercase("\xc3\x89t\xc3\xa9"), "\xc3\x89t\xc3\xa9");  // UTF-8 bytes stay as they are
}

TEST(Iequals, ComparesWithoutCase) {
    EXPECT_TRUE(iequals("Correspondence", "correspondence"));
    EXPECT_TRUE(iequals("", ""));
    EXPECT_FALSE(iequals("blitz", "blitz "));
    EXPECT_FALSE(iequals("bullet", "blitz"));
}

}  // namespace
}  // namespace common
