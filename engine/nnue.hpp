// The NNUE evaluation: a (king bucket x 768) -> 2x256 -> 1 perspective network with a squared
// clipped ReLU and 8 output buckets (the output layer is chosen by the number of pieces on the
// board), int16 weights, accumulators updated from the parent's along the search path, the net
// file format and its checks. Trained by tools/trainer; see docs/NNUE.md.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "board.hpp"

namespace engine::nnue {

inline constexpr int INPUTS = 768;        // (own/their colour, piece type, square) per king bucket
inline constexpr int HIDDEN = 256;        // accumulator width per perspective
inline constexpr int OUTPUT_BUCKETS = 8;  // output layers, by the number of pieces on the board
inline constexpr int QA = 255;            // feature-transformer quantisation: 1.0 == QA
// Output-layer quantisation: 1.0 == QB. 128 since the 2x256 nets (64 before): the rounding of
// 512 output weights to 1/64 moved evaluations by about 8 cp on average.
inline constexpr int QB = 128;
inline constexpr int SCALE = 400;  // the trainer's: a trained net's float output * SCALE is cp
// A net file carries its own scale (the header's last field): a net can be calibrated to the
// units the search's margins were tuned in without touching its weights (docs/NNUE.md, nn5s).
inline constexpr int MIN_SCALE = 100;
inline constexpr int MAX_SCALE = 1000;
// |output weight| limit: keeps v * w (v <= QA) inside int16 and the sum inside int32 (so a
// float output weight stays under 127 / QB, about 1; trained ones seldom pass 0.5).
inline constexpr int MAX_OUTPUT_WEIGHT = 127;

// The output layer of a position with `pieces` pieces on the board (2..32): four piece counts
// share one, so an ending is judged by other weights than a middlegame.
constexpr int output_bucket(int pieces) {
    return std::clamp((pieces - 2) / 4, 0, OUTPUT_BUCKETS - 1);
}

// Input buckets by where a side's own king stands: each bucket has its own 768 feature rows,
// so a piece is judged against its king's place. `of_square` is in the perspective's view (its
// own pieces at the bottom). With `mirror`, a king on files e-h sees the board flipped left to
// right (and takes the bucket of the flipped square): the buckets need cover files a-d only,
// and a position and its mirror image get the same value. One bucket and no mirror is the
// plain 768-input net of nn10 and before.
inline constexpr int MAX_KING_BUCKETS = 16;
struct KingBuckets {
    int count = 1;
    bool mirror = false;
    std::array<std::uint8_t, 64> of_square{};
    bool operator==(const KingBuckets&) const = default;
};

// The layouts the trainer offers by name ("none", "mirror", "mirror4", "mirror8"); nullopt for
// others.
std::optional<KingBuckets> king_layout(std::string_view name);

// Where a perspective's features are, given its king's square: the bucket's first row and the
// square flip (vertical for black, horizontal under a mirroring king).
struct InputView {
    int offset = 0;
    int flip = 0;
    bool operator==(const InputView&) const = default;
};
constexpr InputView input_view(const KingBuckets& kings, Color perspective, Square king) {
    const int vertical = perspective == WHITE ? 0 : 56;
    int k = int(king) ^ vertical;
    const int horizontal = kings.mirror && (k & 7) >= 4 ? 7 : 0;
    k ^= horizontal;
    return {kings.of_square[std::size_t(k)] * INPUTS, vertical ^ horizontal};
}

// Storage on 64-byte boundaries: every feature row then starts on a cache line, and the
// accumulator updates' vector loads never straddle two.
template <class T>
struct CacheLineAllocator {
    using value_type = T;
    CacheLineAllocator() = default;
    template <class U>
    CacheLineAllocator(const CacheLineAllocator<U>&) {}
    T* allocate(std::size_t n) {
        return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(64)));
    }
    void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t(64)); }
    template <class U>
    bool operator==(const CacheLineAllocator<U>&) const {
        return true;
    }
};

struct Network {
    KingBuckets kings;
    // kings.count x INPUTS rows of HIDDEN, feature-major.
    std::vector<std::int16_t, CacheLineAllocator<std::int16_t>> ft_weights =
        std::vector<std::int16_t, CacheLineAllocator<std::int16_t>>(std::size_t(INPUTS) * HIDDEN);
    alignas(64) std::int16_t ft_bias[HIDDEN];
    // Per output bucket: the side to move's half first.
    alignas(64) std::int16_t out_weights[OUTPUT_BUCKETS][2 * HIDDEN];
    std::int32_t out_bias[OUTPUT_BUCKETS] = {};  // in QA * QB units
    std::int32_t scale = SCALE;                  // centipawns per 1.0 of float output
};

// One position's hidden layer before the activation, for both perspectives.
struct Accumulator {
    alignas(64) std::int16_t v[COLOR_NB][HIDDEN];
};

// The input row of a piece on a square as seen from `perspective` (black sees the board
// flipped vertically, its own pieces as "own"), in the bucket `view` selects.
constexpr int feature_index(InputView view, Color perspective, Piece pc, Square s) {
    const int own = color_of(pc) == perspective ? 0 : 1;
    return view.offset + (own * 6 + type_of(pc)) * 64 + (int(s) ^ view.flip);
}
// The same without king buckets (one bucket, no mirror).
constexpr int feature_index(Color perspective, Piece pc, Square s) {
    return feature_index(InputView{0, perspective == WHITE ? 0 : 56}, perspective, pc, s);
}

// The net file. Version 2: a 36-byte header ("OPNNUE01", version, inputs, hidden, output
// buckets, QA, QB, the net's scale, as little-endian u32), the weights as little-endian int16
// (the output biases int32), then the FNV-1a 64-bit hash of everything before it. Version 3
// adds king buckets: after the output buckets field, the king bucket count and the mirror flag
// (u32 each), and after the scale the 64 bucket numbers by square (u8); its feature weights
// are count x inputs rows. A net without king buckets is written as version 2. Version 1 (the
// nets up to nn5s: 768 -> 2x128 -> 1) has no bucket field and one output layer.
inline constexpr std::uint32_t FILE_VERSION = 3;
std::size_t file_size(const KingBuckets& kings);

// Checks and reads a net file's bytes; the error names what was wrong.
Result<std::shared_ptr<const Network>> parse_network(const unsigned char* data, std::size_t size);

// A net file of any version and width, as stored: the trainer starts from older or narrower
// nets through it; the engine plays only nets of its own shape (parse_network).
struct NetFile {
    std::uint32_t version = 0, inputs = 0, hidden = 0, buckets = 0, qa = 0, qb = 0, scale = 0;
    KingBuckets kings;  // version 3; one bucket before
    std::vector<std::int16_t> ft_weights, ft_bias;
    std::vector<std::int16_t> out_weights;  // buckets x (2 x hidden)
    std::vector<std::int32_t> out_bias;     // per bucket
};
Result<NetFile> read_net_file(const unsigned char* data, std::size_t size);
Result<NetFile> read_net_file(const std::string& path);
Result<std::shared_ptr<const Network>> load_network_file(const std::string& path);
std::vector<unsigned char> serialize(const Network& net);

// The net compiled into the binary (engine/nets/, embedded at build time).
std::shared_ptr<const Network> embedded_network();
// The net a variant's board is judged by when none is loaded from a file: the variant's own
// where one is embedded (three-check's, king of the hill's and crazyhouse's, each trained on its
// positions), else the standard one.
std::shared_ptr<const Network> embedded_network(Variant v);

// The net reads only the pieces on the board, so a variant played on a chess board can use it
// for the board's part of its evaluation (net_judges_board, variant_eval.hpp): the functions
// below take a BasicBoard of standard chess or of such a variant (instantiated in nnue.cpp).
template <class B>
void refresh(const Network& net, const B& board, Accumulator& acc);
// `out` = `in` updated by the pieces that differ between two boards (a move or a null move).
template <class B>
void update(const Network& net, const B& before, const B& after, const Accumulator& in,
            Accumulator& out);

// Centipawns from the side to move's view, |value| < EVAL_MAX, for the position `acc` holds.
// The vectorised path and the scalar one give the same value.
template <class B>
int evaluate(const Network& net, const Accumulator& acc, const B& board);
int evaluate_scalar(const Network& net, const Accumulator& acc, const Board& board);
// From scratch (tools and tests).
template <class B>
int evaluate(const Network& net, const B& board);

}  // namespace engine::nnue
