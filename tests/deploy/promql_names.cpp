// Reading the names out of a PromQL expression (promql_names.hpp). The token rules follow
// Prometheus's promql/parser/lex.go: identifiers [a-zA-Z_:][a-zA-Z0-9_:]*, strings in ", ' or `,
// label matchers in {}, durations and subqueries in [], grouping labels in parentheses after
// by/without/on/ignoring/group_left/group_right. Functions and aggregations: the Prometheus 2.x
// list (promql/parser/functions.go and the aggregators of lex.go).
#include "promql_names.hpp"

#include <cctype>
#include <string>

namespace deploy_test {

namespace {

constexpr std::string_view kAggregations[] = {
    "sum",   "min",          "max",     "avg",  "group",    "stddev", "stdvar",
    "count", "count_values", "bottomk", "topk", "quantile", "limitk", "limit_ratio"};

constexpr std::string_view kFunctions[] = {"abs",
                                           "absent",
                                           "absent_over_time",
                                           "acos",
                                           "acosh",
                                           "asin",
                                           "asinh",
                                           "atan",
                                           "atanh",
                                           "avg_over_time",
                                           "ceil",
                                           "changes",
                                           "clamp",
                                           "clamp_max",
                                           "clamp_min",
                                           "cos",
                                           "cosh",
                                           "count_over_time",
                                           "day_of_month",
                                           "day_of_week",
                                           "day_of_year",
                                           "days_in_month",
                                           "deg",
                                           "delta",
                                           "deriv",
                                           "exp",
                                           "floor",
                                           "histogram_avg",
                                           "histogram_count",
                                           "histogram_fraction",
                                           "histogram_quantile",
                                           "histogram_stddev",
                                           "histogram_stdvar",
                                           "histogram_sum",
                                           "holt_winters",
                                           "hour",
                                           "idelta",
                                           "increase",
                                           "irate",
                                           "label_join",
                                           "label_replace",
                                           "last_over_time",
                                           "ln",
                                           "log10",
                                           "log2",
                                           "mad_over_time",
                                           "max_over_time",
                                           "min_over_time",
                                           "minute",
                                           "month",
                                           "pi",
                                           "predict_linear",
                                           "present_over_time",
                                           "quantile_over_time",
                                           "rad",
                                           "rate",
                                           "resets",
                                           "round",
                                           "scalar",
                                           "sgn",
                                           "sin",
                                           "sinh",
                                           "sort",
                                           "sort_by_label",
                                           "sort_by_label_desc",
                                           "sort_desc",
                                           "sqrt",
                                           "stddev_over_time",
                                           "stdvar_over_time",
                                           "sum_over_time",
                                           "tan",
                                           "tanh",
                                           "time",
                                           "timestamp",
                                           "vector",
                                           "year"};

// Keywords followed by a parenthesised list of label names.
constexpr std::string_view kGrouping[] = {"by",       "without",    "on",
                                          "ignoring", "group_left", "group_right"};
// Keywords that stand alone (operators, modifiers).
constexpr std::string_view kKeywords[] = {"bool",   "offset", "and",   "or",
                                          "unless", "atan2",  "start", "end"};

template <std::size_t N>
bool among(const std::string_view (&list)[N], std::string_view word) {
    for (std::string_view w : list) {
        if (w == word) return true;
    }
    return false;
}

bool ident_start(char c) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == ':';
}
bool ident_char(char c) { return ident_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

class Reader {
  public:
    explicit Reader(std::string_view text) : text_(text) {}

    PromqlNames read() {
        std::string selector;  // the metric a following '{' belongs to
        while (skip_space()) {
            const char c = text_[pos_];
            if (c == '{') {
                if (selector.empty()) error("a selector without a metric name");
                matchers(selector);
                selector.clear();
            } else if (c == '$') {
                skip_variable();
                selector.clear();
            } else if (c == '"' || c == '\'' || c == '`') {
                (void)string_literal();
                selector.clear();
            } else if (c == '[') {
                skip_brackets();
                selector.clear();
            } else if (std::isdigit(static_cast<unsigned char>(c)) != 0 || c == '.') {
                skip_number();
                selector.clear();
            } else if (ident_start(c)) {
                selector = word();
            } else {
                ++pos_;
                selector.clear();
            }
        }
        return std::move(out_);
    }

  private:
    // Skips blanks; false at the end of the text.
    bool skip_space() {
        while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_])) != 0)
            ++pos_;
        return pos_ < text_.size();
    }
    void error(const std::string& what) {
        out_.errors.push_back(what + " at offset " + std::to_string(pos_) + " of '" +
                              std::string(text_) + "'");
    }
    std::string identifier() {
        const std::size_t start = pos_;
        while (pos_ < text_.size() && ident_char(text_[pos_])) ++pos_;
        return std::string(text_.substr(start, pos_ - start));
    }
    // $name or ${name} (Grafana's variables and macros).
    void skip_variable() {
        ++pos_;
        if (pos_ < text_.size() && text_[pos_] == '{') {
            const std::size_t close = text_.find('}', pos_);
            pos_ = close == std::string_view::npos ? text_.size() : close + 1;
            return;
        }
        (void)identifier();
    }
    std::string string_literal() {
        const char quote = text_[pos_++];
        std::string value;
        while (pos_ < text_.size() && text_[pos_] != quote) {
            if (text_[pos_] == '\\' && quote != '`' && pos_ + 1 < text_.size()) ++pos_;
            value += text_[pos_++];
        }
        if (pos_ >= text_.size()) error("an unterminated string");
        ++pos_;
        return value;
    }
    void skip_brackets() {
        const std::size_t close = text_.find(']', pos_);
        if (close == std::string_view::npos) error("an unclosed '['");
        pos_ = close == std::string_view::npos ? text_.size() : close + 1;
    }
    // 0.99, 60, 1e3, and durations such as 5m or 1h30m after offset.
    void skip_number() {
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            const bool sign_of_exponent = (c == '+' || c == '-') && pos_ > 0 &&
                                          (text_[pos_ - 1] == 'e' || text_[pos_ - 1] == 'E');
            if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '.' && !sign_of_exponent)
                break;
            ++pos_;
        }
    }
    char peek() { return skip_space() ? text_[pos_] : '\0'; }

    // An identifier: a keyword, a function or aggregation, or a metric name. Returns the metric
    // name, or empty.
    std::string word() {
        const std::string name = identifier();
        if (among(kGrouping, name)) {
            if (peek() == '(') label_list();
            return {};
        }
        if (among(kKeywords, name)) return {};
        if (among(kAggregations, name)) {
            out_.functions.insert(name);
            return {};
        }
        if (peek() == '(') {
            if (!is_promql_function(name)) error("unknown function '" + name + "'");
            out_.functions.insert(name);
            return {};
        }
        out_.metrics.insert(name);
        return name;
    }
    // (label, label, ...)
    void label_list() {
        ++pos_;
        while (skip_space() && text_[pos_] != ')') {
            if (text_[pos_] == ',') {
                ++pos_;
                continue;
            }
            if (!ident_start(text_[pos_])) {
                error("a label list with '" + std::string(1, text_[pos_]) + "'");
                ++pos_;
                continue;
            }
            out_.labels.insert(identifier());
        }
        if (pos_ >= text_.size()) error("an unclosed label list");
        ++pos_;
    }
    // {label op "value", ...} of `metric`.
    void matchers(const std::string& metric) {
        ++pos_;
        while (skip_space() && text_[pos_] != '}') {
            if (text_[pos_] == ',') {
                ++pos_;
                continue;
            }
            if (!ident_start(text_[pos_])) {
                error("a matcher that does not start with a label name");
                ++pos_;
                continue;
            }
            const std::string label = identifier();
            out_.labels.insert(label);
            skip_space();
            std::string op;
            while (pos_ < text_.size() &&
                   (text_[pos_] == '=' || text_[pos_] == '!' || text_[pos_] == '~')) {
                op += text_[pos_++];
            }
            if (op != "=" && op != "!=" && op != "=~" && op != "!~") {
                error("a matcher of " + label + " with operator '" + op + "'");
            }
            const char quote = peek();
            if (quote != '"' && quote != '\'' && quote != '`') {
                error("a matcher of " + label + " without a quoted value");
                continue;
            }
            const std::string value = string_literal();
            if (op == "=" && value.find('$') == std::string::npos) {
                out_.equal_matchers.push_back({metric, label, value});
            }
        }
        if (pos_ >= text_.size()) error("an unclosed '{'");
        ++pos_;
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    PromqlNames out_;
};

}  // namespace

bool is_promql_function(std::string_view name) {
    return among(kFunctions, name) || among(kAggregations, name);
}

PromqlNames promql_names(std::string_view expr) { return Reader(expr).read(); }

}  // namespace deploy_test
