// The token stays in its own keys: pasted into any other value it is an error naming that key
// (and its line), from the config file, the environment variable or token_file, and neither
// the errors nor check-config's output ever show it.
#include "config/token_guard.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "config/check_command.hpp"
#include "config/load.hpp"
#include "test_support.hpp"

namespace config {
namespace {

TEST(TokenGuard, HoldsTokenFindsTheWholeTokenOrItsBody) {
    EXPECT_TRUE(holds_token(std::string("my token: ") + testing::kSecret + "!", testing::kSecret));
    EXPECT_TRUE(holds_token(testing::kSecret, testing::kSecret));
    // The body after "lip_" alone is the secret too.
    const std::string body = std::string(testing::kSecret).substr(4);
    EXPECT_EQ(token_body(testing::kSecret), body);
    EXPECT_TRUE(holds_token("pasted: " + body, testing::kSecret));
    EXPECT_FALSE(holds_token("lip_SuperSecret", testing::kSecret));  // a prefix is not the token
    EXPECT_FALSE(holds_token("good game", testing::kSecret));
    EXPECT_FALSE(holds_token("anything", ""));
    EXPECT_FALSE(holds_token("a tok b", "tok"));  // too short to be a token
}

TEST(TokenGuard, TheTokenUnderAnyOtherKeyIsAnErrorNamingTheKey) {
    enum class From { Key, Environment, TokenFile };
    struct Row {
        From from;
        std::string yaml;  // "$T" stands for the token
        std::string key;
        int line;
    };
    const std::vector<Row> rows = {
        {From::Key, "token: $T\ngreeting:\n  hello: \"Hi! $T\"\n", "greeting.hello", 3},
        {From::Environment, "greeting:\n  goodbye: \"$T\"\n", "greeting.goodbye", 2},
        {From::TokenFile,
         "token_file: token.txt\nchallenge:\n  block_list:\n    - alice\n"
         "    - $T\n",
         "challenge.block_list", 5},
        {From::Environment, "token_file: /run/secrets/$T\n", "token_file", 1},
        {From::Key, "token: $T\nengine:\n  book:\n    files:\n      standard: [\"$T.bin\"]\n",
         "engine.book.files", 5},
        {From::Environment, "greeting:\n  hello_spectators: \"x$T\"\n", "greeting.hello_spectators",
         2},
        // The body without its "lip_" prefix ("$B"), refused and redacted as the whole is.
        {From::Key, "token: $T\ngreeting:\n  hello: \"Hi! $B\"\n", "greeting.hello", 3},
        {From::Environment, "challenge:\n  block_list: [\"$B\"]\n", "challenge.block_list", 2},
    };
    for (const Row& row : rows) {
        testing::TempDir dir;
        dir.write("token.txt", std::string(testing::kSecret) + "\n");
        std::string yaml = row.yaml;
        for (auto at = yaml.find("$T"); at != std::string::npos; at = yaml.find("$T"))
            yaml.replace(at, 2, testing::kSecret);
        for (auto at = yaml.find("$B"); at != std::string::npos; at = yaml.find("$B"))
            yaml.replace(at, 2, std::string(testing::kSecret).substr(4));
        LoadOptions options;
        options.base_dir = dir.path();
        options.env = testing::fake_env(
            row.from == From::Environment
                ? std::map<std::string, std::string>{{kTokenEnvVar, testing::kSecret}}
                : std::map<std::string, std::string>{});
        const LoadResult r = load_string(yaml, "c.yml", options);
        EXPECT_FALSE(r.ok()) << row.key;
        ASSERT_EQ(r.errors.size(), 1u) << row.key << ": " << r.errors.front().message;
        EXPECT_EQ(r.errors[0].key_path, row.key);
        EXPECT_EQ(r.errors[0].line, row.line) << row.key;
        EXPECT_NE(r.errors[0].message.find("holds the Lichess API token"), std::string::npos);
        for (const auto* list : {&r.errors, &r.warnings})
            for (const ConfigError& e : *list)
                EXPECT_EQ(
                    format_error(e, r.source_name).find(std::string(testing::kSecret).substr(4)),
                    std::string::npos);

        // check-config refuses it too, before printing anything, and never shows the token.
        const std::string file = dir.write("config.yml", yaml);
        std::ostringstream out;
        std::ostringstream err;
        EXPECT_EQ(check_config_command(file, out, err, options), 1) << row.key;
        EXPECT_EQ(out.str(), "") << row.key;
        EXPECT_NE(err.str().find(row.key + ": holds the Lichess API token"), std::string::npos)
            << err.str();
        EXPECT_EQ(err.str().find(std::string(testing::kSecret).substr(4)), std::string::npos)
            << err.str();
    }
}

TEST(TokenGuard, TheTokenInItsOwnKeysIsFine) {
    testing::TempDir dir;
    dir.write("token.txt", std::string(testing::kSecret) + "\n");
    LoadOptions options;
    options.base_dir = dir.path();
    options.env = testing::fake_env({});
    EXPECT_TRUE(
        load_string(std::string("token: ") + testing::kSecret + "\n", "c.yml", options).ok());
    EXPECT_TRUE(load_string("token_file: token.txt\n", "c.yml", options).ok());
    options.env = testing::fake_env({{kTokenEnvVar, testing::kSecret}});
    EXPECT_TRUE(
        load_string(std::string("token: ") + testing::kSecret + "\n", "c.yml", options).ok());
}

}  // namespace
}  // namespace config
