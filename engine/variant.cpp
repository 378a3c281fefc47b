// Variant names and starting positions (scalachess core/src/main/scala/variant/*.scala:
// `key`, `uciKey` and `initialFen` of each variant object).
#include "variant.hpp"

#include <cctype>
#include <string>

namespace engine {

namespace {

struct VariantNames {
    std::string_view lichess;
    std::string_view uci;
    std::string_view fen;
};

constexpr std::string_view STANDARD_START =
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

constexpr VariantNames NAMES[VARIANT_NB] = {
    {"standard", "chess", STANDARD_START},
    {"crazyhouse", "crazyhouse", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w KQkq - 0 1"},
    {"antichess", "antichess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"},
    {"atomic", "atomic", STANDARD_START},
    {"horde", "horde",
     "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"},
    {"kingOfTheHill", "kingofthehill", STANDARD_START},
    {"racingKings", "racingkings", "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"},
    {"threeCheck", "3check", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 +0+0"},
};

std::string lowercase(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

}  // namespace

std::string_view lichess_key(Variant v) { return NAMES[int(v)].lichess; }
std::string_view uci_name(Variant v) { return NAMES[int(v)].uci; }
std::string_view start_fen(Variant v) { return NAMES[int(v)].fen; }

std::optional<Variant> parse_variant(std::string_view name) {
    const std::string n = lowercase(name);
    if (n == "chess960" || n == "fromposition" || n == "fischerandom") return Variant::STANDARD;
    for (const Variant v : ALL_VARIANTS)
        if (n == lowercase(lichess_key(v)) || n == uci_name(v)) return v;
    if (n == "threecheck" || n == "three-check") return Variant::THREE_CHECK;
    return std::nullopt;
}

std::optional<Variant> from_lichess_key(std::string_view key) {
    if (key == "chess960" || key == "fromPosition") return Variant::STANDARD;
    for (const Variant v : ALL_VARIANTS)
        if (key == lichess_key(v)) return v;
    return std::nullopt;
}

}  // namespace engine
