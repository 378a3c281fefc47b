// End-to-end opening books: the daemon plays a .bin book's line without searching (logged and
// written in the PGN as book moves), searches once the game leaves the book, and does not start
// with a book file that is not a Polyglot book.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "bot_fixture.hpp"
#include "child_process.hpp"
#include "tests/engine/polyglot_test_util.hpp"
#include "tests/support/log_capture.hpp"
#include "tests/support/time_scale.hpp"

namespace e2e {
namespace {

// A folder per test for the book files and PGNs, removed at the end.
class E2eBook : public ::testing::Test {
  protected:
    static std::string book_settings(const std::string& file) {
        return "book: {enabled: true, files: {standard: [\"" + file +
               "\"]}, selection: best_move, max_depth: 10}";
    }

    // One game at a time, `book` for standard games, PGNs into pgn_dir().
    BotSettings book_and_pgn_settings(const std::string& book) const {
        BotSettings s =
            settings("{concurrency: 1}", "pgn_directory: \"" + pgn_dir().string() + "\"\n");
        s.engine = book_settings(book);
        return s;
    }
    std::filesystem::path pgn_dir() const { return dir_.path() / "pgn"; }

    test_util::BookDir dir_{std::string("e2e-book-") +
                            ::testing::UnitTest::GetInstance()->current_test_info()->name()};
};

// Sends one challenge now and waits for the game's end (bounded; the view says whether it
// ended). `color` is the challenger's, the scripted opponent's: the bot gets the other one.
emu::GameView play_one(emu::EmulatorFixture& fx, const std::string& id, const std::string& clock,
                       const std::string& color, const std::string& opponent) {
    using namespace std::chrono_literals;
    send_challenges(fx, "challenges:\n  - {id: " + id +
                            ", at_ms: 0, challenger: {name: Theorist, rating: 1800}, clock: " +
                            clock + ", color: " + color + ", opponent: " + opponent + "}\n");
    return fx.wait_game_over(id, 90s);
}

std::vector<std::string> bot_moves_uci(const emu::GameView& g) {
    std::vector<std::string> out;
    for (const auto& m : g.moves)
        if (m.by_bot) out.push_back(m.uci);
    return out;
}

std::string pgn_text(const std::filesystem::path& dir) {
    if (!std::filesystem::exists(dir)) return "";
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        std::ifstream in(e.path());
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }
    return "";
}

// The first PGN written into `dir`, waited for (up to 10 s; empty when none came), on one line:
// movetext lines wrap at 80 columns.
std::string wait_for_pgn(emu::EmulatorFixture& fx, const std::filesystem::path& dir) {
    using namespace std::chrono_literals;
    (void)fx.wait_until([&] { return !pgn_text(dir).empty(); }, 10s);
    std::string pgn = pgn_text(dir);
    std::replace(pgn.begin(), pgn.end(), '\n', ' ');
    return pgn;
}

TEST_F(E2eBook, WhitePlaysTheBookLineAtOnce) {
    using namespace std::chrono_literals;
    // Ruy Lopez for White: 1. e4 e5 2. Nf3 Nc6 3. Bb5, with lighter side lines best_move skips.
    const engine::Position start;
    auto entries = test_util::book_line(start, {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5"}, 100);
    entries.push_back(test_util::book_entry(start, "d2d4", 40));
    const std::string book = dir_.book("white.bin", entries);

    test_support::LogCapture log;  // outlives the daemon
    emu::EmulatorFixture fx("name: book\nseed: 21\nkeepalive_ms: 500\n");
    BotRunner bot(fx, book_and_pgn_settings(book));
    ASSERT_TRUE(wait_event_stream(fx));
    // 10+0 is rapid: a searched move takes seconds at this clock, a book move none. The opponent
    // follows the line and resigns on its turn after 3. Bb5.
    const auto g = play_one(fx, "book0001", "{limit: 600, increment: 0}", "black",
                            "{kind: line, moves: [e7e5, b8c6], think_ms: 20, resign_at_ply: 5}");
    ASSERT_TRUE(g.over) << describe(game(fx, "book0001"));
    EXPECT_EQ(g.status, "resign") << describe(g);
    EXPECT_EQ(bot_moves_uci(g), (std::vector<std::string>{"e2e4", "g1f3", "f1b5"})) << describe(g);
    for (const auto& m : g.moves)
        if (m.by_bot) {
            ASSERT_TRUE(m.think_ms.has_value()) << m.uci;
            EXPECT_LT(*m.think_ms, test_time::scaled_ms(1000))
                << m.uci << " took " << *m.think_ms << " ms";
        }
    EXPECT_EQ(rejected_moves(fx, "book0001"), 0);

    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }, 10s));
    EXPECT_EQ(bot.metrics().moves_played.load(), 3u);
    const std::string text = log.text();
    for (const char* m : {"e2e4", "g1f3", "f1b5"})
        EXPECT_NE(text.find(std::string("game book0001: move ") + m + " (book)"), std::string::npos)
            << m;
    // No search ran: a searched move logs its depth.
    EXPECT_EQ(text.find("game book0001 ply"), std::string::npos);
    const std::string pgn = wait_for_pgn(fx, pgn_dir());
    ASSERT_FALSE(pgn.empty());
    for (const char* move : {"1. e4 { book", "2. Nf3 { book", "3. Bb5 { book"})
        EXPECT_NE(pgn.find(move), std::string::npos) << move << " in " << pgn;
    EXPECT_EQ(bot.stop(), 0);
}

TEST_F(E2eBook, MovesPostedAgainAfterA429KeepTheirPgnNotes) {
    using namespace std::chrono_literals;
    // The book has 1. e4 and 2. Nf3; the third move is searched. The second move POST (2. Nf3,
    // from the book) and the fourth (the third move, searched) get a 429: the daemon posts each
    // again, and the PGN still says "book" for 2. Nf3 and gives the third move its eval.
    const engine::Position start;
    const std::string book =
        dir_.book("retry.bin", test_util::book_line(start, {"e2e4", "e7e5", "g1f3"}, 100));

    test_support::LogCapture log;  // outlives the daemon
    emu::EmulatorFixture fx(R"(
name: book-retry
seed: 24
keepalive_ms: 500
faults:
  - {kind: http_429, target: move, skip: 1, count: 1, ratelimit_seconds: 1}
  - {kind: http_429, target: move, skip: 3, count: 1, ratelimit_seconds: 1}
)");
    BotRunner bot(fx, book_and_pgn_settings(book));
    ASSERT_TRUE(wait_event_stream(fx));
    const auto g = play_one(fx, "book0003", "{limit: 60, increment: 1}", "black",
                            "{kind: line, moves: [e7e5, b8c6], think_ms: 20, resign_at_ply: 5}");
    ASSERT_TRUE(g.over) << describe(game(fx, "book0003"));
    EXPECT_EQ(g.status, "resign") << describe(g);
    const auto ours = bot_moves_uci(g);
    ASSERT_EQ(ours.size(), 3u) << describe(g);
    EXPECT_EQ(ours[0], "e2e4");
    EXPECT_EQ(ours[1], "g1f3");
    EXPECT_EQ(rejected_moves(fx, "book0003"), 0);
    int fired = 0;
    for (const auto& f : fx->faults_fired()) fired += f.kind == "http_429";
    EXPECT_EQ(fired, 2);

    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }, 10s));
    EXPECT_EQ(bot.metrics().moves_played.load(), 3u);
    const std::string text = log.text();
    EXPECT_NE(text.find("game book0003: move g1f3 posted on a retry"), std::string::npos) << text;
    EXPECT_NE(text.find("game book0003: move " + ours[2] + " posted on a retry"), std::string::npos)
        << text;
    const std::string pgn = wait_for_pgn(fx, pgn_dir());
    ASSERT_FALSE(pgn.empty());
    EXPECT_NE(pgn.find("1. e4 { book"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("2. Nf3 { book"), std::string::npos) << pgn;
    // The searched third move: no "book", an eval with the depth the engine reached.
    const auto third = pgn.find("3. ");
    ASSERT_NE(third, std::string::npos) << pgn;
    const std::string rest = pgn.substr(third);
    EXPECT_EQ(rest.find("{ book"), std::string::npos) << pgn;
    EXPECT_NE(rest.find("[%eval "), std::string::npos) << pgn;
    EXPECT_EQ(bot.stop(), 0);
}

TEST_F(E2eBook, BlackLeavesTheBookAndSearches) {
    // The book answers 1. e4 with 1... e5 (best of two) and knows nothing after 2. d4.
    engine::Position e4;
    ASSERT_TRUE(e4.play_uci("e2e4"));
    const std::string book = dir_.book(
        "black.bin", {test_util::book_entry(e4, "c7c5", 3), test_util::book_entry(e4, "e7e5", 9)});

    test_support::LogCapture log;  // outlives the daemon
    emu::EmulatorFixture fx("name: book-out\nseed: 22\nkeepalive_ms: 500\n");
    BotSettings s = settings("{concurrency: 1}");
    s.engine = book_settings(book) + ", ponder: true";
    BotRunner bot(fx, s);
    ASSERT_TRUE(wait_event_stream(fx));
    const auto g = play_one(fx, "book0002", "{limit: 60, increment: 1}", "white",
                            "{kind: line, moves: [e2e4, d2d4], think_ms: 20, resign_at_ply: 7}");
    ASSERT_TRUE(g.over) << describe(game(fx, "book0002"));
    const auto ours = bot_moves_uci(g);
    ASSERT_GE(ours.size(), 2u) << describe(g);
    EXPECT_EQ(ours[0], "e7e5");
    EXPECT_EQ(rejected_moves(fx, "book0002"), 0);
    EXPECT_TRUE(legal_end(g)) << describe(g);
    const std::string text = log.text();
    EXPECT_NE(text.find("game book0002: move e7e5 (book)"), std::string::npos);
    // Out of book the engine searched (its log line has the depth), and no book line followed.
    EXPECT_NE(text.find("game book0002 ply 4 move " + ours[1]), std::string::npos) << text;
    EXPECT_EQ(text.find("game book0002: move " + ours[1] + " (book)"), std::string::npos);
    EXPECT_EQ(bot.stop(), 0);
}

TEST_F(E2eBook, ACorruptBookStopsTheStart) {
    const std::string good = dir_.book("good.bin", {test_util::book_entry({}, "e2e4", 1)});
    const std::string bad = dir_.raw("bad.bin", std::string(40, 'x'));  // 2.5 entries
    emu::EmulatorFixture fx("name: bad-book\nseed: 23\nkeepalive_ms: 500\n");
    BotSettings s = settings("{concurrency: 1}");
    s.engine = "book: {enabled: true, files: {standard: [\"" + good + "\", \"" + bad + "\"]}}";

    // In-process: the Bot's constructor refuses it, naming the file.
    try {
        BotRunner bot(fx, s);
        ADD_FAILURE() << "the daemon started with a corrupt book";
    } catch (const std::runtime_error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("'" + bad + "'"), std::string::npos) << what;
        EXPECT_NE(what.find("40 bytes is not a whole number of 16-byte entries"), std::string::npos)
            << what;
    }

    // The real binary: exits 1 at start-up with the same message and plays nothing.
    const std::string config_path = (dir_.path() / "config.yml").string();
    {
        std::ofstream out(config_path);
        out << config_text(fx, s);
    }
    const auto run =
        run_to_end(OUTPOST_EXE, {"run", "--config", config_path}, dir_.path().string());
    EXPECT_EQ(run.rc, 1) << run.output;
    EXPECT_NE(run.output.find("is not a usable Polyglot book"), std::string::npos) << run.output;
    EXPECT_NE(run.output.find(bad), std::string::npos) << run.output;
    EXPECT_EQ(requests_to(fx, "/api/stream/event"), 0);
}

}  // namespace
}  // namespace e2e
