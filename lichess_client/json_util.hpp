// Small helpers for reading optional and required JSON fields (internal to lichess_client).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace lichess::detail {

using nlohmann::json;

// Required fields throw nlohmann exceptions; the public parse functions catch them.
inline std::string req_str(const json& j, const char* key) { return j.at(key).get<std::string>(); }
inline std::int64_t req_i64(const json& j, const char* key) {
    return j.at(key).get<std::int64_t>();
}
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
    return f->get<std::int64_t>();
}
inline std::optional<int> opt_int(const json& j, const char* key) {
    const auto v = opt_i64(j, key);
    if (!v) return std::nullopt;
    return static_cast<int>(*v);
}
inline std::optional<bool> opt_bool(const json& j, const char* key) {
    const json* f = field(j, key);
    if (f == nullptr || !f->is_boolean()) return std::nullopt;
    return f->get<bool>();
}

// First bytes of a body for error messages: printable, single-line, bounded.
std::string excerpt(std::string_view body, std::size_t max = 200);

}  // namespace lichess::detail
