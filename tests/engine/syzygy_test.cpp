// Syzygy tables through libfathom: what a set loads and says of itself, known probes, every bad
// input (missing or empty folder, truncated file, wrong size, corrupt magic, a name that is no
// readable file) skipped with a message naming it while the good tables still answer, the
// search's use of them, and UCI's SyzygyPath and SyzygyProbeLimit.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "engine/score.hpp"
#include "engine/uci.hpp"
#include "tests/engine/syzygy_support.hpp"
#include "tests/support/temp_dir.hpp"

namespace engine::syzygy_test {
namespace {

namespace fs = std::filesystem;

// One of the test tables, copied into a test's own folder.
void copy_table(const outpost::testing::TempDir& dir, const std::string& file) {
    fs::copy_file(kTables + "/" + file, dir.path() / file);
}

Board board_of(const std::string& fen) {
    auto p = Position::from_fen(fen);
    EXPECT_TRUE(p) << fen;
    return p ? p->board() : Board{};
}

std::string read_bytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

void write_bytes(const fs::path& file, const std::string& bytes) {
    std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
}

bool mentions(const std::vector<std::string>& lines, const std::string& text) {
    for (const std::string& l : lines)
        if (l.find(text) != std::string::npos) return true;
    return false;
}

const std::string kKqk = "8/8/8/3k4/8/8/8/KQ6 w - - 0 1";
const std::string kKrk = "8/8/8/4k3/8/8/8/KR6 w - - 0 1";

TEST(Syzygy, LoadsTheCopiedTables) {
    auto loaded = Syzygy::load({kTables});
    ASSERT_TRUE(loaded) << loaded.error();
    const Syzygy& tb = **loaded;
    EXPECT_EQ(tb.tables(), (std::vector<std::string>{
                               "KBNvK", "KBvK",   "KNvK",   "KPvK",  "KQRvK",  "KQRvKR", "KQvK",
                               "KQvKR", "KRBvK",  "KRBvKR", "KRNvK", "KRNvKR", "KRPvK",  "KRPvKR",
                               "KRRvK", "KRRvKR", "KRvK",   "KRvKB", "KRvKN",  "KRvKP",  "KRvKR"}));
    EXPECT_EQ(tb.max_pieces(), 5);
    EXPECT_TRUE(tb.problems().empty());
    EXPECT_EQ(tb.describe(), "21 tables (up to 5 pieces) from " + kTables);
    // The same folders share the set; others are refused while it lives.
    auto again = Syzygy::load({kTables});
    ASSERT_TRUE(again);
    EXPECT_EQ(again->get(), loaded->get());
    auto other = Syzygy::load({kTables + "/"});
    ASSERT_FALSE(other);
    EXPECT_NE(other.error().find("already loaded from " + kTables), std::string::npos);
}

TEST(Syzygy, ProbesKnownPositions) {
    auto loaded = Syzygy::load({kTables});
    ASSERT_TRUE(loaded) << loaded.error();
    const Syzygy& tb = **loaded;
    EXPECT_EQ(tb.probe_wdl(board_of(kKqk)), SyzygyWdl::WIN);
    EXPECT_EQ(tb.probe_wdl(board_of("8/8/8/3k4/8/8/8/KQ6 b - - 0 1")), SyzygyWdl::LOSS);
    // Bishop and knight cannot mate alone; a bare rook v rook is a draw.
    EXPECT_EQ(tb.probe_wdl(board_of("8/8/8/3k4/8/8/8/KN6 w - - 0 1")), SyzygyWdl::DRAW);
    EXPECT_EQ(tb.probe_wdl(board_of("8/8/8/3k4/8/3r4/8/KR6 w - - 0 1")), SyzygyWdl::DRAW);
    // More pieces than any table holds, or a castling right: no answer.
    EXPECT_FALSE(tb.probe_wdl(board_of("8/8/8/3k4/8/8/P7/KQ5q w - - 0 1")));
    EXPECT_FALSE(tb.probe_wdl(board_of("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1")));
    // A missing table (KQ v KQ is not copied): no answer.
    EXPECT_FALSE(tb.probe_wdl(board_of("8/8/8/3k4/8/6q1/8/KQ6 w - - 0 1")));
    // The root: the rook mates in one (DTZ 1) and nothing else is kept.
    const auto mate = syzygy_root_moves(tb, board_of("7k/8/6K1/8/8/8/8/R7 w - - 0 1"));
    ASSERT_TRUE(mate);
    EXPECT_EQ(mate->wdl, SyzygyWdl::WIN);
    EXPECT_EQ(mate->dtz, 1);
    ASSERT_EQ(mate->moves.size(), 1u);
    EXPECT_EQ(mate->moves.front(), Move(A1, A8));
    // A drawn root keeps the drawing moves only: the rook must not hang itself to the king.
    const auto draw = syzygy_root_moves(tb, board_of("8/8/8/4k3/8/8/1R3K2/4r3 b - - 0 1"));
    ASSERT_TRUE(draw);
    EXPECT_EQ(draw->wdl, SyzygyWdl::DRAW);
    EXPECT_EQ(draw->moves.size(), 5u);  // Ra1 Rc1 Rd1 Rh1 Re4, as fathom lists them
}

// A near-50-move root: the same win with the clock at 98 is no win for lila, and the tables
// agree (a cursed win, played as a draw).
TEST(Syzygy, TheRootsClockTurnsALongWinIntoACursedOne) {
    auto loaded = Syzygy::load({kTables});
    ASSERT_TRUE(loaded) << loaded.error();
    const auto fresh = syzygy_root_moves(**loaded, board_of("7k/8/8/8/8/8/8/KBN5 w - - 0 1"));
    const auto late = syzygy_root_moves(**loaded, board_of("7k/8/8/8/8/8/8/KBN5 w - - 90 80"));
    ASSERT_TRUE(fresh && late);
    EXPECT_EQ(fresh->wdl, SyzygyWdl::WIN);
    EXPECT_GT(fresh->dtz, 10);
    EXPECT_EQ(late->wdl, SyzygyWdl::CURSED_WIN);
    EXPECT_EQ(lichess_wdl(late->wdl), Wdl::DRAW);
}

TEST(Syzygy, MissingAndEmptyFoldersAreNamed) {
    outpost::testing::TempDir empty{"outpost-syzygy-test-"};
    auto none = Syzygy::load({"/no/such/syzygy", empty.path().string()});
    ASSERT_FALSE(none);
    EXPECT_NE(none.error().find("/no/such/syzygy: no such folder"), std::string::npos)
        << none.error();
    EXPECT_NE(none.error().find(empty.path().string() + ": holds no Syzygy table files"),
              std::string::npos)
        << none.error();
    // With a good folder too, the set loads and says what it skipped.
    auto some = Syzygy::load({"/no/such/syzygy", kTables});
    ASSERT_TRUE(some) << some.error();
    EXPECT_EQ((*some)->problems(), (std::vector<std::string>{"/no/such/syzygy: no such folder"}));
    EXPECT_NE((*some)->describe().find("21 tables (up to 5 pieces) from /no/such/syzygy:" +
                                       kTables + "; 1 problem skipped"),
              std::string::npos)
        << (*some)->describe();
    EXPECT_EQ((*some)->probe_wdl(board_of(kKqk)), SyzygyWdl::WIN);
}

// Each bad file is skipped with its name and what is wrong; the folder's good tables still
// answer through a private folder of links, and the bad table never reaches the library.
TEST(Syzygy, BadFilesAreSkippedAndNamedWhileGoodOnesAnswer) {
    outpost::testing::TempDir dir{"outpost-syzygy-test-"};
    for (const char* f : {"KQvK.rtbw", "KQvK.rtbz", "KRvK.rtbw", "KRvK.rtbz", "KPvK.rtbw",
                          "KPvK.rtbz", "KRvKP.rtbw", "KRvKP.rtbz"})
        copy_table(dir, f);
    const std::string krk_w = read_bytes(dir.path() / "KRvK.rtbw");
    // Truncated: the first 100 bytes of KRvK.rtbw (its size is 208).
    write_bytes(dir.path() / "KRvK.rtbw", krk_w.substr(0, 100));
    // Corrupt magic: KPvK.rtbw with its first byte changed.
    std::string kpk = read_bytes(dir.path() / "KPvK.rtbw");
    kpk[0] = char(kpk[0] ^ 0x55);
    write_bytes(dir.path() / "KPvK.rtbw", kpk);
    // Wrong size: KRvKP.rtbz with 10 bytes more.
    write_bytes(dir.path() / "KRvKP.rtbz",
                read_bytes(dir.path() / "KRvKP.rtbz") + std::string(10, 'x'));
    // No readable file under a table's name: a folder, a FIFO (opening it would block), a link
    // to nothing. (Permissions cannot make a file unreadable for root, who runs CI's tests.)
    fs::create_directory(dir.path() / "KBNvK.rtbw");
    ASSERT_EQ(::mkfifo((dir.path() / "KRvKR.rtbw").c_str(), 0600), 0);
    fs::create_symlink(dir.path() / "gone.rtbw", dir.path() / "KQvKR.rtbw");
    // A DTZ file in place of a WDL one; a sound table under another table's name.
    fs::copy_file(dir.path() / "KQvK.rtbz", dir.path() / "KRvKB.rtbw");
    fs::copy_file(dir.path() / "KQvK.rtbw", dir.path() / "KRvKN.rtbw");
    // KQvK's DTZ truncated to a multiple of 64 bytes and 16 (its WDL file stays good).
    write_bytes(dir.path() / "KQvK.rtbz", read_bytes(dir.path() / "KQvK.rtbz").substr(0, 1000));

    const auto private_folders = [] {
        std::vector<std::string> out;
        for (const auto& entry : fs::directory_iterator(fs::temp_directory_path()))
            if (entry.path().filename().string().rfind("outpost-syzygy-", 0) == 0)
                out.push_back(entry.path().string());
        std::sort(out.begin(), out.end());
        return out;
    };
    const std::vector<std::string> before = private_folders();
    auto loaded = Syzygy::load({dir.path().string()});
    ASSERT_TRUE(loaded) << loaded.error();
    const Syzygy& tb = **loaded;
    const auto& p = tb.problems();
    const std::string d = dir.path().string() + "/";
    EXPECT_TRUE(mentions(p, d + "KRvK.rtbw: 100 bytes, not a Syzygy table's size")) << p.size();
    EXPECT_TRUE(mentions(p, d + "KPvK.rtbw: is corrupt: it does not start with the magic bytes"));
    EXPECT_TRUE(
        mentions(p, d + "KRvKP.rtbz: " + std::to_string(read_bytes(d + "KRvKP.rtbz").size()) +
                        " bytes, not a Syzygy table's size"));
    EXPECT_TRUE(mentions(p, d + "KBNvK.rtbw: is not a regular file"));
    EXPECT_TRUE(mentions(p, d + "KRvKR.rtbw: is not a regular file"));
    EXPECT_TRUE(mentions(p, d + "KQvKR.rtbw: cannot be read (a link to nothing)"));
    EXPECT_TRUE(mentions(p, d + "KRvKB.rtbw: is corrupt: it does not start with the magic bytes "
                                "of a Syzygy WDL (.rtbw) table"));
    EXPECT_TRUE(mentions(p, d + "KQvK.rtbz: 1000 bytes, not a Syzygy table's size"));
    EXPECT_TRUE(mentions(p, d + "KRvKN.rtbw: is corrupt or another table: its header does not "
                                "list the pieces of KRvKN"));
    EXPECT_EQ(p.size(), 9u);
    EXPECT_EQ(private_folders().size(), before.size() + 1);
    // Good: KQvK and KRvKP's WDL; KRvK's DTZ alone is no table.
    EXPECT_EQ(tb.tables(), (std::vector<std::string>{"KQvK", "KRvKP"}));
    EXPECT_EQ(tb.probe_wdl(board_of(kKqk)), SyzygyWdl::WIN);
    EXPECT_FALSE(tb.probe_wdl(board_of(kKrk)));
    EXPECT_FALSE(tb.probe_wdl(board_of("8/8/8/4k3/8/8/4P3/K7 w - - 0 1")));
    // The root of a table whose DTZ is bad falls back to WDL: the win is kept, by WDL alone.
    const auto root = syzygy_root_moves(tb, board_of(kKqk));
    ASSERT_TRUE(root);
    EXPECT_EQ(root->wdl, SyzygyWdl::WIN);
    EXPECT_FALSE(root->by_dtz);
    for (const Move m : root->moves) {
        Board next = board_of(kKqk);
        next.make_move(m);
        EXPECT_EQ(tb.probe_wdl(next), SyzygyWdl::LOSS);
    }
    // The private folder of links goes with the set.
    loaded = Result<std::shared_ptr<const Syzygy>>::failure("released");
    EXPECT_EQ(private_folders(), before);
}

TEST(Syzygy, AFolderOfOnlyBadFilesIsAnError) {
    outpost::testing::TempDir dir{"outpost-syzygy-test-"};
    write_bytes(dir.path() / "KQvK.rtbw", std::string(80, '\0'));
    auto loaded = Syzygy::load({dir.path().string()});
    ASSERT_FALSE(loaded);
    EXPECT_NE(loaded.error().find("no usable Syzygy table (.rtbw) in " + dir.path().string()),
              std::string::npos)
        << loaded.error();
    EXPECT_NE(loaded.error().find(dir.path().string() + "/KQvK.rtbw: is corrupt"),
              std::string::npos)
        << loaded.error();
}

TEST(Syzygy, CheckedFilesNameTheirProblem) {
    EXPECT_FALSE(check_syzygy_file(kTables + "/KQvKR.rtbz"));
    EXPECT_EQ(check_syzygy_file(kTables + "/SOURCES.md"),
              "is not named like a Syzygy table (KQvK.rtbw, KQvK.rtbz)");
    EXPECT_EQ(check_syzygy_file("/no/such/KQvK.rtbw"), "cannot be read (a link to nothing)");
}

// The search: a root the tables cover plays a kept move and reports their value; probes count
// as tbhits; with the limit below the root's pieces the tables are not asked; a variant never
// asks them.
TEST(Syzygy, TheSearchPlaysTheTablesMoves) {
    auto loaded = Syzygy::load({kTables});
    ASSERT_TRUE(loaded) << loaded.error();
    Engine engine(EngineOptions{.hash_mb = 8, .syzygy = *loaded});
    const auto pos = Position::from_fen("8/8/8/4k3/8/8/1R3K2/4r3 w - - 0 1");
    ASSERT_TRUE(pos);
    const Move best = engine_move(engine, *pos, 6);
    EXPECT_TRUE(best == Move(F2, E1) || best == Move(B2, B5)) << pos->to_uci(best);
    SearchLimits limits;
    limits.depth = 6;
    const std::atomic<bool> stop{false};
    const SearchResult r = engine.search(*pos, limits, stop);
    EXPECT_EQ(r.root_tables, RootTables::Syzygy);
    EXPECT_GT(r.raw_score, TB_WIN_IN_MAX);
    EXPECT_TRUE(engine.tables_cover(*pos));

    // A middlegame: no table, no probe.
    const SearchResult mid = engine.search(Position(), limits, stop);
    EXPECT_EQ(mid.root_tables, RootTables::None);
    EXPECT_EQ(mid.tbhits, 0u);
    EXPECT_FALSE(engine.tables_cover(Position()));

    // A 6-piece position with captures into the tables: probes in the tree.
    const auto six = Position::from_fen("8/8/8/4k3/8/3p4/1R2PK2/4r3 w - - 0 1");
    ASSERT_TRUE(six);
    const SearchResult tree = engine.search(*six, limits, stop);
    EXPECT_EQ(tree.root_tables, RootTables::None);
    EXPECT_GT(tree.tbhits, 0u);

    engine.set_syzygy(*loaded, 3);
    EXPECT_EQ(engine.search(*pos, limits, stop).root_tables, RootTables::None);
    EXPECT_FALSE(engine.tables_cover(*pos));
    engine.set_syzygy(*loaded, 7);
    const auto atomic = Position::from_fen("8/8/8/4k3/8/8/1R3K2/4r3 w - - 0 1", Variant::ATOMIC);
    ASSERT_TRUE(atomic);
    const SearchResult a = engine.search(*atomic, limits, stop);
    EXPECT_EQ(a.root_tables, RootTables::None);
    EXPECT_EQ(a.tbhits, 0u);
    EXPECT_FALSE(engine.tables_cover(*atomic));
}

TEST(Syzygy, UciOptions) {
    std::istringstream in(
        "uci\n"
        "setoption name SyzygyPath value /no/such/syzygy\n"
        "setoption name SyzygyPath value /no/such/syzygy:" +
        kTables +
        "\n"
        "position fen 8/8/8/4k3/8/8/1R3K2/4r3 b - - 0 1\n"
        "go depth 5\n"
        "isready\n"
        "setoption name SyzygyProbeLimit value 9\n"
        "setoption name SyzygyProbeLimit value 2\n"
        "go depth 3\n"
        "isready\n"
        "setoption name SyzygyPath value <empty>\n"
        "quit\n");
    std::ostringstream out;
    {
        Uci uci(out);
        uci.loop(in);
    }
    const std::string text = out.str();
    EXPECT_NE(text.find("option name SyzygyPath type string default <empty>\n"), std::string::npos);
    EXPECT_NE(text.find("option name SyzygyProbeLimit type spin default 7 min 0 max 7\n"),
              std::string::npos);
    EXPECT_NE(text.find("info string error: SyzygyPath: no usable Syzygy table (.rtbw) in "
                        "/no/such/syzygy; /no/such/syzygy: no such folder; no Syzygy tables "
                        "are used"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("info string error: SyzygyPath: /no/such/syzygy: no such folder\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("info string SyzygyPath: 21 tables (up to 5 pieces)"), std::string::npos)
        << text;
    // The drawn root: score 0 and a drawing move (Ra1, Rc1, Rd1, Rh1 or Re4).
    const auto first = text.find("bestmove ");
    ASSERT_NE(first, std::string::npos) << text;
    const std::string move = text.substr(first + 9, 4);
    EXPECT_TRUE(move == "e1a1" || move == "e1c1" || move == "e1d1" || move == "e1h1" ||
                move == "e1e4")
        << text;
    EXPECT_NE(text.find("info string SyzygyPath: no tablebases"), std::string::npos) << text;
    // The set was let go: another one loads.
    outpost::testing::TempDir dir{"outpost-syzygy-test-"};
    copy_table(dir, "KQvK.rtbw");
    auto r = Syzygy::load({dir.path().string()});
    EXPECT_TRUE(r) << r.error();
}

TEST(Syzygy, PathsSplitOnColons) {
    EXPECT_EQ(split_syzygy_paths("/a:/b : :/c"), (std::vector<std::string>{"/a", "/b", "/c"}));
    EXPECT_TRUE(split_syzygy_paths("").empty());
    EXPECT_TRUE(split_syzygy_paths("<empty>").empty());
}

}  // namespace
}  // namespace engine::syzygy_test
