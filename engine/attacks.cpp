// Fills the attack tables: leapers directly, sliders by walking rays for every occupancy
// subset, indexed by PEXT or by magic multipliers found at start-up with a fixed seed.
#include "attacks.hpp"

#include <mutex>
#include <vector>

namespace engine {
namespace detail {

AttackTables tables;

namespace {

constexpr std::size_t ROOK_TABLE_SIZE = 102400;  // sum over squares of 2^(relevant bits)
constexpr std::size_t BISHOP_TABLE_SIZE = 5248;
Bitboard rook_table[ROOK_TABLE_SIZE];
Bitboard bishop_table[BISHOP_TABLE_SIZE];

// Walks from s in each (file, rank) step until the edge or the first occupied square.
Bitboard ray_attacks(Square s, Bitboard occupied, const int (*steps)[2]) {
    Bitboard attacks = 0;
    for (int d = 0; d < 4; ++d) {
        int f = file_of(s) + steps[d][0], r = rank_of(s) + steps[d][1];
        while (f >= 0 && f < 8 && r >= 0 && r < 8) {
            const Square t = make_square(f, r);
            attacks |= square_bb(t);
            if (occupied & square_bb(t)) break;
            f += steps[d][0];
            r += steps[d][1];
        }
    }
    return attacks;
}

constexpr int ROOK_STEPS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BISHOP_STEPS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

// xorshift64* with a fixed seed: the magics (and so the engine) are the same every run.
struct Prng {
    std::uint64_t s;
    std::uint64_t next() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 2685821657736338717ULL;
    }
    std::uint64_t sparse() { return next() & next() & next(); }
};

void init_sliders(SliderEntry* entries, Bitboard* table, const int (*steps)[2]) {
    Prng prng{0x9E3779B97F4A7C15ULL};
    Bitboard* next_free = table;
    std::vector<Bitboard> occupancies, references;
    std::vector<int> epoch;
    for (int sq = 0; sq < 64; ++sq) {
        const Square s = Square(sq);
        // Edges only matter when they are on the ray's own line, so drop them from the mask.
        const Bitboard edges = ((RANK_1_BB | RANK_8_BB) & ~rank_bb(rank_of(s))) |
                               ((FILE_A_BB | FILE_H_BB) & ~file_bb(file_of(s)));
        SliderEntry& e = entries[sq];
        e.mask = ray_attacks(s, 0, steps) & ~edges;
        e.shift = 64 - unsigned(popcount(e.mask));
        e.attacks = next_free;

        // Enumerate every subset of the mask (Carry-Rippler).
        occupancies.clear();
        references.clear();
        Bitboard b = 0;
        do {
            occupancies.push_back(b);
            references.push_back(ray_attacks(s, b, steps));
            b = (b - e.mask) & e.mask;
        } while (b);
        const std::size_t size = occupancies.size();

#if OUTPOST_USE_PEXT
        for (std::size_t i = 0; i < size; ++i) next_free[e.index(occupancies[i])] = references[i];
#else
        epoch.assign(size, 0);
        for (int attempt = 1;; ++attempt) {
            do e.magic = prng.sparse();
            while (popcount((e.mask * e.magic) >> 56) < 6);
            bool ok = true;
            for (std::size_t i = 0; i < size && ok; ++i) {
                const std::size_t idx = e.index(occupancies[i]);
                if (epoch[idx] < attempt) {
                    epoch[idx] = attempt;
                    next_free[idx] = references[i];
                } else if (next_free[idx] != references[i]) {
                    ok = false;
                }
            }
            if (ok) break;
        }
#endif
        next_free += size;
    }
    (void)prng;
}

void init_all() {
    for (int sq = 0; sq < 64; ++sq) {
        const Square s = Square(sq);
        const Bitboard b = square_bb(s);
        tables.pawn[WHITE][s] = pawn_attacks_bb<WHITE>(b);
        tables.pawn[BLACK][s] = pawn_attacks_bb<BLACK>(b);
        constexpr int knight_steps[8][2] = {{1, 2},   {2, 1},   {2, -1}, {1, -2},
                                            {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
        constexpr int king_steps[8][2] = {{1, 0},  {1, 1},   {0, 1},  {-1, 1},
                                          {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
        for (int i = 0; i < 8; ++i) {
            int f = file_of(s) + knight_steps[i][0], r = rank_of(s) + knight_steps[i][1];
            if (f >= 0 && f < 8 && r >= 0 && r < 8)
                tables.knight[s] |= square_bb(make_square(f, r));
            f = file_of(s) + king_steps[i][0];
            r = rank_of(s) + king_steps[i][1];
            if (f >= 0 && f < 8 && r >= 0 && r < 8) tables.king[s] |= square_bb(make_square(f, r));
        }
    }
    init_sliders(tables.rook, rook_table, ROOK_STEPS);
    init_sliders(tables.bishop, bishop_table, BISHOP_STEPS);

    for (int a = 0; a < 64; ++a) {
        for (int b = 0; b < 64; ++b) {
            const Square sa = Square(a), sb = Square(b);
            tables.between[a][b] = square_bb(sb);
            tables.line[a][b] = 0;
            if (a == b) continue;
            for (const auto* steps : {ROOK_STEPS, BISHOP_STEPS}) {
                const Bitboard from_a = ray_attacks(sa, 0, steps);
                if (!(from_a & square_bb(sb))) continue;
                tables.line[a][b] =
                    (from_a & ray_attacks(sb, 0, steps)) | square_bb(sa) | square_bb(sb);
                tables.between[a][b] |=
                    ray_attacks(sa, square_bb(sb), steps) & ray_attacks(sb, square_bb(sa), steps);
            }
        }
    }
}

}  // namespace
}  // namespace detail

void init_attacks() {
    static std::once_flag once;
    std::call_once(once, detail::init_all);
}

}  // namespace engine
