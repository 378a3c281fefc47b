// Texel tuning of one variant's evaluation weights (engine/variant_eval_params.hpp): positions
// of that variant labelled with game results, traced once; the standard evaluation's part of
// each is a constant, the variant's own weights are linear apart from king danger, which is
// kept per side as feature counts because it is squared.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/position.hpp"
#include "engine/variant_eval_params.hpp"
#include "tools/tuner/tuner.hpp"

namespace tuner {

struct VariantEntry {
    float result = 0.5f;  // white's score
    float base = 0;       // the standard evaluation's part (white's view)
    std::uint32_t linear_begin = 0, linear_end = 0;
    std::uint32_t danger_begin[2] = {}, danger_end[2] = {};
};

struct VariantDataset {
    engine::Variant variant = engine::Variant::STANDARD;
    std::vector<VariantEntry> entries;
    std::vector<Feature> linear;  // white's count minus black's
    std::vector<Feature> danger;  // one side's own king-danger counts
};

// "<FEN> [1.0]": the FEN (pockets, check counts and all) and white's result.
std::optional<LabelledFen> parse_variant_data_line(std::string_view line);

// Adds one position (traced with the given weights).
void add_variant_position(VariantDataset& data, const engine::Position& pos, float result,
                          const engine::VariantWeights& weights);
// Reads a data file of data.variant; the number of unusable lines, or -1 when it cannot be read.
long load_variant_file(const std::string& path, VariantDataset& data,
                       const engine::VariantWeights& weights, std::size_t max_positions = 0);

// White's evaluation of an entry under weights w (the engine's, up to rounding).
double variant_entry_eval(const VariantDataset& data, const VariantEntry& e,
                          const std::vector<double>& w);
double variant_error(const VariantDataset& data, const std::vector<double>& w, double k,
                     std::size_t begin = 0, std::size_t end = SIZE_MAX);
double variant_best_k(const VariantDataset& data, const std::vector<double>& w);

// Adam over the variant's own weights (the other variants' stay as they are).
class VariantOptimizer {
  public:
    VariantOptimizer(const VariantDataset& data, double k, std::size_t train_end,
                     double learning_rate);
    bool freeze(std::string_view group);
    void regularize(const std::vector<double>& start, double lambda) {
        start_ = start;
        lambda_ = lambda;
    }
    double step(std::vector<double>& w);

  private:
    const VariantDataset& data_;
    double k_;
    std::size_t train_end_;
    double lr_;
    int t_ = 0;
    std::vector<double> grad_;
    std::vector<bool> frozen_;
    std::vector<double> start_;
    double lambda_ = 0;
    AdamMoments moments_;
};

std::vector<double> to_doubles(const engine::VariantWeights& w);
engine::VariantWeights rounded(const std::vector<double>& w);

// The variant's groups as C++ arrays to paste into engine/variant_eval_params.cpp.
std::string variant_weights_to_cpp(const engine::VariantWeights& w, engine::Variant v);
// The variant's groups as text, one "NAME v1 v2 ..." line each, and back (groups a file does
// not name keep their values in `into`). False on an unknown name or a wrong count.
std::string variant_weights_to_text(const engine::VariantWeights& w, engine::Variant v);
bool variant_weights_from_text(std::istream& in, engine::VariantWeights& into);

}  // namespace tuner
