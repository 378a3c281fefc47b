// Chat texts: placeholders, braces, and the 140-character limit.
#include "service/game/chat_text.hpp"

#include <gtest/gtest.h>

namespace service {
namespace {

ChatVars vars() { return ChatVars{.me = "OutpostBot", .opponent = "alice"}; }

TEST(ChatText, ExpandsThePlaceholders) {
    EXPECT_EQ(expand_chat("Hi {opponent}, I'm {me}. Good luck!", vars()),
              "Hi alice, I'm OutpostBot. Good luck!");
    EXPECT_EQ(expand_chat("{engine} {version}", vars()), "Outpost " + outpost_version());
    EXPECT_FALSE(outpost_version().empty());
}

TEST(ChatText, BracesAndUnknownPlaceholders) {
    EXPECT_EQ(expand_chat("{{me}} is {me}", vars()), "{me} is OutpostBot");
    EXPECT_EQ(expand_chat("gg {typo}!", vars()), "gg !");
    EXPECT_EQ(expand_chat("open { brace", vars()), "open { brace");
    EXPECT_EQ(expand_chat("a } b", vars()), "a } b");
}

TEST(ChatText, EmptyTemplateSaysNothing) {
    EXPECT_EQ(expand_chat("", vars()), "");
    EXPECT_EQ(expand_chat("  {typo} ", vars()), "");
}

TEST(ChatText, OneLineAndTrimmed) {
    EXPECT_EQ(expand_chat("  Hello\n{opponent}\t! ", vars()), "Hello alice !");
}

TEST(ChatText, CutToTheLichessLimit) {
    const std::string long_name(200, 'x');
    const std::string s = expand_chat("Hi {opponent}", ChatVars{.me = "me", .opponent = long_name});
    EXPECT_EQ(s.size(), kChatLimit);
    EXPECT_EQ(s, "Hi " + std::string(kChatLimit - 3, 'x'));
    EXPECT_EQ(fit_chat(std::string(140, 'a')), std::string(140, 'a'));
    EXPECT_EQ(fit_chat("abc def", 4), "abc");  // no trailing space after the cut
}

TEST(ChatText, CutNeverSplitsAUtf8Character) {
    std::string s;
    for (int i = 0; i < 150; ++i) s += "\xC3\xA9";  // é, two bytes
    const std::string cut = fit_chat(s);
    EXPECT_EQ(cut.size(), 2 * kChatLimit);
    const std::string emoji = "\xF0\x9F\x98\x80";  // one code point, four bytes
    EXPECT_EQ(fit_chat("ab" + emoji + "cd", 3), "ab" + emoji);
}

}  // namespace
}  // namespace service
