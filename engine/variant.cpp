// Variant names and starting positions, read from the game-type table (variant_table.hpp).
#include "variant.hpp"

#include <cctype>
#include <string>

#include "variant_table.hpp"

namespace engine {

namespace {

// Every variant has a row of its own, and a row's key is its own.
constexpr bool every_variant_has_a_row() {
    for (const Variant v : ALL_VARIANTS)
        if (game_type(v).variant != v) return false;
    return true;
}
static_assert(every_variant_has_a_row(), "GAME_TYPES lacks a row for a Variant");

constexpr bool keys_are_unique() {
    for (const GameType& row : GAME_TYPES)
        if (find_game_type(row.key) != &row) return false;
    return true;
}
static_assert(keys_are_unique(), "two GAME_TYPES rows share a Lichess key");

std::string lowercase(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

std::string_view lichess_key(Variant v) { return game_type(v).key; }
std::string_view uci_name(Variant v) { return game_type(v).uci; }
std::string_view start_fen(Variant v) { return game_type(v).start_fen; }

std::optional<Variant> parse_variant(std::string_view name) {
    const std::string n = lowercase(name);
    // Fairy-Stockfish's name for Chess960.
    if (n == "fischerandom") return Variant::STANDARD;
    for (const GameType& row : GAME_TYPES)
        if (n == lowercase(row.key) || n == row.uci || n == lowercase(row.name)) return row.variant;
    return std::nullopt;
}

std::optional<Variant> from_lichess_key(std::string_view key) {
    if (const GameType* row = find_game_type(key)) return row->variant;
    return std::nullopt;
}

}  // namespace engine
