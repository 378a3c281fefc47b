// engine.strength: its defaults, every key read, and each wrong value named with its key and line.
#include <gtest/gtest.h>

#include "config/load.hpp"
#include "config/print.hpp"
#include "config/strength.hpp"
#include "test_support.hpp"

namespace config {
namespace {

TEST(StrengthConfig, DefaultIsFullStrength) {
    LoadResult r = load_string("", "config.yml", testing::with_env_token());
    ASSERT_TRUE(r.ok());
    const StrengthConfig& s = r.config->engine.strength;
    EXPECT_EQ(s.elo, "full");
    EXPECT_FALSE(s.match_opponent);
    EXPECT_EQ(s.offset, 0);
    EXPECT_EQ(s.min, 800);
    EXPECT_EQ(s.max, 2800);
    EXPECT_FALSE(s.match_bots);
    EXPECT_EQ(fixed_level(s.elo), std::nullopt);
}

TEST(StrengthConfig, ReadsEveryKey) {
    LoadResult r = load_string(
        "engine:\n  strength:\n    elo: 1500\n    match_opponent: true\n    offset: -150\n"
        "    min: 1000\n    max: 2200\n    match_bots: true\n",
        "config.yml", testing::with_env_token());
    ASSERT_TRUE(r.ok()) << (r.errors.empty() ? "" : r.errors[0].message);
    const StrengthConfig& s = r.config->engine.strength;
    EXPECT_EQ(fixed_level(s.elo), 1500);
    EXPECT_TRUE(s.match_opponent);
    EXPECT_EQ(s.offset, -150);
    EXPECT_EQ(s.min, 1000);
    EXPECT_EQ(s.max, 2200);
    EXPECT_TRUE(s.match_bots);
    EXPECT_TRUE(r.warnings.empty());
    // check-config prints the effective keys.
    const std::string printed = to_yaml(*r.config);
    EXPECT_NE(printed.find("strength:"), std::string::npos) << printed;
    EXPECT_NE(printed.find("offset: -150"), std::string::npos) << printed;
}

struct Bad {
    const char* name;
    const char* yaml;
    const char* key;
    int line;
    const char* message_part;
};

TEST(StrengthConfig, WrongValuesNameTheKeyAndLine) {
    const std::vector<Bad> rows = {
        {"not a level", "engine:\n  strength:\n    elo: strong\n", "engine.strength.elo", 3,
         "'strong' is not a level: write full or a whole number 800..2800"},
        {"below the range", "engine:\n  strength:\n    elo: 500\n", "engine.strength.elo", 3,
         "level 500 is outside 800..2800"},
        {"above the range", "engine:\n  strength:\n    elo: 3000\n", "engine.strength.elo", 3,
         "outside 800..2800"},
        {"a fraction", "engine:\n  strength:\n    elo: 1500.5\n", "engine.strength.elo", 3,
         "not a level"},
        {"offset too large", "engine:\n  strength:\n    offset: 5000\n", "engine.strength.offset",
         3, "5000"},
        {"offset not a number", "engine:\n  strength:\n    offset: lots\n",
         "engine.strength.offset", 3, "lots"},
        {"min below 800", "engine:\n  strength:\n    min: 600\n", "engine.strength.min", 3, "600"},
        {"max above 2800", "engine:\n  strength:\n\n    max: 3200\n", "engine.strength.max", 4,
         "3200"},
        {"min above max", "engine:\n  strength:\n    min: 2000\n    max: 1500\n",
         "engine.strength.min", 3, "is larger than engine.strength.max"},
        {"match_opponent not a boolean", "engine:\n  strength:\n    match_opponent: maybe\n",
         "engine.strength.match_opponent", 3, "maybe"},
        {"misspelt key", "engine:\n  strength:\n    match_bot: true\n", "engine.strength.match_bot",
         3, "engine.strength.match_bots"},
    };
    for (const Bad& row : rows) {
        LoadResult r = load_string(row.yaml, "config.yml", testing::with_env_token());
        ASSERT_FALSE(r.ok()) << row.name;
        const ConfigError& e = r.errors.front();
        EXPECT_EQ(e.key_path, row.key) << row.name << ": " << format_error(e, "config.yml");
        EXPECT_EQ(e.line, row.line) << row.name << ": " << format_error(e, "config.yml");
        EXPECT_NE(e.message.find(row.message_part), std::string::npos)
            << row.name << ": " << format_error(e, "config.yml");
    }
}

TEST(StrengthConfig, MatchBotsAloneIsAWarning) {
    LoadResult r = load_string("engine:\n  strength:\n    match_bots: true\n", "config.yml",
                               testing::with_env_token());
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].key_path, "engine.strength.match_bots");
    EXPECT_EQ(r.warnings[0].line, 3);
}

TEST(StrengthConfig, LevelText) {
    EXPECT_EQ(fixed_level("800"), 800);
    EXPECT_EQ(fixed_level("2800"), 2800);
    EXPECT_EQ(fixed_level("full"), std::nullopt);
    EXPECT_EQ(fixed_level("799"), std::nullopt);
    EXPECT_EQ(fixed_level(" 1500"), std::nullopt);
    EXPECT_EQ(strength_elo_problem("full"), std::nullopt);
    EXPECT_EQ(strength_elo_problem("1500"), std::nullopt);
    EXPECT_TRUE(strength_elo_problem("Full"));
    EXPECT_TRUE(strength_elo_problem(""));
}

}  // namespace
}  // namespace config
