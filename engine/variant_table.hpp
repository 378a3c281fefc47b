// Lichess's ten game types, one row each: every name a game type has on the wire, in a PGN file,
// to a UCI GUI and in the config is read from here, so adding a game type is adding a row (and
// its rules, docs/VARIANTS.md). Source of the columns: scalachess
// core/src/main/scala/variant/*.scala (`key`, `name`, `shortName`, `initialFen`, `uciKey`) and
// lila's PerfKey.byVariant (which game types have a perf of their own).
#pragma once

#include <optional>
#include <string_view>

#include "engine/variant.hpp"

namespace engine {

struct GameType {
    std::string_view key;         // Lichess key, exact ("kingOfTheHill"): API, config, books
    std::string_view name;        // scalachess Variant.name: shown, and the PGN Variant tag
    std::string_view short_name;  // scalachess Variant.shortName ("KotH"): the API's `short`
    std::string_view uci;         // UCI_Variant ("kingofthehill"; "chess" with UCI_Chess960)
    std::string_view perf;        // Lichess perf key; empty: the game is rated by its speed
    std::string_view start_fen;   // the variant's start (fromPosition's FEN comes with the game)
    Variant variant;              // the rules the engine plays it by
    bool chess960;                // castling as in Chess960 (a rook's file, not KQkq)
    bool needs_fen;               // a challenge must give the start position (fromPosition)
};

// The first row of each Variant is its own: lichess_key(v), uci_name(v) and start_fen(v).
// clang-format off
inline constexpr GameType GAME_TYPES[] = {
    {"standard", "Standard", "Std", "chess", "", START_FEN,
     Variant::STANDARD, false, false},
    {"chess960", "Chess960", "960", "chess", "chess960", START_FEN,
     Variant::STANDARD, true, false},
    {"fromPosition", "From Position", "FEN", "chess", "", START_FEN,
     Variant::STANDARD, false, true},
    {"crazyhouse", "Crazyhouse", "Crazy", "crazyhouse", "crazyhouse",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1",
     Variant::CRAZYHOUSE, false, false},
    {"antichess", "Antichess", "Anti", "antichess", "antichess",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
     Variant::ANTICHESS, false, false},
    {"atomic", "Atomic", "Atom", "atomic", "atomic", START_FEN,
     Variant::ATOMIC, false, false},
    {"horde", "Horde", "Horde", "horde", "horde",
     "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
     Variant::HORDE, false, false},
    {"kingOfTheHill", "King of the Hill", "KotH", "kingofthehill", "kingOfTheHill",
     START_FEN, Variant::KING_OF_THE_HILL, false, false},
    {"racingKings", "Racing Kings", "Racing", "racingkings", "racingKings",
     "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1",
     Variant::RACING_KINGS, false, false},
    {"threeCheck", "Three-check", "3check", "3check", "threeCheck",
     "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +0+0",
     Variant::THREE_CHECK, false, false},
};
// clang-format on

// The row of a Lichess key, exact as lila writes it ("CrazyHouse" is none).
constexpr const GameType* find_game_type(std::string_view key) {
    for (const GameType& row : GAME_TYPES)
        if (row.key == key) return &row;
    return nullptr;
}

// Whether a game of this Lichess key castles as in Chess960 (false for a key the table lacks).
constexpr bool castles_as_chess960(std::string_view key) {
    const GameType* row = find_game_type(key);
    return row && row->chess960;
}

// The row of a Lichess key, or standard's for a key lila may add later (a record of such a game
// is still written, as standard chess).
constexpr const GameType& game_type_or_standard(std::string_view key) {
    const GameType* row = find_game_type(key);
    return row ? *row : GAME_TYPES[0];
}

// The variant's own row (standard's for Variant::STANDARD).
constexpr const GameType& game_type(Variant v) {
    for (const GameType& row : GAME_TYPES)
        if (row.variant == v) return row;
    return GAME_TYPES[0];
}

// Chess960's row: a fromPosition start with Chess960 castling needs it as well.
inline constexpr const GameType& CHESS960_GAME_TYPE = *find_game_type("chess960");

// The perf a game of this key is rated in: the game type's own, else its speed ("blitz").
constexpr std::string_view perf_of(std::string_view key, std::string_view speed) {
    const GameType* row = find_game_type(key);
    return row && !row->perf.empty() ? row->perf : speed;
}

}  // namespace engine
