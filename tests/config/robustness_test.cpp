// Garbage in, errors out: no input may crash the loader or throw out of it.
#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>

#include "config/load.hpp"
#include "test_support.hpp"

namespace config {
namespace {

std::string repeat(const std::string& s, std::size_t n) {
    std::string out;
    out.reserve(s.size() * n);
    for (std::size_t i = 0; i < n; ++i) out += s;
    return out;
}

TEST(ConfigRobustness, GarbageGivesErrors) {
    std::string binary;
    for (int i = 0; i < 512; ++i) binary += static_cast<char>((i * 73 + 11) % 256);
    std::string laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
    for (char c = 'b'; c <= 'k'; ++c) {
        std::string prev(1, static_cast<char>(c - 1));
        laughs += std::string(1, c) + ": &" + c + " [" + repeat("*" + prev + ", ", 9) + "*" + prev +
                  "]\n";
    }
    const std::vector<std::pair<std::string, std::string>> inputs = {
        {"binary", binary},
        {"nul bytes", std::string("url: \0\0\0\n", 9)},
        {"invalid utf8", "url: \xff\xfe\xc3\x28\n"},
        {"deep lists", repeat("[", 100000) + repeat("]", 100000)},
        {"deep maps", repeat("{a: ", 50000) + "1" + repeat("}", 50000)},
        {"deep sections", repeat("engine:\n", 1) + "  book:\n    files:\n      standard:\n" +
                              repeat("        - ", 1) + repeat("[", 3000) + repeat("]", 3000)},
        {"huge number", "engine:\n  hash_mb: " + repeat("9", 5000) + "\n"},
        {"huge negative", "engine:\n  hash_mb: -" + repeat("9", 5000) + "\n"},
        {"exponent", "engine:\n  hash_mb: 1e999\n"},
        {"hex", "engine:\n  hash_mb: 0x40\n"},
        {"billion laughs in a known key", laughs + "challenge:\n  block_list: *k\n"},
        {"billion laughs in an unknown key", laughs},
        {"alias to a section", "x: &s {hash_mb: 1}\nengine: *s\n"},
        {"unknown alias", "engine: *nothing\n"},
        {"merge key", "base: &b {hash_mb: 1}\nengine:\n  <<: *b\n"},
        {"tags", "engine:\n  hash_mb: !!binary aGVsbG8=\n  threads: !custom 2\n"},
        {"tabs", "engine:\n\thash_mb: 64\n"},
        {"only a colon", ":\n"},
        {"unclosed quote", "url: \"https://lichess.org\n"},
        {"unclosed flow", "challenge:\n  variants: [standard\n"},
        {"long line", "url: " + repeat("a", 200000) + "\n"},
        {"many keys", repeat("x: 1\n", 20000)},
        {"too big", "# " + repeat("x", 2 << 20) + "\n"},
    };
    for (const auto& [name, text] : inputs) {
        LoadResult r = load_string(text, "fuzz.yml", testing::with_env_token());
        EXPECT_FALSE(r.ok()) << name;
        EXPECT_FALSE(r.config.has_value()) << name;
        EXPECT_LE(r.errors.size(), 51u) << name;
        for (const ConfigError& e : r.errors) EXPECT_FALSE(e.message.empty()) << name;
    }
}

TEST(ConfigRobustness, HarmlessOddities) {
    const std::vector<std::string> inputs = {"",           "\n\n", "# only a comment\n", "---\n",
                                             "---\n...\n", "~\n",  "engine: ~\n"};
    for (const std::string& text : inputs)
        EXPECT_TRUE(load_string(text, "odd.yml", testing::with_env_token()).ok()) << text;
}

// Random byte edits of the example file: any result is fine, as long as nothing crashes.
TEST(ConfigRobustness, MutatedExampleNeverCrashes) {
    std::ifstream in(OUTPOST_CONFIG_EXAMPLE, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const std::string example = buffer.str();
    ASSERT_FALSE(example.empty());
    std::mt19937 rng(20240611);
    const std::string alphabet = ":-[]{}#&*!|>'\"\n\t ,?%@`0123456789abcxyz\x01\xff";
    int failures = 0;
    for (int round = 0; round < 300; ++round) {
        std::string text = example;
        int edits = 1 + static_cast<int>(rng() % 8);
        for (int e = 0; e < edits && !text.empty(); ++e) {
            std::size_t pos = rng() % text.size();
            switch (rng() % 3) {
                case 0:
                    text[pos] = alphabet[rng() % alphabet.size()];
                    break;
                case 1:
                    text.erase(pos, 1 + rng() % 20);
                    break;
                default:
                    text.insert(pos, 1, alphabet[rng() % alphabet.size()]);
                    break;
            }
        }
        LoadResult r = load_string(text, "mutant.yml", testing::with_env_token());
        EXPECT_EQ(r.ok(), r.config.has_value());
        failures += r.ok() ? 0 : 1;
    }
    EXPECT_GT(failures, 0);  // the edits do break things, so the error paths ran
}

}  // namespace
}  // namespace config
