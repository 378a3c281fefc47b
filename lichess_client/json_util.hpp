// Small helpers for reading optional and required JSON fields (internal to lichess_client).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "lichess_client/api_error.hpp"
#include "lichess_client/bounded_json.hpp"
#include "lichess_client/events.hpp"

namespace lichess::detail {

using nlohmann::json;

// Server numbers are range-checked here: a JSON number as int64 without undefined behaviour.
// nlohmann's get<int64_t>() casts a float (1e300) or an unsigned above INT64_MAX with a plain
// static_cast; here floats are cut toward zero and both are clamped to the int64 range.
inline std::int64_t to_i64(const json& v) {
    using Limits = std::numeric_limits<std::int64_t>;
    if (v.is_number_unsigned()) {
        const std::uint64_t u = v.get<std::uint64_t>();
        return u > std::uint64_t(Limits::max()) ? Limits::max() : std::int64_t(u);
    }
    if (v.is_number_integer()) return v.get<std::int64_t>();
    const double d = v.get<double>();  // throws for a non-number, as get<int64_t> would
    if (d != d) return 0;              // NaN: not valid JSON, but never UB
    if (d >= 9.2e18) return Limits::max();
    if (d <= -9.2e18) return Limits::min();
    return static_cast<std::int64_t>(d);
}

// Clocks and increments in ms from the server, clamped to [0, kMaxClockMs] (about 115 days):
// unlimited games say 2147483647, correspondence at most 14 days; anything larger is nonsense
// that must not overflow later arithmetic (inc * 3, ms -> ns) or plan a search of centuries.
inline constexpr std::int64_t kMaxClockMs = 10'000'000'000;
inline std::int64_t clock_ms(std::int64_t ms) {
    return std::clamp<std::int64_t>(ms, 0, kMaxClockMs);
}

// Required fields throw nlohmann exceptions; the public parse functions catch them.
inline std::string req_str(const json& j, const char* key) { return j.at(key).get<std::string>(); }
inline std::int64_t req_i64(const json& j, const char* key) { return to_i64(j.at(key)); }
inline bool req_bool(const json& j, const char* key) { return j.at(key).get<bool>(); }

inline const json* field(const json& j, const char* key) {
    if (!j.is_object()) return nullptr;
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return nullptr;
    return &*it;
}

inline std::optional<std::string> opt_str(const json& j, const char* key) {
    const json* f = field(j, key);
    if (f == nullptr || !f->is_string()) return std::nullopt;
    return f->get<std::string>();
}
inline std::optional<std::int64_t> opt_i64(const json& j, const char* key) {
    const json* f = field(j, key);
    if (f == nullptr || !f->is_number()) return std::nullopt;
    return to_i64(*f);
}
// Clamped to the int range (ratings, seconds, days): never a wrapped-around value.
inline std::optional<int> opt_int(const json& j, const char* key) {
    const auto v = opt_i64(j, key);
    if (!v) return std::nullopt;
    return static_cast<int>(std::clamp<std::int64_t>(*v, std::numeric_limits<int>::min(),
                                                     std::numeric_limits<int>::max()));
}
inline std::optional<bool> opt_bool(const json& j, const char* key) {
    const json* f = field(j, key);
    if (f == nullptr || !f->is_boolean()) return std::nullopt;
    return f->get<bool>();
}

// What a reply's top level may be: the event and game streams send objects only, some REST
// replies (users' status) are arrays.
enum class JsonTop { Object, Any };

// Parses `text` within the JsonLimits and hands the JSON to `convert`; every failure (invalid or
// oversized JSON, a top level that is not allowed, a missing or mistyped field that makes
// `convert` throw) becomes a ParseError.
template <class Out, class F>
Result<Out, ParseError> parse_guarded(std::string_view text, JsonTop top, F&& convert) {
    auto parsed = parse_bounded(text);
    if (!parsed) return parsed.error();
    const json& j = parsed.value();
    if (top == JsonTop::Object && !j.is_object()) return ParseError{"not a JSON object", true};
    try {
        return convert(j);
    } catch (const std::exception& e) {
        return ParseError{std::string("bad fields: ") + e.what()};
    }
}

// A game as gameStart, gameFinish and /api/account/playing's nowPlaying describe it (events.cpp).
[[nodiscard]] GameEventInfo game_event_info(const json& j);

// First bytes of a body for error messages: single-line (runs of control bytes as one space),
// printable (common::printable), at most `max` bytes of the body.
std::string excerpt(std::string_view body, std::size_t max = 200);

}  // namespace lichess::detail
