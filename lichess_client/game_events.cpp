// Parsing of game-stream lines (/api/bot/game/stream/{id}) into the structs of events.hpp.
// gameFull and gameState are read strictly: a field the game depends on that is missing or of
// the wrong type makes the line a GameUnreadable naming that field, never a silent default.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

#include "common/text.hpp"
#include "lichess_client/events.hpp"
#include "lichess_client/json_util.hpp"

namespace lichess {

namespace {

// What a JSON value is, in a message's words.
const char* kind_of(const detail::json& v) {
    if (v.is_string()) return "text";
    if (v.is_number()) return "a number";
    if (v.is_boolean()) return "true or false";
    if (v.is_object()) return "an object";
    if (v.is_array()) return "a list";
    return "null";
}

int clamp_int(std::int64_t v) {
    return static_cast<int>(std::clamp<std::int64_t>(v, std::numeric_limits<int>::min(),
                                                     std::numeric_limits<int>::max()));
}

// A field of a gameFull or gameState that cannot be read; `field` is its path in the line.
struct FieldError : std::runtime_error {
    FieldError(std::string path, const std::string& problem)
        : std::runtime_error(problem), field(std::move(path)) {}
    std::string field;
};

// Reads the fields of one object of a game line, naming each by its path ("state.wtime") when
// it is missing or of the wrong type. Absent and null are the same for optional fields, as
// lila writes either.
class Fields {
  public:
    Fields(const detail::json& j, std::string prefix) : j_(j), prefix_(std::move(prefix)) {}

    [[nodiscard]] std::string str(const char* key) const {
        return required(key, &detail::json::is_string, "text").get<std::string>();
    }
    [[nodiscard]] std::int64_t number(const char* key) const {
        return detail::to_i64(required(key, &detail::json::is_number, "a number"));
    }
    [[nodiscard]] Fields object(const char* key) const {
        return Fields(required(key, &detail::json::is_object, "an object"), path(key) + ".");
    }
    [[nodiscard]] std::optional<std::string> opt_str(const char* key) const {
        const detail::json* v = optional(key, &detail::json::is_string, "text");
        return v != nullptr ? std::optional(v->get<std::string>()) : std::nullopt;
    }
    [[nodiscard]] std::optional<std::int64_t> opt_number(const char* key) const {
        const detail::json* v = optional(key, &detail::json::is_number, "a number");
        return v != nullptr ? std::optional(detail::to_i64(*v)) : std::nullopt;
    }
    [[nodiscard]] std::optional<bool> opt_bool(const char* key) const {
        const detail::json* v = optional(key, &detail::json::is_boolean, "true or false");
        return v != nullptr ? std::optional(v->get<bool>()) : std::nullopt;
    }
    [[nodiscard]] std::optional<Fields> opt_object(const char* key) const {
        const detail::json* v = optional(key, &detail::json::is_object, "an object");
        return v != nullptr ? std::optional(Fields(*v, path(key) + ".")) : std::nullopt;
    }
    // A colour field: absent or null is none; anything but "white" or "black" is an error (a
    // winner of "black\x1b" must not pass for no winner, a draw).
    [[nodiscard]] std::optional<Color> opt_color(const char* key) const {
        const auto text = opt_str(key);
        if (!text) return std::nullopt;
        if (auto c = parse_color(*text)) return c;
        throw FieldError(path(key), "expected white or black, got \"" +
                                        common::printable_prefix(*text, 40) + "\"");
    }
    // Informative fields (ratings, perf names, timestamps) are read leniently: a wrong type
    // there costs nothing, so it is ignored as before.
    [[nodiscard]] const detail::json& raw() const { return j_; }

    [[nodiscard]] std::string path(const char* key) const { return prefix_ + key; }

  private:
    using Check = bool (detail::json::*)() const noexcept;

    [[nodiscard]] const detail::json* optional(const char* key, Check is_type,
                                               const char* what) const {
        const detail::json* v = detail::field(j_, key);
        if (v != nullptr && !(v->*is_type)()) {
            throw FieldError(path(key), std::string("expected ") + what + ", got " + kind_of(*v));
        }
        return v;
    }
    [[nodiscard]] const detail::json& required(const char* key, Check is_type,
                                               const char* what) const {
        const detail::json* v = optional(key, is_type, what);
        if (v == nullptr) throw FieldError(path(key), "missing");
        return *v;
    }

    const detail::json& j_;
    std::string prefix_;
};

Variant game_variant_from(const Fields& f) {
    Variant v;
    v.key = f.opt_str("key").value_or("standard");
    v.name = f.opt_str("name").value_or(v.key);
    return v;
}

GamePlayer player_from(const Fields& f) {
    GamePlayer p;
    p.id = f.opt_str("id");
    if (const auto level = f.opt_number("aiLevel")) p.ai_level = clamp_int(*level);
    p.name = f.opt_str("name").value_or(p.id.value_or(""));
    if (p.name.empty() && p.ai_level) p.name = "Stockfish level " + std::to_string(*p.ai_level);
    p.title = f.opt_str("title");
    p.rating = detail::opt_int(f.raw(), "rating");
    p.provisional = detail::opt_bool(f.raw(), "provisional").value_or(false);
    return p;
}

GameState game_state_from(const Fields& f) {
    GameState s;
    s.moves = f.str("moves");
    // Clocks are clamped (detail::clock_ms): a 9e18 or 1e300 clock is not a plan.
    s.wtime_ms = detail::clock_ms(f.number("wtime"));
    s.btime_ms = detail::clock_ms(f.number("btime"));
    s.winc_ms = detail::clock_ms(f.opt_number("winc").value_or(0));
    s.binc_ms = detail::clock_ms(f.opt_number("binc").value_or(0));
    s.status_name = f.str("status");
    s.status = parse_game_status(s.status_name);
    s.winner = f.opt_color("winner");
    s.wdraw = f.opt_bool("wdraw").value_or(false);
    s.bdraw = f.opt_bool("bdraw").value_or(false);
    s.wtakeback = f.opt_bool("wtakeback").value_or(false);
    s.btakeback = f.opt_bool("btakeback").value_or(false);
    if (const detail::json* e = detail::field(f.raw(), "expiration");
        e != nullptr && e->is_object()) {
        s.expiration =
            Expiration{detail::clock_ms(detail::opt_i64(*e, "idleMillis").value_or(0)),
                       detail::clock_ms(detail::opt_i64(*e, "millisToMove").value_or(0))};
    }
    s.rematch = detail::opt_str(f.raw(), "rematch");
    return s;
}

GameFull game_full_from(const Fields& f) {
    GameFull g;
    g.id = f.str("id");
    g.variant = game_variant_from(f.object("variant"));
    if (const auto c = f.opt_object("clock")) {
        g.clock =
            Clock{detail::clock_ms(c->number("initial")), detail::clock_ms(c->number("increment"))};
    }
    g.speed = f.opt_str("speed").value_or("");
    if (const detail::json* p = detail::field(f.raw(), "perf"))
        g.perf_name = detail::opt_str(*p, "name").value_or("");
    g.rated = f.opt_bool("rated").value_or(false);
    g.created_at_ms = detail::opt_i64(f.raw(), "createdAt").value_or(0);
    g.white = player_from(f.object("white"));
    g.black = player_from(f.object("black"));
    g.initial_fen = f.opt_str("initialFen").value_or("startpos");
    if (g.initial_fen.empty()) g.initial_fen = "startpos";
    g.state = game_state_from(f.object("state"));
    if (const auto days = f.opt_number("daysPerTurn")) g.days_per_turn = clamp_int(*days);
    g.tournament_id = detail::opt_str(f.raw(), "tournamentId");
    return g;
}

// A gameFull or gameState read strictly; a field that cannot be read makes a GameUnreadable.
template <class Read>
GameEvent strict(const detail::json& j, const char* type, Read&& read) {
    try {
        return GameEvent{read(Fields(j, ""))};
    } catch (const FieldError& e) {
        std::string id;
        if (const detail::json* v = detail::field(j, "id"); v != nullptr && v->is_string())
            id = v->get<std::string>();
        return GameEvent{GameUnreadable{type, std::move(id), e.field, e.what()}};
    }
}

}  // namespace

Result<std::optional<GameEvent>, ParseError> parse_game_event(std::string_view line) {
    return detail::parse_guarded<std::optional<GameEvent>>(
        line, detail::JsonTop::Object, [](const detail::json& j) -> std::optional<GameEvent> {
            const std::string type = detail::opt_str(j, "type").value_or("");
            if (type == "gameFull") return strict(j, "gameFull", game_full_from);
            if (type == "gameState") return strict(j, "gameState", game_state_from);
            if (type == "chatLine") {
                return GameEvent{ChatLine{detail::opt_str(j, "room").value_or("player"),
                                          detail::req_str(j, "username"),
                                          detail::req_str(j, "text")}};
            }
            if (type == "opponentGone") {
                return GameEvent{OpponentGone{detail::req_bool(j, "gone"),
                                              detail::opt_int(j, "claimWinInSeconds")}};
            }
            return std::nullopt;
        });
}

const char* type_name(const GameEvent& e) {
    static constexpr std::array<const char*, 5> kNames{"gameFull", "gameState", "chatLine",
                                                       "opponentGone", "game line (unreadable)"};
    return kNames.at(e.index());
}

}  // namespace lichess
