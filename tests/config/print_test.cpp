// Printing: the effective config round-trips, and the token never appears in any output.
#include "config/print.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "config/check_command.hpp"
#include "config/keys.hpp"
#include "config/load.hpp"
#include "test_support.hpp"

namespace config {
namespace {

TEST(ConfigPrint, RedactsTheToken) {
    Config c;
    c.token = testing::kSecret;
    std::string yaml = to_yaml(c);
    EXPECT_EQ(yaml.find(testing::kSecret), std::string::npos);
    EXPECT_NE(yaml.find("token: \"***\""), std::string::npos) << yaml;
}

TEST(ConfigPrint, RoundTripsThroughTheLoader) {
    const char* text = R"(
token: lip_x
url: "http://localhost:8000"
engine:
  hash_mb: 128
  book:
    files:
      standard: [a.bin, "with space.bin"]
challenge:
  time_controls: [blitz]
  block_list: [on, "yes"]
matchmaking:
  time_controls: ["0.5+0", "3+2"]
greeting:
  hello: "Hi: {opponent} # not a comment"
  goodbye: ""
)";
    LoadResult first = load_string(text, "c.yml", testing::without_env());
    ASSERT_TRUE(first.ok()) << format_error(first.errors.front(), "c.yml");
    EXPECT_EQ(first.config->challenge.block_list, (std::vector<std::string>{"on", "yes"}));
    std::string printed = to_yaml(*first.config);
    LoadResult second = load_string(printed, "printed", testing::without_env());
    ASSERT_TRUE(second.ok()) << printed;
    Config expected = *first.config;
    expected.token = kRedacted;
    EXPECT_EQ(*second.config, expected) << printed;
}

TEST(ConfigPrint, EveryKeyIsPrinted) {
    std::string yaml = to_yaml(Config{});
    for (const KeySpec& spec : known_keys())
        EXPECT_NE(yaml.find(std::string(spec.name()) + ":"), std::string::npos) << spec.path;
}

TEST(ConfigCheckCommand, PrintsEffectiveConfigWithoutTheToken) {
    testing::TempDir dir;
    std::string path = dir.write(
        "config.yml", std::string("token: ") + testing::kSecret + "\nengine:\n  threads: 3\n");
    std::ostringstream out, err;
    EXPECT_EQ(check_config_command(path, out, err, testing::without_env()), 0);
    EXPECT_NE(out.str().find("threads: 3"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("***"), std::string::npos);
    EXPECT_EQ(out.str().find(testing::kSecret), std::string::npos);
    EXPECT_EQ(err.str().find(testing::kSecret), std::string::npos);
    EXPECT_NE(err.str().find("OK"), std::string::npos);
}

TEST(ConfigCheckCommand, PrintsErrorsAndFails) {
    testing::TempDir dir;
    std::string path = dir.write("config.yml", std::string("token: ") + testing::kSecret +
                                                   "\nchallenge:\n  min_base: fast\n");
    std::ostringstream out, err;
    EXPECT_EQ(check_config_command(path, out, err, testing::without_env()), 1);
    EXPECT_EQ(out.str(), "");
    EXPECT_NE(err.str().find(path + ":3: challenge.min_base: expected a whole number of seconds"),
              std::string::npos)
        << err.str();
    EXPECT_EQ(err.str().find(testing::kSecret), std::string::npos);
}

TEST(ConfigCheckCommand, MissingFileFails) {
    std::ostringstream out, err;
    EXPECT_EQ(check_config_command("/nonexistent/c.yml", out, err, testing::without_env()), 1);
    EXPECT_NE(err.str().find("cannot read the config file"), std::string::npos);
}

// Every way a token can end up in an error must keep it out of the message.
TEST(ConfigRedaction, TokenNeverInErrors) {
    const std::string secret = testing::kSecret;
    const std::vector<std::string> texts = {
        "token: [" + secret + "]\n",
        "token: {a: " + secret + "}\n",
        "token: \"" + secret + " " + secret + "\"\n",
        "tokn: " + secret + "\n",
        "token: " + secret + "\ntoken: " + secret + "\n",
        "token: " + secret + "\nengine:\n  hash_mb: " + secret + "\n",
        "token: " + secret + "\n  - " + secret + "\n",
    };
    for (const std::string& text : texts) {
        LoadResult r = load_string(text, "c.yml", testing::without_env());
        EXPECT_FALSE(r.ok()) << text;
        for (const ConfigError& e : r.warnings)
            EXPECT_EQ(format_error(e, "c.yml").find(secret), std::string::npos);
        for (const ConfigError& e : r.errors) {
            EXPECT_EQ(format_error(e, "c.yml").find(secret), std::string::npos)
                << format_error(e, "c.yml");
        }
    }
}

}  // namespace
}  // namespace config
