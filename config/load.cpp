// Reads YAML into a Config: shape and type checks here, value rules in validate.cpp.
#include "load.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <memory>
#include <set>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "common/bounded_file.hpp"
#include "common/errno_text.hpp"
#include "keys.hpp"
#include "text.hpp"
#include "token_guard.hpp"
#include "validate.hpp"

namespace config {
namespace {

constexpr std::size_t kMaxFileBytes = 1 << 20;  // a config is a few KB; more is a mistake
constexpr std::size_t kMaxTokenFileBytes = 4096;
constexpr std::size_t kMaxErrors = 50;

FilePosition position_of_mark(const YAML::Mark& mark) {
    if (mark.is_null() || mark.line < 0) return {};
    return {mark.line + 1, mark.column + 1};
}

FilePosition position_of(const YAML::Node& node) { return position_of_mark(node.Mark()); }

// How a value looks, for "expected ..., got ..." messages.
std::string describe_node(const YAML::Node& node) {
    if (!node.IsDefined() || node.IsNull()) return "nothing";
    if (node.IsSequence()) return "a list";
    if (node.IsMap()) return "a section of settings";
    return detail::quote(node.Scalar());
}

// Collects errors while walking the tree; stops adding after kMaxErrors.
struct Walker {
    Config& config;
    KeyPositions& positions;
    std::vector<ConfigError>& errors;
    std::optional<FilePosition> token_at;  // where the file itself holds a token
    std::vector<std::string>* secrets;     // token texts seen, to scrub from messages

    void error(std::string key, FilePosition at, std::string message) {
        if (errors.size() < kMaxErrors)
            errors.push_back({std::move(key), at.line, at.column, std::move(message)});
    }

    FilePosition key_at;  // the key whose value is being read

    // Where to point for a value: its own position, or its key's when the value is empty.
    FilePosition place(const YAML::Node& node) const {
        FilePosition p = position_of(node);
        return node.IsNull() || p.line == 0 ? key_at : p;
    }

    void type_error(const KeySpec& spec, const YAML::Node& node, std::string_view expected) {
        std::string got = spec.secret ? "something else" : describe_node(node);
        error(std::string(spec.path), place(node),
              std::string("expected ") + std::string(expected) + ", got " + got);
    }

    void walk_section(const YAML::Node& map, const std::string& prefix) {
        std::map<std::string, int> seen;  // name -> line, to catch keys given twice
        for (auto it = map.begin(); it != map.end(); ++it) {
            const YAML::Node key = it->first;
            const YAML::Node value = it->second;
            FilePosition at = position_of(key);
            if (!key.IsScalar()) {
                error(prefix, at,
                      "a key must be a plain name like `hash_mb`, not a list or section");
                continue;
            }
            const std::string name = key.Scalar();
            const std::string path = prefix.empty() ? name : prefix + "." + name;
            if (auto [where, inserted] = seen.emplace(name, at.line); !inserted) {
                error(path, at,
                      "is given twice (first on line " + std::to_string(where->second) +
                          "); remove one of them");
                continue;
            }
            positions[path] = at;
            const KeySpec* spec = find_key(path);
            if (spec == nullptr) {
                unknown_key(path, at);
                continue;
            }
            if (spec->secret && value.IsScalar() && !value.Scalar().empty()) {
                token_at = at;
                secrets->push_back(value.Scalar());
            }
            key_at = at;
            apply(*spec, value);
        }
    }

    void unknown_key(const std::string& path, FilePosition at) {
        std::string message = "is not a setting Outpost knows";
        if (std::string_view ours = renamed_key(path); !ours.empty()) {
            message +=
                "; lichess-bot calls it `" + path + "`, Outpost uses `" + std::string(ours) + "`";
        } else if (std::string near = nearest_key(path); !near.empty()) {
            message += "; did you mean `" + near + "`?";
        } else {
            message += "; config.example.yml lists every setting";
        }
        error(path, at, message);
    }

    void apply(const KeySpec& spec, const YAML::Node& node) {
        switch (spec.kind) {
            case Kind::Section:
                if (node.IsNull()) return;  // "engine:" with nothing below: all defaults
                if (!node.IsMap()) {
                    type_error(spec, node, "a section with settings indented below it");
                    return;
                }
                walk_section(node, std::string(spec.path));
                return;
            case Kind::Bool:
                apply_bool(spec, node);
                return;
            case Kind::Int:
                apply_int(spec, node);
                return;
            case Kind::String:
                apply_string(spec, node);
                return;
            case Kind::StringList:
                apply_list(spec, node, *std::get<std::vector<std::string>*>(spec.field(config)),
                           std::string(spec.path));
                return;
            case Kind::BookFiles:
                apply_book_files(spec, node);
                return;
            case Kind::Tournaments:
                apply_tournaments(spec, node);
                return;
        }
    }

    void apply_bool(const KeySpec& spec, const YAML::Node& node) {
        if (node.IsNull()) {
            error(std::string(spec.path), place(node),
                  "has no value; write true or false, or remove the line to use the default");
            return;
        }
        std::optional<bool> value =
            node.IsScalar() ? detail::parse_bool(node.Scalar()) : std::nullopt;
        if (!value) {
            type_error(spec, node, "true or false");
            return;
        }
        *std::get<bool*>(spec.field(config)) = *value;
    }

    void apply_int(const KeySpec& spec, const YAML::Node& node) {
        std::string expected = "a whole number";
        if (!spec.unit.empty()) expected += " of " + std::string(spec.unit);
        if (node.IsNull()) {
            error(std::string(spec.path), place(node),
                  "has no value; write " + expected + ", or remove the line to use the default");
            return;
        }
        if (!node.IsScalar()) {
            type_error(spec, node, expected);
            return;
        }
        detail::IntParse parsed = detail::parse_int(node.Scalar());
        if (parsed.status == detail::IntParse::NotANumber) {
            type_error(spec, node, expected);
            return;
        }
        if (parsed.status == detail::IntParse::TooLarge || parsed.value < spec.min ||
            parsed.value > spec.max) {
            error(std::string(spec.path), place(node),
                  detail::range_message(spec, detail::trim(node.Scalar())));
            return;
        }
        *std::get<int*>(spec.field(config)) = static_cast<int>(parsed.value);
    }

    void apply_string(const KeySpec& spec, const YAML::Node& node) {
        std::string& field = *std::get<std::string*>(spec.field(config));
        if (node.IsNull()) {
            field.clear();
            return;
        }
        if (!node.IsScalar()) {
            type_error(spec, node, "text");
            return;
        }
        field = detail::canonical_choice(spec, node.Scalar());
    }

    void apply_list(const KeySpec& spec, const YAML::Node& node, std::vector<std::string>& out,
                    const std::string& path) {
        out.clear();
        if (node.IsNull()) return;
        if (node.IsScalar()) {  // "variants: standard" means a list of one
            out.push_back(detail::canonical_choice(spec, node.Scalar()));
            positions[path + "[0]"] = place(node);
            return;
        }
        if (!node.IsSequence()) {
            type_error(spec, node, "a list like [a, b] or lines starting with \"- \"");
            return;
        }
        std::set<std::string> seen;
        for (std::size_t i = 0; i < node.size(); ++i) {
            const YAML::Node item = node[i];
            if (!item.IsScalar()) {
                error(path, place(item),
                      "each entry of the list must be a single name, got " + describe_node(item));
                return;
            }
            std::string value = detail::canonical_choice(spec, item.Scalar());
            if (!seen.insert(value).second) continue;  // a repeated name changes nothing
            positions[path + "[" + std::to_string(out.size()) + "]"] = place(item);
            out.push_back(std::move(value));
        }
    }

    // tournaments: a list of arenas, each `{id: ID, team: TEAM, password: CODE}` or just `ID`.
    void apply_tournaments(const KeySpec& spec, const YAML::Node& node) {
        auto& arenas = *std::get<std::vector<TournamentConfig>*>(spec.field(config));
        arenas.clear();
        if (node.IsNull()) return;
        if (!node.IsSequence()) {
            type_error(spec, node,
                       "a list of arenas, each like `- {id: AbCd1234}` (with `team` and "
                       "`password` when the arena needs them)");
            return;
        }
        const std::string path(spec.path);
        for (std::size_t i = 0; i < node.size(); ++i) {
            const YAML::Node item = node[i];
            const std::string where = path + "[" + std::to_string(i) + "]";
            positions[where] = place(item);
            TournamentConfig arena;
            if (item.IsScalar()) {
                arena.id = detail::trim(item.Scalar());
                arenas.push_back(std::move(arena));
                continue;
            }
            if (!item.IsMap()) {
                error(path, place(item),
                      "entry " + std::to_string(i + 1) +
                          " must be an arena like `{id: AbCd1234}`, got " + describe_node(item));
                continue;
            }
            for (auto it = item.begin(); it != item.end(); ++it) {
                const std::string name = it->first.IsScalar() ? it->first.Scalar() : "";
                const YAML::Node value = it->second;
                std::string* field = name == "id"         ? &arena.id
                                     : name == "team"     ? &arena.team
                                     : name == "password" ? &arena.password
                                                          : nullptr;
                if (field == nullptr) {
                    error(path, position_of(it->first),
                          "entry " + std::to_string(i + 1) + ": `" + name +
                              "` is not a setting of an arena; use id, team and password");
                    continue;
                }
                if (!value.IsScalar()) {
                    error(path, place(value),
                          "entry " + std::to_string(i + 1) + ": " + name + " must be text");
                    continue;
                }
                *field = detail::trim(value.Scalar());
                if (name == "password" && !field->empty()) secrets->push_back(*field);
            }
            if (arena.id.empty()) {
                error(path, place(item),
                      "entry " + std::to_string(i + 1) +
                          " has no id (the end of "
                          "lichess.org/tournament/ID)");
                continue;
            }
            arenas.push_back(std::move(arena));
        }
    }

    void apply_book_files(const KeySpec& spec, const YAML::Node& node) {
        BookFiles& files = *std::get<BookFiles*>(spec.field(config));
        files.clear();
        if (node.IsNull()) return;
        if (!node.IsMap()) {
            type_error(spec, node,
                       "a section with one list of book files per variant, like "
                       "`standard: [book.bin]`");
            return;
        }
        KeySpec file_list = spec;  // entries are file names: no choices to normalise
        file_list.choices.clear();
        for (auto it = node.begin(); it != node.end(); ++it) {
            FilePosition at = position_of(it->first);
            if (!it->first.IsScalar()) {
                error(std::string(spec.path), at, "a variant name must be a plain name");
                continue;
            }
            std::string variant = detail::canonical_choice(spec, it->first.Scalar());
            std::string path = std::string(spec.path) + "." + variant;
            if (files.contains(variant)) {
                error(path, at, "is given twice; remove one of them");
                continue;
            }
            positions[path] = at;
            key_at = at;
            apply_list(file_list, it->second, files[variant], path);
        }
    }
};

// The C library's words, but worded for a config file where an operator meets them most.
std::string errno_text(int err) {
    if (err == ENOENT) return "the file does not exist";
    if (err == EACCES) return "permission denied";
    return common::errno_text(err);
}

// Reads a whole regular file of at most max_bytes; returns an explanation instead on failure.
// common::read_bounded_file: the open never blocks and anything but a regular file within the
// limit is refused before a byte is read, so a FIFO, a socket or a device named as the config or
// token file is an error, not a hang.
std::optional<std::string> read_file(const std::filesystem::path& path, std::size_t max_bytes,
                                     std::string& why) {
    auto content = common::read_bounded_file(path, max_bytes);
    if (!content) {
        why = content.error().message;
        return std::nullopt;
    }
    return std::move(*content);
}

bool readable_by_others(const std::filesystem::path& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return false;
    return (st.st_mode & (S_IRGRP | S_IROTH)) != 0;
}

std::string chmod_warning(const std::string& what, const std::string& path) {
    return what + " can be read by other users on this machine; run `chmod 600 " + path +
           "` so only you can read the token";
}

// pgn_directory must be a folder this process can write, or one it can create: found at start
// rather than at the end of the first game. access() has no side effects (check-config creates
// nothing) and reports a read-only file system too.
void check_pgn_directory(const Config& config, const KeyPositions& positions, LoadResult& result) {
    if (config.pgn_directory.empty()) return;
    auto it = positions.find("pgn_directory");
    const FilePosition at = it == positions.end() ? FilePosition{} : it->second;
    auto error = [&](const std::string& why) {
        result.errors.push_back({"pgn_directory", at.line, at.column,
                                 "the PGN folder \"" + config.pgn_directory + "\" " + why});
    };
    namespace fs = std::filesystem;
    std::error_code ec;
    fs::path dir = config.pgn_directory;
    const fs::file_status st = fs::status(dir, ec);
    if (fs::exists(st)) {
        if (!fs::is_directory(st)) return error("is not a folder");
        if (::access(dir.c_str(), W_OK | X_OK) != 0)
            return error("cannot be written by this user: " + errno_text(errno));
        return;
    }
    // Missing: the nearest existing ancestor must let us create it.
    fs::path parent = fs::absolute(dir, ec).parent_path();
    while (!parent.empty() && !fs::exists(parent, ec) && parent != parent.parent_path())
        parent = parent.parent_path();
    if (!fs::is_directory(parent, ec))
        return error("cannot be created: " + parent.string() + " is not a folder");
    if (::access(parent.c_str(), W_OK | X_OK) != 0)
        return error("does not exist and cannot be created in " + parent.string() + ": " +
                     errno_text(errno));
}

// Applies the token precedence: environment, then token_file, then token.
void resolve_token(Config& config, const KeyPositions& positions, const LoadOptions& options,
                   LoadResult& result, std::vector<std::string>& secrets) {
    auto at = [&](const char* key) {
        auto it = positions.find(key);
        return it == positions.end() ? FilePosition{} : it->second;
    };
    auto problem = [&](std::vector<ConfigError>& list, const char* key, std::string message) {
        FilePosition p = at(key);
        list.push_back({key, p.line, p.column, std::move(message)});
    };

    std::optional<std::string> env = options.env ? options.env(kTokenEnvVar) : std::nullopt;
    if (env) secrets.push_back(*env);
    if (env && !detail::trim(*env).empty()) {
        config.token = std::string(detail::trim(*env));
        result.token_source = TokenSource::Environment;
        if (!detail::token_looks_valid(config.token))
            result.errors.push_back({"token", 0, 0,
                                     std::string("the token in the environment variable ") +
                                         kTokenEnvVar + " contains spaces or control characters"});
        return;
    }
    if (env) {
        result.warnings.push_back({"token", 0, 0,
                                   std::string("the environment variable ") + kTokenEnvVar +
                                       " is set but empty, so it is ignored"});
    }
    if (!config.token_file.empty()) {
        std::filesystem::path file = config.token_file;
        if (file.is_relative()) file = options.base_dir / file;
        std::string why;
        std::optional<std::string> content = read_file(file, kMaxTokenFileBytes, why);
        if (!content) {
            problem(result.errors, "token_file",
                    "cannot read the token file \"" + file.string() + "\": " + why);
            return;
        }
        if (!config.token.empty())
            problem(result.warnings, "token",
                    "both token and token_file are given; the token from token_file is used");
        secrets.push_back(*content);
        config.token = std::string(detail::trim(*content));
        result.token_source = TokenSource::TokenFile;
        if (config.token.empty()) {
            problem(result.errors, "token_file",
                    "the token file \"" + file.string() + "\" is empty");
        } else if (!detail::token_looks_valid(config.token)) {
            problem(
                result.errors, "token_file",
                "the token file \"" + file.string() + "\" must hold only the token, on one line");
        }
        if (readable_by_others(file))
            problem(result.warnings, "token_file",
                    chmod_warning("the token file \"" + file.string() + "\"", file.string()));
        return;
    }
    if (!config.token.empty()) {
        config.token = std::string(detail::trim(config.token));
        result.token_source = TokenSource::ConfigFile;
        if (!detail::token_looks_valid(config.token))
            problem(result.errors, "token",
                    "the token must be one word without spaces; check for a stray character");
    }
}

// Replaces every token text (and each of its words) in messages with the redaction mark, so
// even a token pasted under the wrong key never shows up in output.
void scrub(LoadResult& result, const std::vector<std::string>& secrets) {
    std::vector<std::string> words;
    for (const std::string& secret : secrets) {
        std::string_view rest = secret;
        while (!rest.empty()) {
            auto start = rest.find_first_not_of(" \t\r\n");
            if (start == std::string_view::npos) break;
            rest.remove_prefix(start);
            auto end = rest.find_first_of(" \t\r\n");
            std::string_view word = rest.substr(0, end);
            if (word.size() >= kMinTokenLength) words.emplace_back(word);  // short: no secret
            // After the whole word (replaced first), its body without "lip_" on its own.
            if (token_body(word).size() >= kMinTokenLength && token_body(word) != word)
                words.emplace_back(token_body(word));
            rest.remove_prefix(word.size());
        }
    }
    for (auto* list : {&result.errors, &result.warnings})
        for (ConfigError& problem : *list)
            for (const std::string& word : words)
                for (auto pos = problem.message.find(word); pos != std::string::npos;
                     pos = problem.message.find(word, pos))
                    problem.message.replace(pos, word.size(), "***");
}

// yaml-cpp 0.7 (Debian 12) can report the same empty document forever, allocating each time,
// for input such as a line starting with ',' (jbeder/yaml-cpp#1040; fixed upstream in 2024
// by PR #1319). A first pass only watches where documents start and throws when one starts where
// the previous one did, so LoadAll never sees such input.
class StuckDocumentCheck : public YAML::EventHandler {
  public:
    void OnDocumentStart(const YAML::Mark& mark) override {
        if (started_ && mark.pos == last_.pos) {
            throw YAML::ParserException(mark, "unexpected character at the start of a line");
        }
        started_ = true;
        last_ = mark;
    }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}

  private:
    bool started_ = false;
    YAML::Mark last_;
};

void check_documents_progress(std::string_view text) {
    std::istringstream in{std::string(text)};
    YAML::Parser parser(in);
    StuckDocumentCheck check;
    while (parser.HandleNextDocument(check)) {}
}

LoadResult load_checked(std::string_view text, std::string_view source_name,
                        const LoadOptions& options, std::optional<FilePosition>* token_at,
                        std::vector<std::string>& secrets) {
    LoadResult result;
    result.source_name = std::string(source_name);
    if (text.size() > kMaxFileBytes) {
        result.errors.push_back({"", 0, 0,
                                 "the file is larger than 1 MB; a config file is a few KB, so "
                                 "this is probably not the right file"});
        return result;
    }
    std::vector<YAML::Node> documents;
    try {
        check_documents_progress(text);
        documents = YAML::LoadAll(std::string(text));
    } catch (const YAML::Exception& e) {
        FilePosition at = position_of_mark(e.mark);
        result.errors.push_back({"", at.line, at.column,
                                 "the file is not valid YAML (" + e.msg +
                                     "); check the indentation and the `key: value` layout "
                                     "around this line"});
        return result;
    }
    if (documents.size() > 1) {
        result.errors.push_back({"", 0, 0,
                                 "the file holds " + std::to_string(documents.size()) +
                                     " YAML documents (separated by ---); it must hold one"});
        return result;
    }
    Config config;
    KeyPositions positions;
    Walker walker{config, positions, result.errors, std::nullopt, &secrets, {}};
    if (!documents.empty() && !documents[0].IsNull()) {
        const YAML::Node& root = documents[0];
        if (!root.IsMap()) {
            FilePosition at = position_of(root);
            result.errors.push_back({"", at.line, at.column,
                                     "the file must be made of `key: value` lines (like `url: "
                                     "https://lichess.org`), but it holds " +
                                         describe_node(root)});
            return result;
        }
        walker.walk_section(root, "");
    }
    if (token_at != nullptr) *token_at = walker.token_at;
    // Keys that could not be read keep their defaults; checks that involve them would mislead.
    std::set<std::string> unread;
    for (const ConfigError& e : result.errors) unread.insert(e.key_path);
    auto involves_unread = [&](const ConfigError& e) {
        for (const std::string& key : unread)
            if (!key.empty() && (e.key_path == key || e.message.find(key) != std::string::npos))
                return true;
        return false;
    };

    std::size_t errors_before = result.errors.size();
    if (options.check_pgn_directory && !unread.contains("pgn_directory"))
        check_pgn_directory(config, positions, result);
    errors_before = result.errors.size();
    resolve_token(config, positions, options, result, secrets);
    const bool token_failed = result.errors.size() > errors_before;
    ValidationResult checked = validate(config, positions);
    std::erase_if(checked.errors, [&](const ConfigError& e) {
        // A token that could not be read needs no second "no token given" error.
        return involves_unread(e) || (token_failed && e.key_path == "token");
    });
    std::erase_if(checked.warnings, involves_unread);
    result.errors.insert(result.errors.end(), checked.errors.begin(), checked.errors.end());
    result.warnings.insert(result.warnings.end(), checked.warnings.begin(), checked.warnings.end());
    // The token under any other key would be printed by check-config, logged or sent to a
    // player: refused at start-up, naming the key and never the value.
    if (!token_failed) {
        std::vector<ConfigError> leaks = token_leaks(config, positions);
        result.errors.insert(result.errors.end(), leaks.begin(), leaks.end());
    }
    // File order, with the problems that have no line (like a missing token) last.
    auto order = [](const ConfigError& e) { return e.line > 0 ? e.line : INT_MAX; };
    std::stable_sort(result.errors.begin(), result.errors.end(),
                     [&](const auto& a, const auto& b) { return order(a) < order(b); });
    std::stable_sort(result.warnings.begin(), result.warnings.end(),
                     [&](const auto& a, const auto& b) { return order(a) < order(b); });
    if (result.errors.size() > kMaxErrors) result.errors.resize(kMaxErrors);
    if (result.errors.empty()) {
        // matchmaking.declined_bots_file: by default in the PGN folder, the one folder every
        // layout lets the daemon write (the compose file and Kubernetes mount only it; the root
        // is read-only).
        if (config.matchmaking.declined_bots_file.empty() && !config.pgn_directory.empty()) {
            std::filesystem::path pgn = config.pgn_directory;
            if (!pgn.has_filename()) pgn = pgn.parent_path();  // "pgn/" names the folder "pgn"
            config.matchmaking.declined_bots_file = (pgn / "declined-bots.json").string();
        }
        result.config = std::move(config);
    }
    return result;
}

LoadResult load_impl(std::string_view text, std::string_view source_name,
                     const LoadOptions& options, std::optional<FilePosition>* token_at) {
    std::vector<std::string> secrets;
    LoadResult result = load_checked(text, source_name, options, token_at, secrets);
    scrub(result, secrets);
    return result;
}

LoadResult internal_error(std::string_view source_name, std::string_view what) {
    LoadResult result;
    result.source_name = std::string(source_name);
    result.errors.push_back(
        {"", 0, 0, "could not read the config (" + std::string(what) + "); please report this"});
    return result;
}

}  // namespace

Environment process_environment() {
    return [](const std::string& name) -> std::optional<std::string> {
        const char* value = std::getenv(name.c_str());
        if (value == nullptr) return std::nullopt;
        return std::string(value);
    };
}

std::string_view describe(TokenSource source) {
    switch (source) {
        case TokenSource::None:
            return "none";
        case TokenSource::Environment:
            return "the environment variable LICHESS_BOT_TOKEN";
        case TokenSource::TokenFile:
            return "token_file";
        case TokenSource::ConfigFile:
            return "the token key in the config file";
    }
    return "none";
}

LoadResult load_string(std::string_view text, std::string_view source_name,
                       const LoadOptions& options) {
    try {
        return load_impl(text, source_name, options, nullptr);
    } catch (const std::exception& e) {
        return internal_error(source_name, e.what());
    } catch (...) {
        return internal_error(source_name, "unknown error");
    }
}

LoadResult load_file(const std::string& path, const LoadOptions& options) {
    try {
        std::string why;
        std::optional<std::string> text = read_file(path, kMaxFileBytes, why);
        if (!text) {
            LoadResult result;
            result.source_name = path;
            result.errors.push_back({"", 0, 0, "cannot read the config file: " + why});
            return result;
        }
        LoadOptions file_options = options;
        file_options.check_pgn_directory = true;
        file_options.base_dir = std::filesystem::path(path).parent_path();
        if (file_options.base_dir.empty()) file_options.base_dir = ".";
        std::optional<FilePosition> token_at;
        LoadResult result = load_impl(*text, path, file_options, &token_at);
        if (token_at && readable_by_others(path)) {
            result.warnings.push_back({"token", token_at->line, token_at->column,
                                       chmod_warning("this config file", path)});
        }
        return result;
    } catch (const std::exception& e) {
        return internal_error(path, e.what());
    } catch (...) {
        return internal_error(path, "unknown error");
    }
}

}  // namespace config
