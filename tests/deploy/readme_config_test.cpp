// README.md's "Configuration" table: one row per config key (config::known_keys()), each with
// the default that config/config.example.yml sets, so the documentation cannot drift.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "config/keys.hpp"
#include "source_tree.hpp"

namespace {

namespace fs = std::filesystem;

struct Row {
    std::string default_text;
    std::string meaning;
};

std::string trim(std::string s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::string unquote_code(std::string cell) {
    cell = trim(cell);
    if (cell.size() >= 2 && cell.front() == '`' && cell.back() == '`')
        cell = cell.substr(1, cell.size() - 2);
    return cell;
}

// Rows "| `key` | `default` | meaning |" of the table under "## Configuration".
std::map<std::string, Row> readme_rows() {
    std::ifstream in(deploy_test::kSource / "README.md");
    std::map<std::string, Row> rows;
    bool in_section = false;
    for (std::string line; std::getline(in, line);) {
        if (line.starts_with("## ")) in_section = line == "## Configuration";
        if (!in_section || !line.starts_with("| `")) continue;
        std::vector<std::string> cells;
        std::string cell;
        bool code = false;
        for (char c : line.substr(1)) {  // split on '|' outside `code`
            if (c == '`') code = !code;
            if (c == '|' && !code) {
                cells.push_back(cell);
                cell.clear();
            } else {
                cell += c;
            }
        }
        if (cells.size() < 3) continue;
        rows[unquote_code(cells[0])] = {unquote_code(cells[1]), trim(cells[2])};
    }
    return rows;
}

// A YAML value in one normalised flow-style form, to compare README text with the example.
std::string flow(const YAML::Node& node) {
    YAML::Emitter out;
    out.SetSeqFormat(YAML::Flow);
    out.SetMapFormat(YAML::Flow);
    out.SetStringFormat(YAML::DoubleQuoted);
    out << node;
    return out.c_str();
}

YAML::Node example_value(const YAML::Node& node, std::string_view path) {
    // Recursion, not `node = node[key]`: assigning a yaml-cpp Node overwrites what it refers to.
    const auto dot = path.find('.');
    const YAML::Node child = node[std::string(path.substr(0, dot))];
    if (dot == std::string_view::npos) return child;
    if (!child.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
    return example_value(child, path.substr(dot + 1));
}

TEST(ReadmeConfiguration, EveryKeyHasARowWithTheExampleDefaultAndAMeaning) {
    const auto rows = readme_rows();
    ASSERT_FALSE(rows.empty()) << "no table under ## Configuration in README.md";
    YAML::Node example =
        YAML::LoadFile((deploy_test::kSource / "config" / "config.example.yml").string());
    for (const config::KeySpec& spec : config::known_keys()) {
        if (spec.kind == config::Kind::Section) continue;
        const std::string key(spec.path);
        auto it = rows.find(key);
        if (it == rows.end()) {
            ADD_FAILURE() << "README.md's configuration table has no row for " << key;
            continue;
        }
        YAML::Node expected = example_value(example, key);
        ASSERT_TRUE(expected.IsDefined()) << key << " missing from config.example.yml";
        YAML::Node documented;
        try {
            documented = YAML::Load(it->second.default_text);
        } catch (const YAML::Exception& e) {
            ADD_FAILURE() << key << ": default `" << it->second.default_text << "` is not YAML";
            continue;
        }
        EXPECT_EQ(flow(documented), flow(expected)) << key << ": README default differs from "
                                                    << "config/config.example.yml";
        EXPECT_GE(it->second.meaning.size(), 10u) << key << ": say what it does";
    }
}

TEST(ReadmeConfiguration, NoRowForAnUnknownKey) {
    for (const auto& [key, row] : readme_rows()) {
        const config::KeySpec* spec = config::find_key(key);
        EXPECT_TRUE(spec != nullptr && spec->kind != config::Kind::Section)
            << "README.md documents " << key << ", which is not a config key";
    }
}

}  // namespace
