// The NNUE evaluation: a 768 -> 2x128 -> 1 perspective network with a squared clipped ReLU,
// int16 weights, accumulators updated from the parent's along the search path, the net file
// format and its checks. Trained by engine/tools/trainer; see docs/NNUE.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "board.hpp"

namespace engine::nnue {

inline constexpr int INPUTS = 768;  // (own/their colour, piece type, square) per perspective
inline constexpr int HIDDEN = 128;  // accumulator width per perspective
inline constexpr int QA = 255;      // feature-transformer quantisation: 1.0 == QA
inline constexpr int QB = 64;       // output-layer quantisation: 1.0 == QB
inline constexpr int SCALE = 400;   // the trainer's: a trained net's float output * SCALE is cp
// A net file carries its own scale (the header's last field): a net can be calibrated to the
// units the search's margins were tuned in without touching its weights (docs/NNUE.md, nn5s).
inline constexpr int MIN_SCALE = 100;
inline constexpr int MAX_SCALE = 1000;
// |output weight| limit: keeps v * w (v <= QA) inside int16 and the sum inside int32.
inline constexpr int MAX_OUTPUT_WEIGHT = 127;

struct Network {
    alignas(64) std::int16_t ft_weights[INPUTS * HIDDEN];  // feature-major
    alignas(64) std::int16_t ft_bias[HIDDEN];
    alignas(64) std::int16_t out_weights[2 * HIDDEN];  // side to move's half first
    std::int32_t out_bias = 0;                         // in QA * QB units
    std::int32_t scale = SCALE;                        // centipawns per 1.0 of float output
};

// One position's hidden layer before the activation, for both perspectives.
struct Accumulator {
    alignas(64) std::int16_t v[COLOR_NB][HIDDEN];
};

// The input index of a piece on a square as seen from `perspective` (black sees the board
// flipped vertically, its own pieces as "own").
constexpr int feature_index(Color perspective, Piece pc, Square s) {
    const int own = color_of(pc) == perspective ? 0 : 1;
    const int sq = perspective == WHITE ? int(s) : int(s) ^ 56;
    return (own * 6 + type_of(pc)) * 64 + sq;
}

// The net file: a 32-byte header ("OPNNUE01", version, inputs, hidden, QA, QB, the net's
// scale, as little-endian u32), the weights as little-endian int16 (out_bias int32), then the
// FNV-1a 64-bit hash of everything before it.
inline constexpr std::size_t FILE_SIZE = 32 + 2 * (INPUTS * HIDDEN + HIDDEN + 2 * HIDDEN) + 4 + 8;

// Checks and reads a net file's bytes; the error names what was wrong.
Result<std::shared_ptr<const Network>> parse_network(const unsigned char* data, std::size_t size);
Result<std::shared_ptr<const Network>> load_network_file(const std::string& path);
std::vector<unsigned char> serialize(const Network& net);

// The net compiled into the binary (engine/nets/, embedded at build time).
std::shared_ptr<const Network> embedded_network();

void refresh(const Network& net, const Board& board, Accumulator& acc);
// `out` = `in` updated by the pieces that differ between two boards (a move or a null move).
void update(const Network& net, const Board& before, const Board& after, const Accumulator& in,
            Accumulator& out);

// Centipawns from the side to move's view, |value| < EVAL_MAX. The vectorised path and the
// scalar one give the same value.
int evaluate(const Network& net, const Accumulator& acc, Color side);
int evaluate_scalar(const Network& net, const Accumulator& acc, Color side);
// From scratch (tools and tests).
int evaluate(const Network& net, const Board& board);

}  // namespace engine::nnue
