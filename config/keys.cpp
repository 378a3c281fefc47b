// The table of every config key, plus "did you mean" helpers for unknown keys.
#include "keys.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "engine/variant_table.hpp"

namespace config {

namespace {

// A function that returns a pointer to one member of Config; captureless, so it fits KeySpec.
#define OUTPOST_FIELD(member) [](Config& c) -> FieldRef { return &c.member; }

// Builders for table rows (designated initialisers would trip -Wmissing-field-initializers).
KeySpec row(std::string_view path, Kind kind, FieldRef (*field)(Config&)) {
    KeySpec spec;
    spec.path = path;
    spec.kind = kind;
    spec.field = field;
    return spec;
}

KeySpec section(std::string_view path) { return row(path, Kind::Section, nullptr); }

KeySpec boolean(std::string_view path, FieldRef (*field)(Config&)) {
    return row(path, Kind::Bool, field);
}

KeySpec integer(std::string_view path, FieldRef (*field)(Config&), long long min, long long max,
                std::string_view unit) {
    KeySpec spec = row(path, Kind::Int, field);
    spec.min = min;
    spec.max = max;
    spec.unit = unit;
    return spec;
}

KeySpec text(std::string_view path, FieldRef (*field)(Config&),
             std::vector<std::string_view> choices = {}) {
    KeySpec spec = row(path, Kind::String, field);
    spec.choices = std::move(choices);
    return spec;
}

KeySpec list(std::string_view path, FieldRef (*field)(Config&),
             std::vector<std::string_view> choices = {}) {
    KeySpec spec = row(path, Kind::StringList, field);
    spec.choices = std::move(choices);
    return spec;
}

// The keys of the engine's game types; `with_fen_games` false leaves out those a challenge must
// give a start position for (fromPosition), which a challenge we send cannot ask for.
std::vector<std::string_view> game_type_keys(bool with_fen_games) {
    std::vector<std::string_view> keys;
    for (const engine::GameType& row : engine::GAME_TYPES)
        if (with_fen_games || !row.needs_fen) keys.push_back(row.key);
    return keys;
}

// Lichess's ten game types: every one is played.
const std::vector<std::string_view> kVariants = game_type_keys(true);
const std::vector<std::string_view> kSpeeds = {"bullet", "blitz", "rapid", "classical",
                                               "correspondence"};
const std::vector<std::string_view> kModes = {"casual", "rated"};
const std::vector<std::string_view> kBookSelections = {"best_move", "weighted_random",
                                                       "uniform_random"};
const std::vector<std::string_view> kEvaluations = {"nnue", "hce"};
const std::vector<std::string_view> kLogLevels = {"trace", "debug",    "info", "warn",
                                                  "error", "critical", "off"};
// Every game type a challenge can ask for without a FEN (fromPosition needs one).
const std::vector<std::string_view> kMatchmakingVariants = game_type_keys(false);
const std::vector<std::string_view> kSortBy = {"best", "first"};
const std::vector<std::string_view> kPreferences = {"none", "human", "bot"};
const std::vector<std::string_view> kExplorerSources = {"masters", "lichess", "player"};
const std::vector<std::string_view> kExplorerSorts = {"winrate", "games"};
const std::vector<std::string_view> kCloudQualities = {"best", "good"};
const std::vector<std::string_view> kTablebaseSources = {"lichess", "chessdb"};
const std::vector<std::string_view> kTablebaseQualities = {"best", "suggest"};
const std::vector<std::string_view> kChessdbQualities = {"best", "good", "all"};

// The keys every online source has: online_moves.<name>.{enabled,min_time,max_time,url}.
#define OUTPOST_ONLINE_SOURCE(t, name)                                                      \
    do {                                                                                    \
        (t).push_back(section("online_moves." #name));                                      \
        (t).push_back(boolean("online_moves." #name ".enabled",                             \
                              OUTPOST_FIELD(online_moves.name.ask.enabled)));               \
        (t).push_back(integer("online_moves." #name ".min_time",                            \
                              OUTPOST_FIELD(online_moves.name.ask.min_time), 0, 1000000000, \
                              "seconds"));                                                  \
        (t).push_back(integer("online_moves." #name ".max_time",                            \
                              OUTPOST_FIELD(online_moves.name.ask.max_time), 0, 1000000000, \
                              "seconds"));                                                  \
        (t).push_back(                                                                      \
            text("online_moves." #name ".url", OUTPOST_FIELD(online_moves.name.ask.url)));  \
    } while (false)

std::vector<KeySpec> make_table() {
    std::vector<KeySpec> t;
    KeySpec token = text("token", OUTPOST_FIELD(token));
    token.secret = true;
    t.push_back(token);
    t.push_back(text("token_file", OUTPOST_FIELD(token_file)));
    t.push_back(text("url", OUTPOST_FIELD(url)));

    t.push_back(section("engine"));
    t.push_back(integer("engine.hash_mb", OUTPOST_FIELD(engine.hash_mb), 1, 65536, "megabytes"));
    t.push_back(integer("engine.threads", OUTPOST_FIELD(engine.threads), 1, 256, "threads"));
    t.push_back(integer("engine.move_overhead_ms", OUTPOST_FIELD(engine.move_overhead_ms), 0, 10000,
                        "milliseconds"));
    t.push_back(boolean("engine.ponder", OUTPOST_FIELD(engine.ponder)));
    t.push_back(text("engine.evaluation", OUTPOST_FIELD(engine.evaluation), kEvaluations));
    t.push_back(section("engine.book"));
    t.push_back(boolean("engine.book.enabled", OUTPOST_FIELD(engine.book.enabled)));
    KeySpec book_files =
        row("engine.book.files", Kind::BookFiles, OUTPOST_FIELD(engine.book.files));
    book_files.choices = kVariants;
    t.push_back(book_files);
    t.push_back(
        text("engine.book.selection", OUTPOST_FIELD(engine.book.selection), kBookSelections));
    t.push_back(
        integer("engine.book.min_weight", OUTPOST_FIELD(engine.book.min_weight), 0, 65535, ""));
    t.push_back(
        integer("engine.book.max_depth", OUTPOST_FIELD(engine.book.max_depth), 1, 1000, "moves"));
    t.push_back(section("engine.tablebases"));
    t.push_back(
        list("engine.tablebases.gaviota_paths", OUTPOST_FIELD(engine.tablebases.gaviota_paths)));
    t.push_back(integer("engine.tablebases.max_pieces", OUTPOST_FIELD(engine.tablebases.max_pieces),
                        3, 5, "pieces"));
    t.push_back(
        list("engine.tablebases.syzygy_paths", OUTPOST_FIELD(engine.tablebases.syzygy_paths)));
    t.push_back(integer("engine.tablebases.syzygy_max_pieces",
                        OUTPOST_FIELD(engine.tablebases.syzygy_max_pieces), 3, 7, "pieces"));
    t.push_back(section("engine.strength"));
    t.push_back(text("engine.strength.elo", OUTPOST_FIELD(engine.strength.elo)));
    t.push_back(
        boolean("engine.strength.match_opponent", OUTPOST_FIELD(engine.strength.match_opponent)));
    t.push_back(integer("engine.strength.offset", OUTPOST_FIELD(engine.strength.offset), -2000,
                        2000, "Elo"));
    t.push_back(
        integer("engine.strength.min", OUTPOST_FIELD(engine.strength.min), 800, 2800, "Elo"));
    t.push_back(
        integer("engine.strength.max", OUTPOST_FIELD(engine.strength.max), 800, 2800, "Elo"));
    t.push_back(boolean("engine.strength.match_bots", OUTPOST_FIELD(engine.strength.match_bots)));

    t.push_back(section("challenge"));
    t.push_back(
        integer("challenge.concurrency", OUTPOST_FIELD(challenge.concurrency), 1, 64, "games"));
    t.push_back(boolean("challenge.accept_bot", OUTPOST_FIELD(challenge.accept_bot)));
    t.push_back(boolean("challenge.only_bot", OUTPOST_FIELD(challenge.only_bot)));
    t.push_back(list("challenge.variants", OUTPOST_FIELD(challenge.variants), kVariants));
    t.push_back(list("challenge.time_controls", OUTPOST_FIELD(challenge.time_controls), kSpeeds));
    t.push_back(list("challenge.modes", OUTPOST_FIELD(challenge.modes), kModes));
    t.push_back(
        integer("challenge.min_base", OUTPOST_FIELD(challenge.min_base), 0, 10800, "seconds"));
    t.push_back(
        integer("challenge.max_base", OUTPOST_FIELD(challenge.max_base), 0, 10800, "seconds"));
    t.push_back(integer("challenge.min_increment", OUTPOST_FIELD(challenge.min_increment), 0, 180,
                        "seconds"));
    t.push_back(integer("challenge.max_increment", OUTPOST_FIELD(challenge.max_increment), 0, 180,
                        "seconds"));
    t.push_back(integer("challenge.min_days", OUTPOST_FIELD(challenge.min_days), 1, 14, "days"));
    t.push_back(integer("challenge.max_days", OUTPOST_FIELD(challenge.max_days), 1, 14, "days"));
    t.push_back(integer("challenge.min_rating", OUTPOST_FIELD(challenge.min_rating), 0, 4000,
                        "rating points"));
    t.push_back(integer("challenge.max_rating", OUTPOST_FIELD(challenge.max_rating), 0, 4000,
                        "rating points"));
    t.push_back(list("challenge.block_list", OUTPOST_FIELD(challenge.block_list)));
    t.push_back(list("challenge.allow_list", OUTPOST_FIELD(challenge.allow_list)));
    t.push_back(integer("challenge.max_simultaneous_games_per_user",
                        OUTPOST_FIELD(challenge.max_simultaneous_games_per_user), 1, 64, "games"));
    t.push_back(integer("challenge.accept_timeout_s", OUTPOST_FIELD(challenge.accept_timeout_s), 1,
                        600, "seconds"));
    t.push_back(integer("challenge.games_reserved_for_humans",
                        OUTPOST_FIELD(challenge.games_reserved_for_humans), 0, 64, "games"));
    t.push_back(text("challenge.sort_by", OUTPOST_FIELD(challenge.sort_by), kSortBy));
    t.push_back(text("challenge.preference", OUTPOST_FIELD(challenge.preference), kPreferences));
    t.push_back(
        integer("challenge.max_queued", OUTPOST_FIELD(challenge.max_queued), 0, 100, "challenges"));
    t.push_back(integer("challenge.rating_difference", OUTPOST_FIELD(challenge.rating_difference),
                        0, 4000, "rating points"));
    t.push_back(boolean("challenge.bullet_requires_increment",
                        OUTPOST_FIELD(challenge.bullet_requires_increment)));
    t.push_back(integer("challenge.recent_bot_challenge_age",
                        OUTPOST_FIELD(challenge.recent_bot_challenge_age), 0, 86400, "seconds"));
    t.push_back(integer("challenge.max_recent_bot_challenges",
                        OUTPOST_FIELD(challenge.max_recent_bot_challenges), 0, 1000, "challenges"));
    t.push_back(list("challenge.online_block_list", OUTPOST_FIELD(challenge.online_block_list)));

    t.push_back(section("greeting"));
    t.push_back(text("greeting.hello", OUTPOST_FIELD(greeting.hello)));
    t.push_back(text("greeting.goodbye", OUTPOST_FIELD(greeting.goodbye)));
    t.push_back(text("greeting.hello_spectators", OUTPOST_FIELD(greeting.hello_spectators)));
    t.push_back(text("greeting.goodbye_spectators", OUTPOST_FIELD(greeting.goodbye_spectators)));

    t.push_back(integer("abort_time", OUTPOST_FIELD(abort_time), 5, 3600, "seconds"));
    t.push_back(integer("max_takebacks_accepted", OUTPOST_FIELD(max_takebacks_accepted), 0, 1000,
                        "takebacks"));

    t.push_back(section("draw_or_resign"));
    t.push_back(
        boolean("draw_or_resign.resign_enabled", OUTPOST_FIELD(draw_or_resign.resign_enabled)));
    t.push_back(integer("draw_or_resign.resign_score", OUTPOST_FIELD(draw_or_resign.resign_score),
                        -40000, 0, "centipawns"));
    t.push_back(integer("draw_or_resign.resign_moves", OUTPOST_FIELD(draw_or_resign.resign_moves),
                        1, 1000, "moves"));
    t.push_back(boolean("draw_or_resign.offer_draw_enabled",
                        OUTPOST_FIELD(draw_or_resign.offer_draw_enabled)));
    t.push_back(integer("draw_or_resign.offer_draw_score",
                        OUTPOST_FIELD(draw_or_resign.offer_draw_score), 0, 10000, "centipawns"));
    t.push_back(integer("draw_or_resign.offer_draw_moves",
                        OUTPOST_FIELD(draw_or_resign.offer_draw_moves), 1, 1000, "moves"));
    t.push_back(integer("draw_or_resign.offer_draw_pieces",
                        OUTPOST_FIELD(draw_or_resign.offer_draw_pieces), 2, 32, "pieces"));

    t.push_back(section("correspondence"));
    t.push_back(integer("correspondence.move_time_s", OUTPOST_FIELD(correspondence.move_time_s), 1,
                        86400, "seconds"));
    t.push_back(integer("correspondence.move_time_ms", OUTPOST_FIELD(correspondence.move_time_ms),
                        0, 86400000, "milliseconds"));
    t.push_back(integer("correspondence.checkin_period_s",
                        OUTPOST_FIELD(correspondence.checkin_period_s), 1, 86400, "seconds"));
    t.push_back(integer("correspondence.max_concurrent_searches",
                        OUTPOST_FIELD(correspondence.max_concurrent_searches), 1, 64, "searches"));
    t.push_back(integer("correspondence.disconnect_time_s",
                        OUTPOST_FIELD(correspondence.disconnect_time_s), 0, 3600, "seconds"));

    t.push_back(section("matchmaking"));
    t.push_back(boolean("matchmaking.enabled", OUTPOST_FIELD(matchmaking.enabled)));
    t.push_back(
        boolean("matchmaking.allow_during_games", OUTPOST_FIELD(matchmaking.allow_during_games)));
    t.push_back(integer("matchmaking.challenge_timeout_min",
                        OUTPOST_FIELD(matchmaking.challenge_timeout_min), 1, 1440, "minutes"));
    t.push_back(list("matchmaking.time_controls", OUTPOST_FIELD(matchmaking.time_controls)));
    t.push_back(
        list("matchmaking.variants", OUTPOST_FIELD(matchmaking.variants), kMatchmakingVariants));
    t.push_back(boolean("matchmaking.rated", OUTPOST_FIELD(matchmaking.rated)));
    t.push_back(integer("matchmaking.opponent_min_rating",
                        OUTPOST_FIELD(matchmaking.opponent_min_rating), 0, 4000, "rating points"));
    t.push_back(integer("matchmaking.opponent_max_rating",
                        OUTPOST_FIELD(matchmaking.opponent_max_rating), 0, 4000, "rating points"));
    t.push_back(integer("matchmaking.opponent_rating_difference",
                        OUTPOST_FIELD(matchmaking.opponent_rating_difference), 0, 4000,
                        "rating points"));
    t.push_back(list("matchmaking.block_list", OUTPOST_FIELD(matchmaking.block_list)));
    t.push_back(
        text("matchmaking.declined_bots_file", OUTPOST_FIELD(matchmaking.declined_bots_file)));

    t.push_back(section("online_moves"));
    t.push_back(integer("online_moves.max_out_of_book_moves",
                        OUTPOST_FIELD(online_moves.max_out_of_book_moves), 1, 1000, "moves"));
    t.push_back(integer("online_moves.max_retries", OUTPOST_FIELD(online_moves.max_retries), 0, 10,
                        "retries"));
    t.push_back(
        integer("online_moves.max_depth", OUTPOST_FIELD(online_moves.max_depth), 1, 1000, "moves"));
    OUTPOST_ONLINE_SOURCE(t, lichess_opening_explorer);
    t.push_back(text("online_moves.lichess_opening_explorer.source",
                     OUTPOST_FIELD(online_moves.lichess_opening_explorer.source),
                     kExplorerSources));
    t.push_back(text("online_moves.lichess_opening_explorer.player_name",
                     OUTPOST_FIELD(online_moves.lichess_opening_explorer.player_name)));
    t.push_back(text("online_moves.lichess_opening_explorer.sort",
                     OUTPOST_FIELD(online_moves.lichess_opening_explorer.sort), kExplorerSorts));
    t.push_back(integer("online_moves.lichess_opening_explorer.min_games",
                        OUTPOST_FIELD(online_moves.lichess_opening_explorer.min_games), 0,
                        1000000000, "games"));
    OUTPOST_ONLINE_SOURCE(t, lichess_cloud_analysis);
    t.push_back(text("online_moves.lichess_cloud_analysis.move_quality",
                     OUTPOST_FIELD(online_moves.lichess_cloud_analysis.move_quality),
                     kCloudQualities));
    t.push_back(integer("online_moves.lichess_cloud_analysis.max_score_difference",
                        OUTPOST_FIELD(online_moves.lichess_cloud_analysis.max_score_difference), 0,
                        10000, "centipawns"));
    t.push_back(integer("online_moves.lichess_cloud_analysis.min_depth",
                        OUTPOST_FIELD(online_moves.lichess_cloud_analysis.min_depth), 1, 245,
                        "plies"));
    OUTPOST_ONLINE_SOURCE(t, online_egtb);
    t.push_back(text("online_moves.online_egtb.source",
                     OUTPOST_FIELD(online_moves.online_egtb.source), kTablebaseSources));
    t.push_back(integer("online_moves.online_egtb.max_pieces",
                        OUTPOST_FIELD(online_moves.online_egtb.max_pieces), 2, 7, "pieces"));
    t.push_back(text("online_moves.online_egtb.move_quality",
                     OUTPOST_FIELD(online_moves.online_egtb.move_quality), kTablebaseQualities));
    OUTPOST_ONLINE_SOURCE(t, chessdb_book);
    t.push_back(text("online_moves.chessdb_book.move_quality",
                     OUTPOST_FIELD(online_moves.chessdb_book.move_quality), kChessdbQualities));

    t.push_back(row("tournaments", Kind::Tournaments, OUTPOST_FIELD(tournaments)));

    t.push_back(text("pgn_directory", OUTPOST_FIELD(pgn_directory)));

    t.push_back(section("health"));
    t.push_back(text("health.listen", OUTPOST_FIELD(health.listen)));

    t.push_back(section("log"));
    t.push_back(text("log.level", OUTPOST_FIELD(log.level), kLogLevels));
    t.push_back(text("log.file", OUTPOST_FIELD(log.file)));

    t.push_back(integer("shutdown_grace_s", OUTPOST_FIELD(shutdown_grace_s), 0, 86400, "seconds"));
    return t;
}

#undef OUTPOST_ONLINE_SOURCE
#undef OUTPOST_FIELD

// lichess-bot's key on the left, ours on the right, for operators migrating a config.
constexpr std::array<std::pair<std::string_view, std::string_view>, 16> kRenames = {{
    {"move_overhead", "engine.move_overhead_ms"},
    {"engine.polyglot", "engine.book"},
    {"engine.polyglot.book", "engine.book.files"},
    {"engine.lichess_bot_tbs", "engine.tablebases.gaviota_paths, syzygy_paths and max_pieces"},
    {"engine.draw_or_resign", "draw_or_resign"},
    {"engine.uci_options", "engine.hash_mb and engine.threads"},
    {"correspondence.move_time", "correspondence.move_time_s"},
    {"correspondence.checkin_period", "correspondence.checkin_period_s"},
    {"correspondence.disconnect_time", "correspondence.disconnect_time_s"},
    {"matchmaking.allow_matchmaking", "matchmaking.enabled"},
    {"matchmaking.challenge_timeout", "matchmaking.challenge_timeout_min"},
    {"matchmaking.challenge_variant", "matchmaking.variants"},
    {"matchmaking.challenge_initial_time", "matchmaking.time_controls"},
    {"matchmaking.challenge_increment", "matchmaking.time_controls"},
    {"matchmaking.challenge_mode", "matchmaking.rated"},
    {"quit_after_all_games_finish", "shutdown_grace_s"},
}};

}  // namespace

// Reads the table, not kVariants: a Config built during static initialisation may need it.
std::vector<std::string> every_variant_key() {
    std::vector<std::string> keys;
    for (const engine::GameType& row : engine::GAME_TYPES) keys.emplace_back(row.key);
    return keys;
}

std::string_view KeySpec::name() const {
    auto dot = path.rfind('.');
    return dot == std::string_view::npos ? path : path.substr(dot + 1);
}

std::string_view KeySpec::parent() const {
    auto dot = path.rfind('.');
    return dot == std::string_view::npos ? std::string_view{} : path.substr(0, dot);
}

const std::vector<KeySpec>& known_keys() {
    static const std::vector<KeySpec> table = make_table();
    return table;
}

const KeySpec* find_key(std::string_view path) {
    for (const KeySpec& spec : known_keys())
        if (spec.path == path) return &spec;
    return nullptr;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            std::size_t above = row[j];
            std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::string nearest_key(std::string_view path) {
    auto dot = path.rfind('.');
    std::string_view parent = dot == std::string_view::npos ? "" : path.substr(0, dot);
    std::string_view name = dot == std::string_view::npos ? path : path.substr(dot + 1);
    const KeySpec* best = nullptr;
    std::size_t best_distance = 0;
    for (const KeySpec& spec : known_keys()) {
        // Compare names within the same section; a key in another section must match exactly.
        std::size_t d = spec.parent() == parent ? edit_distance(name, spec.name())
                        : spec.name() == name   ? 1
                                                : std::string_view::npos;
        if (d == std::string_view::npos) continue;
        if (best == nullptr || d < best_distance) {
            best = &spec;
            best_distance = d;
        }
    }
    // Close enough to be a typo: about a third of the name may differ.
    if (best == nullptr || best_distance == 0 ||
        best_distance > std::max<std::size_t>(2, name.size() / 3))
        return "";
    return std::string(best->path);
}

std::string_view renamed_key(std::string_view lichess_bot_path) {
    for (const auto& [theirs, ours] : kRenames)
        if (theirs == lichess_bot_path) return ours;
    return "";
}

const std::vector<MinMaxPair>& min_max_pairs() {
    static const std::vector<MinMaxPair> pairs = {
        {"challenge.min_base", "challenge.max_base"},
        {"challenge.min_increment", "challenge.max_increment"},
        {"challenge.min_days", "challenge.max_days"},
        {"challenge.min_rating", "challenge.max_rating"},
        {"matchmaking.opponent_min_rating", "matchmaking.opponent_max_rating"},
        {"engine.strength.min", "engine.strength.max"},
    };
    return pairs;
}

}  // namespace config
