// The Prometheus text reader of prometheus_text.hpp.
#include "tests/support/prometheus_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <sstream>
#include <utility>

namespace test_support {

namespace {

bool valid_metric_name(std::string_view name) {
    if (name.empty()) return false;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
        if (!alpha && !(i > 0 && c >= '0' && c <= '9')) return false;
    }
    return true;
}

bool valid_label_name(std::string_view name) {
    return valid_metric_name(name) && name.find(':') == std::string_view::npos &&
           !name.starts_with("__");
}

// Go's strconv.ParseFloat as expfmt uses it: decimal or exponent form, or Inf/NaN spellings.
std::optional<double> parse_value(const std::string& text) {
    if (text == "+Inf" || text == "Inf") return std::numeric_limits<double>::infinity();
    if (text == "-Inf") return -std::numeric_limits<double>::infinity();
    if (text == "NaN") return std::numeric_limits<double>::quiet_NaN();
    if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos) {
        return std::nullopt;
    }
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size()) return std::nullopt;
    return v;
}

// Parses `{a="x",b="y"}` starting at text[pos] == '{'; advances pos past '}'. An error text
// when malformed.
std::optional<std::string> parse_labels(std::string_view text, std::size_t& pos,
                                        std::map<std::string, std::string>& out) {
    ++pos;
    while (pos < text.size() && text[pos] != '}') {
        const std::size_t eq = text.find('=', pos);
        if (eq == std::string_view::npos) return "label without '='";
        const std::string name(text.substr(pos, eq - pos));
        if (!valid_label_name(name)) return "bad label name '" + name + "'";
        pos = eq + 1;
        if (pos >= text.size() || text[pos] != '"') return "label value not quoted";
        ++pos;
        std::string value;
        while (pos < text.size() && text[pos] != '"') {
            if (text[pos] == '\\') {
                if (pos + 1 >= text.size()) return "label value ends in a backslash";
                const char e = text[pos + 1];
                if (e != '\\' && e != '"' && e != 'n') {
                    return std::string("invalid escape \\") + e + " in a label value";
                }
                value += e == 'n' ? '\n' : e;
                pos += 2;
            } else {
                value += text[pos++];
            }
        }
        if (pos >= text.size()) return "unterminated label value";
        ++pos;  // closing quote
        if (!out.emplace(name, value).second) return "label " + name + " repeated";
        if (pos < text.size() && text[pos] == ',') {
            ++pos;
        } else if (pos < text.size() && text[pos] != '}') {
            return "expected ',' or '}' after a label";
        }
    }
    if (pos >= text.size()) return "unterminated label set";
    ++pos;  // '}'
    return std::nullopt;
}

// HELP text: only \\ and \n are escapes.
std::optional<std::string> unescape_help(std::string_view text) {
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\') {
            out += text[i];
            continue;
        }
        if (i + 1 >= text.size() || (text[i + 1] != '\\' && text[i + 1] != 'n')) {
            return std::nullopt;
        }
        out += text[++i] == 'n' ? '\n' : '\\';
    }
    return out;
}

void check_histogram(const std::string& name, const Family& family,
                     std::vector<std::string>& errors) {
    std::map<std::string, std::vector<std::pair<double, double>>> buckets;  // by other labels
    std::map<std::string, double> counts, sums;
    for (const Sample& s : family.samples) {
        std::map<std::string, std::string> rest = s.labels;
        const bool has_le = rest.contains("le");
        std::optional<double> bound;
        if (has_le) {
            bound = parse_value(rest.at("le"));
            rest.erase("le");
        }
        std::string key;
        for (const auto& [k, v] : rest) key += k + "=" + v + ",";
        if (s.name == name + "_bucket") {
            if (!bound) {
                errors.push_back(name + ": a _bucket without a float le");
                continue;
            }
            buckets[key].emplace_back(*bound, s.value);
        } else if (has_le) {
            errors.push_back(name + ": le on " + s.name);
        } else if (s.name == name + "_count") {
            counts[key] = s.value;
        } else if (s.name == name + "_sum") {
            sums[key] = s.value;
        }
    }
    for (auto& [key, list] : buckets) {
        std::sort(list.begin(), list.end());
        if (list.empty() || !std::isinf(list.back().first)) {
            errors.push_back(name + ": no le=\"+Inf\" bucket");
            continue;
        }
        for (std::size_t i = 1; i < list.size(); ++i) {
            if (list[i].first == list[i - 1].first) errors.push_back(name + ": le repeated");
            if (list[i].second < list[i - 1].second) errors.push_back(name + ": not cumulative");
        }
        if (!counts.contains(key) || counts[key] != list.back().second) {
            errors.push_back(name + ": _count missing or not the +Inf bucket");
        }
        if (!sums.contains(key)) errors.push_back(name + ": no _sum");
    }
    if (buckets.empty() && !family.samples.empty()) errors.push_back(name + ": no buckets");
}

}  // namespace

std::string family_of(const std::string& name, const std::map<std::string, Family>& families) {
    for (std::string_view suffix : {"_bucket", "_sum", "_count"}) {
        if (!name.ends_with(suffix)) continue;
        const std::string base = name.substr(0, name.size() - suffix.size());
        auto it = families.find(base);
        if (it != families.end() &&
            (it->second.type == "histogram" || it->second.type == "summary")) {
            return base;
        }
    }
    return name;
}

Exposition parse_prometheus(std::string_view text) {
    Exposition out;
    auto& errors = out.errors;
    if (text.empty() || text.back() != '\n') errors.push_back("output must end with a newline");
    std::string current;         // the family whose lines are being read
    std::set<std::string> done;  // families whose group has ended
    std::set<std::string> seen_series;
    auto enter = [&](const std::string& family, const std::string& where) {
        if (family == current) return;
        if (done.contains(family)) errors.push_back(where + "lines of " + family + " not together");
        if (!current.empty()) done.insert(current);
        current = family;
    };
    std::size_t line_start = 0;
    int line_number = 0;
    while (line_start < text.size()) {
        std::size_t line_end = text.find('\n', line_start);
        if (line_end == std::string_view::npos) line_end = text.size();
        const std::string line(text.substr(line_start, line_end - line_start));
        line_start = line_end + 1;
        ++line_number;
        const std::string where = "line " + std::to_string(line_number) + " '" + line + "': ";
        if (line.empty()) continue;
        if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) {
            const bool is_help = line[2] == 'H';
            const std::string rest = line.substr(7);
            const std::size_t space = rest.find(' ');
            const std::string name = rest.substr(0, space);
            const std::string arg = space == std::string::npos ? "" : rest.substr(space + 1);
            if (!valid_metric_name(name)) errors.push_back(where + "bad metric name");
            enter(name, where);
            Family& family = out.families[name];
            if (is_help) {
                if (family.help) errors.push_back(where + "second HELP");
                auto help = unescape_help(arg);
                if (!help) errors.push_back(where + "invalid escape in HELP");
                family.help = help.value_or("");
            } else {
                static const std::set<std::string> kTypes{"counter", "gauge", "histogram",
                                                          "summary", "untyped"};
                if (!kTypes.contains(arg)) errors.push_back(where + "unknown type");
                if (!family.type.empty()) errors.push_back(where + "second TYPE");
                if (!family.samples.empty()) errors.push_back(where + "TYPE after samples");
                family.type = arg;
            }
            continue;
        }
        if (line.starts_with("#")) continue;  // other comments are allowed

        std::size_t pos = 0;
        while (pos < line.size() && line[pos] != '{' && line[pos] != ' ') ++pos;
        Sample sample;
        sample.name = line.substr(0, pos);
        if (!valid_metric_name(sample.name)) errors.push_back(where + "bad sample name");
        if (pos < line.size() && line[pos] == '{') {
            if (auto error = parse_labels(line, pos, sample.labels)) {
                errors.push_back(where + *error);
                continue;
            }
        }
        if (pos >= line.size() || line[pos] != ' ') {
            errors.push_back(where + "missing value");
            continue;
        }
        std::istringstream fields(line.substr(pos + 1));
        std::string value_text, timestamp, extra;
        fields >> value_text >> timestamp >> extra;
        const auto value = parse_value(value_text);
        if (!value) errors.push_back(where + "bad value '" + value_text + "'");
        if (!timestamp.empty() && timestamp.find_first_not_of("-0123456789") != std::string::npos) {
            errors.push_back(where + "bad timestamp");
        }
        if (!extra.empty()) errors.push_back(where + "text after the timestamp");
        sample.value = value.value_or(0);

        const std::string family_name = family_of(sample.name, out.families);
        enter(family_name, where);
        Family& family = out.families[family_name];
        if (family.type.empty()) family.type = "untyped";
        if (family.type != "histogram" && family.type != "summary" &&
            sample.labels.contains("le")) {
            errors.push_back(where + "le outside a histogram");
        }
        std::string series = sample.name;
        for (const auto& [k, v] : sample.labels) series += "|" + k + "=" + v;
        if (!seen_series.insert(series).second) errors.push_back(where + "duplicate series");
        family.samples.push_back(std::move(sample));
    }
    for (const auto& [name, family] : out.families) {
        if (!name.starts_with("outpost_")) errors.push_back(name + ": missing outpost_ prefix");
        if (!family.help || family.help->empty()) errors.push_back(name + ": no HELP");
        if (family.type.empty() || family.type == "untyped") errors.push_back(name + ": no TYPE");
        if (family.type == "counter") {
            if (!name.ends_with("_total")) errors.push_back(name + ": counter not named *_total");
            for (const Sample& s : family.samples) {
                if (!(s.value >= 0)) errors.push_back(name + ": negative or NaN counter");
            }
        }
        if (family.type == "histogram") check_histogram(name, family, errors);
    }
    return out;
}

std::vector<std::string> prometheus_format_errors(std::string_view text) {
    return parse_prometheus(text).errors;
}

}  // namespace test_support
