// A UCI engine that plays a uniformly random legal move in any variant: the floor opponent a
// variant's strength is first checked against (`outpost-match uci-random`).
#pragma once

#include <cstdint>
#include <iosfwd>

namespace match {

// Answers UCI commands from `in` on `out` until `quit` or the end of the input.
void run_random_mover(std::istream& in, std::ostream& out, std::uint64_t seed);

}  // namespace match
