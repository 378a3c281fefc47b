// Test positions in EPD with their answers ("<FEN> bm Nf3 Qxh7+; id \"WAC.001\";"), as the
// tactical suites under tests/data/tactics write them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/board.hpp"

namespace epd {

struct Problem {
    std::string fen;                // the four EPD fields
    std::vector<std::string> best;  // the bm moves as written: SAN or hyphenated long algebraic
    std::string id;
};

// "<4 FEN fields> bm X Y; id "Z"; ..." -> FEN, bm list and id (other operations are skipped).
Problem parse_problem(std::string_view line);

// A bm move as a legal move of `board`: SAN ("Qxh7+") or hyphenated long algebraic
// ("Bh8-f6+", "e7xf8N+"); Move::none() when it is neither.
engine::Move parse_answer(const engine::Board& board, std::string_view text);

}  // namespace epd
