// The starting positions the move-text fuzz targets play from: the first input line is either
// a FEN or picks one of these by its bytes.
#pragma once

#include <array>
#include <string_view>

#include "engine/position.hpp"

namespace fuzz {

struct NamedFen {
    std::string_view fen;
    bool chess960;
};

// Castling both ways, en passant, promotions for both sides, Chess960 castling with the king
// and rook on unusual files, and a position in check.
inline constexpr std::array<NamedFen, 7> kPositions{{
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},
    {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false},
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
    {"1r2k1r1/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true},
    {"4k3/8/8/8/8/8/4q3/R3K2R w KQ - 0 1", false},
}};

// The first line as a FEN when it parses, otherwise the listed position its bytes pick.
inline engine::Position pick_position(std::string_view first_line) {
    if (auto parsed = engine::Position::from_fen(first_line)) return *parsed;
    unsigned sum = 0;
    for (const char c : first_line) sum += static_cast<unsigned char>(c);
    const NamedFen& named = kPositions[sum % kPositions.size()];
    return *engine::Position::from_fen(named.fen, named.chess960);
}

}  // namespace fuzz
