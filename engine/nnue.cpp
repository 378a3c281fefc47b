// NNUE inference and the net file format (see nnue.hpp).
#include "nnue.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

#include "bitboard.hpp"
#include "evaluate.hpp"

#if defined(__AVX2__) || defined(__SSE2__)
#include <immintrin.h>
#endif

// The embedded net (a source generated at build time from engine/nets/, see CMakeLists.txt).
extern const unsigned char outpost_embedded_net[];
extern const std::size_t outpost_embedded_net_size;

namespace engine::nnue {

namespace {

constexpr char MAGIC[8] = {'O', 'P', 'N', 'N', 'U', 'E', '0', '1'};
constexpr std::uint32_t VERSION = 1;

std::uint64_t fnv1a(const unsigned char* p, std::size_t n) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (std::size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

std::uint32_t read_u32(const unsigned char* p) {
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
           std::uint32_t(p[3]) << 24;
}
std::int16_t read_i16(const unsigned char* p) {
    return std::int16_t(std::uint16_t(p[0] | p[1] << 8));
}
void put_u32(std::vector<unsigned char>& out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back((unsigned char)(v >> (8 * i)));
}
void put_i16(std::vector<unsigned char>& out, std::int16_t v) {
    out.push_back((unsigned char)(std::uint16_t(v) & 0xff));
    out.push_back((unsigned char)(std::uint16_t(v) >> 8));
}

void add_feature(const Network& net, Accumulator& acc, Piece pc, Square s) {
    for (Color c : {WHITE, BLACK}) {
        const std::int16_t* w = &net.ft_weights[feature_index(c, pc, s) * HIDDEN];
        for (int j = 0; j < HIDDEN; ++j) acc.v[c][j] = std::int16_t(acc.v[c][j] + w[j]);
    }
}
void sub_feature(const Network& net, Accumulator& acc, Piece pc, Square s) {
    for (Color c : {WHITE, BLACK}) {
        const std::int16_t* w = &net.ft_weights[feature_index(c, pc, s) * HIDDEN];
        for (int j = 0; j < HIDDEN; ++j) acc.v[c][j] = std::int16_t(acc.v[c][j] - w[j]);
    }
}

// sum over j of clamp(a[j], 0, QA)^2 * w[j], with v * w taken as int16 (exact: |w| is checked
// at load) and the sum wrapping like the vector code's int32 lanes.
std::int32_t screlu_dot_scalar(const std::int16_t* a, const std::int16_t* w) {
    std::uint32_t sum = 0;
    for (int j = 0; j < HIDDEN; ++j) {
        const int v = std::clamp<int>(a[j], 0, QA);
        sum += std::uint32_t(std::int32_t(std::int16_t(v * w[j])) * v);
    }
    return std::int32_t(sum);
}

#if defined(__AVX2__)
std::int32_t screlu_dot(const std::int16_t* a, const std::int16_t* w) {
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(QA);
    __m256i sum = _mm256_setzero_si256();
    for (int j = 0; j < HIDDEN; j += 16) {
        const __m256i x = _mm256_load_si256(reinterpret_cast<const __m256i*>(a + j));
        const __m256i v = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
        const __m256i ww = _mm256_load_si256(reinterpret_cast<const __m256i*>(w + j));
        sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(v, ww), v));
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return _mm_cvtsi128_si32(s);
}
#elif defined(__SSE2__)
std::int32_t screlu_dot(const std::int16_t* a, const std::int16_t* w) {
    const __m128i zero = _mm_setzero_si128(), qa = _mm_set1_epi16(QA);
    __m128i sum = _mm_setzero_si128();
    for (int j = 0; j < HIDDEN; j += 8) {
        const __m128i x = _mm_load_si128(reinterpret_cast<const __m128i*>(a + j));
        const __m128i v = _mm_min_epi16(_mm_max_epi16(x, zero), qa);
        const __m128i ww = _mm_load_si128(reinterpret_cast<const __m128i*>(w + j));
        sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_mullo_epi16(v, ww), v));
    }
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0x4e));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0xb1));
    return _mm_cvtsi128_si32(sum);
}
#else
std::int32_t screlu_dot(const std::int16_t* a, const std::int16_t* w) {
    return screlu_dot_scalar(a, w);
}
#endif

int finish(const Network& net, std::int32_t us, std::int32_t them) {
    const std::int64_t sum = std::int64_t(us) + them;
    const std::int64_t out = sum / QA + net.out_bias;  // QA * QB units
    const std::int64_t cp = out * net.scale / (QA * QB);
    return int(std::clamp<std::int64_t>(cp, -(EVAL_MAX - 1), EVAL_MAX - 1));
}

}  // namespace

Result<std::shared_ptr<const Network>> parse_network(const unsigned char* data, std::size_t size) {
    using R = Result<std::shared_ptr<const Network>>;
    if (size != FILE_SIZE)
        return R::failure("net file has " + std::to_string(size) + " bytes, expected " +
                          std::to_string(FILE_SIZE) + " (768->2x128->1 Outpost net)");
    if (std::memcmp(data, MAGIC, sizeof MAGIC) != 0)
        return R::failure("net file does not start with OPNNUE01 (not an Outpost net)");
    const std::uint32_t expect[5] = {VERSION, INPUTS, HIDDEN, QA, QB};
    const char* names[5] = {"version", "inputs", "hidden size", "QA", "QB"};
    for (int i = 0; i < 5; ++i)
        if (read_u32(data + 8 + 4 * i) != expect[i])
            return R::failure("net file " + std::string(names[i]) + " is " +
                              std::to_string(read_u32(data + 8 + 4 * i)) + ", expected " +
                              std::to_string(expect[i]));
    const std::uint32_t scale = read_u32(data + 8 + 4 * 5);
    if (scale < std::uint32_t(MIN_SCALE) || scale > std::uint32_t(MAX_SCALE))
        return R::failure("net file scale is " + std::to_string(scale) + ", expected " +
                          std::to_string(MIN_SCALE) + " to " + std::to_string(MAX_SCALE));
    std::uint64_t stored = 0;
    for (int i = 0; i < 8; ++i) stored |= std::uint64_t(data[size - 8 + std::size_t(i)]) << (8 * i);
    if (fnv1a(data, size - 8) != stored)
        return R::failure("net file checksum mismatch (truncated or corrupt file)");

    auto net = std::make_shared<Network>();
    const unsigned char* p = data + 32;
    for (auto& w : net->ft_weights) w = read_i16(p), p += 2;
    for (auto& w : net->ft_bias) w = read_i16(p), p += 2;
    for (auto& w : net->out_weights) {
        w = read_i16(p), p += 2;
        if (w > MAX_OUTPUT_WEIGHT || w < -MAX_OUTPUT_WEIGHT)
            return R::failure("net file output weight " + std::to_string(w) + " is outside +-" +
                              std::to_string(MAX_OUTPUT_WEIGHT));
    }
    net->out_bias = std::int32_t(read_u32(p));
    net->scale = std::int32_t(scale);
    return std::shared_ptr<const Network>(std::move(net));
}

Result<std::shared_ptr<const Network>> load_network_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return Result<std::shared_ptr<const Network>>::failure("cannot open net file '" + path +
                                                               "'");
    const std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(in), {}};
    auto r = parse_network(bytes.data(), bytes.size());
    if (!r) return Result<std::shared_ptr<const Network>>::failure(path + ": " + r.error());
    return r;
}

std::vector<unsigned char> serialize(const Network& net) {
    std::vector<unsigned char> out(MAGIC, MAGIC + sizeof MAGIC);
    for (std::uint32_t v : {VERSION, std::uint32_t(INPUTS), std::uint32_t(HIDDEN),
                            std::uint32_t(QA), std::uint32_t(QB), std::uint32_t(net.scale)})
        put_u32(out, v);
    for (auto w : net.ft_weights) put_i16(out, w);
    for (auto w : net.ft_bias) put_i16(out, w);
    for (auto w : net.out_weights) put_i16(out, w);
    put_u32(out, std::uint32_t(net.out_bias));
    const std::uint64_t h = fnv1a(out.data(), out.size());
    for (int i = 0; i < 8; ++i) out.push_back((unsigned char)(h >> (8 * i)));
    return out;
}

std::shared_ptr<const Network> embedded_network() {
    static const std::shared_ptr<const Network> net = [] {
        auto r = parse_network(outpost_embedded_net, outpost_embedded_net_size);
        return r ? *r : nullptr;  // a broken embedded net is caught by the tests
    }();
    return net;
}

void refresh(const Network& net, const Board& board, Accumulator& acc) {
    for (Color c : {WHITE, BLACK}) std::memcpy(acc.v[c], net.ft_bias, sizeof net.ft_bias);
    for (Bitboard bb = board.pieces(); bb; bb &= bb - 1) {
        const Square s = lsb(bb);
        add_feature(net, acc, board.piece_on(s), s);
    }
}

void update(const Network& net, const Board& before, const Board& after, const Accumulator& in,
            Accumulator& out) {
    out = in;
    // The squares whose colour or piece type changed: at most four for a move (castling).
    Bitboard changed = 0;
    for (int c = 0; c < COLOR_NB; ++c) changed |= before.by_color[c] ^ after.by_color[c];
    for (int t = 0; t < PIECE_TYPE_NB; ++t) changed |= before.by_type[t] ^ after.by_type[t];
    for (Bitboard bb = changed; bb; bb &= bb - 1) {
        const Square s = lsb(bb);
        const Piece a = before.piece_on(s), b = after.piece_on(s);
        if (a == b) continue;
        if (a != NO_PIECE) sub_feature(net, out, a, s);
        if (b != NO_PIECE) add_feature(net, out, b, s);
    }
}

int evaluate(const Network& net, const Accumulator& acc, Color side) {
    return finish(net, screlu_dot(acc.v[side], net.out_weights),
                  screlu_dot(acc.v[~side], net.out_weights + HIDDEN));
}

int evaluate_scalar(const Network& net, const Accumulator& acc, Color side) {
    return finish(net, screlu_dot_scalar(acc.v[side], net.out_weights),
                  screlu_dot_scalar(acc.v[~side], net.out_weights + HIDDEN));
}

int evaluate(const Network& net, const Board& board) {
    Accumulator acc;
    refresh(net, board, acc);
    return evaluate(net, acc, board.side);
}

}  // namespace engine::nnue
