// Texel tuning of the variants' evaluation weights.
#include "tools/tuner/variant_tuner.hpp"

#include <cmath>
#include <fstream>
#include <istream>
#include <sstream>
#include <type_traits>

#include "engine/nnue.hpp"
#include "engine/variant_eval.hpp"

namespace tuner {

namespace {

bool in_variant(const VariantDataset& data, int index, bool danger) {
    for (const auto& g : engine::VARIANT_PARAM_GROUPS)
        if (index >= g.offset && index < g.offset + g.count)
            return g.variant == data.variant && g.danger == danger;
    return false;
}

double danger_units(const VariantDataset& data, const VariantEntry& e, int c,
                    const std::vector<double>& w) {
    double u = 0;
    for (std::uint32_t i = e.danger_begin[c]; i < e.danger_end[c]; ++i)
        u += data.danger[i].count * w[data.danger[i].index];
    return u;
}

}  // namespace

std::optional<LabelledFen> parse_variant_data_line(std::string_view line) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.remove_suffix(1);
    const auto space = line.rfind(' ');
    if (space == std::string_view::npos || line.back() != ']') return std::nullopt;
    const std::string_view label = line.substr(space + 1);
    if (label.size() < 3 || label.front() != '[') return std::nullopt;
    const std::string number(label.substr(1, label.size() - 2));
    char* end = nullptr;
    const double v = std::strtod(number.c_str(), &end);
    if (end == number.c_str() || *end != '\0' || v < 0 || v > 1) return std::nullopt;
    return LabelledFen{std::string(line.substr(0, space)), float(v)};
}

void add_variant_position(VariantDataset& data, const engine::Position& pos, float result,
                          const engine::VariantWeights& weights) {
    engine::VariantEvalTrace trace;
    pos.visit([&](const auto& b) {
        // The engine plays such a variant on its net's judgement of the board: fit the
        // variant's terms on top of that, not of the hand-crafted one (king of the hill's net
        // judges the whole position, and leaves its terms nothing to fit).
        constexpr engine::Variant played = std::decay_t<decltype(b)>::variant;
        int board = engine::SCORE_NONE;
        if constexpr (engine::net_judges_board(played)) {
            static const auto net = engine::nnue::embedded_network(played);
            board = engine::nnue::evaluate(*net, b);
        }
        evaluate_variant_traced(b, weights, trace, board);
    });
    VariantEntry e;
    e.result = result;
    e.base = float(trace.base_white);
    e.linear_begin = std::uint32_t(data.linear.size());
    for (int i = 0; i < engine::VARIANT_PARAM_COUNT; ++i) {
        const int c = trace.coef[engine::WHITE][i] - trace.coef[engine::BLACK][i];
        if (c && in_variant(data, i, false))
            data.linear.push_back({std::uint16_t(i), std::int16_t(c)});
    }
    e.linear_end = std::uint32_t(data.linear.size());
    for (int c = 0; c < engine::COLOR_NB; ++c) {
        e.danger_begin[c] = std::uint32_t(data.danger.size());
        for (int i = 0; i < engine::VARIANT_PARAM_COUNT; ++i)
            if (trace.coef[c][i] && in_variant(data, i, true))
                data.danger.push_back({std::uint16_t(i), std::int16_t(trace.coef[c][i])});
        e.danger_end[c] = std::uint32_t(data.danger.size());
    }
    data.entries.push_back(e);
}

long load_variant_file(const std::string& path, VariantDataset& data,
                       const engine::VariantWeights& weights, std::size_t max_positions) {
    std::ifstream in(path);
    if (!in) return -1;
    long bad = 0;
    for (std::string line; std::getline(in, line);) {
        if (max_positions && data.entries.size() >= max_positions) break;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const auto labelled = parse_variant_data_line(line);
        const auto pos = labelled ? engine::Position::from_fen(labelled->fen, data.variant)
                                  : engine::Result<engine::Position>::failure("no label");
        if (!pos) {
            ++bad;
            continue;
        }
        add_variant_position(data, *pos, labelled->result, weights);
    }
    return bad;
}

double variant_entry_eval(const VariantDataset& data, const VariantEntry& e,
                          const std::vector<double>& w) {
    double v = e.base;
    for (std::uint32_t i = e.linear_begin; i < e.linear_end; ++i)
        v += data.linear[i].count * w[data.linear[i].index];
    const double divisor = danger_divisor(data.variant);
    for (int c = 0; c < engine::COLOR_NB; ++c) {
        const double u = danger_units(data, e, c, w);
        if (u > 0) v += (c == engine::WHITE ? -1 : 1) * u * u / divisor;
    }
    return v;
}

double variant_error(const VariantDataset& data, const std::vector<double>& w, double k,
                     std::size_t begin, std::size_t end) {
    end = std::min(end, data.entries.size());
    if (begin >= end) return 0;
    double sum = 0;
    for (std::size_t i = begin; i < end; ++i) {
        const VariantEntry& e = data.entries[i];
        const double d = e.result - sigmoid(k, variant_entry_eval(data, e, w));
        sum += d * d;
    }
    return sum / double(end - begin);
}

double variant_best_k(const VariantDataset& data, const std::vector<double>& w) {
    return minimize_unimodal([&](double k) { return variant_error(data, w, k); }, 0.05, 4.0);
}

VariantOptimizer::VariantOptimizer(const VariantDataset& data, double k, std::size_t train_end,
                                   double learning_rate)
    : data_(data),
      k_(k),
      train_end_(std::min(train_end, data.entries.size())),
      lr_(learning_rate),
      grad_(engine::VARIANT_PARAM_COUNT),
      frozen_(engine::VARIANT_PARAM_COUNT, true),
      moments_(engine::VARIANT_PARAM_COUNT) {
    for (const auto& g : engine::VARIANT_PARAM_GROUPS)
        if (g.variant == data.variant)
            for (int i = g.offset; i < g.offset + g.count; ++i) frozen_[std::size_t(i)] = false;
}

bool VariantOptimizer::freeze(std::string_view group) {
    for (const auto& g : engine::VARIANT_PARAM_GROUPS)
        if (group == g.name) {
            for (int i = g.offset; i < g.offset + g.count; ++i) frozen_[std::size_t(i)] = true;
            return true;
        }
    return false;
}

double VariantOptimizer::step(std::vector<double>& w) {
    std::fill(grad_.begin(), grad_.end(), 0.0);
    double err = 0;
    const double dk = k_ * std::log(10.0) / 400.0;
    const double divisor = danger_divisor(data_.variant);
    for (std::size_t n = 0; n < train_end_; ++n) {
        const VariantEntry& e = data_.entries[n];
        const double s = sigmoid(k_, variant_entry_eval(data_, e, w));
        err += (e.result - s) * (e.result - s);
        const double d = (s - e.result) * s * (1 - s) * dk;  // d(error)/d(eval)
        for (std::uint32_t i = e.linear_begin; i < e.linear_end; ++i)
            grad_[data_.linear[i].index] += d * data_.linear[i].count;
        for (int c = 0; c < engine::COLOR_NB; ++c) {
            const double u = danger_units(data_, e, c, w);
            if (u <= 0) continue;
            const double sign = c == engine::WHITE ? -1.0 : 1.0;
            for (std::uint32_t i = e.danger_begin[c]; i < e.danger_end[c]; ++i)
                grad_[data_.danger[i].index] += d * sign * 2 * u * data_.danger[i].count / divisor;
        }
    }
    const double n = double(std::max<std::size_t>(train_end_, 1));
    for (double& g : grad_) g = 2 * g / n;
    if (start_.empty()) start_ = w;
    moments_.update(w, grad_, ++t_, lr_, frozen_, start_, lambda_);
    return err / n;
}

std::vector<double> to_doubles(const engine::VariantWeights& w) {
    return {std::begin(w.v), std::end(w.v)};
}

engine::VariantWeights rounded(const std::vector<double>& w) {
    engine::VariantWeights r;
    for (int i = 0; i < engine::VARIANT_PARAM_COUNT; ++i)
        r[i] = int(std::lround(w[std::size_t(i)]));
    return r;
}

std::string variant_weights_to_cpp(const engine::VariantWeights& w, engine::Variant v) {
    std::ostringstream out;
    for (const auto& g : engine::VARIANT_PARAM_GROUPS) {
        if (g.variant != v) continue;
        out << "constexpr int " << g.name << "_W[] = {";
        for (int i = 0; i < g.count; ++i) out << (i ? ", " : "") << w[g.offset + i];
        out << "};\n";
    }
    return out.str();
}

std::string variant_weights_to_text(const engine::VariantWeights& w, engine::Variant v) {
    std::ostringstream out;
    for (const auto& g : engine::VARIANT_PARAM_GROUPS) {
        if (g.variant != v) continue;
        out << g.name;
        for (int i = 0; i < g.count; ++i) out << ' ' << w[g.offset + i];
        out << '\n';
    }
    return out.str();
}

bool variant_weights_from_text(std::istream& in, engine::VariantWeights& into) {
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::string name;
        if (!(words >> name)) continue;
        const engine::VariantParamGroup* group = nullptr;
        for (const auto& g : engine::VARIANT_PARAM_GROUPS)
            if (name == g.name) group = &g;
        if (!group) return false;
        std::vector<int> values;
        for (int x; words >> x;) values.push_back(x);
        if (int(values.size()) != group->count || !words.eof()) return false;
        for (int i = 0; i < group->count; ++i) into[group->offset + i] = values[std::size_t(i)];
    }
    return true;
}

}  // namespace tuner
