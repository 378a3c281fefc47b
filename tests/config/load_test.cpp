// Loading: defaults, and one table row per kind of error with its exact key and line.
#include "config/load.hpp"

#include <gtest/gtest.h>

#include "config/keys.hpp"
#include "test_support.hpp"

namespace config {
namespace {

TEST(ConfigDefaults, EmptyFileGivesDefaults) {
    LoadResult r = load_string("", "config.yml", testing::with_env_token());
    ASSERT_TRUE(r.ok()) << format_error(r.errors.front(), "config.yml");
    Config expected;
    expected.token = testing::kSecret;
    EXPECT_EQ(*r.config, expected);
    EXPECT_EQ(r.config->url, "https://lichess.org");
    EXPECT_EQ(r.config->engine.hash_mb, 64);
    EXPECT_EQ(r.config->engine.threads, 1);
    EXPECT_EQ(r.config->engine.move_overhead_ms, 100);
    EXPECT_FALSE(r.config->engine.ponder);
    EXPECT_EQ(r.config->engine.evaluation, "nnue");
    EXPECT_FALSE(r.config->engine.book.enabled);
    EXPECT_EQ(r.config->engine.book.selection, "weighted_random");
    EXPECT_EQ(r.config->challenge.concurrency, 1);
    EXPECT_EQ(r.config->max_takebacks_accepted, 0);  // takebacks never granted
    // Lichess's ten game types: an operator narrows the list.
    EXPECT_EQ(r.config->challenge.variants,
              (std::vector<std::string>{"standard", "chess960", "fromPosition", "crazyhouse",
                                        "antichess", "atomic", "horde", "kingOfTheHill",
                                        "racingKings", "threeCheck"}));
    EXPECT_EQ(r.config->challenge.modes, (std::vector<std::string>{"casual", "rated"}));
    EXPECT_FALSE(r.config->matchmaking.enabled);
    EXPECT_EQ(r.config->pgn_directory, "");
    EXPECT_EQ(r.config->health.listen, "127.0.0.1:8080");
    EXPECT_EQ(r.config->log.level, "info");
    EXPECT_TRUE(r.warnings.empty());
}

TEST(ConfigDefaults, OnlyCommentsAndEmptySectionsGiveDefaults) {
    LoadResult r =
        load_string("# nothing here\nengine:\nchallenge:\n", "c.yml", testing::with_env_token());
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r.config->engine, EngineConfig{});
}

TEST(ConfigLoad, ReadsEveryKind) {
    const char* text = R"(
url: http://127.0.0.1:9000/
engine:
  hash_mb: 256
  threads: 4
  ponder: yes
  evaluation: HCE
  book:
    enabled: false
    files:
      standard: [a.bin, b.bin]
      Chess960: c.bin
challenge:
  variants: [Standard, CHESS960]
  time_controls:
    - blitz
    - blitz
    - rapid
  block_list: [some_user, Another-One]
  min_rating: -0
greeting:
  hello:
max_takebacks_accepted: 3
log:
  level: DEBUG
)";
    LoadResult r = load_string(text, "c.yml", testing::with_env_token());
    ASSERT_TRUE(r.ok()) << format_error(r.errors.front(), "c.yml");
    const Config& c = *r.config;
    EXPECT_EQ(c.url, "http://127.0.0.1:9000/");
    EXPECT_EQ(c.engine.hash_mb, 256);
    EXPECT_EQ(c.engine.threads, 4);
    EXPECT_TRUE(c.engine.ponder);
    EXPECT_EQ(c.engine.evaluation, "hce");
    EXPECT_EQ(c.engine.book.files.at("standard"), (std::vector<std::string>{"a.bin", "b.bin"}));
    EXPECT_EQ(c.engine.book.files.at("chess960"), (std::vector<std::string>{"c.bin"}));
    EXPECT_EQ(c.challenge.variants, (std::vector<std::string>{"standard", "chess960"}));
    EXPECT_EQ(c.challenge.time_controls, (std::vector<std::string>{"blitz", "rapid"}));
    EXPECT_EQ(c.challenge.block_list, (std::vector<std::string>{"some_user", "Another-One"}));
    EXPECT_EQ(c.greeting.hello, "");
    EXPECT_EQ(c.max_takebacks_accepted, 3);
    EXPECT_EQ(c.log.level, "debug");
}

struct ErrorCase {
    const char* name;
    const char* yaml;
    const char* key_path;
    int line;
    const char* message_part;  // must appear in the message
};

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.name; }

class ConfigErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ConfigErrors, NamesKeyAndLine) {
    const ErrorCase& c = GetParam();
    LoadResult r = load_string(c.yaml, "config.yml", testing::with_env_token());
    ASSERT_FALSE(r.ok()) << "expected an error for:\n" << c.yaml;
    EXPECT_FALSE(r.config.has_value());
    const ConfigError& e = r.errors.front();
    EXPECT_EQ(e.key_path, c.key_path) << format_error(e, "config.yml");
    EXPECT_EQ(e.line, c.line) << format_error(e, "config.yml");
    EXPECT_NE(e.message.find(c.message_part), std::string::npos) << format_error(e, "config.yml");
}

const ErrorCase kErrorCases[] = {
    {"UnknownKeyNearMiss", "engine:\n  hash_mbb: 64\n", "engine.hash_mbb", 2,
     "did you mean `engine.hash_mb`?"},
    {"UnknownKeyInWrongSection", "url: https://lichess.org\nhash_mb: 64\n", "hash_mb", 2,
     "did you mean `engine.hash_mb`?"},
    {"UnknownKeyFarAway", "colour_scheme: dark\n", "colour_scheme", 1,
     "config.example.yml lists every setting"},
    {"LichessBotKeyRenamed", "move_overhead: 2000\n", "move_overhead", 1,
     "Outpost uses `engine.move_overhead_ms`"},
    {"LichessBotSectionRenamed", "engine:\n  polyglot:\n    enabled: true\n", "engine.polyglot", 2,
     "Outpost uses `engine.book`"},
    {"WrongTypeWholeNumber", "challenge:\n  concurrency: 2\n  min_base: fast\n",
     "challenge.min_base", 3, "expected a whole number of seconds, got \"fast\""},
    {"WrongTypeFraction", "engine:\n  hash_mb: 64.5\n", "engine.hash_mb", 2,
     "expected a whole number of megabytes, got \"64.5\""},
    {"WrongTypeBool", "engine:\n  ponder: sometimes\n", "engine.ponder", 2,
     "expected true or false, got \"sometimes\""},
    {"WrongTypeListForText", "url: [a, b]\n", "url", 1, "expected text, got a list"},
    {"WrongTypeSectionForList", "challenge:\n  variants:\n    standard: 1\n", "challenge.variants",
     3, "got a section of settings"},
    {"WrongTypeScalarForSection", "engine: 5\n", "engine", 1,
     "expected a section with settings indented below it, got \"5\""},
    {"NestedListEntry", "challenge:\n  block_list: [a1, [b2]]\n", "challenge.block_list", 2,
     "each entry of the list must be a single name"},
    {"NoValueForNumber", "engine:\n  hash_mb:\n  threads: 2\n", "engine.hash_mb", 2,
     "has no value"},
    {"OutOfRangeHash", "engine:\n  hash_mb: 100000\n", "engine.hash_mb", 2,
     "must be between 1 and 65536 megabytes, got 100000"},
    {"OutOfRangeHugeNumber", "engine:\n  threads: 99999999999999999999999\n", "engine.threads", 2,
     "must be between 1 and 256 threads, got 99999999999999999999999"},
    {"ConcurrencyZero", "challenge:\n  concurrency: 0\n", "challenge.concurrency", 2,
     "must be between 1 and 64 games, got 0"},
    {"NegativeOverhead", "engine:\n  move_overhead_ms: -5\n", "engine.move_overhead_ms", 2,
     "must be between 0 and 10000 milliseconds"},
    {"NegativeTakebacks", "abort_time: 30\nmax_takebacks_accepted: -1\n", "max_takebacks_accepted",
     2, "must be between 0 and 1000 takebacks, got -1"},
    {"MinLargerThanMax", "challenge:\n  max_base: 60\n  min_base: 600\n", "challenge.min_base", 3,
     "is larger than challenge.max_base"},
    {"MinLargerThanDefaultMax", "challenge:\n  min_increment: 30\n", "challenge.min_increment", 2,
     "(30 seconds) is larger than challenge.max_increment (20 seconds)"},
    {"MaxBelowDefaultMin", "matchmaking:\n  opponent_max_rating: 100\n",
     "matchmaking.opponent_min_rating", 2, "is larger than matchmaking.opponent_max_rating"},
    {"UnknownVariant", "challenge:\n  variants: [standard, duckChess]\n", "challenge.variants", 2,
     "unknown variant \"duckChess\""},
    {"UnknownSpeedOnItsOwnLine", "challenge:\n  time_controls:\n    - blitz\n    - ultraBullet\n",
     "challenge.time_controls", 4, "unknown speed \"ultraBullet\""},
    {"MisspeltMode", "challenge:\n  modes: [casual, rted]\n", "challenge.modes", 2,
     "did you mean rated?"},
    {"UnknownBookVariant", "engine:\n  book:\n    files:\n      duckChess: [a.bin]\n",
     "engine.book.files.duckChess", 4, "unknown variant \"duckChess\""},
    {"UnknownBookSelection", "engine:\n  book:\n    selection: best\n", "engine.book.selection", 3,
     "allowed are best_move, weighted_random or uniform_random"},
    {"UnknownEvaluation", "engine:\n  evaluation: stockfish\n", "engine.evaluation", 2,
     "allowed are nnue or hce"},
    {"UnknownLogLevel", "log:\n  level: verbose\n", "log.level", 2, "unknown value \"verbose\""},
    {"PlainHttpRemote", "url: http://lichess.org\n", "url", 1, "must use https://"},
    {"NotAUrl", "url: lichess.org\n", "url", 1, "must start with https://"},
    {"BadListen", "health:\n  listen: localhost\n", "health.listen", 2, "expected host:port"},
    {"BadListenPort", "health:\n  listen: 127.0.0.1:70000\n", "health.listen", 2,
     "expected host:port"},
    {"BadMatchmakingTimeControl", "matchmaking:\n  time_controls: [\"3+2\", \"fast\"]\n",
     "matchmaking.time_controls", 2, "expected minutes+seconds like \"3+2\""},
    {"ZeroMatchmakingTimeControl", "matchmaking:\n  time_controls:\n    - 1+0\n    - 0+0\n",
     "matchmaking.time_controls", 4, "not both 0"},
    {"IncrementAboveChallengeMaximum", "matchmaking:\n  time_controls: [\"3+90\"]\n",
     "matchmaking.time_controls", 2, "seconds 0 to 60"},
    {"UltraBulletMatchmaking", "matchmaking:\n  time_controls:\n    - 1+0\n    - 0.25+0\n",
     "matchmaking.time_controls", 4, "\"0.25+0\" is UltraBullet"},
    {"FromPositionMatchmaking", "matchmaking:\n  variants: [fromPosition]\n",
     "matchmaking.variants", 2, "allowed are standard, chess960, crazyhouse, "},
    {"BlockListPlainHttpRemote",
     "challenge:\n  online_block_list:\n    - https://example.org/a.txt\n    - "
     "http://example.org/b.txt\n",
     "challenge.online_block_list", 4, "must use https://"},
    {"BlockListNotAUrl", "challenge:\n  online_block_list: [example.com/blocklist]\n",
     "challenge.online_block_list", 2, "must start with https://"},
    {"OnlineSourcePlainHttpRemote",
     "online_moves:\n  lichess_cloud_analysis:\n    url: http://lichess.org\n",
     "online_moves.lichess_cloud_analysis.url", 3, "must use https://"},
    {"OnlineSourceMinTimeAboveMaxTime",
     "online_moves:\n  online_egtb:\n    min_time: 600\n    max_time: 60\n",
     "online_moves.online_egtb.min_time", 3, "is above online_moves.online_egtb.max_time"},
    {"ExplorerPlayerWithoutName",
     "online_moves:\n  lichess_opening_explorer:\n    source: player\n",
     "online_moves.lichess_opening_explorer.player_name", 0, "name the Lichess player"},
    {"UnknownTablebaseQuality", "online_moves:\n  online_egtb:\n    move_quality: good\n",
     "online_moves.online_egtb.move_quality", 3, "allowed are best or suggest"},
    {"TablebaseTooManyPieces", "online_moves:\n  online_egtb:\n    max_pieces: 8\n",
     "online_moves.online_egtb.max_pieces", 3, "8"},
    {"UnknownSortBy", "challenge:\n  sort_by: rating\n", "challenge.sort_by", 2,
     "allowed are best or first"},
    {"UnknownPreference", "challenge:\n  preference: humans\n", "challenge.preference", 2,
     "(did you mean human?)"},
    {"MaxQueuedTooLarge", "challenge:\n  max_queued: 1000\n", "challenge.max_queued", 2, "1000"},
    {"BadUsername", "challenge:\n  allow_list:\n    - good_name\n    - \"bad name!\"\n",
     "challenge.allow_list", 4, "is not a Lichess username"},
    {"DuplicateKey", "engine:\n  threads: 2\n  threads: 3\n", "engine.threads", 3,
     "is given twice (first on line 2)"},
    {"YamlSyntaxError", "engine:\n  hash_mb: 64\n  threads: [1, 2\nlog: {}\n", "", 4,
     "not valid YAML"},
    {"YamlBadIndentation", "engine:\n  hash_mb: 64\n threads: 2\n", "", 3, "not valid YAML"},
    {"RootIsAList", "- url\n- token\n", "", 1, "must be made of `key: value` lines"},
    {"RootIsText", "just some words\n", "", 1, "must be made of `key: value` lines"},
    {"TwoDocuments", "url: https://lichess.org\n---\nurl: https://lichess.org\n", "", 0,
     "2 YAML documents"},
    {"NonScalarKey", "? [a, b]\n: 1\n", "", 1, "a key must be a plain name"},
};

INSTANTIATE_TEST_SUITE_P(Table, ConfigErrors, ::testing::ValuesIn(kErrorCases),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(ConfigErrors, FormatNamesFileLineAndKey) {
    LoadResult r =
        load_string("challenge:\n  min_base: fast\n", "config.yml", testing::with_env_token());
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(format_error(r.errors[0], "config.yml"),
              "config.yml:2: challenge.min_base: expected a whole number of seconds, got \"fast\"");
}

TEST(ConfigErrors, ReportsEveryProblemNotJustTheFirst) {
    LoadResult r = load_string("engine:\n  hash_mb: x\n  threads: y\nlog:\n  levl: info\n",
                               "config.yml", testing::with_env_token());
    ASSERT_EQ(r.errors.size(), 3u);
    EXPECT_EQ(r.errors[0].line, 2);
    EXPECT_EQ(r.errors[1].line, 3);
    EXPECT_EQ(r.errors[2].key_path, "log.levl");
}

TEST(ConfigErrors, ValueChecksRunEvenWhenSomeKeysCouldNotBeRead) {
    // max_base is unreadable, so "min_base is larger than max_base" would be misleading.
    LoadResult r =
        load_string("challenge:\n  min_base: 3600\n  max_base: lots\n  modes: [rated, blitz]\n",
                    "config.yml", testing::without_env());
    ASSERT_EQ(r.errors.size(), 3u);
    EXPECT_EQ(r.errors[0].key_path, "challenge.max_base");
    EXPECT_EQ(r.errors[1].key_path, "challenge.modes");
    EXPECT_EQ(r.errors[1].line, 4);
    EXPECT_EQ(r.errors[2].key_path, "token");  // no line: comes last
}

TEST(ConfigErrors, UnreadableFile) {
    LoadResult r = load_file("/nonexistent/outpost/config.yml", testing::with_env_token());
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].key_path, "");
    EXPECT_EQ(r.errors[0].line, 0);
    EXPECT_EQ(format_error(r.errors[0], r.source_name),
              "/nonexistent/outpost/config.yml: cannot read the config file: the file does not "
              "exist");
}

TEST(ConfigErrors, FolderInsteadOfFile) {
    testing::TempDir dir;
    LoadResult r = load_file(dir.path().string(), testing::with_env_token());
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_NE(r.errors[0].message.find("is a folder"), std::string::npos);
}

TEST(ConfigErrors, MissingTokenTellsTheThreeWays) {
    LoadResult r = load_string("url: https://lichess.org\n", "config.yml", testing::without_env());
    ASSERT_EQ(r.errors.size(), 1u);
    const ConfigError& e = r.errors[0];
    EXPECT_EQ(e.key_path, "token");
    EXPECT_EQ(e.line, 0);
    EXPECT_NE(e.message.find("LICHESS_BOT_TOKEN"), std::string::npos);
    EXPECT_NE(e.message.find("token_file:"), std::string::npos);
    EXPECT_NE(e.message.find("token: ..."), std::string::npos);
}

TEST(ConfigErrors, EmptyTokenKeyPointsAtItsLine) {
    LoadResult r = load_string("url: https://lichess.org\ntoken: \"\"\n", "config.yml",
                               testing::without_env());
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].key_path, "token");
    EXPECT_EQ(r.errors[0].line, 2);
}

TEST(ConfigWarnings, UsefulWarnings) {
    const char* text = R"(
challenge:
  accept_bot: false
  only_bot: true
greeting:
  hello: "Hello {name}"
health:
  listen: 0.0.0.0:8080
)";
    LoadResult r = load_string(text, "c.yml", testing::with_env_token());
    ASSERT_TRUE(r.ok());
    std::vector<std::string> keys;
    for (const ConfigError& w : r.warnings) keys.push_back(w.key_path);
    EXPECT_EQ(keys,
              (std::vector<std::string>{"challenge.only_bot", "greeting.hello", "health.listen"}));
    EXPECT_EQ(r.warnings[1].line, 6);
}

TEST(ConfigWarnings, MatchmakingDuringGamesNeedsASecondSlot) {
    const char* text = "matchmaking:\n  enabled: true\n  allow_during_games: true\n";
    LoadResult one = load_string(text, "c.yml", testing::with_env_token());
    ASSERT_TRUE(one.ok());
    ASSERT_EQ(one.warnings.size(), 1u);
    EXPECT_EQ(one.warnings[0].key_path, "matchmaking.allow_during_games");
    EXPECT_EQ(one.warnings[0].line, 3);
    EXPECT_NE(one.warnings[0].message.find("challenge.concurrency is 1"), std::string::npos);
    LoadResult two = load_string(std::string(text) + "challenge:\n  concurrency: 2\n", "c.yml",
                                 testing::with_env_token());
    ASSERT_TRUE(two.ok());
    for (const ConfigError& w : two.warnings)
        EXPECT_NE(w.key_path, "matchmaking.allow_during_games") << w.message;
}

TEST(ConfigWarnings, ChallengeQueueKeysThatCannotWork) {
    const char* text = R"(
challenge:
  concurrency: 2
  max_simultaneous_games_per_user: 2
  games_reserved_for_humans: 2
  max_recent_bot_challenges: 3
  online_block_list: ["http://127.0.0.1:8000/list.txt", "https://example.org/list.txt"]
)";
    LoadResult r = load_string(text, "c.yml", testing::with_env_token());
    ASSERT_TRUE(r.ok()) << r.errors.front().message;  // loopback http and https are fine
    std::vector<std::string> keys;
    for (const ConfigError& w : r.warnings) keys.push_back(w.key_path);
    EXPECT_EQ(keys, (std::vector<std::string>{"challenge.games_reserved_for_humans",
                                              "challenge.max_recent_bot_challenges"}));
    EXPECT_EQ(r.config->challenge.online_block_list.size(), 2u);
    EXPECT_EQ(r.config->challenge.games_reserved_for_humans, 2);
}

TEST(ConfigLoad, OnlineMovesReadEverySourceAndLoopbackHttp) {
    const std::string text = R"(online_moves:
  max_out_of_book_moves: 4
  lichess_opening_explorer:
    enabled: true
    url: "http://127.0.0.1:9000"
    source: player
    player_name: DrNykterstein
    sort: games
    min_games: 3
  lichess_cloud_analysis:
    enabled: true
    move_quality: good
    max_score_difference: 30
  online_egtb:
    enabled: true
    source: chessdb
    max_pieces: 6
    move_quality: suggest
  chessdb_book:
    enabled: true
    min_time: 0
    max_time: 60
    move_quality: all
)";
    LoadResult r = load_string(text, "c.yml", testing::with_env_token());
    ASSERT_TRUE(r.ok()) << format_error(r.errors.front(), "c.yml");
    const OnlineMovesConfig& om = r.config->online_moves;
    EXPECT_EQ(om.max_out_of_book_moves, 4);
    EXPECT_EQ(om.max_retries, 2);
    EXPECT_TRUE(om.lichess_opening_explorer.ask.enabled);
    EXPECT_EQ(om.lichess_opening_explorer.ask.url, "http://127.0.0.1:9000");
    EXPECT_EQ(om.lichess_opening_explorer.player_name, "DrNykterstein");
    EXPECT_EQ(om.lichess_opening_explorer.sort, "games");
    EXPECT_EQ(om.lichess_cloud_analysis.move_quality, "good");
    EXPECT_EQ(om.lichess_cloud_analysis.ask.url, "https://lichess.org");  // the default
    EXPECT_EQ(om.online_egtb.source, "chessdb");
    EXPECT_EQ(om.online_egtb.max_pieces, 6);
    EXPECT_EQ(om.chessdb_book.ask.max_time, 60);
    EXPECT_EQ(om.chessdb_book.move_quality, "all");
}

TEST(ConfigKeys, NearestKeyAndEditDistance) {
    EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
    EXPECT_EQ(edit_distance("", "abc"), 3u);
    EXPECT_EQ(nearest_key("challenge.concurency"), "challenge.concurrency");
    EXPECT_EQ(nearest_key("challenge.min_bse"), "challenge.min_base");
    EXPECT_EQ(nearest_key("threads"), "engine.threads");
    EXPECT_EQ(nearest_key("challenge.zzzzzz"), "");
}

TEST(ConfigKeys, TableIsConsistent) {
    Config config;
    for (const KeySpec& spec : known_keys()) {
        SCOPED_TRACE(std::string(spec.path));
        EXPECT_EQ(find_key(spec.path), &spec);
        if (!spec.parent().empty()) {
            const KeySpec* parent = find_key(spec.parent());
            ASSERT_NE(parent, nullptr);
            EXPECT_EQ(parent->kind, Kind::Section);
            EXPECT_LT(parent, &spec);  // a section comes before its children
        }
        if (spec.kind == Kind::Section) {
            EXPECT_EQ(spec.field, nullptr);
            continue;
        }
        ASSERT_NE(spec.field, nullptr);
        FieldRef field = spec.field(config);
        switch (spec.kind) {
            case Kind::Bool:
                EXPECT_TRUE(std::holds_alternative<bool*>(field));
                break;
            case Kind::Int: {
                ASSERT_TRUE(std::holds_alternative<int*>(field));
                int value = *std::get<int*>(field);
                EXPECT_GE(value, spec.min);
                EXPECT_LE(value, spec.max);
                break;
            }
            case Kind::String:
                EXPECT_TRUE(std::holds_alternative<std::string*>(field));
                break;
            case Kind::StringList:
                EXPECT_TRUE(std::holds_alternative<std::vector<std::string>*>(field));
                break;
            case Kind::BookFiles:
                EXPECT_TRUE(std::holds_alternative<BookFiles*>(field));
                break;
            case Kind::Tournaments:
                EXPECT_TRUE(std::holds_alternative<std::vector<TournamentConfig>*>(field));
                break;
            case Kind::Section:
                break;
        }
    }
    for (const MinMaxPair& pair : min_max_pairs()) {
        EXPECT_NE(find_key(pair.min_key), nullptr);
        EXPECT_NE(find_key(pair.max_key), nullptr);
    }
}

TEST(ConfigLoad, TournamentsAreArenasWithTheirTeamAndEntryCode) {
    const char* text = R"(
tournaments:
  - {id: AbCd1234}
  - id: team0001
    team: my-team
    password: s3cret-code
  - Zz9y8X7w
)";
    LoadResult r = load_string(text, "c.yml", config::testing::with_env_token());
    ASSERT_TRUE(r.ok()) << format_error(r.errors.front(), "c.yml");
    const auto& arenas = r.config->tournaments;
    ASSERT_EQ(arenas.size(), 3u);
    EXPECT_EQ(arenas[0], (TournamentConfig{"AbCd1234", "", ""}));
    EXPECT_EQ(arenas[1], (TournamentConfig{"team0001", "my-team", "s3cret-code"}));
    EXPECT_EQ(arenas[2].id, "Zz9y8X7w");
}

TEST(ConfigLoad, TournamentMistakesNameTheEntry) {
    struct Case {
        const char* yaml;
        int line;
        const char* says;
    };
    const Case cases[] = {
        {"tournaments:\n  - {id: short}\n", 2, "is not an arena id (8 letters and digits"},
        {"tournaments:\n  - {id: AbCd1234}\n  - {id: AbCd1234}\n", 3, "listed twice"},
        {"tournaments:\n  - {id: AbCd1234, tema: x}\n", 2, "`tema` is not a setting of an arena"},
        {"tournaments:\n  - {team: x}\n", 2, "entry 1 has no id"},
        {"tournaments:\n  - {id: AbCd1234, team: \"my team\"}\n", 2, "is not a team id"},
        {"tournaments: AbCd1234\n", 1, "a list of arenas"},
    };
    for (const Case& c : cases) {
        LoadResult r = load_string(c.yaml, "c.yml", config::testing::with_env_token());
        ASSERT_FALSE(r.ok()) << c.yaml;
        EXPECT_EQ(r.errors.front().key_path, "tournaments") << c.yaml;
        EXPECT_EQ(r.errors.front().line, c.line) << c.yaml;
        EXPECT_NE(r.errors.front().message.find(c.says), std::string::npos)
            << format_error(r.errors.front(), "c.yml");
    }
}

TEST(ConfigLoad, TheDeclinedBotsFileLivesInThePgnFolder) {
    testing::TempDir dir;
    const std::string pgn = (dir.path() / "pgn").string();
    LoadResult r =
        load_string("pgn_directory: \"" + pgn + "\"\n", "c.yml", config::testing::with_env_token());
    ASSERT_TRUE(r.ok()) << format_error(r.errors.front(), "c.yml");
    EXPECT_EQ(r.config->matchmaking.declined_bots_file,
              (dir.path() / "pgn" / "declined-bots.json").string());
    LoadResult slash = load_string("pgn_directory: \"" + pgn + "/\"\n", "c.yml",
                                   config::testing::with_env_token());
    ASSERT_TRUE(slash.ok());
    EXPECT_EQ(slash.config->matchmaking.declined_bots_file,
              (dir.path() / "pgn" / "declined-bots.json").string());
    LoadResult none = load_string("", "c.yml", config::testing::with_env_token());
    EXPECT_EQ(none.config->matchmaking.declined_bots_file, "");
    LoadResult own = load_string("matchmaking:\n  declined_bots_file: /tmp/x.json\n", "c.yml",
                                 config::testing::with_env_token());
    EXPECT_EQ(own.config->matchmaking.declined_bots_file, "/tmp/x.json");
}

TEST(ConfigWarnings, AGreetingWithALinkIsNeverSeen) {
    LoadResult r = load_string("greeting:\n  goodbye: \"Good game! My code: github.com/me/bot\"\n",
                               "c.yml", config::testing::with_env_token());
    ASSERT_TRUE(r.ok());
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].key_path, "greeting.goodbye");
    EXPECT_NE(r.warnings[0].message.find("drops a bot's chat line with a link"), std::string::npos)
        << r.warnings[0].message;
}

}  // namespace
}  // namespace config
