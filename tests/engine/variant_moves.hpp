// Helpers for the variant cross-checks: a position's legal moves as the sorted UCI texts another
// implementation prints, and FNV-1a over that list (how tests/data/variant-walks stores it).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/position.hpp"

namespace variant_test {

// Castling as king-to-rook (chessops and Chess960 UCI), everything else as Position::to_uci.
inline std::string uci_king_to_rook(const engine::Position& pos, engine::Move m) {
    return pos.visit([&](const auto& b) {
        if (b.is_castling(m)) return engine::square_name(m.from()) + engine::square_name(m.to());
        return engine::move_to_uci(b, m);
    });
}

inline std::vector<std::string> sorted_moves(const engine::Position& pos, bool king_to_rook) {
    std::vector<std::string> out;
    for (const engine::Move m : pos.legal_moves())
        out.push_back(king_to_rook ? uci_king_to_rook(pos, m) : pos.to_uci(m));
    std::sort(out.begin(), out.end());
    return out;
}

inline std::string joined(const std::vector<std::string>& moves) {
    std::string s;
    for (const auto& m : moves) s += (s.empty() ? "" : " ") + m;
    return s;
}

inline std::uint32_t fnv1a(const std::string& text) {
    std::uint32_t h = 0x811c9dc5u;
    for (const char c : text) {
        h ^= std::uint8_t(c);
        h *= 0x01000193u;
    }
    return h;
}

// A deterministic generator for random walks (splitmix64).
struct Rng {
    std::uint64_t state;
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    int below(int n) { return int(next() % std::uint64_t(n)); }
};

}  // namespace variant_test
