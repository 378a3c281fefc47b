// The NNUE trainer: float weights of the engine's (king bucket x 768) -> 2x256 -> 1 net (8
// output buckets),
// fitted with Adam on CPU threads to a blend of the search score and the game result,
// quantised for the engine.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "engine/nnue.hpp"

namespace trainer {

// One training position: its pieces, the side to move, score and result from that side's view.
struct Sample {
    std::uint8_t count = 0;
    std::uint8_t stm = 0;        // engine::Color
    std::uint8_t distilled = 0;  // 1: an HCE label (trained with lambda 1 whatever --lambda)
    std::int16_t score = 0;
    float result = 0.5f;
    std::uint8_t square[32];
    std::uint8_t piece[32];
};

struct Data {
    std::vector<Sample> train, validation;
    std::vector<std::string> validation_fens;        // the first few, to check the quantised net
    std::vector<std::size_t> validation_fen_sample;  // each one's sample in `validation`
    std::vector<std::int16_t> validation_hce;  // the HCE's static eval of each held-out position
};

// Reads the first `max_lines` positions (0: all) of an outpost-datagen file, binary or text
// (the format the nets up to nn12 were trained on: told apart by the binary header); one game
// in `validation_every` (by game index) is held out. Returns the number of unreadable lines or
// records (in a binary file also those of a game cut off at its end), or -1 when the file cannot
// be opened or its header is not one this program reads.
// With `hce_walks` >= 0 the file's positions are only a source of positions for distilling the
// hand-crafted evaluation: each position and `hce_walks` others 1-3 random plies away, where
// quiet (quiescence == static eval), are labelled with the HCE (result 0.5; use lambda 1).
// With `mix` the file's positions keep their own labels and the walks are added to them.
long load(const std::string& path, Data& out, int validation_every, std::size_t max_lines,
          int hce_walks = -1, bool mix = false);

// A text line's board. A variant's board (crazyhouse's, its pockets taken off the FEN) may hold
// more than eight pawns or sixteen pieces a side, which a net reads like any other board, so
// those are read as Lichess reads them, and atomic's kings may stand side by side; anything no
// game reaches is still refused.
engine::Result<engine::Board> board_from_text(const std::string& fen);

struct Weights {
    engine::nnue::KingBuckets kings;
    std::vector<float> ft_w, ft_b;  // as engine::nnue::Network, in float
    std::vector<float> out_w;       // OUTPUT_BUCKETS x (2 x HIDDEN)
    std::vector<float> out_b;       // per output bucket
    // With king buckets, 768 rows that every bucket adds to its own (a factoriser): they learn
    // from every position, so a bucket that few positions reach still knows what all of them
    // taught; quantise() folds them into each bucket's rows. Empty without king buckets, and
    // when training goes on from a king-bucket net (its rows already hold them).
    std::vector<float> ft_shared;
    static Weights random(std::uint64_t seed, const engine::nnue::KingBuckets& kings = {});
    // The float weights of a quantised net (to go on training from it).
    static Weights from(const engine::nnue::Network& net);
    // The same from a net file of any version whose hidden size divides HIDDEN: a narrower
    // net is widened without changing its output (each of its neurons becomes HIDDEN / hidden
    // copies whose output weights add up to the original's, split unevenly by `seed` so the
    // copies learn apart), and a one-bucket net gives every bucket its output layer.
    // With `kings` other than the file's, a net without king buckets starts the shared rows
    // and the buckets' own start at 0, so every bucket has its rows (under a mirroring layout
    // a king on files e-h then sees the mirror image of what the old net saw: nearly the same
    // values, castling aside).
    static engine::Result<Weights> from(const engine::nnue::NetFile& file, std::uint64_t seed,
                                        const std::optional<engine::nnue::KingBuckets>& kings = {});
    std::size_t size() const {
        return ft_w.size() + ft_b.size() + out_w.size() + out_b.size() + ft_shared.size();
    }
};

struct Hyper {
    double lr = 1e-3;
    double lambda = 0.75;  // weight of the search score in the target (1 - lambda: result)
    double score_k = 400;  // sigmoid(score / score_k) is the score's win probability
    int batch = 16384;
    int threads = 1;
    // Each epoch, flip every training position left-right (files a<->h) with probability 1/2:
    // castling is not an input, so the mirrored position is as good a sample.
    bool mirror = true;
};

// Adam over all weights; one step per batch. Returns the mean loss of the epoch.
class Trainer {
  public:
    Trainer(Weights& w, Hyper h);
    double epoch(std::vector<Sample>& train, std::mt19937_64& rng, double lr);
    double loss(const std::vector<Sample>& data) const;
    // The same loss for fixed predictions (centipawns, side to move's view), e.g. the HCE's.
    double loss_of(const std::vector<Sample>& data, const std::vector<std::int16_t>& cp) const;
    // The float net's evaluation in centipawns (side to move's view).
    double evaluate(const Sample& s) const;

  private:
    // The hidden layer before the activation, both perspectives, and the feature rows.
    void accumulate(const Sample& s, float (&acc)[2][engine::nnue::HIDDEN],
                    int (&feats)[2][32]) const;
    double batch_gradient(const Sample* begin, const Sample* end, std::vector<float>& grad) const;
    double sample_loss(const Sample& s, std::vector<float>* grad) const;
    Weights& w_;
    Hyper h_;
    std::vector<float> m_, v_;
    long step_ = 0;
};

// Rounds to the engine's int16 format (output weights clipped to their int16-safe range).
engine::nnue::Network quantise(const Weights& w);

Sample sample_from_board(const engine::Board& b, int score_stm, float result_stm);

}  // namespace trainer
