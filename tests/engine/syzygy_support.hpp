// Shared by the Syzygy tests: the copied tables (tests/data/syzygy), Debian's `fathom` prober as
// the oracle (run as a child process, its PGN-like answer parsed), random legal positions of a
// material, and the engine's move at a root the tables cover.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "engine/fen_placement.hpp"
#include "engine/position.hpp"
#include "engine/search.hpp"
#include "engine/syzygy.hpp"

namespace engine::syzygy_test {

inline const std::string kTables = std::string(OUTPOST_TEST_DATA) + "/syzygy";
// Debian's package `fathom` (deploy/install-deps.sh installs it).
inline const std::string kFathom = "/usr/games/fathom";

// What fathom says of a position: "Win", "CursedWin", "Draw", "BlessedLoss" or "Loss" for the
// side to move, its DTZ, and the moves of each result in SAN.
struct Oracle {
    std::string wdl;
    int dtz = -1;
    std::vector<std::string> winning, drawing, losing;
};

inline std::string tag(const std::string& out, const std::string& name) {
    const std::string key = "[" + name + " \"";
    const auto at = out.find(key);
    if (at == std::string::npos) return "?";
    const auto end = out.find('"', at + key.size());
    return out.substr(at + key.size(), end - at - key.size());
}

inline std::vector<std::string> move_list(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string m;
    while (std::getline(in, m, ',')) {
        while (!m.empty() && m.front() == ' ') m.erase(m.begin());
        if (!m.empty()) out.push_back(m);
    }
    return out;
}

inline std::optional<Oracle> ask_fathom(const std::string& fen) {
    const std::string command = kFathom + " --path='" + kTables + "' '" + fen + "' 2>/dev/null";
    std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(command.c_str(), "r"), ::pclose);
    if (!pipe) return std::nullopt;
    std::string out;
    std::array<char, 4096> buffer{};
    while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe.get()))
        out.append(buffer.data(), n);
    Oracle o;
    o.wdl = tag(out, "WDL");
    if (o.wdl == "?") return std::nullopt;
    o.dtz = std::stoi(tag(out, "DTZ"));
    o.winning = move_list(tag(out, "WinningMoves"));
    o.drawing = move_list(tag(out, "DrawingMoves"));
    o.losing = move_list(tag(out, "LosingMoves"));
    return o;
}

// A move's SAN as fathom writes it: no check or mate sign.
inline std::string plain_san(const Position& pos, Move m) {
    std::string san = pos.san(m);
    while (!san.empty() && (san.back() == '+' || san.back() == '#')) san.pop_back();
    return san;
}

inline bool contains(const std::vector<std::string>& list, const std::string& s) {
    return std::find(list.begin(), list.end(), s) != list.end();
}

// A random legal position of `pieces` ("KQkr": white's in capitals), the side to move given,
// with a legal move, no pawn on the first or last rank, the side not to move not in check.
inline std::optional<Position> random_position(std::mt19937& rng, const std::string& pieces,
                                               Color side) {
    for (int attempt = 0; attempt < 1000; ++attempt) {
        std::string squares(64, '.');
        bool ok = true;
        for (const char p : pieces) {
            const int sq = int(rng() % 64);
            if (squares[std::size_t(sq)] != '.' || ((p == 'P' || p == 'p') && (sq < 8 || sq >= 56)))
                ok = false;
            squares[std::size_t(sq)] = p;
        }
        if (!ok) continue;
        std::string fen = engine::fen_placement(squares, '.');
        fen += side == WHITE ? " w - - 0 1" : " b - - 0 1";
        // from_fen refuses the side not to move in check.
        auto pos = Position::from_fen(fen);
        if (!pos || pos->legal_moves().empty()) continue;
        return std::move(*pos);
    }
    return std::nullopt;
}

// The engine's move with the tables loaded: a shallow search among the moves they keep.
inline Move engine_move(Engine& engine, const Position& pos, int depth = 3) {
    SearchLimits limits;
    limits.depth = depth;
    const std::atomic<bool> stop{false};
    return engine.search(pos, limits, stop).best;
}

}  // namespace engine::syzygy_test
