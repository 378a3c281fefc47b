// End-to-end games of the seven Lichess variants: the daemon accepts each by its default config,
// rebuilds it from its initialFen (or the variant's own start) and the move list, plays it
// against the emulator, whose referee is the engine's perft-verified rules, to a win by the
// variant's own rule, and writes its PGN with lila's Variant tag, with no illegal move and no
// time lost. The online sources that have a variant are asked for it (drops included), and bad
// input from the server in a variant game ends the session with the game named.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bot_fixture.hpp"
#include "tests/support/log_capture.hpp"

namespace e2e {
namespace {

// A PGN folder of its own for one test, removed at the end.
class VariantPgnDir {
  public:
    explicit VariantPgnDir(const std::string& name)
        : path_(std::filesystem::temp_directory_path() /
                ("e2e-variant-" + name + "-" + std::to_string(::getpid()))) {
        std::filesystem::remove_all(path_);
    }
    ~VariantPgnDir() {
        std::error_code ec;
        std::filesystem::remove_all(path_, ec);
    }
    VariantPgnDir(const VariantPgnDir&) = delete;
    VariantPgnDir& operator=(const VariantPgnDir&) = delete;

    std::string config() const { return "pgn_directory: \"" + path_.string() + "\"\n"; }
    // The text of the one PGN file written, waiting for it (empty when none came).
    std::string wait_pgn(emu::EmulatorFixture& fx) const {
        using namespace std::chrono_literals;
        std::string pgn;
        (void)fx.wait_until(
            [&] {
                if (!std::filesystem::exists(path_)) return false;
                for (const auto& e : std::filesystem::directory_iterator(path_)) {
                    if (e.path().extension() != ".pgn") continue;
                    std::ifstream in(e.path());
                    std::stringstream all;
                    all << in.rdbuf();
                    pgn = all.str();
                }
                return !pgn.empty();
            },
            10s);
        return pgn;
    }

  private:
    std::filesystem::path path_;
};

bool has_drop(const emu::GameView& g, bool by_bot) {
    return std::any_of(g.moves.begin(), g.moves.end(), [&](const auto& m) {
        return m.by_bot == by_bot && m.uci.find('@') != std::string::npos;
    });
}

// ---- a game of each variant, won by the variant's own rule -----------------------------------

struct VariantGame {
    const char* name;
    const char* key;        // Lichess's
    const char* fen;        // "" for the variant's own start ("startpos" on the wire)
    const char* bot_color;  // the challenger takes the other side
    const char* tag;        // lila's Variant tag
    const char* rule;       // what ends it, for failure messages
    // From the start, a win may come by mate before the variant's own rule (king of the hill,
    // three-check, atomic): that status is a win too. Empty: only the variant's rule.
    const char* or_status = "";
};

void PrintTo(const VariantGame& v, std::ostream* os) { *os << v.name; }

class E2eVariantGame : public ::testing::TestWithParam<VariantGame> {};

TEST_P(E2eVariantGame, IsAcceptedPlayedAndWonByTheVariantsOwnRule) {
    using namespace std::chrono_literals;
    const VariantGame& v = GetParam();
    emu::EmulatorFixture fx("name: variant\nseed: 38\nkeepalive_ms: 500\n");
    VariantPgnDir pgn_dir(v.name);
    BotRunner bot(fx, settings("{concurrency: 1}", pgn_dir.config()));
    ASSERT_TRUE(wait_event_stream(fx));
    const std::string challenger_color = std::string(v.bot_color) == "white" ? "black" : "white";
    const std::string fen = v.fen[0] ? std::string(", initial_fen: \"") + v.fen + "\"" : "";
    // 30+0 is bullet (Lichess's UltraBullet, below it, is closed to bots); a random mover
    // answers within 20 ms, so each game takes a few seconds of the bot's clock.
    send_challenges(fx, std::string("challenges:\n  - {id: var00001, at_ms: 0, challenger: "
                                    "{name: Rival, rating: 1500}, variant: ") +
                            v.key + fen + ", clock: {limit: 30, increment: 0}, color: " +
                            challenger_color + ", opponent: {kind: random, think_ms: 20}}\n");
    const auto g = fx.wait_game_over("var00001", 120s);
    ASSERT_TRUE(g.over) << describe(game(fx, "var00001"));
    EXPECT_EQ(challenge(fx, "var00001").status, "accepted");
    EXPECT_EQ(g.bot_color, v.bot_color);
    EXPECT_TRUE(g.status == "variantEnd" || (v.or_status[0] && g.status == v.or_status))
        << v.rule << ": " << describe(g);
    EXPECT_EQ(g.winner.value_or("none"), v.bot_color) << v.rule << ": " << describe(g);
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_FALSE(bot_forfeited_on_time(g)) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "var00001"), 0) << describe(g);
    EXPECT_GE(bot_moves(g), 1);
    const auto report = fx->report();
    EXPECT_EQ(report["games"][0]["variant"], v.key);

    // The PGN: lila's Variant tag, the FEN the game started from (FEN and SetUp after
    // Termination, as lila's PgnDump writes them), and a movetext that replays to the win.
    const std::string pgn = pgn_dir.wait_pgn(fx);
    EXPECT_NE(pgn.find(std::string("[Variant \"") + v.tag + "\"]"), std::string::npos) << pgn;
    const std::string result = std::string(v.bot_color) == "white" ? "1-0" : "0-1";
    EXPECT_NE(pgn.find("[Result \"" + result + "\"]"), std::string::npos) << pgn;
    if (v.fen[0])
        EXPECT_NE(pgn.find(std::string("[FEN \"") + v.fen + "\"]\n[SetUp \"1\"]"),
                  std::string::npos)
            << pgn;
    else
        EXPECT_EQ(pgn.find("[FEN"), std::string::npos) << pgn;
    EXPECT_EQ(pgn.find("{ illegal"), std::string::npos) << pgn;
    EXPECT_EQ(pgn.find("{ unreadable"), std::string::npos) << pgn;
    // The winning move is written as a win, as lila's SAN writes a variant's end.
    EXPECT_NE(pgn.find("# " + result), std::string::npos) << pgn;

    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }, 10s));
    EXPECT_EQ(bot.metrics().games_finished_count(service::GameResult::Win), 1u);
    EXPECT_EQ(bot.metrics().time_forfeits.load(), 0u);
    EXPECT_EQ(bot.stop(), 0);
}

// From the variant's own start ("startpos" on the wire), a random mover loses within a few
// seconds of the bot's clock (5 to 11 s each on a loaded two-core machine), by the variant's rule
// or, where the variant has one, by mate. The horde plays White from its start (White wins only
// by mate) and Black from a position: capturing all 36 pawns of the start takes 26 s. From a
// position (an initialFen, with three-check's checks-given suffix), the variant's own win is a
// few moves away (the engine sees it as a mate in 2 to 4 at depth 8), so those rows ask for
// exactly that end.
INSTANTIATE_TEST_SUITE_P(
    Variants, E2eVariantGame,
    ::testing::Values(
        VariantGame{"KingOfTheHillFromItsStart", "kingOfTheHill", "", "white", "King of the Hill",
                    "a king on the hill", "mate"},
        VariantGame{"ThreeCheckFromItsStart", "threeCheck", "", "white", "Three-check",
                    "the third check", "mate"},
        VariantGame{"AtomicFromItsStart", "atomic", "", "white", "Atomic",
                    "a capture explodes the king", "mate"},
        VariantGame{"AntichessFromItsStart", "antichess", "", "white", "Antichess",
                    "every piece given away, or stalemated"},
        VariantGame{"RacingKingsFromItsStart", "racingKings", "", "white", "Racing Kings",
                    "the king reaches the eighth rank"},
        VariantGame{"HordeFromItsStart", "horde", "", "white", "Horde", "the horde mates", "mate"},
        VariantGame{"HordeFromAPosition", "horde", "3qk3/8/8/8/8/8/PP6/8 w - - 0 1", "black",
                    "Horde", "the horde captured to the last pawn"},
        VariantGame{"KingOfTheHillFromAPosition", "kingOfTheHill",
                    "k7/ppp5/8/8/8/8/5PPP/4K3 w - - 0 1", "white", "King of the Hill",
                    "the king walks to the hill"},
        VariantGame{"ThreeCheckFromAPosition", "threeCheck",
                    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +2+0", "white",
                    "Three-check", "the third check"},
        VariantGame{"AtomicFromAPosition", "atomic",
                    "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2", "white",
                    "Atomic", "a capture beside the king explodes it"},
        VariantGame{"AntichessFromAPosition", "antichess", "k7/8/8/8/8/8/8/1RR5 w - - 0 1", "white",
                    "Antichess", "both rooks given away"}),
    [](const auto& info) { return std::string(info.param.name); });

// Crazyhouse from its start at 1+0 on this (two-core) machine: the longest game of the variants
// (no fifty-move rule, pieces come back), a clock that leaves no slack, and drops both ways.
TEST(E2eVariantGames, ABulletCrazyhouseGameIsMatedWithDropsAndLosesNoTime) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: crazyhouse\nseed: 39\nkeepalive_ms: 500\n");
    VariantPgnDir pgn_dir("crazyhouse");
    BotRunner bot(fx, settings("{concurrency: 1}", pgn_dir.config()));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, R"(
challenges:
  - {id: zh000001, at_ms: 0, challenger: {name: Dropper, rating: 1500}, variant: crazyhouse,
     clock: {limit: 60, increment: 0}, color: black, opponent: {kind: random, think_ms: 20}}
)");
    const auto g = fx.wait_game_over("zh000001", 200s);
    ASSERT_TRUE(g.over) << describe(game(fx, "zh000001"));
    EXPECT_EQ(challenge(fx, "zh000001").status, "accepted");
    EXPECT_EQ(g.status, "mate") << describe(g);
    EXPECT_EQ(g.winner.value_or("none"), "white") << describe(g);
    EXPECT_FALSE(bot_forfeited_on_time(g)) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "zh000001"), 0) << describe(g);
    // Pieces were dropped (the random mover drops whenever its pocket lets it), and the bot
    // replayed each drop the server sent.
    EXPECT_TRUE(has_drop(g, false) || has_drop(g, true)) << describe(g);
    const std::string pgn = pgn_dir.wait_pgn(fx);
    EXPECT_NE(pgn.find("[Variant \"Crazyhouse\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find('@'), std::string::npos) << pgn;
    EXPECT_EQ(pgn.find("{ illegal"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("# 1-0"), std::string::npos) << pgn;
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }, 10s));
    EXPECT_EQ(bot.metrics().time_forfeits.load(), 0u);
    EXPECT_EQ(bot.stop(), 0);
}

// ---- the online sources, asked with the game's variant -------------------------------------

struct VariantSource {
    const char* name;
    const char* config;   // the online_moves source's YAML, with URL for the emulator's port
    const char* key;      // the game's variant
    const char* fen;      // the game's start, the bot (White) to move
    const char* online;   // the emulator's `online:` entries (variant-keyed)
    const char* move;     // what the source says to play
    const char* logged;   // "(explorer)"
    const char* request;  // a part of the request the source must have seen
};

void PrintTo(const VariantSource& s, std::ostream* os) { *os << s.name; }

class E2eVariantSource : public ::testing::TestWithParam<VariantSource> {};

TEST_P(E2eVariantSource, TheSourceIsAskedForTheVariantAndItsMoveIsPlayed) {
    using namespace std::chrono_literals;
    const VariantSource& c = GetParam();
    test_support::LogCapture log;
    emu::EmulatorFixture fx(std::string("name: variant-online\nseed: 40\nkeepalive_ms: 500\n"
                                        "online:\n  builtin: false\n") +
                            c.online);
    std::string config = c.config;
    const std::string url_mark = "URL";
    config.replace(config.find(url_mark), url_mark.size(), fx.emulator().online_url());
    BotRunner bot(fx, settings("{concurrency: 1}", "online_moves:\n  " + config + "\n"));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx, std::string("challenges:\n  - {id: vso00001, at_ms: 0, challenger: "
                                    "{name: Student, rating: 1500}, variant: ") +
                            c.key + ", initial_fen: \"" + c.fen +
                            "\", clock: {limit: 300, increment: 0}, color: black, opponent: "
                            "{kind: random, think_ms: 20, resign_at_ply: 1}}\n");
    const auto g = fx.wait_game_over("vso00001", 60s);
    ASSERT_TRUE(g.over) << describe(game(fx, "vso00001"));
    ASSERT_FALSE(g.moves.empty());
    EXPECT_TRUE(g.moves.front().by_bot);
    EXPECT_EQ(g.moves.front().uci, c.move) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "vso00001"), 0);
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }, 10s));
    const std::string text = log.text();
    EXPECT_NE(text.find(std::string("game vso00001: move ") + c.move + " " + c.logged),
              std::string::npos)
        << text;
    bool asked = false;
    for (const auto& r : fx->requests())
        if ((r.path + "?" + r.query).find(c.request) != std::string::npos) asked = true;
    EXPECT_TRUE(asked) << "no request with " << c.request;
    EXPECT_EQ(bot.stop(), 0);
}

INSTANTIATE_TEST_SUITE_P(
    Sources, E2eVariantSource,
    ::testing::Values(
        // The explorer's Lichess database answers a crazyhouse position with a drop (UCI "N@d5").
        VariantSource{
            "ExplorerDropInCrazyhouse",
            "lichess_opening_explorer: {enabled: true, min_time: 0, url: \"URL\", source: "
            "lichess, min_games: 1}",
            "crazyhouse", "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[Nn] w KQkq - 0 3",
            "  explorer:\n    - {fen: \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[Nn] w "
            "KQkq - 0 3\", variant: crazyhouse, db: lichess, body: '{\"white\":40,\"draws\":0,"
            "\"black\":10,\"moves\":[{\"uci\":\"N@d5\",\"san\":\"N@d5\",\"white\":40,"
            "\"draws\":0,\"black\":10}]}'}\n",
            "N@d5", "(explorer)", "variant=crazyhouse"},
        // Cloud eval of a three-check position, with lila's checks-given suffix in the FEN.
        VariantSource{
            "CloudEvalInThreeCheck",
            "lichess_cloud_analysis: {enabled: true, min_time: 0, url: \"URL\"}", "threeCheck",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 +1+0",
            "  cloud_eval:\n    - {fen: \"rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - "
            "0 2 +1+0\", variant: threeCheck, body: '{\"depth\":40,\"knodes\":900,\"pvs\":"
            "[{\"moves\":\"f1c4 g8f6\",\"cp\":150}]}'}\n",
            "f1c4", "(cloud)", "variant=threeCheck"},
        // The tablebase's atomic table (its own path).
        VariantSource{
            "TablebaseInAtomic", "online_egtb: {enabled: true, min_time: 0, url: \"URL\"}",
            "atomic", "8/8/8/8/8/2k5/8/KQ6 w - - 0 60",
            "  tablebase:\n    - {fen: \"8/8/8/8/8/2k5/8/KQ6 w - - 0 60\", variant: atomic, "
            "body: '{\"category\":\"win\",\"dtz\":3,\"dtm\":5,\"checkmate\":false,\"stalemate\":"
            "false,\"variant_win\":false,\"variant_loss\":false,\"insufficient_material\":false,"
            "\"moves\":[{\"uci\":\"b1b2\",\"san\":\"Qb2\",\"category\":\"loss\",\"dtz\":-2,"
            "\"dtm\":-4,\"zeroing\":false,\"checkmate\":false,\"stalemate\":false,"
            "\"variant_win\":false,\"variant_loss\":false,\"insufficient_material\":false}]}'}\n",
            "b1b2", "(tablebase)", "/atomic?"}),
    [](const auto& info) { return std::string(info.param.name); });

// ---- bad input from the server in a variant game ---------------------------------------------

struct VariantBadInput {
    const char* name;
    const char* game;       // the scenario's game (gameStart without a challenge)
    const char* fault;      // the inject fault, or ""
    const char* logged;     // the error line's text after "game <id>: ending the session: "
    const char* left_with;  // "/abort" or "/resign"
};

void PrintTo(const VariantBadInput& b, std::ostream* os) { *os << b.name; }

class E2eVariantBadInput : public ::testing::TestWithParam<VariantBadInput> {};

TEST_P(E2eVariantBadInput, TheGameIsLeftWithAnErrorThatNamesItAndNoMoveIsSent) {
    using namespace std::chrono_literals;
    const VariantBadInput& b = GetParam();
    test_support::LogCapture log;
    emu::EmulatorFixture fx(
        std::string("name: variant-bad\nseed: 41\nkeepalive_ms: 500\n"
                    "games:\n  - ") +
        b.game + "\n" +
        (b.fault[0] ? std::string("faults:\n  - ") + b.fault + "\n" : std::string()));
    BotRunner bot(fx);
    ASSERT_TRUE(fx.wait_until([&] { return requests_to(fx, b.left_with) > 0; }, 20s)) << log.text();
    const std::string text = log.text();
    EXPECT_NE(text.find(std::string("game bad00001: ending the session: ") + b.logged),
              std::string::npos)
        << text;
    // No move of ours reached the server for a position we could not read.
    EXPECT_EQ(requests_to(fx, "/move/"), 0);
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }, 10s));
    EXPECT_EQ(bot.stop(), 0);
}

INSTANTIATE_TEST_SUITE_P(
    BadInput, E2eVariantBadInput,
    ::testing::Values(
        // A variant key lila may add one day: the game is aborted while lila allows it.
        VariantBadInput{"UnknownVariantKey",
                        "{id: bad00001, bot_color: white, clock: {limit: 60, increment: 0}, "
                        "opponent: {kind: random}}",
                        "{kind: inject, target: game_stream, line_type: gameFull, patch: "
                        "'{\"variant\": {\"key\": \"duckChess\", \"name\": \"Duck Chess\"}}'}",
                        "variant 'duckChess' is not one Outpost plays", "/abort"},
        // A crazyhouse initialFen whose pocket holds a piece that does not exist.
        VariantBadInput{"MalformedInitialFen",
                        "{id: bad00001, bot_color: white, variant: crazyhouse, clock: {limit: 60, "
                        "increment: 0}, opponent: {kind: random}}",
                        "{kind: inject, target: game_stream, line_type: gameFull, patch: "
                        "'{\"initialFen\": \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Xq] w "
                        "KQkq - 0 1\"}'}",
                        "the initial FEN 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Xq] w KQkq "
                        "- 0 1' is not a crazyhouse position",
                        "/abort"},
        // An antichess move list in which White skipped a compulsory capture, past ply 2: lila
        // no longer lets the game be aborted, so it is resigned.
        VariantBadInput{"MoveListIllegalUnderTheVariant",
                        "{id: bad00001, bot_color: black, variant: antichess, clock: {limit: 60, "
                        "increment: 0}, moves: \"e2e3 b7b5\", opponent: {kind: staller}}",
                        "{kind: inject, target: game_stream, line_type: gameFull, patch: "
                        "'{\"state\": {\"type\": \"gameState\", \"moves\": \"e2e3 b7b5 a2a3\", "
                        "\"wtime\": 60000, \"btime\": 60000, \"winc\": 0, \"binc\": 0, "
                        "\"status\": \"started\"}}'}",
                        "the move list does not replay legally", "/resign"}),
    [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace e2e
