// Self-play training data for the NNUE: games of the real engine at a fixed node budget from
// random openings, quiet positions labelled with the search score and the game's result.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/search.hpp"

namespace datagen {

struct Config {
    std::uint64_t seed = 1;
    int nodes = 6000;             // per move
    int random_plies = 8;         // random_plies or random_plies + 1 random moves open a game
    int max_opening_score = 400;  // openings searched above this (cp) are drawn again
    int win_score = 2500;         // adjudicate a win after win_plies plies beyond this
    int win_plies = 4;
    int draw_score = 10;  // adjudicate a draw after draw_plies plies within this, from draw_ply
    int draw_plies = 12;
    int draw_ply = 80;
    int max_plies = 400;
};

// One recorded position and its search score in centipawns from WHITE's view.
struct Sample {
    engine::Board board;
    int score_white = 0;
};

struct Game {
    std::vector<Sample> samples;
    float result = 0.5f;   // white's view: 1, 0.5 or 0
    int plies = 0;         // moves played after the opening
    bool complete = true;  // false: stopped before its end (never written)
};

// A 64-bit seed for game `index` of a run seeded with `seed` (SplitMix64 of both).
std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index);

// Plays one game; the same (engine state after new_game, config, index) gives the same game.
// When `stop` becomes true the game ends at once, incomplete.
Game play_game(engine::Engine& engine, const Config& config, std::uint64_t index,
               const std::atomic<bool>* stop = nullptr);

// The text line of a sample: `<FEN>;<score white cp>;<result 1.0|0.5|0.0>;<game index>`.
std::string format_line(const Sample& s, float result, std::uint64_t index);

// Parses a line written by format_line; false for anything malformed (e.g. a torn last line).
struct Line {
    std::string fen;
    int score_white = 0;
    float result = 0.5f;
    std::uint64_t game = 0;
};
bool parse_line(const std::string& text, Line& out);

}  // namespace datagen
