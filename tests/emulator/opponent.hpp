// The emulator's side of a game: picks the opponent's next move (random legal mover, a fixed
// line, a small material search, or a staller that never moves).
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>

#include "engine/position.hpp"
#include "scenario.hpp"

namespace emu {

class OpponentMover {
  public:
    OpponentMover(const OpponentSpec& spec, std::uint64_t seed) : spec_(spec), rng_(seed) {}

    // The opponent's move in UCI (king-to-rook castling), or nothing when it stalls.
    std::optional<std::string> choose(const engine::Position& pos);

  private:
    std::optional<std::string> random_move(const engine::Position& pos);
    std::optional<std::string> by_kind(OpponentSpec::Kind kind, const engine::Position& pos);

    OpponentSpec spec_;
    std::mt19937_64 rng_;
    std::size_t line_index_ = 0;
};

// Best move by a plain alpha-beta over material to `depth` plies (at most `nodes` nodes when
// positive); ties are broken by `rng` so play varies with the seed.
engine::Move material_search(const engine::Position& pos, int depth, std::int64_t nodes,
                             std::mt19937_64& rng);

// UCI text with castling written king-to-rook.
std::string king_to_rook_uci(const engine::Position& pos, engine::Move m);

}  // namespace emu
