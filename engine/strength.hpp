// Playing strength below full: what a level (an Elo number) means for the search, as pure
// functions of the level and a seed so tests and docs can read the table. The search that uses
// them is engine/level_search.hpp; docs/STRENGTH.md explains the design and its calibration.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

namespace engine {

// The range UCI_Elo accepts. Full strength (no level) is above the top.
inline constexpr int MIN_LEVEL_ELO = 800;
inline constexpr int MAX_LEVEL_ELO = 2800;

// A level to play at: the Elo and the seed of its choices (one per game: the same seed and the
// same moves give the same choices).
struct Strength {
    int elo = MAX_LEVEL_ELO;
    std::uint64_t seed = 0;
    bool operator==(const Strength&) const = default;
};

// What a level does to the search. Every number moves one way as the Elo rises: deeper sight,
// more nodes, more candidate moves searched deeply, a longer look at the position itself, a smaller
// margin and temperature (fewer second-best moves), a larger share of the clock.
struct StrengthParams {
    int depth = 1;                  // plies searched after each candidate move (sight: depth + 1)
    std::uint64_t nodes = 0;        // node cap of each candidate's search
    int candidates = 1;             // moves searched to `depth` (the best of a 1-ply pass)
    std::uint64_t sight_nodes = 0;  // node cap of a search of the position itself whose best
                                    // move is searched too (0: none, the 1-ply pass decides)
    int margin_cp = 0;              // a move more than this below the best is never chosen
    int temperature_cp = 1;         // softmax temperature over (score - best) among the rest
    double time_share = 1.0;        // share of the normal time budget this level thinks for
};

// The parameters of `elo` (clamped to MIN_LEVEL_ELO..MAX_LEVEL_ELO), interpolated linearly
// between the rows of the table in strength.cpp.
[[nodiscard]] StrengthParams strength_params(int elo);

// A 64-bit mix (splitmix64's finaliser): the seed of one decision from the game's seed and the
// position, so a game's choices depend on its seed and not on how often it was asked.
[[nodiscard]] std::uint64_t mix_seed(std::uint64_t a, std::uint64_t b);

// The index of the move to play among `scores` (centipawns, the side to move's view; at least
// one): never one more than `margin_cp` below the best; among the others, weight
// exp((score - best) / temperature_cp), drawn with `seed`. Ties to the best weigh the same.
[[nodiscard]] std::size_t choose_scored(std::span<const int> scores, int margin_cp,
                                        int temperature_cp, std::uint64_t seed);

// An FNV-1a hash of a text (a game id): a game's seed.
[[nodiscard]] std::uint64_t seed_from_text(std::string_view text);

}  // namespace engine
