// A position as an SVG picture for the status page: read from its FEN, so any variant the engine
// writes is drawn (crazyhouse pockets included), with our side at the bottom and the last move
// marked.
#pragma once

#include <string>
#include <string_view>

namespace service {

// The pieces (id "wP" ... "bK", one unit big), the squares' pattern and the edge letters from
// either side, once per page in a hidden <svg>: every board refers to them, so a board costs its
// pieces, not their drawings.
[[nodiscard]] std::string board_svg_defs();

// One board, 8 units wide: each piece a <use href="#wN" x="6" y="7" data-sq="g1"/>, the last
// move's squares (UCI: from and to, a drop's "N@f3" its square only) marked, file and rank
// letters on the edge. A FEN with a pocket ("...[Qnp] w ...") gets the pocket of the side at the
// top drawn above the board and the other's below, each piece with its count (data-pocket="w" or
// "b"). A FEN that does not read as one gets an empty board with "?" on it.
[[nodiscard]] std::string board_svg(std::string_view fen, std::string_view last_move,
                                    bool white_at_bottom);

}  // namespace service
