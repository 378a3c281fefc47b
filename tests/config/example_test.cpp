// config/config.example.yml: valid, equal to the built-in defaults, and lists every known key.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <set>

#include "config/keys.hpp"
#include "config/load.hpp"
#include "test_support.hpp"

namespace config {
namespace {

void collect_keys(const YAML::Node& map, const std::string& prefix, std::set<std::string>& out) {
    for (auto it = map.begin(); it != map.end(); ++it) {
        std::string path = prefix.empty() ? it->first.Scalar() : prefix + "." + it->first.Scalar();
        out.insert(path);
        const KeySpec* spec = find_key(path);
        if (spec != nullptr && spec->kind == Kind::Section && it->second.IsMap())
            collect_keys(it->second, path, out);
    }
}

TEST(ConfigExample, IsValidAndEqualToTheDefaults) {
    LoadResult r = load_file(OUTPOST_CONFIG_EXAMPLE, testing::with_env_token());
    ASSERT_TRUE(r.ok()) << format_error(r.errors.front(), r.source_name);
    EXPECT_TRUE(r.warnings.empty()) << format_error(r.warnings.front(), r.source_name);
    Config defaults;
    defaults.token = testing::kSecret;
    EXPECT_EQ(*r.config, defaults);
}

TEST(ConfigExample, ListsEveryKnownKeyAndNothingElse) {
    YAML::Node root = YAML::LoadFile(OUTPOST_CONFIG_EXAMPLE);
    std::set<std::string> in_file;
    collect_keys(root, "", in_file);
    std::set<std::string> known;
    for (const KeySpec& spec : known_keys()) known.insert(std::string(spec.path));
    for (const std::string& key : known) EXPECT_TRUE(in_file.contains(key)) << "missing: " << key;
    for (const std::string& key : in_file) EXPECT_TRUE(known.contains(key)) << "unknown: " << key;
}

TEST(ConfigExample, WithoutATokenItExplainsHowToGiveOne) {
    LoadResult r = load_file(OUTPOST_CONFIG_EXAMPLE, testing::without_env());
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].key_path, "token");
    EXPECT_GT(r.errors[0].line, 0);
}

}  // namespace
}  // namespace config
