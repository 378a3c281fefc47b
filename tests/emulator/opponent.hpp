// The emulator's side of a game: picks the opponent's next move (random legal mover, a fixed
// line, an engine search at a set depth/node count, or a staller that never moves).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <random>
#include <string>

#include "engine/position.hpp"
#include "scenario.hpp"

namespace engine {
class Engine;
}

namespace emu {

class OpponentMover {
  public:
    OpponentMover(const OpponentSpec& spec, std::uint64_t seed);
    ~OpponentMover();
    OpponentMover(const OpponentMover&) = delete;
    OpponentMover& operator=(const OpponentMover&) = delete;

    // The opponent's move in UCI (king-to-rook castling), or nothing when it stalls. May take
    // a while for the engine opponent; `stop` ends a search early.
    std::optional<std::string> choose(const engine::Position& pos, const std::atomic<bool>& stop);

  private:
    std::optional<std::string> random_move(const engine::Position& pos);
    std::optional<std::string> by_kind(OpponentSpec::Kind kind, const engine::Position& pos,
                                       const std::atomic<bool>& stop);

    OpponentSpec spec_;
    std::mt19937_64 rng_;
    std::size_t line_index_ = 0;
    std::unique_ptr<engine::Engine> engine_;  // created on the first engine move
};

// Best move by a plain alpha-beta over material to `depth` plies (at most `nodes` nodes when
// positive); ties are broken by `rng` so play varies with the seed.
engine::Move material_search(const engine::Position& pos, int depth, std::int64_t nodes,
                             std::mt19937_64& rng);

// UCI text with castling written king-to-rook.
std::string king_to_rook_uci(const engine::Position& pos, engine::Move m);

}  // namespace emu
