// Texel tuner core: data loading into traced features, error, K search, Adam steps, printing.
#include "tools/tuner/tuner.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <istream>
#include <memory>
#include <sstream>
#include <utility>

#include "engine/fen.hpp"

namespace tuner {

namespace {

bool is_integer(std::string_view s) {
    if (s.empty()) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// What a weight group means, written above its table in the printed source.
const char* group_comment(std::string_view name) {
    static constexpr std::pair<const char*, const char*> comments[] = {
        {"MATERIAL", "pawn, knight, bishop, rook, queen, king (PeSTO)"},
        {"PSQT", "per piece type, white's view, a8..h8 first (PeSTO)"},
        {"PAWN_SUPPORTED", "by relative rank"},
        {"PAWN_PHALANX", "by relative rank"},
        {"PASSED_RANK", "by relative rank"},
        {"PASSED_FREE", "nothing on the path"},
        {"PASSED_SAFE", "path not attacked"},
        {"PASSED_KING_OWN", "per square of distance"},
        {"PASSED_KING_THEIR", "per square of distance"},
        {"PASSED_UNSTOPPABLE", "rule of the square in pawn endings"},
        {"MOBILITY_KNIGHT", "by safe squares"},
        {"KING_SHIELD", "own pawn 1, 2, 3+ ranks ahead, none"},
        {"KING_STORM", "enemy pawn by its rank from our side"},
        {"KING_OPEN_FILE", "no pawn at all on a file next to the king"},
        {"KS_ATTACKER", "units: knight, bishop, rook, queen"},
        {"KS_ZONE_ATTACK", "units per attacked zone square"},
        {"KS_SAFE_CHECK", "units: knight, bishop, rook, queen"},
        {"KS_WEAK_ZONE", "units"},
        {"KS_NO_QUEEN", "units"},
        {"KS_OFFSET", "units"},
        {"BISHOP_PAWNS", "per own pawn on the bishop's colour"},
        {"THREAT_BY_PAWN", "by victim type"},
        {"THREAT_BY_MINOR", "by victim type"},
        {"THREAT_BY_ROOK", "by victim type"},
    };
    for (const auto& [group, comment] : comments)
        if (name == group) return comment;
    return nullptr;
}

// King-danger units of one side for an entry.
void units(const Dataset& data, const Entry& e, int c, const Weights& w, double& mg, double& eg) {
    mg = eg = 0;
    for (std::uint32_t i = e.ks_begin[c]; i < e.ks_end[c]; ++i) {
        mg += data.ks[i].count * w.mg[data.ks[i].index];
        eg += data.ks[i].count * w.eg[data.ks[i].index];
    }
}

}  // namespace

double sigmoid(double k, double eval) { return 1.0 / (1.0 + std::pow(10.0, -k * eval / 400.0)); }

std::optional<LabelledFen> parse_data_line(std::string_view line) {
    std::istringstream in{std::string(line)};
    std::vector<std::string> tokens;
    for (std::string t; in >> t;) tokens.push_back(t);
    if (tokens.size() < 5) return std::nullopt;
    std::string fen = tokens[0] + " " + tokens[1] + " " + tokens[2] + " " + tokens[3];
    std::size_t next = 4;
    for (int i = 0; i < 2 && next < tokens.size() && is_integer(tokens[next]); ++i, ++next)
        fen += " " + tokens[next];

    std::string rest;
    for (std::size_t i = next; i < tokens.size(); ++i) rest += tokens[i] + " ";
    float result;
    if (rest.find("1/2-1/2") != std::string::npos)
        result = 0.5f;
    else if (rest.find("1-0") != std::string::npos)
        result = 1.0f;
    else if (rest.find("0-1") != std::string::npos)
        result = 0.0f;
    else {
        const auto open = rest.find('[');
        const auto close = rest.find(']', open == std::string::npos ? 0 : open);
        if (open == std::string::npos || close == std::string::npos) return std::nullopt;
        const std::string number = rest.substr(open + 1, close - open - 1);
        char* end = nullptr;
        const double v = std::strtod(number.c_str(), &end);
        if (end == number.c_str() || v < 0 || v > 1) return std::nullopt;
        result = float(v);
    }
    return LabelledFen{fen, result};
}

void add_position(Dataset& data, const engine::Board& board, float result,
                  const engine::EvalParams& params) {
    auto trace = std::make_unique<engine::EvalTrace>();
    engine::evaluate_traced(board, params, *trace);
    Entry e;
    e.result = result;
    e.phase = std::int8_t(trace->phase);
    e.scale = std::int8_t(trace->scale);
    e.special = trace->special;
    e.special_value = trace->white_eval;
    e.linear_begin = std::uint32_t(data.linear.size());
    for (int i = 0; i < engine::PARAM_COUNT; ++i) {
        if (i >= engine::KS_BEGIN && i < engine::KS_END) continue;
        const int c = trace->coef[engine::WHITE][i] - trace->coef[engine::BLACK][i];
        if (c) data.linear.push_back({std::uint16_t(i), std::int16_t(c)});
    }
    e.linear_end = std::uint32_t(data.linear.size());
    for (int c = 0; c < engine::COLOR_NB; ++c) {
        e.ks_begin[c] = std::uint32_t(data.ks.size());
        for (int i = engine::KS_BEGIN; i < engine::KS_END; ++i)
            if (trace->coef[c][i])
                data.ks.push_back({std::uint16_t(i), std::int16_t(trace->coef[c][i])});
        e.ks_end[c] = std::uint32_t(data.ks.size());
    }
    data.entries.push_back(e);
}

long load_file(const std::string& path, Dataset& data, const engine::EvalParams& params,
               std::size_t max_positions) {
    std::ifstream in(path);
    if (!in) return -1;
    engine::init_attacks();
    long bad = 0;
    for (std::string line; std::getline(in, line);) {
        if (max_positions && data.entries.size() >= max_positions) break;
        if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
        const auto labelled = parse_data_line(line);
        if (!labelled) {
            ++bad;
            continue;
        }
        const auto board = engine::parse_fen(labelled->fen);
        if (!board) {
            ++bad;
            continue;
        }
        add_position(data, *board, labelled->result, params);
    }
    return bad;
}

Weights Weights::from(const engine::EvalParams& p) {
    Weights w;
    w.mg.resize(engine::PARAM_COUNT);
    w.eg.resize(engine::PARAM_COUNT);
    for (int i = 0; i < engine::PARAM_COUNT; ++i) {
        w.mg[i] = p[i].mg;
        w.eg[i] = p[i].eg;
    }
    return w;
}

engine::EvalParams Weights::rounded() const {
    engine::EvalParams p{};
    for (int i = 0; i < engine::PARAM_COUNT; ++i)
        p[i] = {int(std::lround(mg[i])), int(std::lround(eg[i]))};
    return p;
}

double entry_eval(const Dataset& data, const Entry& e, const Weights& w) {
    if (e.special) return e.special_value;
    double mg = 0, eg = 0;
    for (std::uint32_t i = e.linear_begin; i < e.linear_end; ++i) {
        mg += data.linear[i].count * w.mg[data.linear[i].index];
        eg += data.linear[i].count * w.eg[data.linear[i].index];
    }
    for (int c = 0; c < engine::COLOR_NB; ++c) {
        double umg, ueg;
        units(data, e, c, w, umg, ueg);
        const double sign = c == engine::WHITE ? 1.0 : -1.0;
        if (umg > 0) mg -= sign * umg * umg / engine::KS_MG_DIV;
        if (ueg > 0) eg -= sign * ueg / engine::KS_EG_DIV;
    }
    return (mg * e.phase + eg * e.scale / engine::SCALE_NORMAL * (engine::PHASE_MAX - e.phase)) /
           engine::PHASE_MAX;
}

double error(const Dataset& data, const Weights& w, double k, std::size_t begin, std::size_t end) {
    end = std::min(end, data.entries.size());
    if (begin >= end) return 0;
    double sum = 0;
    for (std::size_t i = begin; i < end; ++i) {
        const Entry& e = data.entries[i];
        const double d = e.result - sigmoid(k, entry_eval(data, e, w));
        sum += d * d;
    }
    return sum / double(end - begin);
}

double minimize_unimodal(const std::function<double(double)>& f, double lo, double hi) {
    const double g = (std::sqrt(5.0) - 1) / 2;
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    double fa = f(a), fb = f(b);
    for (int i = 0; i < 40; ++i) {
        if (fa < fb) {
            hi = b;
            b = a;
            fb = fa;
            a = hi - g * (hi - lo);
            fa = f(a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = lo + g * (hi - lo);
            fb = f(b);
        }
    }
    return (lo + hi) / 2;
}

double best_k(const Dataset& data, const Weights& w) {
    // The error is smooth and unimodal in K.
    return minimize_unimodal([&](double k) { return error(data, w, k); }, 0.05, 4.0);
}

void AdamMoments::update(std::vector<double>& x, const std::vector<double>& g, int t, double lr,
                         const std::vector<bool>& frozen, const std::vector<double>& start,
                         double lambda) {
    constexpr double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    const double c1 = 1 - std::pow(b1, t), c2 = 1 - std::pow(b2, t);
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (frozen[i]) continue;
        double gi = g[i];
        if (lambda > 0 && gi != 0) gi += lambda * (x[i] - start[i]);
        m[i] = b1 * m[i] + (1 - b1) * gi;
        v[i] = b2 * v[i] + (1 - b2) * gi * gi;
        if (gi != 0 || m[i] != 0) x[i] -= lr * (m[i] / c1) / (std::sqrt(v[i] / c2) + eps);
    }
}

long train_with_early_stopping(long epochs, double start_error, bool has_held_out,
                               const std::function<double()>& step,
                               const std::function<double()>& held_out,
                               const std::function<void()>& keep) {
    const auto t0 = std::chrono::steady_clock::now();
    double best = start_error;
    long best_epoch = 0;
    for (long e = 1; e <= epochs; ++e) {
        const double err = step();
        if (e % 5 != 0 && e != epochs) continue;
        const double test = has_held_out ? held_out() : err;
        if (test < best || !has_held_out) {
            best = test;
            best_epoch = e;
            keep();
        }
        if (e % 25 == 0 || e == epochs)
            std::fprintf(
                stderr, "epoch %ld: train %.6f, held-out %.6f, %.0f s\n", e, err, test,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    return best_epoch;
}

Optimizer::Optimizer(const Dataset& data, double k, std::size_t train_end, double learning_rate)
    : data_(data),
      k_(k),
      train_end_(std::min(train_end, data.entries.size())),
      lr_(learning_rate),
      g_mg_(engine::PARAM_COUNT),
      g_eg_(engine::PARAM_COUNT),
      frozen_(engine::PARAM_COUNT, false),
      mg_moments_(engine::PARAM_COUNT),
      eg_moments_(engine::PARAM_COUNT) {}

bool Optimizer::freeze(std::string_view group) {
    for (const auto& g : engine::PARAM_GROUPS)
        if (group == g.name) {
            for (int i = g.offset; i < g.offset + g.count; ++i) frozen_[i] = true;
            return true;
        }
    return false;
}

double Optimizer::step(Weights& w) {
    std::fill(g_mg_.begin(), g_mg_.end(), 0.0);
    std::fill(g_eg_.begin(), g_eg_.end(), 0.0);
    double err = 0;
    const double dk = k_ * std::log(10.0) / 400.0;
    for (std::size_t n = 0; n < train_end_; ++n) {
        const Entry& e = data_.entries[n];
        const double s = sigmoid(k_, entry_eval(data_, e, w));
        err += (e.result - s) * (e.result - s);
        if (e.special) continue;
        // d(error)/d(eval), then the chain rule through the phase blend.
        const double d = (s - e.result) * s * (1 - s) * dk;
        const double a_mg = d * e.phase / engine::PHASE_MAX;
        const double a_eg =
            d * (engine::PHASE_MAX - e.phase) / engine::PHASE_MAX * e.scale / engine::SCALE_NORMAL;
        for (std::uint32_t i = e.linear_begin; i < e.linear_end; ++i) {
            g_mg_[data_.linear[i].index] += a_mg * data_.linear[i].count;
            g_eg_[data_.linear[i].index] += a_eg * data_.linear[i].count;
        }
        for (int c = 0; c < engine::COLOR_NB; ++c) {
            double umg, ueg;
            units(data_, e, c, w, umg, ueg);
            const double sign = c == engine::WHITE ? 1.0 : -1.0;
            for (std::uint32_t i = e.ks_begin[c]; i < e.ks_end[c]; ++i) {
                const Feature& f = data_.ks[i];
                if (umg > 0) g_mg_[f.index] -= a_mg * sign * 2 * umg * f.count / engine::KS_MG_DIV;
                if (ueg > 0) g_eg_[f.index] -= a_eg * sign * f.count / engine::KS_EG_DIV;
            }
        }
    }
    const double n = double(std::max<std::size_t>(train_end_, 1));
    ++t_;
    if (start_.mg.empty()) start_ = w;
    for (auto* g : {&g_mg_, &g_eg_})
        for (double& gi : *g) gi = 2 * gi / n;
    mg_moments_.update(w.mg, g_mg_, t_, lr_, frozen_, start_.mg, lambda_);
    eg_moments_.update(w.eg, g_eg_, t_, lr_, frozen_, start_.eg, lambda_);
    return err / n;
}

std::string params_to_cpp(const engine::EvalParams& p) {
    static constexpr const char* pieces[] = {"pawn", "knight", "bishop", "rook", "queen", "king"};
    std::ostringstream out;
    out << "// The evaluation weights as (middlegame, endgame) pairs; outpost-tune (tools/tuner) "
           "prints\n"
           "// this file with tuned values. Starting values: material and piece-square tables are "
           "Ronald\n"
           "// Friederich's PeSTO tables as published on the Chess Programming Wiki; the rest were "
           "set by hand.\n"
           "#include \"eval_params.hpp\"\n\n#include <iterator>\n\nnamespace engine {\n\n"
           "namespace {\n\nconstexpr ScorePair S(int mg, int eg) { return {mg, eg}; }\n\n"
           "// clang-format off\n";
    for (const auto& g : engine::PARAM_GROUPS) {
        if (const char* comment = group_comment(g.name)) out << "// " << comment << "\n";
        out << "constexpr ScorePair " << g.name << "_W[] = {\n";
        for (int i = 0; i < g.count; ++i) {
            if (g.offset == engine::PSQT && i % 64 == 0) out << "    // " << pieces[i / 64] << "\n";
            if (i % 8 == 0) out << "   ";
            out << " S(" << p[g.offset + i].mg << ", " << p[g.offset + i].eg << "),";
            if (i % 8 == 7 || i == g.count - 1) out << "\n";
        }
        out << "};\n";
    }
    out << "// clang-format on\n\n"
           "constexpr EvalParams make_params() {\n"
           "    EvalParams p{};\n"
           "#define OUTPOST_X(name, n, cat)                                               \\\n"
           "    static_assert(std::size(name##_W) == (n), #name \" has the wrong size\"); \\\n"
           "    for (int k = 0; k < (n); ++k) p.v[name + k] = name##_W[k];\n"
           "    OUTPOST_EVAL_PARAMS(OUTPOST_X)\n"
           "#undef OUTPOST_X\n"
           "    return p;\n"
           "}\n\n"
           "}  // namespace\n\n"
           "const EvalParams DEFAULT_EVAL_PARAMS = make_params();\n\n"
           "}  // namespace engine\n";
    return out.str();
}

std::string params_to_text(const engine::EvalParams& p) {
    std::ostringstream out;
    for (int i = 0; i < engine::PARAM_COUNT; ++i) out << p[i].mg << " " << p[i].eg << "\n";
    return out.str();
}

std::optional<engine::EvalParams> params_from_text(std::istream& in) {
    engine::EvalParams p{};
    for (int i = 0; i < engine::PARAM_COUNT; ++i)
        if (!(in >> p[i].mg >> p[i].eg)) return std::nullopt;
    return p;
}

}  // namespace tuner
