// Antichess moves (scalachess core/src/main/scala/variant/Antichess.scala): no check, the king
// is an ordinary piece, a pawn may promote to a king, no castling, and capturing is compulsory:
// when any capture exists, the captures are the only legal moves.
#include "movegen_pseudo.hpp"

namespace engine {

namespace {

using AntichessBoard = BasicBoard<Variant::ANTICHESS>;
using AntichessList = MoveListOf<Variant::ANTICHESS>;

void captures(const AntichessBoard& b, AntichessList& list) {
    const Bitboard them = b.pieces(~b.side);
    auto add = [&](Move m) { list.push(m); };
    detail::pawn_moves(b, 0, them, true, true, add);
    detail::piece_moves(b, them, them, add);
}

// Quiet moves, promotions (`promotions`) and the rest (`others`) asked for apart.
void quiets(const AntichessBoard& b, AntichessList& list, bool promotions, bool others) {
    const Bitboard empty = ~b.pieces();
    const Bitboard last = rank_bb(b.side == WHITE ? 7 : 0);
    auto add = [&](Move m) { list.push(m); };
    detail::pawn_moves(b, (promotions ? last : 0) | (others ? empty & ~last : 0), 0, false, true,
                       add);
    if (others) detail::piece_moves(b, empty, empty, add);
}

}  // namespace

void generate_antichess(const AntichessBoard& b, AntichessList& list, GenType type) {
    const int before = list.size();
    if (type == GenType::QUIET) {
        AntichessList forced;
        captures(b, forced);
        if (forced.empty()) quiets(b, list, false, true);
        return;
    }
    captures(b, list);
    if (list.size() != before) return;
    quiets(b, list, true, type == GenType::ALL);
}

}  // namespace engine
