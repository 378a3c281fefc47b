// The token: environment over token_file over token, file reading, and file-permission warnings.
#include <gtest/gtest.h>

#include "config/load.hpp"
#include "test_support.hpp"

namespace config {
namespace {

LoadOptions env_and_dir(std::map<std::string, std::string> vars, const std::filesystem::path& dir) {
    LoadOptions options;
    options.env = testing::fake_env(std::move(vars));
    options.base_dir = dir;
    return options;
}

TEST(ConfigToken, EnvironmentWinsOverFileAndKey) {
    testing::TempDir dir;
    dir.write("token.txt", "lip_fromfile\n");
    LoadResult r = load_string("token: lip_fromkey\ntoken_file: token.txt\n", "c.yml",
                               env_and_dir({{kTokenEnvVar, " lip_fromenv\n"}}, dir.path()));
    ASSERT_TRUE(r.ok()) << r.errors.front().message;
    EXPECT_EQ(r.config->token, "lip_fromenv");
    EXPECT_EQ(r.token_source, TokenSource::Environment);
}

TEST(ConfigToken, TokenFileWinsOverKey) {
    testing::TempDir dir;
    dir.write("token.txt", "  lip_fromfile \r\n");
    LoadResult r = load_string("token: lip_fromkey\ntoken_file: token.txt\n", "c.yml",
                               env_and_dir({}, dir.path()));
    ASSERT_TRUE(r.ok()) << r.errors.front().message;
    EXPECT_EQ(r.config->token, "lip_fromfile");
    EXPECT_EQ(r.token_source, TokenSource::TokenFile);
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].key_path, "token");
    EXPECT_EQ(r.warnings[0].line, 1);
}

TEST(ConfigToken, KeyAlone) {
    LoadResult r = load_string("token: lip_fromkey\n", "c.yml", testing::without_env());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.config->token, "lip_fromkey");
    EXPECT_EQ(r.token_source, TokenSource::ConfigFile);
}

TEST(ConfigToken, EmptyEnvironmentVariableIsIgnoredWithAWarning) {
    LoadResult r =
        load_string("token: lip_fromkey\n", "c.yml", env_and_dir({{kTokenEnvVar, ""}}, "."));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.config->token, "lip_fromkey");
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_NE(r.warnings[0].message.find("set but empty"), std::string::npos);
}

TEST(ConfigToken, AbsoluteTokenFile) {
    testing::TempDir dir;
    std::string file = dir.write("t", "lip_abs");
    LoadResult r = load_string("token_file: \"" + file + "\"\n", "c.yml", env_and_dir({}, "/"));
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.config->token, "lip_abs");
}

TEST(ConfigToken, LoadFileResolvesTokenFileNextToTheConfig) {
    testing::TempDir dir;
    dir.write("token.txt", "lip_beside\n");
    std::string config = dir.write("config.yml", "token_file: token.txt\n");
    LoadResult r = load_file(config, env_and_dir({}, "/somewhere/else"));
    ASSERT_TRUE(r.ok()) << r.errors.front().message;
    EXPECT_EQ(r.config->token, "lip_beside");
    EXPECT_TRUE(r.warnings.empty());
}

TEST(ConfigToken, MissingTokenFile) {
    testing::TempDir dir;
    LoadResult r = load_string("url: https://lichess.org\ntoken_file: nope.txt\n", "c.yml",
                               env_and_dir({}, dir.path()));
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].key_path, "token_file");
    EXPECT_EQ(r.errors[0].line, 2);
    EXPECT_NE(r.errors[0].message.find("the file does not exist"), std::string::npos);
}

TEST(ConfigToken, TokenFileNotNeededWhenEnvironmentIsSet) {
    LoadResult r = load_string("token_file: /nonexistent/token\n", "c.yml",
                               env_and_dir({{kTokenEnvVar, "lip_env"}}, "."));
    EXPECT_TRUE(r.ok());
}

TEST(ConfigToken, BadTokenFileContents) {
    testing::TempDir dir;
    dir.write("two_lines", "lip_one\nlip_two\n");
    dir.write("empty", "\n\n");
    for (const char* name : {"two_lines", "empty"}) {
        LoadResult r = load_string(std::string("token_file: ") + name + "\n", "c.yml",
                                   env_and_dir({}, dir.path()));
        ASSERT_EQ(r.errors.size(), 1u) << name;
        EXPECT_EQ(r.errors[0].key_path, "token_file");
        EXPECT_EQ(r.errors[0].line, 1);
        EXPECT_EQ(r.errors[0].message.find("lip_"), std::string::npos);
    }
}

TEST(ConfigToken, WarnsWhenTheConfigFileWithATokenIsReadableByOthers) {
    testing::TempDir dir;
    std::string open = dir.write("open.yml", "url: https://lichess.org\ntoken: lip_x\n", 0644);
    LoadResult r = load_file(open, env_and_dir({}, "."));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].key_path, "token");
    EXPECT_EQ(r.warnings[0].line, 2);
    EXPECT_NE(r.warnings[0].message.find("chmod 600"), std::string::npos);

    std::string closed = dir.write("closed.yml", "token: lip_x\n", 0600);
    EXPECT_TRUE(load_file(closed, env_and_dir({}, ".")).warnings.empty());

    // No token in the file: nothing to protect.
    std::string no_token = dir.write("no_token.yml", "url: https://lichess.org\n", 0644);
    EXPECT_TRUE(
        load_file(no_token, env_and_dir({{kTokenEnvVar, "lip_env"}}, ".")).warnings.empty());
}

TEST(ConfigToken, WarnsWhenTheTokenFileIsReadableByOthers) {
    testing::TempDir dir;
    dir.write("token.txt", "lip_x\n", 0640);
    std::string config = dir.write("config.yml", "token_file: token.txt\n", 0644);
    LoadResult r = load_file(config, env_and_dir({}, "."));
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].key_path, "token_file");
    EXPECT_NE(r.warnings[0].message.find("chmod 600"), std::string::npos);
}

}  // namespace
}  // namespace config
