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

// The embedded nets (sources generated at build time from engine/nets/, see CMakeLists.txt).
extern const unsigned char outpost_embedded_net[];
extern const std::size_t outpost_embedded_net_size;
extern const unsigned char outpost_embedded_3check_net[];
extern const std::size_t outpost_embedded_3check_net_size;
extern const unsigned char outpost_embedded_koth_net[];
extern const std::size_t outpost_embedded_koth_net_size;
extern const unsigned char outpost_embedded_crazyhouse_net[];
extern const std::size_t outpost_embedded_crazyhouse_net_size;
extern const unsigned char outpost_embedded_atomic_net[];
extern const std::size_t outpost_embedded_atomic_net_size;

namespace engine::nnue {

namespace {

constexpr char MAGIC[8] = {'O', 'P', 'N', 'N', 'U', 'E', '0', '1'};

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

template <class B>
InputView view_of(const Network& net, const B& board, Color perspective) {
    return input_view(net.kings, perspective, board.king_square(perspective));
}

// One perspective's accumulator from scratch.
template <class B>
void refresh_side(const Network& net, const B& board, Color c, Accumulator& acc) {
    const InputView view = view_of(net, board, c);
    std::int16_t* v = acc.v[c];
    std::memcpy(v, net.ft_bias, sizeof net.ft_bias);
    for (Bitboard bb = board.pieces(); bb; bb &= bb - 1) {
        const Square s = lsb(bb);
        const std::int16_t* w =
            &net.ft_weights[std::size_t(feature_index(view, c, board.piece_on(s), s)) * HIDDEN];
        for (int j = 0; j < HIDDEN; ++j) v[j] = std::int16_t(v[j] + w[j]);
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

int finish(const Network& net, int bucket, std::int32_t us, std::int32_t them) {
    const std::int64_t sum = std::int64_t(us) + them;
    const std::int64_t out = sum / QA + net.out_bias[bucket];  // QA * QB units
    const std::int64_t cp = out * net.scale / (QA * QB);
    return int(std::clamp<std::int64_t>(cp, -(EVAL_MAX - 1), EVAL_MAX - 1));
}

}  // namespace

namespace {

// The header's fields and where the weights start, or the first problem with the header.
struct Header {
    NetFile dims;  // the header's fields; the vectors stay empty
    std::size_t body = 0;
};

constexpr std::size_t HEADER_V2 = 36, HEADER_V3 = 44 + 64;

Result<Header> read_header(const unsigned char* data, std::size_t size) {
    using R = Result<Header>;
    if (size < HEADER_V2)
        return R::failure("net file has " + std::to_string(size) + " bytes, expected " +
                          std::to_string(file_size(KingBuckets{})) +
                          " (768->2x256->1 Outpost net, 8 buckets)");
    if (std::memcmp(data, MAGIC, sizeof MAGIC) != 0)
        return R::failure("net file does not start with OPNNUE01 (not an Outpost net)");
    Header h;
    NetFile& d = h.dims;
    d.version = read_u32(data + 8);
    if (d.version < 1 || d.version > 3)
        return R::failure("net file version is " + std::to_string(d.version) + ", expected 1 to 3");
    if (d.version == 3 && size < HEADER_V3)
        return R::failure("net file has " + std::to_string(size) +
                          " bytes, shorter than a version 3 header");
    const unsigned char* p = data + 12;
    d.inputs = read_u32(p), p += 4;
    d.hidden = read_u32(p), p += 4;
    d.buckets = d.version == 1 ? 1 : read_u32(p);
    if (d.version != 1) p += 4;
    std::uint32_t kings = 1, mirror = 0;
    if (d.version == 3) {
        kings = read_u32(p), p += 4;
        mirror = read_u32(p), p += 4;
    }
    d.qa = read_u32(p), p += 4;
    d.qb = read_u32(p), p += 4;
    d.scale = read_u32(p), p += 4;
    if (kings < 1 || kings > std::uint32_t(MAX_KING_BUCKETS))
        return R::failure("net file king buckets is " + std::to_string(kings) + ", expected 1 to " +
                          std::to_string(MAX_KING_BUCKETS));
    if (mirror > 1)
        return R::failure("net file mirror flag is " + std::to_string(mirror) +
                          ", expected 0 or 1");
    d.kings.count = int(kings);
    d.kings.mirror = mirror == 1;
    if (d.version == 3) {
        for (std::size_t sq = 0; sq < 64; ++sq) {
            if (p[sq] >= kings)
                return R::failure("net file king bucket of square " + std::to_string(sq) + " is " +
                                  std::to_string(p[sq]) + ", expected below " +
                                  std::to_string(kings));
            d.kings.of_square[sq] = p[sq];
        }
        p += 64;
    }
    h.body = std::size_t(p - data);
    return h;
}

// The weights after a header whose dimensions were checked; the size, scale and checksum here.
Result<NetFile> read_body(const Header& h, const unsigned char* data, std::size_t size) {
    using R = Result<NetFile>;
    const NetFile& d = h.dims;
    const std::size_t ft = std::size_t(d.kings.count) * d.inputs * d.hidden,
                      out = std::size_t(d.buckets) * 2 * d.hidden;
    const std::size_t expected =
        h.body + 2 * (ft + d.hidden + out) + 4 * std::size_t(d.buckets) + 8;
    if (size != expected)
        return R::failure("net file has " + std::to_string(size) + " bytes, expected " +
                          std::to_string(expected) + " for its header (" +
                          std::to_string(d.kings.count) + "x" + std::to_string(d.inputs) + "->2x" +
                          std::to_string(d.hidden) + "->1, " + std::to_string(d.buckets) +
                          " buckets)");
    if (d.scale < std::uint32_t(MIN_SCALE) || d.scale > std::uint32_t(MAX_SCALE))
        return R::failure("net file scale is " + std::to_string(d.scale) + ", expected " +
                          std::to_string(MIN_SCALE) + " to " + std::to_string(MAX_SCALE));
    std::uint64_t stored = 0;
    for (int i = 0; i < 8; ++i) stored |= std::uint64_t(data[size - 8 + std::size_t(i)]) << (8 * i);
    if (fnv1a(data, size - 8) != stored)
        return R::failure("net file checksum mismatch (truncated or corrupt file)");
    NetFile f = d;
    const unsigned char* p = data + h.body;
    auto int16s = [&p](std::vector<std::int16_t>& v, std::size_t n) {
        v.resize(n);
        for (auto& w : v) w = read_i16(p), p += 2;
    };
    int16s(f.ft_weights, ft);
    int16s(f.ft_bias, d.hidden);
    int16s(f.out_weights, out);
    f.out_bias.resize(d.buckets);
    for (auto& b : f.out_bias) b = std::int32_t(read_u32(p)), p += 4;
    return f;
}

}  // namespace

Result<NetFile> read_net_file(const unsigned char* data, std::size_t size) {
    using R = Result<NetFile>;
    auto h = read_header(data, size);
    if (!h) return R::failure(h.error());
    const NetFile& d = h->dims;
    // Bounds that keep the size arithmetic small; the trainer checks what it can start from.
    if (d.inputs != std::uint32_t(INPUTS))
        return R::failure("net file inputs is " + std::to_string(d.inputs) + ", expected " +
                          std::to_string(INPUTS));
    if (d.hidden < 1 || d.hidden > 4096 || d.buckets < 1 || d.buckets > 64)
        return R::failure("net file hidden size " + std::to_string(d.hidden) + " or buckets " +
                          std::to_string(d.buckets) + " out of range");
    return read_body(*h, data, size);
}

Result<NetFile> read_net_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return Result<NetFile>::failure("cannot open net file '" + path + "'");
    const std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(in), {}};
    auto r = read_net_file(bytes.data(), bytes.size());
    if (!r) return Result<NetFile>::failure(path + ": " + r.error());
    return r;
}

Result<std::shared_ptr<const Network>> parse_network(const unsigned char* data, std::size_t size) {
    using R = Result<std::shared_ptr<const Network>>;
    auto h = read_header(data, size);
    if (!h) return R::failure(h.error());
    const NetFile& d = h->dims;
    if (d.version < 2)
        return R::failure("net file version is " + std::to_string(d.version) + ", expected 2 or " +
                          std::to_string(FILE_VERSION) +
                          (d.version == 1 ? " (a 768->2x128->1 net of Outpost up to nn5s: "
                                            "outpost-train --init can start from it)"
                                          : ""));
    const std::uint32_t expect[5] = {INPUTS, HIDDEN, OUTPUT_BUCKETS, QA, QB};
    const std::uint32_t got[5] = {d.inputs, d.hidden, d.buckets, d.qa, d.qb};
    const char* names[5] = {"inputs", "hidden size", "output buckets", "QA", "QB"};
    for (int i = 0; i < 5; ++i)
        if (got[i] != expect[i])
            return R::failure("net file " + std::string(names[i]) + " is " +
                              std::to_string(got[i]) + ", expected " + std::to_string(expect[i]));
    auto f = read_body(*h, data, size);
    if (!f) return R::failure(f.error());

    auto net = std::make_shared<Network>();
    net->kings = f->kings;
    net->ft_weights.assign(f->ft_weights.begin(), f->ft_weights.end());
    std::copy(f->ft_bias.begin(), f->ft_bias.end(), net->ft_bias);
    for (std::size_t i = 0; i < f->out_weights.size(); ++i) {
        const std::int16_t w = f->out_weights[i];
        if (w > MAX_OUTPUT_WEIGHT || w < -MAX_OUTPUT_WEIGHT)
            return R::failure("net file output weight " + std::to_string(w) + " is outside +-" +
                              std::to_string(MAX_OUTPUT_WEIGHT));
        net->out_weights[i / (2 * HIDDEN)][i % (2 * HIDDEN)] = w;
    }
    std::copy(f->out_bias.begin(), f->out_bias.end(), net->out_bias);
    net->scale = std::int32_t(f->scale);
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

std::optional<KingBuckets> king_layout(std::string_view name) {
    // Bucket by the king's file (a-d, e-h mirrored onto them) and rank, in its own view: the
    // back rank, where a king spends most of a game, is split finest.
    auto mirrored = [](int count, auto bucket) {
        KingBuckets k;
        k.count = count;
        k.mirror = true;
        for (int sq = 0; sq < 64; ++sq) {
            const int file = sq & 7, rank = sq >> 3;
            k.of_square[std::size_t(sq)] = std::uint8_t(bucket(std::min(file, 7 - file), rank));
        }
        return k;
    };
    if (name == "none") return KingBuckets{};
    if (name == "mirror")  // one bucket: only the mirroring
        return mirrored(1, [](int, int) { return 0; });
    if (name == "mirror4")  // a/b on the back rank, c/d on it, the second rank, the rest
        return mirrored(4, [](int file, int rank) {
            return rank == 0 ? file / 2 : rank == 1 ? 2 : 3;
        });
    if (name == "mirror8")  // each back-rank file, a/b and c/d on the second, ranks 3-4, 5-8
        return mirrored(8, [](int file, int rank) {
            return rank == 0 ? file : rank == 1 ? 4 + file / 2 : rank < 4 ? 6 : 7;
        });
    return std::nullopt;
}

std::size_t file_size(const KingBuckets& kings) {
    const bool v2 = kings == KingBuckets{};
    return (v2 ? HEADER_V2 : HEADER_V3) +
           2 * (std::size_t(kings.count) * INPUTS * HIDDEN + HIDDEN +
                std::size_t(OUTPUT_BUCKETS) * 2 * HIDDEN) +
           4 * OUTPUT_BUCKETS + 8;
}

std::vector<unsigned char> serialize(const Network& net) {
    std::vector<unsigned char> out(MAGIC, MAGIC + sizeof MAGIC);
    // Without king buckets, version 2: the nets before them are written as they always were.
    const bool v2 = net.kings == KingBuckets{};
    put_u32(out, v2 ? 2 : FILE_VERSION);
    for (std::uint32_t v :
         {std::uint32_t(INPUTS), std::uint32_t(HIDDEN), std::uint32_t(OUTPUT_BUCKETS)})
        put_u32(out, v);
    if (!v2) {
        put_u32(out, std::uint32_t(net.kings.count));
        put_u32(out, net.kings.mirror ? 1 : 0);
    }
    for (std::uint32_t v : {std::uint32_t(QA), std::uint32_t(QB), std::uint32_t(net.scale)})
        put_u32(out, v);
    if (!v2) out.insert(out.end(), net.kings.of_square.begin(), net.kings.of_square.end());
    for (auto w : net.ft_weights) put_i16(out, w);
    for (auto w : net.ft_bias) put_i16(out, w);
    for (const auto& bucket : net.out_weights)
        for (auto w : bucket) put_i16(out, w);
    for (auto b : net.out_bias) put_u32(out, std::uint32_t(b));
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

std::shared_ptr<const Network> embedded_network(Variant v) {
    // A broken embedded net is caught by the tests.
    auto parse = [](const unsigned char* data, std::size_t size) {
        auto r = parse_network(data, size);
        return r ? *r : nullptr;
    };
    if (v == Variant::THREE_CHECK) {
        static const std::shared_ptr<const Network> net =
            parse(outpost_embedded_3check_net, outpost_embedded_3check_net_size);
        return net;
    }
    if (v == Variant::KING_OF_THE_HILL) {
        static const std::shared_ptr<const Network> net =
            parse(outpost_embedded_koth_net, outpost_embedded_koth_net_size);
        return net;
    }
    if (v == Variant::CRAZYHOUSE) {
        static const std::shared_ptr<const Network> net =
            parse(outpost_embedded_crazyhouse_net, outpost_embedded_crazyhouse_net_size);
        return net;
    }
    if (v == Variant::ATOMIC) {
        static const std::shared_ptr<const Network> net =
            parse(outpost_embedded_atomic_net, outpost_embedded_atomic_net_size);
        return net;
    }
    return embedded_network();
}

template <class B>
void refresh(const Network& net, const B& board, Accumulator& acc) {
    for (Color c : {WHITE, BLACK}) refresh_side(net, board, c, acc);
}

template <class B>
void update(const Network& net, const B& before, const B& after, const Accumulator& in,
            Accumulator& out) {
    // The pieces that left and arrived: the squares whose colour or piece type changed, at
    // most four for a move (castling), so at most four of each.
    Bitboard changed = 0;
    for (int c = 0; c < COLOR_NB; ++c) changed |= before.by_color[c] ^ after.by_color[c];
    for (int t = 0; t < PIECE_TYPE_NB; ++t) changed |= before.by_type[t] ^ after.by_type[t];
    // An atomic explosion takes off up to nine pieces at once: more than four changed squares
    // and both perspectives start afresh.
    if (popcount(changed) > 4) {
        refresh(net, after, out);
        return;
    }
    Piece gone_piece[4], come_piece[4];
    Square gone_square[4], come_square[4];
    int gone = 0, come = 0;
    for (Bitboard bb = changed; bb; bb &= bb - 1) {
        const Square s = lsb(bb);
        const Piece a = before.piece_on(s), b = after.piece_on(s);
        if (a == b) continue;
        if (a != NO_PIECE) gone_piece[gone] = a, gone_square[gone++] = s;
        if (b != NO_PIECE) come_piece[come] = b, come_square[come++] = s;
    }
    // One pass over each perspective's accumulator (the usual move: one piece off, one on).
    // A king that changed bucket or side of the board changes every input of its side: that
    // perspective starts afresh.
    for (Color c : {WHITE, BLACK}) {
        const InputView view = view_of(net, after, c);
        if (view != view_of(net, before, c)) {
            refresh_side(net, after, c, out);
            continue;
        }
        auto row = [&](Piece pc, Square s) {
            return &net.ft_weights[std::size_t(feature_index(view, c, pc, s)) * HIDDEN];
        };
        const std::int16_t* sub[4];
        const std::int16_t* add[4];
        for (int i = 0; i < gone; ++i) sub[i] = row(gone_piece[i], gone_square[i]);
        for (int i = 0; i < come; ++i) add[i] = row(come_piece[i], come_square[i]);
        const std::int16_t* src = in.v[c];
        std::int16_t* dst = out.v[c];
        if (gone == 1 && come == 1) {
            for (int j = 0; j < HIDDEN; ++j) dst[j] = std::int16_t(src[j] - sub[0][j] + add[0][j]);
        } else if (gone == 2 && come == 1) {  // a capture
            for (int j = 0; j < HIDDEN; ++j)
                dst[j] = std::int16_t(src[j] - sub[0][j] - sub[1][j] + add[0][j]);
        } else {
            std::memcpy(dst, src, sizeof in.v[c]);
            for (int i = 0; i < gone; ++i)
                for (int j = 0; j < HIDDEN; ++j) dst[j] = std::int16_t(dst[j] - sub[i][j]);
            for (int i = 0; i < come; ++i)
                for (int j = 0; j < HIDDEN; ++j) dst[j] = std::int16_t(dst[j] + add[i][j]);
        }
    }
}

template <class B>
int evaluate(const Network& net, const Accumulator& acc, const B& board) {
    const int bucket = output_bucket(popcount(board.pieces()));
    const std::int16_t* w = net.out_weights[bucket];
    return finish(net, bucket, screlu_dot(acc.v[board.side], w),
                  screlu_dot(acc.v[~board.side], w + HIDDEN));
}

int evaluate_scalar(const Network& net, const Accumulator& acc, const Board& board) {
    const int bucket = output_bucket(popcount(board.pieces()));
    const std::int16_t* w = net.out_weights[bucket];
    return finish(net, bucket, screlu_dot_scalar(acc.v[board.side], w),
                  screlu_dot_scalar(acc.v[~board.side], w + HIDDEN));
}

template <class B>
int evaluate(const Network& net, const B& board) {
    Accumulator acc;
    refresh(net, board, acc);
    return evaluate(net, acc, board);
}

#define OUTPOST_INSTANTIATE(V)                                                       \
    template void refresh(const Network&, const BasicBoard<V>&, Accumulator&);       \
    template void update(const Network&, const BasicBoard<V>&, const BasicBoard<V>&, \
                         const Accumulator&, Accumulator&);                          \
    template int evaluate(const Network&, const Accumulator&, const BasicBoard<V>&); \
    template int evaluate(const Network&, const BasicBoard<V>&);
OUTPOST_INSTANTIATE(Variant::STANDARD)
OUTPOST_INSTANTIATE(Variant::THREE_CHECK)
OUTPOST_INSTANTIATE(Variant::KING_OF_THE_HILL)
OUTPOST_INSTANTIATE(Variant::CRAZYHOUSE)
OUTPOST_INSTANTIATE(Variant::ATOMIC)
#undef OUTPOST_INSTANTIATE

}  // namespace engine::nnue
