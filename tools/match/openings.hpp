// The openings of a match: a few random legal plies from the variant's start position, so
// that the games differ, each opening played twice with colours swapped (its own bias cancels).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/variant.hpp"

namespace match {

// A small deterministic generator (splitmix64): the same seed gives the same openings on
// every machine and library.
class Rng {
  public:
    explicit Rng(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next();
    // Uniform in [0, n) (n > 0).
    std::uint64_t below(std::uint64_t n) { return next() % n; }

  private:
    std::uint64_t state_;
};

// `plies` random legal moves (UCI text) from the variant's start, none of which ends the game
// or leaves the side to move without a move. The same (variant, plies, seed) gives the same line.
std::vector<std::string> random_opening(engine::Variant variant, int plies, std::uint64_t seed);

}  // namespace match
