// Labels from another engine's judgement: each data line's position searched by a UCI engine
// (Fairy-Stockfish, say), its score turned to white's view and to an expected result, and mixed
// with the line's game result. A hand-crafted evaluation fitted to those labels learns what the
// stronger engine sees in a position rather than what one noisy game's result says of it.
#pragma once

#include <optional>
#include <string>

#include "engine/types.hpp"
#include "tools/match/referee.hpp"
#include "tools/tuner/tuner.hpp"

namespace tuner {

// White's expected result, 1 / (1 + 10^(-cp / 400)), of a score from the side to move's view;
// a mate counts as a certain result.
double expected_result(const match::EngineScore& score, engine::Color side_to_move);

// The FEN a UCI engine is given: three-check's Lichess form, with the checks each side has
// given as a last field ("+1+0"), becomes the form Fairy-Stockfish reads, the checks each side
// still needs as a field after en passant ("2+3"); Fairy-Stockfish 11.1 takes a FEN without it
// as one check to win for each side. Other variants' FENs are sent as they are.
std::string uci_fen(engine::Variant variant, const std::string& fen);

// The data line "<FEN> [label]": `mix` of the engine's expected result and the rest the game's.
std::string engine_labelled_line(const LabelledFen& line, const match::EngineScore& score,
                                 double mix);

}  // namespace tuner
