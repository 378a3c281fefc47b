// The text helpers: trim, lowercase and iequals, what printable() makes of an outside string in a
// log line, and what html_escape() makes of it on a web page.
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

// What lila counts as a link in a bot's chat line (its line is then dropped).
TEST(HasLink, SchemesWwwAndHostNames) {
    struct Row {
        const char* text;
        bool link;
    };
    const Row rows[] = {
        {"https://lichess.org/@/OutpostBot", true},
        {"see lichess.org/@/OutpostBot", true},
        {"Visit WWW.example.net", true},
        {"my code: github.com/outpost", true},
        {"tablebase.lichess.ovh.", true},
        {"Good game, Alice!", false},
        {"1. e4 e5 2. Nf3", false},
        {"e.g. a draw", false},
        {"version 0.1.0", false},
        {"Hi {opponent}, I'm {me}. Good luck!", false},
        {"score +0.35 at depth 20", false},
    };
    for (const Row& row : rows) EXPECT_EQ(has_link(row.text), row.link) << row.text;
}

TEST(HtmlEscape, MarkupAndQuotesBecomeEntities) {
    EXPECT_EQ(html_escape("<script>alert('x')</script>"),
              "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
    EXPECT_EQ(html_escape("a\"b\" & c"), "a&quot;b&quot; &amp; c");
    EXPECT_EQ(html_escape("&amp;"), "&amp;amp;");  // escaped again: what the server sent is shown
    EXPECT_EQ(html_escape("Magnus"), "Magnus");
    EXPECT_EQ(html_escape(""), "");
}

TEST(HtmlEscape, ControlsBidiOverridesAndBrokenBytesBecomeReplacementCharacters) {
    EXPECT_EQ(html_escape("a\tb\nc\rd"), "a b c d");
    EXPECT_EQ(html_escape(std::string("x\0y\x1b[2J\x7f", 8)), "x\uFFFDy\uFFFD[2J\uFFFD");
    EXPECT_EQ(html_escape("\xc2\x85"), "\uFFFD");  // C1 NEL
    EXPECT_EQ(html_escape("ab\xe2\x80\xae"
                          "cd"),
              "ab\uFFFDcd");                               // U+202E right-to-left override
    EXPECT_EQ(html_escape("\xff\xc3("), "\uFFFD\uFFFD(");  // not UTF-8
    EXPECT_EQ(html_escape("Größe 象棋 ♞ 🙂"), "Größe 象棋 ♞ 🙂");
}

TEST(HtmlEscape, LongTextIsClippedAtACodePoint) {
    EXPECT_EQ(html_escape("abcdef", 3), "abc\u2026");
    EXPECT_EQ(html_escape("abc", 3), "abc");
    EXPECT_EQ(html_escape("象棋象棋", 2), "象棋\u2026");
    EXPECT_EQ(html_escape("<<<<", 2), "&lt;&lt;\u2026");
    const std::string huge(10 * 1024, 'W');
    EXPECT_EQ(html_escape(huge, 40), std::string(40, 'W') + "\u2026");
    // Whatever comes in, nothing that opens a tag, an entity or an attribute survives.
    std::string all;
    for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
    for (const char ch : html_escape(all))
        EXPECT_TRUE(ch != '<' && ch != '>' && ch != '"' && ch != '\'');
}

}  // namespace
}  // namespace common
