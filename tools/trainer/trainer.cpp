// The NNUE trainer (see trainer.hpp and docs/NNUE.md).
#include "tools/trainer/trainer.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <thread>

#include "engine/eval_params.hpp"
#include "engine/evaluate.hpp"
#include "engine/fen.hpp"
#include "engine/movegen.hpp"
#include "tools/datagen/data_file.hpp"
#include "tools/datagen/datagen.hpp"
#include "tools/tuner/selfplay.hpp"

namespace trainer {

namespace {

constexpr std::size_t H = engine::nnue::HIDDEN;
constexpr float MAX_OUT = float(engine::nnue::MAX_OUTPUT_WEIGHT) / engine::nnue::QB;

// Where each kind of weight starts in a flat gradient: the feature rows, their biases, the
// output weights, the output biases.
struct Layout {
    std::size_t ft_b, out_w, out_b, shared, total;
    explicit Layout(const Weights& w)
        : ft_b(w.ft_w.size()),
          out_w(ft_b + H),
          out_b(out_w + std::size_t(engine::nnue::OUTPUT_BUCKETS) * 2 * H),
          shared(out_b + engine::nnue::OUTPUT_BUCKETS),
          total(shared + w.ft_shared.size()) {}
};
constexpr std::size_t PLAIN_ROWS = std::size_t(engine::nnue::INPUTS);

std::size_t feature_rows(const engine::nnue::KingBuckets& kings) {
    return std::size_t(kings.count) * std::size_t(engine::nnue::INPUTS);
}

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

// The feature rows of a sample's pieces, for the side to move's perspective (p = 0) and the
// other's (p = 1).
void sample_features(const Sample& s, const engine::nnue::KingBuckets& kings, int (&feats)[2][32]) {
    engine::Square king[2] = {engine::A1, engine::A1};
    for (int i = 0; i < s.count; ++i)
        if (engine::type_of(engine::Piece(s.piece[i])) == engine::KING)
            king[engine::color_of(engine::Piece(s.piece[i]))] = engine::Square(s.square[i]);
    for (int p = 0; p < 2; ++p) {
        const engine::Color persp = p == 0 ? engine::Color(s.stm) : ~engine::Color(s.stm);
        const engine::nnue::InputView view = engine::nnue::input_view(kings, persp, king[persp]);
        for (int i = 0; i < s.count; ++i)
            feats[p][i] = engine::nnue::feature_index(view, persp, engine::Piece(s.piece[i]),
                                                      engine::Square(s.square[i]));
    }
}

}  // namespace

Sample sample_from_board(const engine::Board& b, int score_stm, float result_stm) {
    Sample s;
    s.stm = std::uint8_t(b.side);
    s.score = std::int16_t(std::clamp(score_stm, -32000, 32000));
    s.result = result_stm;
    for (engine::Bitboard bb = b.pieces(); bb && s.count < 32; bb &= bb - 1) {
        const engine::Square sq = engine::lsb(bb);
        s.square[s.count] = std::uint8_t(sq);
        s.piece[s.count] = std::uint8_t(b.piece_on(sq));
        ++s.count;
    }
    return s;
}

long load(const std::string& path, Data& out, int validation_every, std::size_t max_lines,
          int hce_walks, bool mix) {
    tuner::MiniSearch hce(engine::DEFAULT_EVAL_PARAMS, 4);
    std::mt19937_64 rng(7);
    // One position of either format, with its labels (white's view) and its game.
    auto add = [&](const engine::Board& board, const std::string& fen, int score_white,
                   float result, std::uint64_t game) {
        // Whole games are held out: positions of one game are strongly correlated.
        const bool held_out =
            validation_every > 0 && datagen::game_seed(12345, game) % validation_every == 0;
        std::vector<Sample>& into = held_out ? out.validation : out.train;
        if (held_out && out.validation_fens.size() < 2000) {
            out.validation_fens.push_back(fen);
            out.validation_fen_sample.push_back(out.validation.size());
        }
        if (hce_walks < 0 || mix) {
            if (held_out) out.validation_hce.push_back(std::int16_t(engine::evaluate(board)));
            const bool white = board.side == engine::WHITE;
            into.push_back(sample_from_board(board, white ? score_white : -score_white,
                                             white ? result : 1.0f - result));
            if (!mix) return;
        }
        // Mixed data: the held-out set stays the real positions only (the loss that matters).
        if (mix && held_out) return;
        for (int walk = mix ? 1 : 0; walk <= hce_walks; ++walk) {
            engine::Board b = board;
            const int plies = walk == 0 ? 0 : 1 + int(rng() % 3);
            bool ok = true;
            for (int i = 0; i < plies && ok; ++i) {
                const engine::MoveList moves = engine::legal_moves(b);
                ok = !moves.empty();
                if (ok) b.make_move(moves[int(rng() % std::uint64_t(moves.size()))]);
            }
            if (!ok || b.in_check() || engine::legal_moves(b).empty()) continue;
            // Quiet positions only (quiescence == static eval): a static net cannot see the
            // captures that decide the others, so their labels would only be noise to it.
            const int q = hce.quiescence(b);
            if (std::abs(q) > 3000 || q != hce.static_eval(b)) continue;
            if (held_out) out.validation_hce.push_back(std::int16_t(engine::evaluate(b)));
            into.push_back(sample_from_board(b, q, 0.5f));
            into.back().distilled = 1;
        }
    };

    long bad = 0;
    if (datagen::is_binary_data_file(path)) {
        const auto scan = datagen::read_data_file(
            path,
            [&](const datagen::Record& r) {
                const auto d = datagen::decode_record(r);
                if (!d) {
                    ++bad;
                    return;
                }
                add(d->board, engine::to_fen(d->board), d->score_white, d->result, d->game);
            },
            max_lines);
        if (!scan) return -1;
        // A game cut off mid-write (the generator was killed, or is still writing it).
        return bad + long(scan->torn_records) + (scan->torn_bytes ? 1 : 0);
    }

    std::ifstream in(path);
    if (!in) return -1;
    datagen::Line line;
    std::size_t lines = 0;
    for (std::string text; std::getline(in, text);) {
        if (max_lines && lines++ >= max_lines) break;
        if (!datagen::parse_line(text, line)) {
            ++bad;
            continue;
        }
        auto board = board_from_text(line.fen);
        if (!board) {
            ++bad;
            continue;
        }
        add(*board, line.fen, line.score_white, line.result, line.game);
    }
    return bad;
}

engine::Result<engine::Board> board_from_text(const std::string& fen) {
    auto board = engine::parse_fen(fen, false, engine::FenRules::Lichess);
    if (board) return board;
    // Atomic's kings may stand side by side (neither can take next to the other), which standard
    // chess refuses as a king in check: such a board is read by atomic's rules, both kings on it.
    const auto atomic =
        engine::parse_variant_fen<engine::Variant::ATOMIC>(fen, false, engine::FenRules::Lichess);
    if (!atomic || !atomic->has_king(engine::WHITE) || !atomic->has_king(engine::BLACK))
        return board;
    return engine::as_standard(*atomic);
}

Weights Weights::from(const engine::nnue::Network& net) {
    const auto bytes = engine::nnue::serialize(net);
    return *from(*engine::nnue::read_net_file(bytes.data(), bytes.size()), 0);
}

engine::Result<Weights> Weights::from(const engine::nnue::NetFile& file, std::uint64_t seed,
                                      const std::optional<engine::nnue::KingBuckets>& kings) {
    using R = engine::Result<Weights>;
    const int hidden = int(file.hidden), buckets = int(file.buckets);
    const engine::nnue::KingBuckets to = kings.value_or(file.kings);
    if (to != file.kings && file.kings.count != 1)
        return R::failure("a net with " + std::to_string(file.kings.count) +
                          " king buckets cannot start a net of another king bucket layout");
    if (hidden > engine::nnue::HIDDEN || engine::nnue::HIDDEN % hidden != 0)
        return R::failure("a net of hidden size " + std::to_string(hidden) +
                          " cannot start a net of " + std::to_string(engine::nnue::HIDDEN));
    if (buckets != 1 && buckets != engine::nnue::OUTPUT_BUCKETS)
        return R::failure("a net of " + std::to_string(buckets) +
                          " output buckets cannot start a net of " +
                          std::to_string(engine::nnue::OUTPUT_BUCKETS));
    if (file.qa == 0 || file.qb == 0) return R::failure("the net's QA or QB is 0");
    const float qa = float(file.qa), qb = float(file.qb);  // the file's, maybe not today's
    const int copies = engine::nnue::HIDDEN / hidden;
    // The copies of old neuron j are j, j + hidden, ...; their output weights are the old one
    // times shares that add up to 1 (the same shares for every bucket and perspective).
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> jitter(0.5f, 1.5f);
    std::vector<float> share(engine::nnue::HIDDEN, 0.0f);
    for (int j = 0; j < hidden; ++j) {
        float total = 0;
        for (int c = 0; c < copies; ++c) total += share[std::size_t(c * hidden + j)] = jitter(rng);
        for (int c = 0; c < copies; ++c) share[std::size_t(c * hidden + j)] /= total;
    }
    if (copies == 1) std::fill(share.begin(), share.end(), 1.0f);

    Weights w;
    w.kings = to;
    // The file's rows, or, where a net without king buckets starts a net with them, the shared
    // rows (the buckets' own at 0).
    const bool factorise = to.count > 1 && file.kings.count == 1;
    std::vector<float>& rows = factorise ? w.ft_shared : w.ft_w;
    rows.resize(feature_rows(file.kings) * H);
    for (std::size_t f = 0; f < feature_rows(file.kings); ++f)
        for (int j = 0; j < engine::nnue::HIDDEN; ++j)
            rows[f * H + std::size_t(j)] =
                float(file.ft_weights[f * std::size_t(hidden) + std::size_t(j % hidden)]) / qa;
    w.ft_w.resize(feature_rows(to) * H, 0.0f);
    w.ft_b.resize(engine::nnue::HIDDEN);
    for (int j = 0; j < engine::nnue::HIDDEN; ++j)
        w.ft_b[std::size_t(j)] = float(file.ft_bias[std::size_t(j % hidden)]) / qa;
    // Training runs at nnue::SCALE: a net calibrated to another scale starts from the same
    // centipawns, its output layer multiplied by scale / SCALE.
    const float to_scale = float(file.scale) / engine::nnue::SCALE;
    w.out_w.resize(std::size_t(engine::nnue::OUTPUT_BUCKETS) * 2 * engine::nnue::HIDDEN);
    w.out_b.resize(engine::nnue::OUTPUT_BUCKETS);
    for (int b = 0; b < engine::nnue::OUTPUT_BUCKETS; ++b) {
        const int from = buckets == 1 ? 0 : b;
        for (int p = 0; p < 2; ++p)
            for (int j = 0; j < engine::nnue::HIDDEN; ++j)
                w.out_w[std::size_t((b * 2 + p) * engine::nnue::HIDDEN + j)] =
                    float(file.out_weights[std::size_t((from * 2 + p) * hidden + j % hidden)]) /
                    qb * to_scale * share[std::size_t(j)];
        w.out_b[std::size_t(b)] = float(file.out_bias[std::size_t(from)]) / (qa * qb) * to_scale;
    }
    return w;
}

Weights Weights::random(std::uint64_t seed, const engine::nnue::KingBuckets& kings) {
    std::mt19937_64 rng(seed);
    Weights w;
    w.kings = kings;
    std::uniform_real_distribution<float> ft(-0.1f, 0.1f), out(-0.05f, 0.05f);
    // With king buckets the shared rows start random and the buckets' own at 0.
    w.ft_w.assign(feature_rows(kings) * H, 0.0f);
    std::vector<float>& rows = kings.count > 1 ? w.ft_shared : w.ft_w;
    rows.resize(PLAIN_ROWS * H);
    for (auto& x : rows) x = ft(rng);
    w.ft_b.assign(engine::nnue::HIDDEN, 0.0f);
    w.out_w.resize(std::size_t(engine::nnue::OUTPUT_BUCKETS) * 2 * engine::nnue::HIDDEN);
    for (auto& x : w.out_w) x = out(rng);
    w.out_b.assign(engine::nnue::OUTPUT_BUCKETS, 0.0f);
    return w;
}

Trainer::Trainer(Weights& w, Hyper h)
    : w_(w), h_(h), m_(Layout(w).total, 0.0f), v_(Layout(w).total, 0.0f) {}

void Trainer::accumulate(const Sample& s, float (&acc)[2][engine::nnue::HIDDEN],
                         int (&feats)[2][32]) const {
    sample_features(s, w_.kings, feats);
    const bool shared = !w_.ft_shared.empty();
    for (int p = 0; p < 2; ++p) {
        // p = 0: the side to move's perspective, 1: the other side's.
        std::copy(w_.ft_b.begin(), w_.ft_b.end(), acc[p]);
        for (int i = 0; i < s.count; ++i) {
            const std::size_t f = std::size_t(feats[p][i]);
            const float* row = &w_.ft_w[f * H];
            for (std::size_t j = 0; j < H; ++j) acc[p][j] += row[j];
            if (!shared) continue;
            const float* common = &w_.ft_shared[(f % PLAIN_ROWS) * H];
            for (std::size_t j = 0; j < H; ++j) acc[p][j] += common[j];
        }
    }
}

double Trainer::sample_loss(const Sample& s, std::vector<float>* grad) const {
    const Layout at(w_);
    alignas(64) float acc[2][engine::nnue::HIDDEN];
    int feats[2][32];
    accumulate(s, acc, feats);
    const std::size_t bucket = std::size_t(engine::nnue::output_bucket(s.count));
    const float* bucket_w = &w_.out_w[bucket * 2 * engine::nnue::HIDDEN];
    double out = w_.out_b[bucket];
    for (int p = 0; p < 2; ++p) {
        const float* ow = bucket_w + std::size_t(p) * engine::nnue::HIDDEN;
        float sum = 0;
        for (int j = 0; j < engine::nnue::HIDDEN; ++j) {
            const float c = std::clamp(acc[p][j], 0.0f, 1.0f);
            sum += c * c * ow[j];
        }
        out += sum;
    }
    const double pred = sigmoid(out * engine::nnue::SCALE / h_.score_k);
    const double lambda = s.distilled ? 1.0 : h_.lambda;
    const double target = lambda * sigmoid(s.score / h_.score_k) + (1 - lambda) * double(s.result);
    const double err = pred - target;
    if (grad) {
        std::vector<float>& g = *grad;
        const float d_out = float(2 * err * pred * (1 - pred) * engine::nnue::SCALE / h_.score_k);
        g[at.out_b + bucket] += d_out;
        for (int p = 0; p < 2; ++p) {
            const float* ow = bucket_w + std::size_t(p) * engine::nnue::HIDDEN;
            float* gow = &g[at.out_w + (bucket * 2 + std::size_t(p)) * engine::nnue::HIDDEN];
            alignas(64) float d_acc[engine::nnue::HIDDEN];
            for (int j = 0; j < engine::nnue::HIDDEN; ++j) {
                const float a = acc[p][j];
                const float c = std::clamp(a, 0.0f, 1.0f);
                gow[j] += d_out * c * c;
                d_acc[j] = (a > 0.0f && a < 1.0f) ? d_out * ow[j] * 2 * c : 0.0f;
            }
            float* gb = &g[at.ft_b];
            for (int j = 0; j < engine::nnue::HIDDEN; ++j) gb[j] += d_acc[j];
            for (int i = 0; i < s.count; ++i) {
                const std::size_t f = std::size_t(feats[p][i]);
                float* gw = &g[f * H];
                for (std::size_t j = 0; j < H; ++j) gw[j] += d_acc[j];
                if (at.total == at.shared) continue;
                float* gs = &g[at.shared + (f % PLAIN_ROWS) * H];
                for (std::size_t j = 0; j < H; ++j) gs[j] += d_acc[j];
            }
        }
    }
    return err * err;
}

double Trainer::evaluate(const Sample& s) const {
    alignas(64) float acc[2][engine::nnue::HIDDEN];
    int feats[2][32];
    accumulate(s, acc, feats);
    const std::size_t bucket = std::size_t(engine::nnue::output_bucket(s.count));
    double out = w_.out_b[bucket];
    for (int p = 0; p < 2; ++p)
        for (int j = 0; j < engine::nnue::HIDDEN; ++j) {
            const double c = std::clamp(acc[p][j], 0.0f, 1.0f);
            out += c * c *
                   w_.out_w[(bucket * 2 + std::size_t(p)) * engine::nnue::HIDDEN + std::size_t(j)];
        }
    return out * engine::nnue::SCALE;
}

double Trainer::batch_gradient(const Sample* begin, const Sample* end,
                               std::vector<float>& grad) const {
    double total = 0;
    for (const Sample* s = begin; s != end; ++s) total += sample_loss(*s, &grad);
    return total;
}

double Trainer::epoch(std::vector<Sample>& train, std::mt19937_64& rng, double lr) {
    std::shuffle(train.begin(), train.end(), rng);
    if (h_.mirror)
        for (Sample& s : train)
            if (rng() & 1)
                for (int i = 0; i < s.count; ++i) s.square[i] ^= 7;
    const int threads = std::max(1, h_.threads);
    const auto nthreads = static_cast<std::size_t>(threads);
    const Layout at(w_);
    std::vector<std::vector<float>> grads(nthreads, std::vector<float>(at.total));
    std::vector<double> losses(nthreads);
    double total = 0;
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    for (std::size_t start = 0; start < train.size(); start += std::size_t(h_.batch)) {
        const std::size_t n = std::min(std::size_t(h_.batch), train.size() - start);
        const std::size_t per = (n + std::size_t(threads) - 1) / std::size_t(threads);
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t) {
            std::fill(grads[std::size_t(t)].begin(), grads[std::size_t(t)].end(), 0.0f);
            const std::size_t a = std::min(n, per * std::size_t(t)),
                              z = std::min(n, per * std::size_t(t + 1));
            const Sample* base = train.data() + start;
            auto job = [&, t, a, z, base] {  // base by value: it ends with this iteration
                losses[std::size_t(t)] = batch_gradient(base + a, base + z, grads[std::size_t(t)]);
            };
            if (t + 1 == threads)
                job();
            else
                pool.emplace_back(job);
        }
        for (auto& th : pool) th.join();
        for (int t = 1; t < threads; ++t)
            for (std::size_t i = 0; i < at.total; ++i) grads[0][i] += grads[std::size_t(t)][i];
        for (double l : losses) total += l;

        ++step_;
        const double c1 = 1 - std::pow(b1, double(step_)), c2 = 1 - std::pow(b2, double(step_));
        const float scale = 1.0f / float(n);
        auto adam = [&](float& w, std::size_t i) {
            const float g = grads[0][i] * scale;
            m_[i] = float(b1 * m_[i] + (1 - b1) * g);
            v_[i] = float(b2 * v_[i] + (1 - b2) * g * g);
            w -= float(lr * (m_[i] / c1) / (std::sqrt(v_[i] / c2) + eps));
        };
        for (std::size_t i = 0; i < w_.ft_w.size(); ++i) adam(w_.ft_w[i], i);
        for (std::size_t i = 0; i < H; ++i) adam(w_.ft_b[i], at.ft_b + i);
        for (std::size_t i = 0; i < w_.out_w.size(); ++i) {
            adam(w_.out_w[i], at.out_w + i);
            w_.out_w[i] = std::clamp(w_.out_w[i], -MAX_OUT, MAX_OUT);
        }
        for (std::size_t b = 0; b < w_.out_b.size(); ++b) adam(w_.out_b[b], at.out_b + b);
        for (std::size_t i = 0; i < w_.ft_shared.size(); ++i) adam(w_.ft_shared[i], at.shared + i);
    }
    return total / double(std::max<std::size_t>(1, train.size()));
}

double Trainer::loss(const std::vector<Sample>& data) const {
    double total = 0;
    for (const Sample& s : data) total += sample_loss(s, nullptr);
    return total / double(std::max<std::size_t>(1, data.size()));
}

double Trainer::loss_of(const std::vector<Sample>& data,
                        const std::vector<std::int16_t>& cp) const {
    double total = 0;
    for (std::size_t i = 0; i < data.size() && i < cp.size(); ++i) {
        const Sample& s = data[i];
        const double pred = sigmoid(cp[i] / h_.score_k);
        const double target =
            h_.lambda * sigmoid(s.score / h_.score_k) + (1 - h_.lambda) * double(s.result);
        total += (pred - target) * (pred - target);
    }
    return total / double(std::max<std::size_t>(1, std::min(data.size(), cp.size())));
}

engine::nnue::Network quantise(const Weights& w) {
    engine::nnue::Network net;
    auto q = [](double x, double scale, int lim) {
        return std::int16_t(std::clamp<long>(std::lround(x * scale), -lim, lim));
    };
    net.kings = w.kings;
    net.ft_weights.resize(w.ft_w.size());
    for (std::size_t i = 0; i < w.ft_w.size(); ++i) {
        const float shared = w.ft_shared.empty() ? 0.0f : w.ft_shared[i % (PLAIN_ROWS * H)];
        net.ft_weights[i] = q(w.ft_w[i] + shared, engine::nnue::QA, 32767);
    }
    for (int j = 0; j < engine::nnue::HIDDEN; ++j)
        net.ft_bias[j] = q(w.ft_b[std::size_t(j)], engine::nnue::QA, 32767);
    for (int b = 0; b < engine::nnue::OUTPUT_BUCKETS; ++b) {
        for (int j = 0; j < 2 * engine::nnue::HIDDEN; ++j)
            net.out_weights[b][j] = q(w.out_w[std::size_t(b * 2 * engine::nnue::HIDDEN + j)],
                                      engine::nnue::QB, engine::nnue::MAX_OUTPUT_WEIGHT);
        net.out_bias[b] = std::int32_t(
            std::lround(double(w.out_b[std::size_t(b)]) * engine::nnue::QA * engine::nnue::QB));
    }
    return net;
}

}  // namespace trainer
