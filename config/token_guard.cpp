// token_leaks(): every free-text value of the key table searched for the resolved token.
#include "token_guard.hpp"

#include <string>

#include "keys.hpp"

namespace config {

bool holds_token(std::string_view text, std::string_view token) {
    if (token.size() < kMinTokenLength) return false;
    if (text.find(token) != std::string_view::npos) return true;
    // The token's body without its "lip_" prefix is the secret as much as the whole.
    const std::string_view body = token_body(token);
    return body.size() >= kMinTokenLength && text.find(body) != std::string_view::npos;
}

std::vector<ConfigError> token_leaks(const Config& config, const KeyPositions& positions) {
    std::vector<ConfigError> errors;
    if (config.token.size() < kMinTokenLength) return errors;
    Config copy = config;  // field accessors hand out non-const pointers
    // `key` names the setting; `where` is the entry whose line the error points at.
    const auto leak = [&](const std::string& key, const std::string& where) {
        const auto it = positions.find(where);
        const FilePosition at = it == positions.end() ? FilePosition{} : it->second;
        errors.push_back({key, at.line, at.column,
                          "holds the Lichess API token; the token belongs only in `token`, "
                          "`token_file` or LICHESS_BOT_TOKEN (this value is printed, logged or "
                          "sent to players); remove it here, and revoke the token on lichess.org "
                          "if this file was ever shared"});
    };
    // `where` is the list's place in the file ("engine.book.files.standard").
    const auto check_list = [&](const std::string& key, const std::string& where,
                                const std::vector<std::string>& items) {
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (holds_token(items[i], config.token))
                leak(key, where + "[" + std::to_string(i) + "]");
        }
    };
    for (const KeySpec& spec : known_keys()) {
        if (spec.secret) continue;  // `token` itself
        const std::string key(spec.path);
        const FieldRef field = spec.field ? spec.field(copy) : FieldRef{};
        if (const auto* text = std::get_if<std::string*>(&field)) {
            if (holds_token(**text, config.token)) leak(key, key);
        } else if (const auto* list = std::get_if<std::vector<std::string>*>(&field)) {
            check_list(key, key, **list);
        } else if (const auto* books = std::get_if<BookFiles*>(&field)) {
            for (const auto& [variant, files] : **books) {
                if (holds_token(variant, config.token)) leak(key, key + "." + variant);
                check_list(key, key + "." + variant, files);
            }
        } else if (const auto* arenas = std::get_if<std::vector<TournamentConfig>*>(&field)) {
            for (std::size_t i = 0; i < (*arenas)->size(); ++i) {
                const TournamentConfig& a = (**arenas)[i];
                const std::string where = key + "[" + std::to_string(i) + "]";
                if (holds_token(a.id, config.token) || holds_token(a.team, config.token) ||
                    holds_token(a.password, config.token))
                    leak(key, where);
            }
        }
    }
    return errors;
}

}  // namespace config
