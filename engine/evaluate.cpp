// Placeholder evaluation (material only) until the tapered evaluation lands.
#include "evaluate.hpp"

namespace engine {

int evaluate(const Board& b) {
    int score = 0;
    for (int pt = PAWN; pt < KING; ++pt)
        score += PIECE_VALUE[pt] * (popcount(b.pieces(WHITE, PieceType(pt))) -
                                    popcount(b.pieces(BLACK, PieceType(pt))));
    return b.side == WHITE ? score : -score;
}

}  // namespace engine
