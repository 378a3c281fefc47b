// Transposition table storage, replacement (depth first, older searches go first) and hashfull.
#include "tt.hpp"

#include "score.hpp"

namespace engine {

namespace {

// data word: move 0-15, score 16-31, eval 32-47, depth+offset 48-55, bound 56-57, gen 58-63.
constexpr std::uint64_t pack(Move move, int score, int eval, int depth, Bound bound,
                             std::uint8_t gen) {
    return std::uint64_t(move.raw()) | (std::uint64_t(std::uint16_t(std::int16_t(score))) << 16) |
           (std::uint64_t(std::uint16_t(std::int16_t(eval))) << 32) |
           (std::uint64_t(std::uint8_t(depth + TranspositionTable::DEPTH_OFFSET)) << 48) |
           (std::uint64_t(bound) << 56) | (std::uint64_t(gen) << 58);
}
constexpr Move move_of(std::uint64_t d) { return Move(std::uint16_t(d)); }
constexpr int score_of(std::uint64_t d) { return std::int16_t(std::uint16_t(d >> 16)); }
constexpr int eval_of(std::uint64_t d) { return std::int16_t(std::uint16_t(d >> 32)); }
constexpr int depth_of(std::uint64_t d) {
    return int((d >> 48) & 0xFF) - TranspositionTable::DEPTH_OFFSET;
}
constexpr Bound bound_of(std::uint64_t d) { return Bound((d >> 56) & 3); }
constexpr std::uint8_t gen_of(std::uint64_t d) { return std::uint8_t(d >> 58); }

}  // namespace

void TranspositionTable::resize(std::size_t mb) {
    if (mb < 1) mb = 1;
    std::uint64_t count = 1;
    while (count * 2 * sizeof(Bucket) <= mb * 1024 * 1024) count *= 2;
    buckets_ = std::make_unique<Bucket[]>(count);  // value-initialised: all zero
    mask_ = count - 1;
    mb_ = mb;
    generation_ = 0;
}

void TranspositionTable::clear() {
    for (std::uint64_t i = 0; i <= mask_; ++i)
        for (auto& w : buckets_[i].words) w.store(0, std::memory_order_relaxed);
    generation_ = 0;
}

bool TranspositionTable::probe(Key key, TTData& out) const {
    const Bucket& b = buckets_[key & mask_];
    for (int i = 0; i < ENTRIES; ++i) {
        const std::uint64_t k = b.words[2 * i].load(std::memory_order_relaxed);
        const std::uint64_t d = b.words[2 * i + 1].load(std::memory_order_relaxed);
        if ((k ^ d) == key && bound_of(d) != BOUND_NONE) {
            out = TTData{move_of(d), score_of(d), eval_of(d), depth_of(d), bound_of(d)};
            return true;
        }
    }
    return false;
}

void TranspositionTable::store(Key key, Move move, int score, int eval, int depth, Bound bound) {
    Bucket& b = buckets_[key & mask_];
    int victim = 0, victim_worth = 1 << 30;
    for (int i = 0; i < ENTRIES; ++i) {
        const std::uint64_t k = b.words[2 * i].load(std::memory_order_relaxed);
        const std::uint64_t d = b.words[2 * i + 1].load(std::memory_order_relaxed);
        if ((k ^ d) == key || bound_of(d) == BOUND_NONE) {
            // Same position: keep the old best move when the new result has none, and keep a
            // deeper non-exact result unless this one is exact.
            if ((k ^ d) == key) {
                if (!move) move = move_of(d);
                if (bound != BOUND_EXACT && depth + 3 < depth_of(d) && gen_of(d) == generation_)
                    return;
            }
            victim = i;
            break;
        }
        // Worth keeping: depth, minus a lot for every search it has been idle.
        const int age = (generation_ - gen_of(d)) & GEN_MASK;
        const int worth = depth_of(d) - 8 * age;
        if (worth < victim_worth) victim_worth = worth, victim = i;
    }
    if (depth < -DEPTH_OFFSET) depth = -DEPTH_OFFSET;
    if (depth > 255 - DEPTH_OFFSET) depth = 255 - DEPTH_OFFSET;
    const std::uint64_t d = pack(move, score, eval, depth, bound, generation_);
    b.words[2 * victim].store(key ^ d, std::memory_order_relaxed);
    b.words[2 * victim + 1].store(d, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
    const std::uint64_t sample = std::min<std::uint64_t>(1000 / ENTRIES, mask_ + 1);
    int used = 0;
    for (std::uint64_t i = 0; i < sample; ++i)
        for (int e = 0; e < ENTRIES; ++e) {
            const std::uint64_t d = buckets_[i].words[2 * e + 1].load(std::memory_order_relaxed);
            if (bound_of(d) != BOUND_NONE && gen_of(d) == generation_) ++used;
        }
    return int(used * 1000 / (sample * ENTRIES));
}

int score_to_tt(int score, int ply) {
    if (score >= TB_WIN_IN_MAX) return score + ply;
    if (score <= -TB_WIN_IN_MAX) return score - ply;
    return score;
}

int score_from_tt(int score, int ply) {
    if (score >= TB_WIN_IN_MAX) return score - ply;
    if (score <= -TB_WIN_IN_MAX) return score + ply;
    return score;
}

}  // namespace engine
