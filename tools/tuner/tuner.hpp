// Texel tuning of the evaluation weights: positions labelled with game results, the scaling
// constant K, and gradient descent on the mean squared error of sigmoid(K * eval).
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/eval_params.hpp"

namespace tuner {

// One labelled position, reduced to what the traced evaluation recorded: the evaluation is
// linear in the weights apart from king danger, which is kept per side as feature counts.
struct Entry {
    float result = 0.5f;  // white's score: 1, 0.5, 0
    std::int8_t phase = 0;
    std::int8_t scale = engine::SCALE_NORMAL;
    bool special = false;  // a dedicated endgame rule: the value below, no weights involved
    int special_value = 0;
    std::uint32_t linear_begin = 0, linear_end = 0;  // into Dataset::linear
    std::uint32_t ks_begin[engine::COLOR_NB] = {}, ks_end[engine::COLOR_NB] = {};
};

struct Feature {
    std::uint16_t index;
    std::int16_t count;  // white's count minus black's (king-danger features: one side's)
};

struct Dataset {
    std::vector<Entry> entries;
    std::vector<Feature> linear;
    std::vector<Feature> ks;
};

// The result of a data line: "<FEN> [1.0]", "<FEN> [0.5]", "<FEN> "1-0"", "... c9 "1/2-1/2";"
// and similar. Returns nothing for blank or malformed lines.
struct LabelledFen {
    std::string fen;
    float result;
};
std::optional<LabelledFen> parse_data_line(std::string_view line);

// Adds one position to the data set (traced with the given weights).
void add_position(Dataset& data, const engine::Board& board, float result,
                  const engine::EvalParams& params);

// Reads a data file; returns the number of lines that could not be used, or -1 when the file
// cannot be opened.
long load_file(const std::string& path, Dataset& data, const engine::EvalParams& params,
               std::size_t max_positions = 0);

// The weights as doubles while tuning.
struct Weights {
    std::vector<double> mg, eg;
    static Weights from(const engine::EvalParams& p);
    engine::EvalParams rounded() const;
};

// The expected score of an evaluation in centipawns: 1 / (1 + 10^(-K * eval / 400)).
double sigmoid(double k, double eval);

// White's evaluation of an entry under the given weights (matches the engine up to rounding).
double entry_eval(const Dataset& data, const Entry& e, const Weights& w);

// Mean squared error of sigmoid(K * eval / 400) (base 10) against the results.
double error(const Dataset& data, const Weights& w, double k, std::size_t begin = 0,
             std::size_t end = SIZE_MAX);

// The K that minimises the error for the given weights.
double best_k(const Dataset& data, const Weights& w);

// The minimum of a smooth unimodal function on [lo, hi] (golden-section search).
double minimize_unimodal(const std::function<double(double)>& f, double lo, double hi);

// Adam's moment estimates for a vector of weights; `update` moves x against the gradient g
// (step t, counted from 1). Frozen entries stay; with lambda > 0 each weight is also pulled
// towards `start`.
struct AdamMoments {
    explicit AdamMoments(std::size_t n = 0) : m(n), v(n) {}
    void update(std::vector<double>& x, const std::vector<double>& g, int t, double lr,
                const std::vector<bool>& frozen, const std::vector<double>& start, double lambda);
    std::vector<double> m, v;
};

// The epoch loop with early stopping: `step` runs one epoch and returns the training error;
// every 5 epochs `held_out` gives the held-out error (the training error when there is no
// held-out part) and `keep` saves the weights when it is the lowest yet. Progress goes to
// stderr every 25 epochs. Returns the epoch whose weights were kept (0: the starting ones).
long train_with_early_stopping(long epochs, double start_error, bool has_held_out,
                               const std::function<double()>& step,
                               const std::function<double()>& held_out,
                               const std::function<void()>& keep);

// Adam optimiser over all weights (full batch over entries [0, train_end)).
class Optimizer {
  public:
    Optimizer(const Dataset& data, double k, std::size_t train_end, double learning_rate);
    // Keeps the weights of a group (PARAM_GROUPS name) where they are.
    bool freeze(std::string_view group);
    // L2 pull towards the starting weights (per weight, per step), against overfitting.
    void regularize(const Weights& start, double lambda) {
        start_ = start;
        lambda_ = lambda;
    }
    // One gradient step; returns the training error before the step.
    double step(Weights& w);

  private:
    const Dataset& data_;
    double k_;
    std::size_t train_end_;
    double lr_;
    int t_ = 0;
    std::vector<double> g_mg_, g_eg_;
    std::vector<bool> frozen_;
    Weights start_;
    double lambda_ = 0;
    AdamMoments mg_moments_, eg_moments_;
};

// The weights as the C++ source of engine/eval_params.cpp.
std::string params_to_cpp(const engine::EvalParams& p);
// The weights as plain text (one "mg eg" pair per line), and back.
std::string params_to_text(const engine::EvalParams& p);
std::optional<engine::EvalParams> params_from_text(std::istream& in);

}  // namespace tuner
