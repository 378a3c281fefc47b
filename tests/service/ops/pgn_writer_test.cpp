// PGN records: SAN from Lichess UCI (king-to-rook castling, promotion, Chess960), comments,
// wrapping, and the atomic file write.
#include "service/ops/pgn_writer.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "engine/variant_table.hpp"

namespace service {
namespace {

GameRecord record(std::vector<std::string> uci) {
    GameRecord r;
    r.game_id = "abcd1234";
    r.rated = true;
    r.speed = "blitz";
    r.started_at = std::chrono::sys_days{std::chrono::year{2026} / 11 / 21} +
                   std::chrono::hours{14} + std::chrono::minutes{3} + std::chrono::seconds{5};
    r.white = "OutpostBot";
    r.black = "alice";
    r.white_rating = 2100;
    r.black_rating = 1850;
    r.white_title = "BOT";
    r.time_control = "180+2";
    r.result = "1-0";
    r.termination = "Normal";
    for (auto& m : uci) r.moves.push_back({std::move(m), {}, {}, {}});
    return r;
}

std::string movetext(const std::string& pgn) { return pgn.substr(pgn.find("\n\n") + 2); }

std::string read(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

TEST(PgnWriter, HeadersOfARatedBlitzGame) {
    const std::string pgn = to_pgn(record({"e2e4"}));
    EXPECT_EQ(pgn.substr(0, pgn.find("\n\n") + 1),
              "[Event \"Rated blitz game\"]\n"
              "[Site \"https://lichess.org/abcd1234\"]\n"
              "[Date \"2026.11.21\"]\n"
              "[Round \"-\"]\n"
              "[White \"OutpostBot\"]\n"
              "[Black \"alice\"]\n"
              "[Result \"1-0\"]\n"
              "[UTCDate \"2026.11.21\"]\n"
              "[UTCTime \"14:03:05\"]\n"
              "[WhiteElo \"2100\"]\n"
              "[BlackElo \"1850\"]\n"
              "[WhiteTitle \"BOT\"]\n"
              "[Variant \"Standard\"]\n"
              "[TimeControl \"180+2\"]\n"
              "[Termination \"Normal\"]\n");
    EXPECT_EQ(movetext(pgn), "1. e4 1-0\n\n");
}

TEST(PgnWriter, KingToRookCastlingBecomesOO) {
    const std::string pgn = to_pgn(
        record({"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1h1", "f8c5", "d2d3", "e8h8"}));
    EXPECT_EQ(movetext(pgn), "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O Bc5 5. d3 O-O 1-0\n\n");
    // The king-two-squares form gives the same record.
    EXPECT_EQ(pgn, to_pgn(record({"e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "e1g1", "f8c5",
                                  "d2d3", "e8g8"})));
}

TEST(PgnWriter, PromotionFromPositionWithBlackToMove) {
    GameRecord r = record({"h7g7", "a7a8q", "g7f7", "a8a7"});
    r.variant = "fromPosition";
    r.initial_fen = "8/P6k/8/8/8/8/6K1/8 b - - 0 40";
    const std::string pgn = to_pgn(r);
    EXPECT_NE(pgn.find("[Variant \"From Position\"]\n"), std::string::npos);
    EXPECT_NE(pgn.find("[Termination \"Normal\"]\n"
                       "[FEN \"8/P6k/8/8/8/8/6K1/8 b - - 0 40\"]\n[SetUp \"1\"]\n\n"),
              std::string::npos)
        << pgn;
    EXPECT_EQ(movetext(pgn), "40... Kg7 41. a8=Q Kf7 42. Qa7+ 1-0\n\n");
}

TEST(PgnWriter, Chess960FromFenWithCastling) {
    GameRecord r = record({"f1g1", "f8g8", "e2e4", "e7e5"});
    r.variant = "chess960";
    r.initial_fen = "bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1";
    r.result = "*";
    const std::string pgn = to_pgn(r);
    EXPECT_NE(pgn.find("[Variant \"Chess960\"]\n"), std::string::npos);
    EXPECT_NE(pgn.find("[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1\"]\n"
                       "[SetUp \"1\"]\n"),
              std::string::npos)
        << pgn;
    EXPECT_NE(pgn.find("[Result \"*\"]"), std::string::npos);
    EXPECT_EQ(movetext(pgn), "1. O-O O-O 2. e4 e5 *\n\n");
}

TEST(PgnWriter, StartFenIsNotWrittenAsSetUp) {
    GameRecord r = record({"d2d4"});
    r.initial_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    EXPECT_EQ(to_pgn(r).find("[SetUp"), std::string::npos);
    r.initial_fen = "startpos";
    EXPECT_EQ(to_pgn(r).find("[FEN"), std::string::npos);
    // A Chess960 game always has them (lila's GameRepo.initialFen: the standard start when it
    // stored none), as lila's export shows.
    r.variant = "chess960";
    EXPECT_NE(to_pgn(r).find("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n"
                             "[SetUp \"1\"]\n"),
              std::string::npos);
}

// scalachess's variant names, as lila's PgnDump writes the Variant tag.
TEST(PgnWriter, EveryVariantHasLilasNameAndItsOwnStart) {
    const std::pair<const char*, const char*> names[] = {{"crazyhouse", "Crazyhouse"},
                                                         {"antichess", "Antichess"},
                                                         {"atomic", "Atomic"},
                                                         {"horde", "Horde"},
                                                         {"kingOfTheHill", "King of the Hill"},
                                                         {"racingKings", "Racing Kings"},
                                                         {"threeCheck", "Three-check"}};
    for (const auto& [key, name] : names) {
        GameRecord r = record({});
        r.variant = key;
        r.initial_fen = "startpos";
        const std::string pgn = to_pgn(r);
        EXPECT_NE(pgn.find(std::string("[Variant \"") + name + "\"]\n"), std::string::npos) << pgn;
        // gameFull's "startpos" is the variant's own start: no FEN tag, as lila writes none.
        EXPECT_EQ(pgn.find("[FEN"), std::string::npos) << pgn;
        EXPECT_EQ(pgn.find("{ unreadable"), std::string::npos) << pgn;
    }
}

TEST(PgnWriter, VariantMovetextReplaysUnderTheVariantsRules) {
    // Crazyhouse: a capture puts the piece in the pocket, a drop is written N@f3.
    GameRecord zh = record({"e2e4", "d7d5", "e4d5", "d8d5", "b1c3", "d5a5", "P@d4", "P@e6"});
    zh.variant = "crazyhouse";
    EXPECT_EQ(movetext(to_pgn(zh)), "1. e4 d5 2. exd5 Qxd5 3. Nc3 Qa5 4. P@d4 P@e6 1-0\n\n");

    // Three-check: the third check ends the game and is written as a win ('#').
    GameRecord three =
        record({"e2e4", "e7e5", "f1c4", "d7d6", "c4f7", "e8f7", "d1h5", "g7g6", "h5g6"});
    three.variant = "threeCheck";
    EXPECT_EQ(movetext(to_pgn(three)),
              "1. e4 e5 2. Bc4 d6 3. Bxf7+ Kxf7 4. Qh5+ g6 5. Qxg6# 1-0\n\n");

    // Antichess: king-to-rook means nothing there (no castling); a capture is forced.
    GameRecord anti = record({"e2e3", "b7b5", "f1b5"});
    anti.variant = "antichess";
    EXPECT_EQ(movetext(to_pgn(anti)), "1. e3 b5 2. Bxb5 1-0\n\n");

    // King-to-rook castling (lila's form in every variant since 2025) in atomic.
    GameRecord atomic = record({"e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5", "e1h1"});
    atomic.variant = "atomic";
    EXPECT_EQ(movetext(to_pgn(atomic)), "1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O 1-0\n\n");
}

TEST(PgnWriter, AVariantGameFromASetPositionKeepsItsFen) {
    // lila starts no King of the Hill game elsewhere than its start; one that does (a test, a
    // server we do not know) still gets a record that replays.
    GameRecord r = record({"e3e4"});
    r.variant = "kingOfTheHill";
    r.initial_fen = "4k3/8/8/8/8/4K3/8/8 w - - 0 1";
    const std::string pgn = to_pgn(r);
    EXPECT_NE(pgn.find("[FEN \"4k3/8/8/8/8/4K3/8/8 w - - 0 1\"]\n[SetUp \"1\"]\n"),
              std::string::npos)
        << pgn;
    EXPECT_EQ(movetext(pgn), "1. Ke4# 1-0\n\n");
}

TEST(PgnWriter, ClockAndEvalComments) {
    GameRecord r = record({"e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"});
    r.moves[0].clock_ms = 179000;
    r.moves[0].eval = PgnEval{PgnEval::Kind::Centipawns, 35, 12};
    r.moves[1].clock_ms = 3723999;  // 1:02:03, rounded down
    r.moves[2].eval = PgnEval{PgnEval::Kind::Centipawns, -120, 0};
    // Black's own view (+1.20) is written from White's (-1.20); mates likewise.
    r.moves[3].eval = PgnEval{PgnEval::Kind::Centipawns, 120, 9};
    r.moves[4].eval = PgnEval{PgnEval::Kind::Mate, 1, 5};
    r.moves[5].eval = PgnEval{PgnEval::Kind::Mate, -1, 5};
    EXPECT_EQ(movetext(to_pgn(r)),
              "1. e4 { [%eval 0.35,12] [%clk 0:02:59] } 1... e5 { [%clk 1:02:03] } 2. Qh5\n"
              "{ [%eval -1.20] } 2... Nc6 { [%eval -1.20,9] } 3. Bc4 { [%eval #1,5] } 3... Nf6\n"
              "{ [%eval #1,5] } 4. Qxf7# 1-0\n\n");
}

TEST(PgnWriter, BookMovesSayBook) {
    GameRecord r = record({"e2e4", "e7e5", "g1f3"});
    r.moves[0].source = "book";
    r.moves[0].clock_ms = 180000;
    r.moves[2].source = "book";
    EXPECT_EQ(movetext(to_pgn(r)), "1. e4 { book [%clk 0:03:00] } 1... e5 2. Nf3 { book } 1-0\n\n");
}

TEST(PgnWriter, LongGamesWrapAt80Columns) {
    std::vector<std::string> moves;
    for (int i = 0; i < 30; ++i)
        for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) moves.emplace_back(m);
    GameRecord r = record(moves);
    for (std::size_t i = 0; i < r.moves.size(); ++i) r.moves[i].clock_ms = 180000 - 1000 * i;
    r.result = "1/2-1/2";
    const std::string text = movetext(to_pgn(r));
    std::istringstream lines(text);
    std::string line;
    int count = 0;
    for (const std::string& t : {text, to_pgn(record({"e2e4", "e7e5", "e4e5"}))}) {
        std::istringstream all(t);
        while (std::getline(all, line)) EXPECT_LE(line.size(), 80u) << line;
    }
    while (std::getline(lines, line)) {
        EXPECT_LE(line.size(), 80u) << line;
        if (!line.empty()) ++count;
    }
    EXPECT_GT(count, 10);
    EXPECT_NE(text.find("60... Ng8 { [%clk 0:01:01] } 1/2-1/2\n"), std::string::npos) << text;
}

TEST(PgnWriter, IllegalMoveStopsTheMovetextWithAComment) {
    GameRecord r = record({"e2e4", "e7e5", "e4e5", "g1f3"});
    r.result = "0-1";
    const std::string text = movetext(to_pgn(r));
    EXPECT_EQ(text.rfind("1. e4 e5 { illegal move e4e5 in the record", 0), 0u) << text;
    EXPECT_NE(text.find("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR"), std::string::npos);
    EXPECT_NE(text.find("} 0-1\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("Nf3"), std::string::npos);
}

TEST(PgnWriter, UnreadableFenAndOddResultNeverCrash) {
    GameRecord r = record({"e2e4"});
    r.variant = "fromPosition";
    r.initial_fen = "not a fen";
    r.result = "white wins";
    const std::string pgn = to_pgn(r);
    EXPECT_NE(pgn.find("[Result \"*\"]"), std::string::npos);
    EXPECT_EQ(movetext(pgn).rfind("{ unreadable initial FEN", 0), 0u);
}

TEST(PgnWriter, HeaderValuesAreEscaped) {
    GameRecord r = record({});
    r.black = "a\"b\\c";
    EXPECT_NE(to_pgn(r).find("[Black \"a\\\"b\\\\c\"]"), std::string::npos);
    EXPECT_EQ(movetext(to_pgn(r)), "1-0\n\n");
}

TEST(PgnWriter, HeaderValuesHoldNoControlBytes) {
    GameRecord r = record({"e2e4"});
    r.white = "Evil\x1b[2J\x1b]0;owned\x07";
    r.black = "line\r\nbreak";
    r.speed = "bullet\x1b";
    r.white_title = "BOT\x9b";  // not UTF-8
    const std::string pgn = to_pgn(r);
    for (const char c : pgn) {
        const auto byte = static_cast<unsigned char>(c);
        EXPECT_TRUE(byte == '\n' || (byte >= 0x20 && byte < 0x7f)) << int(byte) << "\n" << pgn;
    }
    // Each escape shows as text; PGN's own escaping doubles its backslash.
    EXPECT_NE(pgn.find("[White \"Evil\\\\x1b[2J\\\\x1b]0;owned\\\\x07\"]"), std::string::npos)
        << pgn;
    EXPECT_NE(pgn.find("[Black \"line\\\\r\\\\nbreak\"]"), std::string::npos) << pgn;
    EXPECT_NE(pgn.find("[Event \"Rated bullet\\\\x1b game\"]"), std::string::npos) << pgn;
}

// The Event tag names the variant's perf and an arena as lila's PgnDump.eventOf does.
TEST(PgnWriter, EventNamesTheVariantAndTheArena) {
    GameRecord r = record({"e2e4"});
    r.variant = "crazyhouse";
    EXPECT_NE(to_pgn(r).find("[Event \"Rated Crazyhouse game\"]\n"), std::string::npos);
    r.variant = "standard";
    r.tournament_id = "Qa7aFb4z";
    EXPECT_NE(to_pgn(r).find(
                  "[Event \"Rated blitz tournament https://lichess.org/tournament/Qa7aFb4z\"]\n"),
              std::string::npos)
        << to_pgn(r);
}

// Every row of the engine's game-type table: its name in the Variant tag, its perf (or the
// speed) in the Event tag, and a FEN tag from its own start only for Chess960 (lila's GameRepo).
TEST(PgnWriter, EveryGameTypeRowNamesItsVariantAndPerf) {
    for (const engine::GameType& row : engine::GAME_TYPES) {
        GameRecord r = record({});
        r.variant = std::string(row.key);
        r.initial_fen = "startpos";
        const std::string pgn = to_pgn(r);
        const std::string perf = row.perf.empty() ? "blitz" : std::string(row.name);
        EXPECT_NE(pgn.find("[Event \"Rated " + perf + " game\"]\n"), std::string::npos) << pgn;
        EXPECT_NE(pgn.find("[Variant \"" + std::string(row.name) + "\"]\n"), std::string::npos)
            << pgn;
        EXPECT_EQ(pgn.find("[FEN \"" + std::string(engine::START_FEN) + "\"]") != std::string::npos,
                  row.chess960)
            << pgn;
        EXPECT_EQ(pgn.find("{ unreadable"), std::string::npos) << pgn;
    }
}

class PgnFile : public ::testing::Test {
  protected:
    void SetUp() override {
        dir_ = std::filesystem::temp_directory_path() /
               ("outpost-pgn-test-" +
                std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::remove_all(dir_);
    }
    void TearDown() override { std::filesystem::remove_all(dir_); }
    std::filesystem::path dir_;
};

TEST_F(PgnFile, WritesAtomicallyIntoANewDirectory) {
    const GameRecord r = record({"e2e4", "e7e5"});
    const std::filesystem::path dir = dir_ / "nested" / "pgn";
    const auto written = write_pgn(dir, r);
    ASSERT_TRUE(written) << written.error().message;
    EXPECT_EQ(*written, dir / "2026-11-21-abcd1234.pgn");
    EXPECT_EQ(read(*written), to_pgn(r));
    // Nothing else is left behind: no temporary files.
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        (void)e;
        ++files;
    }
    EXPECT_EQ(files, 1);

    // A second write (the game's record grew) replaces the file whole.
    GameRecord longer = r;
    longer.moves.push_back({"g1f3", {}, {}, {}});
    ASSERT_TRUE(write_pgn(dir, longer));
    EXPECT_EQ(read(*written), to_pgn(longer));
}

TEST_F(PgnFile, UnwritableDirectoryIsAnErrorValue) {
    std::filesystem::create_directories(dir_);
    const std::filesystem::path file = dir_ / "a-file";
    std::ofstream(file) << "x";
    const auto written = write_pgn(file / "pgn", record({"e2e4"}));
    ASSERT_FALSE(written);
    EXPECT_NE(written.error().message.find("a-file"), std::string::npos) << written.error().message;
}

TEST_F(PgnFile, AFailedWriteIsRetriedAndCounted) {
    std::filesystem::create_directories(dir_);
    const GameRecord r = record({"e2e4"});
    // A folder where the PGN file should go makes the rename fail until it is taken away.
    const std::filesystem::path blocker = dir_ / pgn_file_name(r);
    std::filesystem::create_directories(blocker / "inside");
    std::atomic<std::uint64_t> errors{0};
    std::vector<std::chrono::milliseconds> pauses;
    PgnRetry retry;
    retry.attempts = 3;
    retry.pause = std::chrono::milliseconds(200);
    retry.sleep = [&](std::chrono::milliseconds d) {
        pauses.push_back(d);
        if (pauses.size() == 2)
            std::filesystem::remove_all(blocker);  // the fault goes away after two tries
    };
    const auto written = write_pgn(dir_, r, errors, retry);
    ASSERT_TRUE(written) << written.error().message;
    EXPECT_EQ(read(*written), to_pgn(r));
    EXPECT_EQ(errors.load(), 2u);
    EXPECT_EQ(pauses, (std::vector<std::chrono::milliseconds>{std::chrono::milliseconds(200),
                                                              std::chrono::milliseconds(400)}));
}

TEST_F(PgnFile, AWriteThatKeepsFailingReturnsTheLastErrorAndCountsEveryAttempt) {
    std::filesystem::create_directories(dir_);
    const GameRecord r = record({"e2e4"});
    std::filesystem::create_directories(dir_ / pgn_file_name(r) / "inside");
    std::atomic<std::uint64_t> errors{5};
    PgnRetry retry;
    retry.attempts = 3;
    int sleeps = 0;
    retry.sleep = [&](std::chrono::milliseconds) { ++sleeps; };
    const auto written = write_pgn(dir_, r, errors, retry);
    ASSERT_FALSE(written);
    EXPECT_NE(written.error().message.find("cannot rename"), std::string::npos)
        << written.error().message;
    EXPECT_EQ(errors.load(), 8u);
    EXPECT_EQ(sleeps, 2);
    // No temporary file is left behind by the failed attempts.
    for (const auto& e : std::filesystem::directory_iterator(dir_))
        EXPECT_FALSE(e.path().filename().string().ends_with(".tmp")) << e.path();
}

TEST_F(PgnFile, StaleTemporaryFilesAreRemovedAtStart) {
    std::filesystem::create_directories(dir_);
    // Left by a killed process (no such pid), by an earlier run with our pid (pid 1 again in a
    // container), and an hour-old one from a pid that is alive now (pid 1 always is).
    const std::filesystem::path dead = dir_ / ".2026-11-21-abcd1234.pgn.999999999.0.tmp";
    const std::filesystem::path ours =
        dir_ / (".2026-11-21-abcd1234.pgn." + std::to_string(::getpid()) + ".3.tmp");
    const std::filesystem::path old_live = dir_ / ".2026-11-21-zzzz.pgn.1.0.tmp";
    const std::filesystem::path fresh_live = dir_ / ".2026-11-21-yyyy.pgn.1.1.tmp";
    const std::filesystem::path game = dir_ / "2026-11-21-abcd1234.pgn";
    const std::filesystem::path other = dir_ / "notes.tmp";
    for (const std::filesystem::path& p : {dead, ours, old_live, fresh_live, game, other})
        std::ofstream(p) << "x";
    std::filesystem::last_write_time(
        old_live, std::filesystem::file_time_type::clock::now() - std::chrono::hours(2));

    const auto removed = prepare_pgn_directory(dir_);
    ASSERT_TRUE(removed) << removed.error().message;
    EXPECT_EQ(*removed, 3);
    EXPECT_FALSE(std::filesystem::exists(dead));
    EXPECT_FALSE(std::filesystem::exists(ours));
    EXPECT_FALSE(std::filesystem::exists(old_live));
    EXPECT_TRUE(std::filesystem::exists(fresh_live)) << "another live writer's file is kept";
    EXPECT_TRUE(std::filesystem::exists(game));
    EXPECT_TRUE(std::filesystem::exists(other));
    // The write probe is gone too.
    int files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir_)) {
        (void)e;
        ++files;
    }
    EXPECT_EQ(files, 3);
}

TEST_F(PgnFile, PrepareCreatesTheFolderAndReportsOneItCannotUse) {
    const auto created = prepare_pgn_directory(dir_ / "new" / "pgn");
    ASSERT_TRUE(created) << created.error().message;
    EXPECT_EQ(*created, 0);
    EXPECT_TRUE(std::filesystem::is_directory(dir_ / "new" / "pgn"));

    std::ofstream(dir_ / "a-file") << "x";
    for (const std::filesystem::path& bad : {dir_ / "a-file", dir_ / "a-file" / "pgn"}) {
        const auto r = prepare_pgn_directory(bad);
        ASSERT_FALSE(r) << bad;
        EXPECT_NE(r.error().message.find(bad.string()), std::string::npos) << r.error().message;
    }
}

TEST_F(PgnFile, VeryLongIdsGiveShortDistinctNamesThatCanBeWritten) {
    GameRecord a = record({"e2e4"});
    GameRecord b = a;
    a.game_id = std::string(5000, 'a') + "1";
    b.game_id = std::string(5000, 'a') + "2";
    const std::string name_a = pgn_file_name(a);
    EXPECT_LE(name_a.size(), 11 + kMaxPgnIdChars + 4);
    EXPECT_NE(name_a, pgn_file_name(b));
    EXPECT_EQ(pgn_file_name(a), name_a) << "the same id always gives the same name";
    const auto written = write_pgn(dir_, a);
    ASSERT_TRUE(written) << written.error().message;  // no ENAMETOOLONG, temporary name included
    EXPECT_TRUE(std::filesystem::exists(dir_ / name_a));
    // An id of exactly the cap is kept whole.
    GameRecord c = a;
    c.game_id = std::string(kMaxPgnIdChars, 'c');
    EXPECT_EQ(pgn_file_name(c), "2026-11-21-" + c.game_id + ".pgn");
}

TEST(PgnWriter, FileNameIsSafe) {
    GameRecord r = record({});
    r.game_id = "../evil";
    EXPECT_EQ(pgn_file_name(r), "2026-11-21-___evil.pgn");
}

}  // namespace
}  // namespace service

namespace service {
namespace {

TEST(PgnWriter, ALevelIsATagOfItsOwnAndTheRatingsStayLichesss) {
    GameRecord r = record({"e2e4"});
    EXPECT_EQ(to_pgn(r).find("OutpostLevel"), std::string::npos);  // full strength: no tag
    r.level = 1400;
    const std::string pgn = to_pgn(r);
    EXPECT_NE(pgn.find("[BlackElo \"1850\"]\n"), std::string::npos);
    EXPECT_NE(pgn.find("[Termination \"Normal\"]\n[OutpostLevel \"1400\"]\n\n"), std::string::npos)
        << pgn;
}

}  // namespace
}  // namespace service
