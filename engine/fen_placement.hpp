// The placement field of a FEN (rank 8 first, runs of empty squares as digits) from 64 squares
// in a1..h8 order, each a piece letter or `empty`: for code that builds boards square by square
// (the data generator's records, random positions in tests) and then parses them as FEN.
#pragma once

#include <string>
#include <string_view>

namespace engine {

[[nodiscard]] inline std::string fen_placement(std::string_view squares, char empty) {
    std::string fen;
    for (int rank = 7; rank >= 0; --rank) {
        int run = 0;
        for (int file = 0; file < 8; ++file) {
            const char c = squares[std::size_t(rank * 8 + file)];
            if (c == empty) {
                ++run;
                continue;
            }
            if (run) fen += char('0' + run);
            run = 0;
            fen += c;
        }
        if (run) fen += char('0' + run);
        if (rank) fen += '/';
    }
    return fen;
}

}  // namespace engine
