// Reading the metrics table of docs/OPERATIONS.md (documented_metrics.hpp).
#include "tests/support/documented_metrics.hpp"

#include <fstream>
#include <string_view>
#include <vector>

namespace test_support {

namespace {

// The text between the first two backticks of each `...` pair in `cell`.
std::vector<std::string> backticked(std::string_view cell) {
    std::vector<std::string> out;
    for (std::size_t at = cell.find('`'); at != std::string_view::npos;) {
        const std::size_t close = cell.find('`', at + 1);
        if (close == std::string_view::npos) break;
        out.emplace_back(cell.substr(at + 1, close - at - 1));
        at = cell.find('`', close + 1);
    }
    return out;
}

// "counter, gauge" -> {"counter", "gauge"}.
std::vector<std::string> comma_list(std::string_view cell) {
    std::vector<std::string> out;
    while (!cell.empty()) {
        const std::size_t comma = cell.find(',');
        std::string_view item = cell.substr(0, comma);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
        if (!item.empty()) out.emplace_back(item);
        if (comma == std::string_view::npos) break;
        cell.remove_prefix(comma + 1);
    }
    return out;
}

}  // namespace

std::map<std::string, std::string> documented_metrics(const std::string& operations_md_path) {
    std::map<std::string, std::string> out;
    std::ifstream doc(operations_md_path);
    std::string line;
    bool in_section = false;
    while (std::getline(doc, line)) {
        if (line.starts_with("## ")) {
            in_section = line.find("`/metrics` reports") != std::string::npos;
        }
        if (!in_section || !line.starts_with("| `")) continue;
        const std::size_t first_end = line.find(" |", 2);
        if (first_end == std::string::npos) continue;
        const std::size_t second_end = line.find(" |", first_end + 2);
        const std::vector<std::string> names = backticked(line.substr(2, first_end - 2));
        const std::vector<std::string> types =
            comma_list(line.substr(first_end + 2, second_end - first_end - 2));
        for (std::size_t i = 0; i < names.size(); ++i) {
            std::string type = "?";
            if (types.size() == 1) type = types[0];
            if (types.size() == names.size()) type = types[i];
            out["outpost_" + names[i].substr(0, names[i].find('{'))] = type;
        }
    }
    return out;
}

}  // namespace test_support
