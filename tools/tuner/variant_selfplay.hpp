// Games of a variant played by the engine itself at a fixed node budget: self-play positions
// for tuning the variant's weights, and quick matches between two sets of weights.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
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
// The text of the next game of a PGN file (tags and movetext); empty at the end.
std::string read_pgn_game(std::istream& in);
// The positions of a PGN game of the variant, chosen as play_variant_game records them (the
// moves marked {book} skipped), and its result; nothing when a move or the result is unreadable.
std::optional<VariantGame> positions_of_pgn_game(const std::string& text, engine::Variant variant);
// "[1.0]", "[0.5]" or "[0.0]": a data line's label.
const char* result_label(float result);

VariantGame play_variant_game(engine::Variant variant, const std::vector<std::string>& opening,
                              engine::Engine& white, engine::Engine& black, std::uint64_t nodes,
                              bool record);

}  // namespace tuner
