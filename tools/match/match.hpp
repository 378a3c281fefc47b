// A match between two UCI engines in one variant: the games (each opening twice, colours
// swapped), refereed move by move with the engine library's rules, on N games at once, and
// the tally the summary is printed from.
#pragma once

#include <array>
#include <cstdint>
#include <iosfwd>
#include <map>
#include <string>

#include "tools/match/clock.hpp"
#include "tools/match/pgn.hpp"
#include "tools/match/referee.hpp"
#include "tools/match/uci_engine.hpp"

namespace match {

struct MatchConfig {
    engine::Variant variant = engine::Variant::STANDARD;
    EngineSpec engines[2];
    TimeControl time_control;
    std::int64_t margin_ms = 50;  // beyond its clock, before a late move loses on time
    int games = 2;                // rounded up to whole pairs
    int concurrency = 1;
    int opening_plies = 6;
    std::uint64_t seed = 1;
    Adjudication adjudication;
    std::string pgn_path;  // empty: no PGN file
};

// One game: `white` and `black` play from the opening (UCI moves) to its end.
GameRecord play_game(UciEngine& white, UciEngine& black, const MatchConfig& config,
                     const std::vector<std::string>& opening);

// The results from the first engine's point of view.
struct Tally {
    int wins = 0, losses = 0, draws = 0;
    std::array<int, 5> pairs{};  // pairs that scored 0, 1/2, ..., 2 points
    int time_losses[2] = {};     // by engine index
    int illegal_moves[2] = {};
    int failures[2] = {};  // died, hung or would not start
    std::map<std::string, int> endings;

    // Adds a finished game; `first_is_white` says which colour engine 0 had.
    void add(const GameRecord& game, bool first_is_white);
    void add_pair(double first_points);
};

// Plays the whole match, printing each result to `log`, and returns the tally.
Tally run_match(const MatchConfig& config, std::ostream& log);
// The summary: W-L-D, score, Elo +- 95% (single games and pairs), faults, endings.
void print_summary(const MatchConfig& config, const Tally& tally, std::ostream& out);

}  // namespace match
