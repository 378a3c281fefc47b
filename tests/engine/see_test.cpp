// Static exchange evaluation on hand-checked positions.
#include <gtest/gtest.h>

#include "engine/fen.hpp"
#include "engine/position.hpp"
#include "engine/see.hpp"

namespace engine {
namespace {

struct SeeCase {
    const char* fen;
    const char* move;
    int value;  // the exchange's result for the mover, in PIECE_VALUE units
};

// Each value is checked as "see_ge(value) true, see_ge(value + 1) false".
const SeeCase CASES[] = {
    // Pawn takes an undefended knight.
    {"4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5", 320},
    // Rook takes a pawn defended by a pawn: loses the rook for a pawn.
    {"4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", 100 - 500},
    // Knight takes a defended pawn, recaptured by the pawn.
    {"4k3/8/2p5/3p4/8/4N3/8/4K3 w - - 0 1", "e3d5", 100 - 320},
    // Bishop takes a knight defended by a pawn: an even trade (the knight is worth 10 less).
    {"4k3/8/2p5/3n4/8/1B6/8/4K3 w - - 0 1", "b3d5", 320 - 330},
    // X-ray: two rooks against a rook-defended pawn: RxP RxR RxR wins a pawn and a rook for a rook.
    {"3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5", 100},
    // Quiet move to a square attacked by a pawn loses the piece.
    {"4k3/8/8/2p5/8/3N4/8/4K3 w - - 0 1", "d3b4", -320},
    // Castling counts as zero.
    {"4k3/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", 0},
    // En passant wins a pawn.
    {"4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", 100},
    // Promotion with capture of an undefended rook: rook + (queen - pawn).
    {"3rk3/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8q", 500 + 950 - 100 - 950 + 0},
};

TEST(See, HandCheckedExchanges) {
    for (const auto& c : CASES) {
        auto pos = Position::from_fen(c.fen);
        ASSERT_TRUE(pos) << c.fen;
        auto m = pos->parse_uci(c.move);
        ASSERT_TRUE(m) << c.fen << " " << c.move;
        EXPECT_TRUE(see_ge(pos->board(), *m, c.value)) << c.fen << " " << c.move;
        EXPECT_FALSE(see_ge(pos->board(), *m, c.value + 1)) << c.fen << " " << c.move;
    }
}

TEST(See, PinnedDefenderDoesNotRecapture) {
    // The knight on d5 is defended only by the c6 bishop, which is pinned to its king on the
    // a4-e8 diagonal; recapturing on d5 would leave the line, so the knight is free.
    auto pos = Position::from_fen("4k3/8/2b5/3n4/B7/8/8/3RK3 w - - 0 1");
    ASSERT_TRUE(pos);
    auto m = pos->parse_uci("d1d5");
    ASSERT_TRUE(m);
    EXPECT_TRUE(see_ge(pos->board(), *m, 320));
}

}  // namespace
}  // namespace engine
