// The magic-bitboard attack path (used by binaries built without BMI2): this test is compiled
// with -mno-bmi2 together with the rules sources, so it exercises the magics, not PEXT.
#include <gtest/gtest.h>

#include "engine/attacks.hpp"
#include "engine/fen.hpp"
#include "engine/perft.hpp"

namespace engine {
namespace {

static_assert(!uses_pext(), "this test must be built without BMI2");

// Slider attacks by walking the board square by square, for comparison.
Bitboard slow_attacks(Square s, Bitboard occupied, bool rook) {
    const int steps[2][4][2] = {{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}},
                                {{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
    Bitboard result = 0;
    for (const auto& d : steps[rook]) {
        int f = file_of(s) + d[0], r = rank_of(s) + d[1];
        while (f >= 0 && f < 8 && r >= 0 && r < 8) {
            const Bitboard b = square_bb(make_square(f, r));
            result |= b;
            if (occupied & b) break;
            f += d[0];
            r += d[1];
        }
    }
    return result;
}

TEST(MagicAttacks, MatchRayWalkingForRandomOccupancies) {
    init_attacks();
    std::uint64_t x = 0x1234567887654321ULL;
    for (int i = 0; i < 20000; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const Bitboard occupied = x & (x >> 3);
        const Square s = Square(i % 64);
        ASSERT_EQ(rook_attacks(s, occupied), slow_attacks(s, occupied, true));
        ASSERT_EQ(bishop_attacks(s, occupied), slow_attacks(s, occupied, false));
    }
}

TEST(MagicAttacks, PerftCountsAreRight) {
    auto kiwipete =
        parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    ASSERT_TRUE(kiwipete.ok());
    EXPECT_EQ(perft(*kiwipete, 4), 4085603u);
    auto chess960 = parse_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9");
    ASSERT_TRUE(chess960.ok());
    EXPECT_EQ(perft(*chess960, 4), 326672u);
}

}  // namespace
}  // namespace engine
