// Games of a variant played by the engine itself at a fixed node budget: self-play positions
// for tuning the variant's weights, and quick matches between two sets of weights.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/search.hpp"

namespace tuner {

struct VariantGame {
    float result = 0.5f;            // white's score
    std::vector<std::string> fens;  // quiet positions met in the game (when recorded)
    int plies = 0;
};

// Plays from the variant's start through `opening` (UCI moves) to the end: the variant's rules,
// or adjudication (both sides' scores beyond +-1500 for 6 plies; 400 plies a draw). With
// `record`, the positions after the opening that are not in check and whose best move is no
// capture or promotion are kept, with |score| < 1500.
VariantGame play_variant_game(engine::Variant variant, const std::vector<std::string>& opening,
                              engine::Engine& white, engine::Engine& black, std::uint64_t nodes,
                              bool record);

}  // namespace tuner
