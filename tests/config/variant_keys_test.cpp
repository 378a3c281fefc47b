// The config reads its variant keys from the engine's game-type table (engine/variant_table.hpp):
// every row's key, in any case, loads as the row's exact key wherever the config names a
// variant, and fromPosition alone, whose challenges must bring a FEN, cannot be matchmade.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/text.hpp"
#include "config/load.hpp"
#include "engine/variant_table.hpp"
#include "test_support.hpp"

namespace config {
namespace {

TEST(ConfigVariantKeys, DefaultChallengeVariantsAreEveryRowInOrder) {
    std::vector<std::string> keys;
    for (const engine::GameType& row : engine::GAME_TYPES) keys.emplace_back(row.key);
    EXPECT_EQ(ChallengeConfig{}.variants, keys);
    EXPECT_EQ(every_variant_key(), keys);
}

TEST(ConfigVariantKeys, EveryRowsKeyLoadsAsItself) {
    for (const engine::GameType& row : engine::GAME_TYPES) {
        const std::string key(row.key);
        const std::string yaml = "challenge:\n  variants: [" + common::lowercase(key) +
                                 "]\nengine:\n  book:\n    files:\n      " + key + ": a.bin\n";
        LoadResult r = load_string(yaml, "config.yml", testing::with_env_token());
        ASSERT_TRUE(r.ok()) << key << ": " << format_error(r.errors.front(), "config.yml");
        EXPECT_EQ(r.config->challenge.variants, std::vector<std::string>{key});
        EXPECT_EQ(r.config->engine.book.files.count(key), 1u) << key;
    }
}

TEST(ConfigVariantKeys, EveryRowWithoutAFenCanBeMatchmade) {
    for (const engine::GameType& row : engine::GAME_TYPES) {
        const std::string key(row.key);
        LoadResult r = load_string("matchmaking:\n  variants: [" + key + "]\n", "config.yml",
                                   testing::with_env_token());
        if (row.needs_fen) {
            ASSERT_FALSE(r.ok()) << key;
            EXPECT_EQ(r.errors.front().key_path, "matchmaking.variants");
            EXPECT_NE(r.errors.front().message.find("allowed are standard"), std::string::npos)
                << format_error(r.errors.front(), "config.yml");
        } else {
            ASSERT_TRUE(r.ok()) << key << ": " << format_error(r.errors.front(), "config.yml");
            EXPECT_EQ(r.config->matchmaking.variants, std::vector<std::string>{key});
        }
    }
}

}  // namespace
}  // namespace config
