// The transposition table: a shared, lockless hash of search results keyed by Zobrist key.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "types.hpp"

namespace engine {

// Which side of the true score a stored score is.
enum Bound : std::uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

struct TTData {
    Move move;
    int score = 0;  // node-relative mate scores: convert with score_from_tt()
    int eval = 0;
    int depth = 0;
    Bound bound = BOUND_NONE;
};

// Each entry is two relaxed atomic words, key ^ data and data, so a torn write from another
// thread fails the key check instead of returning a mixed entry (and is no data race).
class TranspositionTable {
  public:
    explicit TranspositionTable(std::size_t mb = 16) { resize(mb); }

    // Reallocates (and clears) to the largest power-of-two bucket count that fits in `mb`.
    void resize(std::size_t mb);
    void clear();
    std::size_t size_mb() const { return mb_; }
    // Starts a new search: entries from older searches become preferred victims.
    void new_search() { generation_ = std::uint8_t((generation_ + 1) & GEN_MASK); }

    [[nodiscard]] bool probe(Key key, TTData& out) const;
    void store(Key key, Move move, int score, int eval, int depth, Bound bound);
    void prefetch(Key key) const { __builtin_prefetch(&buckets_[key & mask_]); }
    // Permille of sampled entries written by the current search (UCI hashfull).
    int hashfull() const;

    // Depths below this cannot be stored (quiescence uses 0 and -1).
    static constexpr int DEPTH_OFFSET = 8;

  private:
    static constexpr int ENTRIES = 4;  // one 64-byte cache line per bucket
    static constexpr std::uint8_t GEN_MASK = 63;
    // Aligned so that a bucket is one cache line: malloc's 16-byte alignment would split most
    // buckets over two lines, and the prefetch fetches only the first.
    struct alignas(64) Bucket {
        std::atomic<std::uint64_t> words[2 * ENTRIES];
    };
    static_assert(sizeof(Bucket) == 64);

    std::unique_ptr<Bucket[]> buckets_;
    std::uint64_t mask_ = 0;
    std::size_t mb_ = 0;
    std::uint8_t generation_ = 0;
};

// Mate and tablebase scores are stored relative to the node so a transposition at another ply reads
// the right distance to mate.
int score_to_tt(int score, int ply);
int score_from_tt(int score, int ply);

}  // namespace engine
