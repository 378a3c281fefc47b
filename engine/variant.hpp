// The game types the engine plays: standard chess (Chess960 and "from position" included) and
// the seven Lichess variants. A game's variant never changes, so the board, the move generator
// and the search are templates on it, and `visit_variant` is the one switch that picks the
// instantiation at an entry point. Lichess's rules library (lichess-org/scalachess,
// core/src/main/scala/variant/*.scala) is the reference for every rule.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

namespace engine {

enum class Variant : std::uint8_t {
    STANDARD,
    CRAZYHOUSE,
    ANTICHESS,
    ATOMIC,
    HORDE,
    KING_OF_THE_HILL,
    RACING_KINGS,
    THREE_CHECK,
};
inline constexpr int VARIANT_NB = 8;

// Standard chess's starting position.
inline constexpr std::string_view START_FEN =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

inline constexpr Variant ALL_VARIANTS[VARIANT_NB] = {
    Variant::STANDARD, Variant::CRAZYHOUSE,       Variant::ANTICHESS,    Variant::ATOMIC,
    Variant::HORDE,    Variant::KING_OF_THE_HILL, Variant::RACING_KINGS, Variant::THREE_CHECK,
};

// The names below are read from the game-type table, engine/variant_table.hpp.
// Lichess's key ("kingOfTheHill"), as the Bot API and scalachess's Variant.key spell it.
std::string_view lichess_key(Variant v);
// The UCI_Variant name GUIs and Fairy-Stockfish use ("kingofthehill", "3check"; "chess").
std::string_view uci_name(Variant v);
// Reads a Lichess key, a UCI_Variant name or a game type's name ("Three-check"),
// case-insensitively. "chess960", "fromPosition" and "chess" are standard chess (the caller sets
// Chess960 castling from the key itself).
std::optional<Variant> parse_variant(std::string_view name);
// Reads a variant key as lila writes it, exactly (scalachess Variant.LilaKey: "standard",
// "chess960", "fromPosition", "crazyhouse", ..., case-sensitive): "CrazyHouse" is none. The first
// three are standard chess.
std::optional<Variant> from_lichess_key(std::string_view key);
// The variant's starting position as FEN (scalachess Variant.initialFen).
std::string_view start_fen(Variant v);

// --- rule traits, each a compile-time question a template asks once --------------------------

// Pieces captured go to the capturer's pocket and may be dropped (Crazyhouse.scala).
constexpr bool has_drops(Variant v) { return v == Variant::CRAZYHOUSE; }
// The king is an ordinary piece: no check, any number of kings (Antichess.scala).
constexpr bool has_royal_king(Variant v) { return v != Variant::ANTICHESS; }
// Every variant but antichess and racing kings keeps standard castling (their `castles`).
constexpr bool has_castling(Variant v) {
    return v != Variant::ANTICHESS && v != Variant::RACING_KINGS;
}
// The fifty-move rule draws (Crazyhouse.scala overrides fiftyMoves to false).
constexpr bool has_fifty_move_rule(Variant v) { return v != Variant::CRAZYHOUSE; }
// A move may give check: antichess has no check, racing kings forbids giving one
// (RacingKings.scala kingSafety).
constexpr bool can_give_check(Variant v) { return has_royal_king(v) && v != Variant::RACING_KINGS; }
// A side may have no king: the horde's white, an exploded king in atomic (its side has lost),
// antichess's ordinary kings. Elsewhere each side has exactly one.
constexpr bool may_lack_king(Variant v) {
    return v == Variant::HORDE || v == Variant::ATOMIC || v == Variant::ANTICHESS;
}
// Legality is standard chess's: one royal king a side, kept out of check, so pins and checks
// decide it. Not where a king may be missing, explode or not be royal, nor in racing kings.
constexpr bool has_standard_legality(Variant v) { return !may_lack_king(v) && can_give_check(v); }
// Capturing is compulsory (Antichess.scala): no standing pat, no passing, no null move.
constexpr bool must_capture(Variant v) { return v == Variant::ANTICHESS; }
// A pawn may promote to a king (Antichess.scala promotableRoles); such a move is encoded with
// MoveKind::CASTLING, which the variant has no other use for.
constexpr bool promotes_to_king(Variant v) { return v == Variant::ANTICHESS; }
// A capture explodes the capturer and the pieces but pawns around it (Atomic.scala): a king
// never captures, and kings side by side cannot check each other.
constexpr bool has_explosions(Variant v) { return v == Variant::ATOMIC; }
// The checks each side gives are counted; the third wins (ThreeCheck.scala).
constexpr bool counts_checks(Variant v) { return v == Variant::THREE_CHECK; }
// A king reaching a centre square wins (KingOfTheHill.scala).
constexpr bool has_hill(Variant v) { return v == Variant::KING_OF_THE_HILL; }
// Pawns, and with them en passant and promotion: not in racing kings.
constexpr bool has_pawns(Variant v) { return v != Variant::RACING_KINGS; }
// The board alone can end the game by the variant's own rule (variant_end): all but standard
// chess and crazyhouse.
constexpr bool has_variant_end(Variant v) {
    return v != Variant::STANDARD && v != Variant::CRAZYHOUSE;
}

template <Variant V>
using VariantTag = std::integral_constant<Variant, V>;

// Calls f(VariantTag<V>{}) for the runtime variant v: the one dispatch at an entry point.
template <class F>
decltype(auto) visit_variant(Variant v, F&& f) {
    switch (v) {
        case Variant::CRAZYHOUSE:
            return f(VariantTag<Variant::CRAZYHOUSE>{});
        case Variant::ANTICHESS:
            return f(VariantTag<Variant::ANTICHESS>{});
        case Variant::ATOMIC:
            return f(VariantTag<Variant::ATOMIC>{});
        case Variant::HORDE:
            return f(VariantTag<Variant::HORDE>{});
        case Variant::KING_OF_THE_HILL:
            return f(VariantTag<Variant::KING_OF_THE_HILL>{});
        case Variant::RACING_KINGS:
            return f(VariantTag<Variant::RACING_KINGS>{});
        case Variant::THREE_CHECK:
            return f(VariantTag<Variant::THREE_CHECK>{});
        case Variant::STANDARD:
            break;
    }
    return f(VariantTag<Variant::STANDARD>{});
}

// Instantiates a template for every variant (explicit instantiations in the .cpp files).
// clang-format off
#define OUTPOST_FOR_EACH_VARIANT(X) \
    X(Variant::STANDARD)            \
    X(Variant::CRAZYHOUSE)          \
    X(Variant::ANTICHESS)           \
    X(Variant::ATOMIC)              \
    X(Variant::HORDE)               \
    X(Variant::KING_OF_THE_HILL)    \
    X(Variant::RACING_KINGS)        \
    X(Variant::THREE_CHECK)
// clang-format on

}  // namespace engine
