// Value rules for a Config: ranges and names from the key table, then rules across keys.
#include "validate.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <set>

#include "common/bounded_file.hpp"
#include "common/text.hpp"
#include "common/url.hpp"
#include "keys.hpp"
#include "strength.hpp"
#include "text.hpp"
#include "time_control.hpp"

namespace config {
namespace {

constexpr std::size_t kMaxChatLength = 140;  // Lichess cuts longer chat lines

class Checker {
  public:
    Checker(const KeyPositions& positions, ValidationResult& result)
        : positions_(positions), result_(result) {}

    FilePosition at(std::string_view key) const {
        auto it = positions_.find(key);
        return it == positions_.end() ? FilePosition{} : it->second;
    }
    // The line of a list entry, or of its key when entries have no positions.
    FilePosition at_entry(std::string_view key, std::size_t index) const {
        FilePosition p = at(std::string(key) + "[" + std::to_string(index) + "]");
        return p.line > 0 ? p : at(key);
    }

    void error(std::string_view key, FilePosition p, std::string message) {
        result_.errors.push_back({std::string(key), p.line, p.column, std::move(message)});
    }
    void error(std::string_view key, std::string message) {
        error(key, at(key), std::move(message));
    }
    void warning(std::string_view key, std::string message) {
        warning(key, at(key), std::move(message));
    }
    void warning(std::string_view key, FilePosition p, std::string message) {
        result_.warnings.push_back({std::string(key), p.line, p.column, std::move(message)});
    }

  private:
    const KeyPositions& positions_;
    ValidationResult& result_;
};

std::string unknown_name_message(const KeySpec& spec, const std::string& value,
                                 std::string_view what) {
    std::string message = "unknown " + std::string(what) + " " + detail::quote(value) +
                          "; allowed are " + detail::join_choices(spec);
    if (value.find_first_of("0123456789") == std::string::npos) {
        for (std::string_view choice : spec.choices)
            if (edit_distance(value, choice) <= 2) {
                message += " (did you mean " + std::string(choice) + "?)";
                break;
            }
    }
    return message;
}

// What one list entry is, for "unknown variant ...".
std::string_view entry_noun(std::string_view path) {
    if (path.ends_with("variants") || path.starts_with("engine.book.files")) return "variant";
    if (path.ends_with("time_controls")) return "speed";
    if (path.ends_with("modes")) return "mode";
    return "value";
}

void check_table(const Config& config, Checker& check) {
    Config copy = config;  // field accessors hand out non-const pointers
    for (const KeySpec& spec : known_keys()) {
        if (spec.field == nullptr) continue;
        FieldRef field = spec.field(copy);
        switch (spec.kind) {
            case Kind::Int: {
                int value = *std::get<int*>(field);
                if (value < spec.min || value > spec.max)
                    check.error(spec.path, detail::range_message(spec, std::to_string(value)));
                break;
            }
            case Kind::String: {
                const std::string& value = *std::get<std::string*>(field);
                if (spec.choices.empty()) break;
                bool known = false;
                for (std::string_view choice : spec.choices) known = known || choice == value;
                if (!known) check.error(spec.path, unknown_name_message(spec, value, "value"));
                break;
            }
            case Kind::StringList: {
                const auto& values = *std::get<std::vector<std::string>*>(field);
                for (std::size_t i = 0; i < values.size(); ++i) {
                    if (detail::trim(values[i]).empty()) {
                        check.error(spec.path, check.at_entry(spec.path, i),
                                    "entry " + std::to_string(i + 1) + " of the list is empty");
                        continue;
                    }
                    if (spec.choices.empty()) continue;
                    bool known = false;
                    for (std::string_view choice : spec.choices)
                        known = known || choice == values[i];
                    if (!known)
                        check.error(spec.path, check.at_entry(spec.path, i),
                                    unknown_name_message(spec, values[i], entry_noun(spec.path)));
                }
                break;
            }
            case Kind::BookFiles: {
                for (const auto& [variant, files] : *std::get<BookFiles*>(field)) {
                    std::string key = std::string(spec.path) + "." + variant;
                    bool known = false;
                    for (std::string_view choice : spec.choices) known = known || choice == variant;
                    if (!known) check.error(key, unknown_name_message(spec, variant, "variant"));
                }
                break;
            }
            case Kind::Bool:
            case Kind::Section:
            case Kind::Tournaments:  // check_tournaments
                break;
        }
    }
}

void check_min_max(const Config& config, Checker& check) {
    Config copy = config;
    for (const MinMaxPair& pair : min_max_pairs()) {
        const KeySpec* min_spec = find_key(pair.min_key);
        const KeySpec* max_spec = find_key(pair.max_key);
        if (min_spec == nullptr || max_spec == nullptr) continue;
        int low = *std::get<int*>(min_spec->field(copy));
        int high = *std::get<int*>(max_spec->field(copy));
        if (low <= high) continue;
        std::string unit = min_spec->unit.empty() ? "" : " " + std::string(min_spec->unit);
        FilePosition p = check.at(pair.min_key);
        if (p.line == 0) p = check.at(pair.max_key);
        check.error(pair.min_key, p,
                    "the minimum (" + std::to_string(low) + unit + ") is larger than " +
                        std::string(pair.max_key) + " (" + std::to_string(high) + unit +
                        "); no game could match both");
    }
}

// "scheme://host[:port][/path]" -> host, or "" when the URL has no host.
std::string_view url_host(std::string_view rest) {
    std::string_view authority = rest.substr(0, rest.find_first_of("/?#"));
    if (auto at = authority.rfind('@'); at != std::string_view::npos)
        authority = authority.substr(at + 1);
    if (authority.starts_with('[')) {
        auto close = authority.find(']');
        return close == std::string_view::npos ? "" : authority.substr(0, close + 1);
    }
    return authority.substr(0, authority.find(':'));
}

// What is wrong with a web address the bot will ask (https only, except this machine), or
// nothing. `example` shows the form expected.
std::optional<std::string> web_address_problem(const std::string& url, std::string_view example) {
    const std::string shown = detail::quote(url);
    const bool https = url.starts_with("https://");
    if (!https && !url.starts_with("http://"))
        return "must start with https:// (for example " + std::string(example) + "), got " + shown;
    const std::string_view host = url_host(std::string_view(url).substr(https ? 8 : 7));
    if (host.empty() || url.find_first_of(" \t\r\n") != std::string::npos)
        return "is not a web address like " + std::string(example) + ", got " + shown;
    if (!https && !common::is_loopback_host(host))
        return "must use https:// (plain http:// is allowed only for this machine: localhost, "
               "127.0.0.1 or [::1]), got " +
               shown;
    return std::nullopt;
}

void check_url(const Config& config, Checker& check) {
    if (auto problem = web_address_problem(config.url, "https://lichess.org"))
        check.error("url", *problem);
}

// challenge.online_block_list: each entry a web address; https only, except this machine.
void check_block_list_urls(const Config& config, Checker& check) {
    const std::string key = "challenge.online_block_list";
    const auto& urls = config.challenge.online_block_list;
    for (std::size_t i = 0; i < urls.size(); ++i) {
        if (detail::trim(urls[i]).empty()) continue;  // reported by the table check
        if (auto problem = web_address_problem(urls[i], "https://example.org/blocklist.txt"))
            check.error(key, check.at_entry(key, i), *problem);
    }
}

// online_moves.*: each source's address and clock range; the explorer's player needs a name.
void check_online_moves(const Config& config, Checker& check) {
    const OnlineMovesConfig& om = config.online_moves;
    const auto source = [&](const std::string& name, const OnlineSourceConfig& ask) {
        const std::string key = "online_moves." + name;
        if (auto problem = web_address_problem(ask.url, "https://lichess.org"))
            check.error(key + ".url", *problem);
        if (ask.min_time > ask.max_time)
            check.error(key + ".min_time", "is above " + key + ".max_time (" +
                                               std::to_string(ask.min_time) + " > " +
                                               std::to_string(ask.max_time) + " seconds)");
    };
    source("lichess_opening_explorer", om.lichess_opening_explorer.ask);
    source("lichess_cloud_analysis", om.lichess_cloud_analysis.ask);
    source("online_egtb", om.online_egtb.ask);
    source("chessdb_book", om.chessdb_book.ask);
    const auto& explorer = om.lichess_opening_explorer;
    if (explorer.source == "player" && detail::trim(explorer.player_name).empty())
        check.error("online_moves.lichess_opening_explorer.player_name",
                    "is empty, but source is player: name the Lichess player whose games to use");
}

void check_listen(const Config& config, Checker& check) {
    const std::string& listen = config.health.listen;
    if (listen.empty()) return;
    auto colon = listen.rfind(':');
    std::string_view host =
        colon == std::string::npos ? "" : std::string_view(listen).substr(0, colon);
    std::string_view port_text =
        colon == std::string::npos ? "" : std::string_view(listen).substr(colon + 1);
    detail::IntParse port = detail::parse_int(port_text);
    bool ipv6_ok = !host.starts_with('[') || host.ends_with(']');
    if (host.empty() || !ipv6_ok || port.status != detail::IntParse::Ok || port.value < 0 ||
        port.value > 65535 || port_text.starts_with('+') || port_text.starts_with('-')) {
        check.error("health.listen",
                    "expected host:port like 127.0.0.1:8080 (or empty to turn the health "
                    "endpoint off), got " +
                        detail::quote(listen));
        return;
    }
    if (!common::is_loopback_host(host))
        check.warning("health.listen",
                      "listens on " + std::string(host) +
                          ", so other machines can reach /metrics; use 127.0.0.1 unless that "
                          "is intended");
}

void check_matchmaking(const Config& config, Checker& check) {
    const MatchmakingConfig& mm = config.matchmaking;
    for (std::size_t i = 0; i < mm.time_controls.size(); ++i) {
        const auto where = check.at_entry("matchmaking.time_controls", i);
        const auto clock = parse_time_control(mm.time_controls[i]);
        if (!clock)
            check.error("matchmaking.time_controls", where,
                        "expected minutes+seconds like \"3+2\" (minutes 0 to 180, or 0.25, "
                        "0.5, 0.75 or 1.5; seconds 0 to 60; not both 0), got " +
                            detail::quote(mm.time_controls[i]));
        else if (speed_of(*clock) == "ultraBullet")
            check.error("matchmaking.time_controls", where,
                        detail::quote(mm.time_controls[i]) +
                            " is UltraBullet (minutes x 60 + 40 x seconds under 30 s), which "
                            "Lichess does not let bots play");
    }
    if (mm.enabled && mm.time_controls.empty())
        check.error("matchmaking.time_controls",
                    "is empty, but matchmaking.enabled is true; list at least one time control "
                    "like \"3+2\"");
    if (mm.enabled && mm.variants.empty())
        check.error("matchmaking.variants",
                    "is empty, but matchmaking.enabled is true; list at least one variant");
    if (mm.enabled && mm.allow_during_games && config.challenge.concurrency < 2)
        check.warning("matchmaking.allow_during_games",
                      "is true but challenge.concurrency is 1, so no slot is ever free for a "
                      "challenge while a game runs; raise challenge.concurrency");
}

bool is_lichess_username(std::string_view name) {
    if (name.size() < 2 || name.size() > 30) return false;
    for (char c : name)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-'))
            return false;
    return true;
}

void check_usernames(const std::vector<std::string>& names, std::string_view key, Checker& check) {
    for (std::size_t i = 0; i < names.size(); ++i)
        if (!detail::trim(names[i]).empty() && !is_lichess_username(names[i]))
            check.error(key, check.at_entry(key, i),
                        detail::quote(names[i]) +
                            " is not a Lichess username (2 to 30 letters, digits, _ or -)");
}

// tournaments: each an arena's id as lila writes it (8 letters and digits, the end of
// lichess.org/tournament/ID), once; a team is a team's id (letters, digits and -).
void check_tournaments(const Config& config, Checker& check) {
    const std::string key = "tournaments";
    std::set<std::string> seen;
    for (std::size_t i = 0; i < config.tournaments.size(); ++i) {
        const TournamentConfig& arena = config.tournaments[i];
        const FilePosition at = check.at_entry(key, i);
        const auto is_id_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)); };
        if (arena.id.size() != 8 || !std::all_of(arena.id.begin(), arena.id.end(), is_id_char)) {
            check.error(key, at,
                        "entry " + std::to_string(i + 1) + ": " + detail::quote(arena.id) +
                            " is not an arena id (8 letters and digits, as in "
                            "lichess.org/tournament/ID)");
            continue;
        }
        if (!seen.insert(arena.id).second)
            check.error(key, at, "the arena " + arena.id + " is listed twice; remove one");
        const auto is_team_char = [](char c) {
            return std::isalnum(static_cast<unsigned char>(c)) || c == '-';
        };
        if (!arena.team.empty() && !std::all_of(arena.team.begin(), arena.team.end(), is_team_char))
            check.error(key, at,
                        "entry " + std::to_string(i + 1) + ": team " + detail::quote(arena.team) +
                            " is not a team id (letters, digits and -, as in "
                            "lichess.org/team/ID)");
    }
}

void check_greeting(std::string_view key, const std::string& text, Checker& check) {
    if (common::has_link(text))
        check.warning(key,
                      "holds a link; Lichess drops a bot's chat line with a link without "
                      "a word, so this one is never sent");
    if (text.size() > kMaxChatLength)
        check.warning(key, "is " + std::to_string(text.size()) +
                               " characters long; Lichess shows at most 140 per chat line");
    for (std::size_t open = text.find('{'); open != std::string::npos;
         open = text.find('{', open + 1)) {
        auto close = text.find('}', open);
        if (close == std::string::npos) break;
        std::string_view name = std::string_view(text).substr(open + 1, close - open - 1);
        if (name != "me" && name != "opponent") {
            check.warning(key, "{" + std::string(name) +
                                   "} is not a placeholder Outpost fills in; use {me} or "
                                   "{opponent}");
            break;
        }
    }
}

void check_book(const Config& config, Checker& check) {
    const BookConfig& book = config.engine.book;
    if (!book.enabled) return;
    std::size_t count = 0;
    for (const auto& [variant, files] : book.files) {
        std::string key = "engine.book.files." + variant;
        for (std::size_t i = 0; i < files.size(); ++i) {
            ++count;
            // The checks `run` makes before it reads a book: a FIFO, a device or a file of
            // gigabytes is refused here too (common::read_bounded_file).
            if (const auto why = common::file_problem(files[i], kMaxBookFileBytes))
                check.error(key, check.at_entry(key, i),
                            "cannot read the book file " + detail::quote(files[i]) + ": " + *why +
                                " (relative paths start from the folder Outpost runs in)");
        }
    }
    if (count == 0)
        check.warning("engine.book.enabled",
                      "is true but engine.book.files lists no book, so no book is used");
}

// A path in full and quoted, control characters shown as '?' (quote() cuts long values, and a
// cut path names no folder).
std::string quote_path(const std::string& path) {
    std::string out = "\"";
    for (const char c : path) out += (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) ? '?' : c;
    return out + "\"";
}

// What is wrong with a Gaviota tablebase folder, or nullopt when it holds at least one readable
// table file (*.gtb.cp1 .. *.gtb.cp4). The engine checks every table's header when it loads
// them at start-up (engine/tablebase.cpp).
std::optional<std::string> gaviota_folder_problem(const std::string& folder) {
    namespace fs = std::filesystem;
    const auto is_table = [](const fs::path& p) {
        const std::string name = p.filename().string();
        const auto at = name.rfind(".gtb.cp");
        return at != std::string::npos && at > 0 && at + 8 == name.size() && name.back() >= '1' &&
               name.back() <= '4';
    };
    std::error_code ec;
    const fs::file_status st = fs::status(folder, ec);
    if (ec || !fs::exists(st))
        return quote_path(folder) +
               ": no such folder (relative paths start from the folder Outpost runs in)";
    if (!fs::is_directory(st)) return quote_path(folder) + " is not a folder";
    std::string subfolder;  // the last by name that holds tables (Debian's gtb4: cp4)
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        std::error_code sub_ec;
        if (it->is_directory(sub_ec)) {
            for (fs::directory_iterator s(it->path(), sub_ec); !sub_ec && s != end;
                 s.increment(sub_ec))
                if (is_table(s->path())) {
                    subfolder = std::max(subfolder, it->path().string());
                    break;
                }
            continue;
        }
        // A regular file that opens (never a FIFO's open, which would wait for a writer).
        if (is_table(it->path()) &&
            !common::file_problem(it->path(), std::numeric_limits<std::uint64_t>::max()))
            return std::nullopt;
    }
    if (ec) return quote_path(folder) + " cannot be listed (" + ec.message() + ")";
    std::string message =
        quote_path(folder) + " holds no readable Gaviota tablebase files (names like kqk.gtb.cp4)";
    if (!subfolder.empty())
        message += "; its subfolder " + quote_path(subfolder) + " does: give that folder instead";
    return message;
}

void check_tablebases(const Config& config, Checker& check) {
    const std::string key = "engine.tablebases.gaviota_paths";
    const auto& folders = config.engine.tablebases.gaviota_paths;
    for (std::size_t i = 0; i < folders.size(); ++i) {
        if (detail::trim(folders[i]).empty()) continue;  // reported by the table check
        if (auto problem = gaviota_folder_problem(folders[i]))
            check.error(key, check.at_entry(key, i), *problem);
    }
}

// What is wrong with a Syzygy folder, or nullopt when it holds a file named like a table. The
// engine checks each file when it loads them (engine/syzygy.cpp) and plays without the bad ones,
// so these are warnings: the bot starts without the folder.
std::optional<std::string> syzygy_folder_problem(const std::string& folder) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(folder, ec);
    if (ec || !fs::exists(st))
        return quote_path(folder) +
               ": no such folder (relative paths start from the folder Outpost runs in)";
    if (!fs::is_directory(st)) return quote_path(folder) + " is not a folder";
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.size() > 5 && (name.ends_with(".rtbw") || name.ends_with(".rtbz")))
            return std::nullopt;
    }
    if (ec) return quote_path(folder) + " cannot be listed (" + ec.message() + ")";
    return quote_path(folder) + " holds no Syzygy tablebase files (names like KQvK.rtbw)";
}

void check_syzygy(const Config& config, Checker& check) {
    const std::string key = "engine.tablebases.syzygy_paths";
    const auto& folders = config.engine.tablebases.syzygy_paths;
    for (std::size_t i = 0; i < folders.size(); ++i) {
        if (detail::trim(folders[i]).empty()) continue;  // reported by the table check
        if (auto problem = syzygy_folder_problem(folders[i]))
            check.warning(key, check.at_entry(key, i), *problem + "; the bot plays without it");
    }
}

void check_strength(const Config& config, Checker& check) {
    const StrengthConfig& st = config.engine.strength;
    if (auto problem = strength_elo_problem(st.elo)) check.error("engine.strength.elo", *problem);
    if (st.match_bots && !st.match_opponent)
        check.warning("engine.strength.match_bots",
                      "is true but engine.strength.match_opponent is false, so it changes nothing");
}

void check_cross_rules(const Config& config, Checker& check) {
    const ChallengeConfig& ch = config.challenge;
    if (ch.only_bot && !ch.accept_bot)
        check.warning("challenge.only_bot",
                      "is true but challenge.accept_bot is false, so every challenge is declined");
    for (const char* key : {"challenge.variants", "challenge.time_controls", "challenge.modes"}) {
        const KeySpec* spec = find_key(key);
        Config copy = config;
        if (spec != nullptr && std::get<std::vector<std::string>*>(spec->field(copy))->empty())
            check.warning(key, "is empty, so every challenge is declined");
    }
    if (ch.max_simultaneous_games_per_user > ch.concurrency && ch.concurrency > 1)
        check.warning("challenge.max_simultaneous_games_per_user",
                      "is larger than challenge.concurrency, so it never limits anything");
    if (ch.games_reserved_for_humans >= ch.concurrency && ch.accept_bot)
        check.warning("challenge.games_reserved_for_humans",
                      "is not below challenge.concurrency, so no slot is left for bots and every "
                      "challenge from a bot is declined");
    if (ch.max_recent_bot_challenges > 0 && ch.recent_bot_challenge_age == 0)
        check.warning("challenge.max_recent_bot_challenges",
                      "is set but challenge.recent_bot_challenge_age is 0, so no challenge counts "
                      "as recent and it never limits anything");
    const CorrespondenceConfig& co = config.correspondence;
    if (co.move_time_ms > 0 && co.move_time_s != CorrespondenceConfig{}.move_time_s)
        check.warning("correspondence.move_time_s",
                      "is ignored because correspondence.move_time_ms is set (above 0)");
    if (co.checkin_period_s < 10)
        check.warning("correspondence.checkin_period_s",
                      "is below 10 s: every check-in asks Lichess for the list of ongoing games, "
                      "and asking that often may be answered with 429 (too many requests)");
    if (config.draw_or_resign.resign_enabled && config.draw_or_resign.resign_score > -200)
        check.warning("draw_or_resign.resign_score",
                      "is above -200 centipawns; the bot will resign positions that are only "
                      "slightly worse");
}

}  // namespace

std::string missing_token_message() {
    return "no Lichess API token is given. Give it in one of three ways: set the environment "
           "variable LICHESS_BOT_TOKEN, or add `token_file: /path/to/file` (a file holding only "
           "the token), or add `token: ...` to this file. Create a token with the bot:play "
           "scope at https://lichess.org/account/oauth/token";
}

ValidationResult validate(const Config& config, const KeyPositions& positions) {
    ValidationResult result;
    Checker check(positions, result);
    if (config.token.empty()) check.error("token", missing_token_message());
    check_table(config, check);
    check_min_max(config, check);
    check_url(config, check);
    check_listen(config, check);
    check_block_list_urls(config, check);
    check_online_moves(config, check);
    check_matchmaking(config, check);
    check_usernames(config.challenge.block_list, "challenge.block_list", check);
    check_usernames(config.challenge.allow_list, "challenge.allow_list", check);
    check_usernames(config.matchmaking.block_list, "matchmaking.block_list", check);
    check_tournaments(config, check);
    check_greeting("greeting.hello", config.greeting.hello, check);
    check_greeting("greeting.goodbye", config.greeting.goodbye, check);
    check_greeting("greeting.hello_spectators", config.greeting.hello_spectators, check);
    check_greeting("greeting.goodbye_spectators", config.greeting.goodbye_spectators, check);
    check_book(config, check);
    check_tablebases(config, check);
    check_syzygy(config, check);
    check_strength(config, check);
    check_cross_rules(config, check);
    return result;
}

}  // namespace config
