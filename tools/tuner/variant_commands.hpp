// outpost-tune's commands for a variant (`--variant KEY`): data from the engine's own games
// (self-play, or the games of a PGN file), Texel tuning of the variant's weights, and a match
// of two sets of weights.
#pragma once

#include <map>
#include <string>

#include "engine/variant.hpp"

namespace tuner {

using CommandOptions = std::map<std::string, std::string>;

int run_variant_selfplay(const CommandOptions& o, engine::Variant v);
int run_variant_tune(const CommandOptions& o, engine::Variant v);
// Data lines from the engine's games in a PGN file (matches against other engines too).
int run_variant_pgn(const CommandOptions& o, engine::Variant v);
// Data lines relabelled by a UCI engine's search of each position (engine_label.hpp).
int run_variant_label(const CommandOptions& o, engine::Variant v);
int run_variant_match(const CommandOptions& o, engine::Variant v);

}  // namespace tuner
