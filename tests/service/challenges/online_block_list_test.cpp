// OnlineBlockList: the text format, case-insensitive names, and a failed read keeping the last
// list; fetch_block_list's TLS rule (plain http only for this machine).
#include "service/challenges/online_block_list.hpp"

#include <gtest/gtest.h>

#include <map>

namespace service {
namespace {

lichess::ApiError failure(lichess::ApiError::Kind kind, int status, std::string message) {
    lichess::ApiError e;
    e.kind = kind;
    e.status = status;
    e.message = std::move(message);
    return e;
}

TEST(OnlineBlockList, ParsesOneNameALineSkippingBlanksAndComments) {
    EXPECT_EQ(parse_block_list("  Alice \r\n\n# a comment\nbob\n\t\ncarol"),
              (std::vector<std::string>{"Alice", "bob", "carol"}));
    EXPECT_TRUE(parse_block_list("").empty());
}

TEST(OnlineBlockList, AFailedReadKeepsTheLastListOfThatUrl) {
    std::map<std::string, lichess::Result<std::string>> replies{
        {"https://a.example/list", std::string("BadBot\nspammer\n")},
        {"https://b.example/list", failure(lichess::ApiError::Kind::Network, 0, "refused")},
    };
    OnlineBlockList list({"https://a.example/list", "https://b.example/list"},
                         [&](const std::string& url) { return replies.at(url); });
    EXPECT_FALSE(list.contains("badbot"));  // nothing read yet
    auto outcomes = list.refresh();
    ASSERT_EQ(outcomes.size(), 2u);
    EXPECT_TRUE(outcomes[0].ok);
    EXPECT_EQ(outcomes[0].names, 2u);
    EXPECT_FALSE(outcomes[1].ok);
    EXPECT_NE(outcomes[1].error.find("refused"), std::string::npos) << outcomes[1].error;
    EXPECT_TRUE(list.contains("BADBOT"));
    EXPECT_TRUE(list.contains("Spammer"));
    EXPECT_FALSE(list.contains("alice"));

    // The first list fails now, the second comes back: the first keeps its names.
    replies.at("https://a.example/list") = failure(lichess::ApiError::Kind::Http, 503, "http 503");
    replies.at("https://b.example/list") = std::string("alice\n");
    outcomes = list.refresh();
    EXPECT_FALSE(outcomes[0].ok);
    EXPECT_EQ(outcomes[0].names, 2u);
    EXPECT_TRUE(list.contains("badbot"));
    EXPECT_TRUE(list.contains("alice"));
    EXPECT_EQ(list.size(), 3u);

    // A successful read replaces the list: a name taken off is no longer blocked.
    replies.at("https://a.example/list") = std::string("spammer\n");
    (void)list.refresh();
    EXPECT_FALSE(list.contains("badbot"));
    EXPECT_TRUE(list.contains("spammer"));
}

TEST(OnlineBlockList, PlainHttpIsRefusedExceptForThisMachine) {
    // Refused before any connection is tried: nothing leaves this machine.
    const auto r = fetch_block_list("http://example.org/list.txt");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error().kind, lichess::ApiError::Kind::Config);
    const auto bad = fetch_block_list("ftp://example.org/list.txt");
    ASSERT_FALSE(bad);
    EXPECT_EQ(bad.error().kind, lichess::ApiError::Kind::Config);
    // Loopback is allowed; nobody listens on port 1, so it fails as a network error.
    const auto local = fetch_block_list("http://127.0.0.1:1/list.txt");
    ASSERT_FALSE(local);
    EXPECT_EQ(local.error().kind, lichess::ApiError::Kind::Network) << local.error().describe();
}

}  // namespace
}  // namespace service
