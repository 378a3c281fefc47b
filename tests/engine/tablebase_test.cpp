// Gaviota tablebases with Debian's real 3-piece tables: probes agree with known KPK results and
// with themselves one move deeper; the engine mates KQK and KRK in exactly the table's distance
// to mate; the root filter never spoils a win; missing folders and corrupt files are clear
// errors; UCI's GaviotaTbPath.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "engine/fen_placement.hpp"
#include "engine/position.hpp"
#include "engine/score.hpp"
#include "engine/search.hpp"
#include "engine/tablebase.hpp"
#include "engine/uci.hpp"
#include "tests/support/temp_dir.hpp"

namespace engine {
namespace {

namespace fs = std::filesystem;

// Where Debian's gaviotatb package puts the tables compressed with the library's default
// scheme (cp4). deploy/install-deps.sh installs it.
const std::string kTables = "/usr/share/gaviotatb/gtb4";

Board board_of(const std::string& fen) {
    auto p = Position::from_fen(fen);
    EXPECT_TRUE(p) << fen;
    return p ? p->board() : Board{};
}

class Tables : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(fs::exists(kTables + "/kqk.gtb.cp4"))
            << "the Gaviota 3-piece tables are not installed (" << kTables
            << "): run deploy/install-deps.sh (Debian packages gaviotatb and libgaviotatb-dev)";
        auto loaded = Tablebase::load({kTables});
        ASSERT_TRUE(loaded) << loaded.error();
        tb = *loaded;
    }
    void TearDown() override { tb.reset(); }

    std::shared_ptr<const Tablebase> tb;
};

TEST_F(Tables, LoadsDebiansThreePieceSet) {
    EXPECT_EQ(tb->tables(), (std::vector<std::string>{"kbk", "knk", "kpk", "kqk", "krk"}));
    EXPECT_EQ(tb->max_pieces(), 3);
    EXPECT_EQ(tb->compression_scheme(), 4);
    EXPECT_EQ(tb->describe(), "5 tables (up to 3 pieces, cp4) from " + kTables);
}

// Textbook king-and-pawn endings, from the side to move's view.
TEST_F(Tables, KpkWinsAndDrawsAgreeWithTheTable) {
    struct Case {
        const char* fen;
        Wdl wdl;
        const char* why;
    };
    const Case cases[] = {
        {"4k3/8/4K3/4P3/8/8/8/8 w - - 0 1", Wdl::WIN, "king on the sixth before its pawn"},
        {"4k3/8/4K3/4P3/8/8/8/8 b - - 0 1", Wdl::LOSS, "the same, black to move"},
        {"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1", Wdl::DRAW, "black keeps the opposition"},
        {"7k/8/8/8/P7/8/8/K7 w - - 0 1", Wdl::WIN, "the king is outside the pawn's square"},
        {"7k/8/8/8/P7/8/8/K7 b - - 0 1", Wdl::LOSS, "still outside after its move"},
        {"8/8/8/3k4/P7/8/8/K7 w - - 0 1", Wdl::DRAW, "the king catches the pawn"},
        {"k7/8/8/8/P7/8/8/K7 w - - 0 1", Wdl::DRAW, "rook pawn, defender in the corner"},
        {"8/8/8/8/8/3k4/3P4/7K b - - 0 1", Wdl::DRAW, "the pawn is taken"},
        {"8/4P3/8/8/8/8/k7/7K w - - 0 1", Wdl::WIN, "the pawn queens"},
        {"8/8/8/8/8/4k3/4p3/4K3 w - - 0 1", Wdl::DRAW, "black pawn, white king in front"},
    };
    for (const Case& c : cases) {
        auto pos = Position::from_fen(c.fen);
        ASSERT_TRUE(pos) << c.fen;
        const auto wdl = tb->probe_wdl(pos->board());
        const auto dtm = tb->probe_dtm(pos->board());
        ASSERT_TRUE(wdl && dtm) << c.fen;
        EXPECT_EQ(*wdl, c.wdl) << c.fen << ": " << c.why;
        EXPECT_EQ(dtm->wdl, c.wdl) << c.fen;
        EXPECT_EQ(dtm->plies_to_mate == 0, c.wdl == Wdl::DRAW) << c.fen;
    }
    // Known distances: KRK and KQK from the library's own example, mate itself.
    EXPECT_EQ(tb->probe_dtm(board_of("8/8/8/4k3/8/8/8/KR6 w - - 0 1")), (TbResult{Wdl::WIN, 29}));
    EXPECT_EQ(tb->probe_dtm(board_of("8/8/8/4k3/8/8/8/KR6 b - - 0 1")), (TbResult{Wdl::LOSS, 30}));
    EXPECT_EQ(tb->probe_dtm(board_of("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")), (TbResult{Wdl::LOSS, 0}));
    EXPECT_EQ(tb->probe_dtm(board_of("k7/2Q5/1K6/8/8/8/8/8 b - - 0 1")), (TbResult{Wdl::DRAW, 0}));
}

// Every answer must follow from the answers one move later: a win has a move to a lost
// position one ply nearer mate, a loss has only moves to won ones, at most one ply nearer.
TEST_F(Tables, ProbesAgreeWithTheirOwnChildren) {
    std::mt19937 rng(16);
    const char* pieces[] = {"P", "Q", "R", "p", "q", "r"};
    int checked = 0;
    for (int attempt = 0; attempt < 5000 && checked < 300; ++attempt) {
        std::string squares(64, '.');
        const int wk = int(rng() % 64), bk = int(rng() % 64), x = 8 + int(rng() % 48);
        if (wk == bk || wk == x || bk == x) continue;
        squares[std::size_t(wk)] = 'K';
        squares[std::size_t(bk)] = 'k';
        squares[std::size_t(x)] = pieces[rng() % 6][0];
        std::string fen = engine::fen_placement(squares, '.');
        fen += rng() % 2 ? " w - - 0 1" : " b - - 0 1";
        auto pos = Position::from_fen(fen);
        if (!pos) continue;
        const Board& b = pos->board();
        if (b.attacked_by(b.side, b.king_square(~b.side), b.pieces())) continue;  // illegal
        if (legal_moves(b).empty()) continue;
        const auto dtm = tb->probe_dtm(b);
        ASSERT_TRUE(dtm) << fen;
        EXPECT_EQ(tb->probe_wdl(b), dtm->wdl) << fen;
        const auto keep = tablebase_root_moves(*tb, b);
        ASSERT_TRUE(keep) << fen;
        EXPECT_EQ(keep->result, *dtm) << fen;  // the best move's value is the position's
        ++checked;
    }
    EXPECT_GE(checked, 300);
}

// Plays a position to its end: the side to move by the engine with the tables, the other side
// by the same engine or by the table's best defence (the first move tablebase_root_moves keeps).
// Returns the plies played until mate, or -1 when the game ended otherwise or lasted too long.
int plies_to_mate_played(const std::shared_ptr<const Tablebase>& tb, const std::string& fen,
                         bool defence_from_table, std::uint64_t nodes) {
    Engine engine({.hash_mb = 8, .threads = 1, .tablebase = tb});
    auto pos = Position::from_fen(fen);
    if (!pos) return -1;
    const Color attacker = pos->side_to_move();
    std::atomic<bool> stop{false};
    for (int ply = 0; ply < 200; ++ply) {
        const PositionStatus status = pos->status();
        if (status == PositionStatus::CHECKMATE) return ply;
        if (status != PositionStatus::ONGOING) return -1;
        Move m;
        if (pos->side_to_move() != attacker && defence_from_table) {
            m = tablebase_root_moves(*tb, pos->board())->moves.front();
        } else {
            SearchLimits limits;
            limits.nodes = nodes;
            m = engine.search(*pos, limits, stop).best;
        }
        pos->play(m);
    }
    return -1;
}

TEST_F(Tables, EngineMatesKqkAndKrkInExactlyTheTablesDistance) {
    struct Case {
        const char* fen;
        int dtm;  // plies, as the table gives it (checked first)
    };
    const Case cases[] = {
        {"8/8/8/5k2/8/8/1Q6/K7 w - - 0 1", 19},  // the longest KQK win
        {"8/8/8/8/8/2k5/1R6/K7 w - - 0 1", 31},  // the longest KRK win
        {"8/8/8/3k4/8/8/8/KQ6 w - - 0 1", 17},  {"8/8/3k4/8/8/8/8/Q6K w - - 0 1", 17},
        {"8/8/8/4k3/8/8/8/KR6 w - - 0 1", 29},  {"8/8/4k3/8/8/8/8/K6R w - - 0 1", 29},
        {"8/8/8/3k4/8/8/8/R3K3 w - - 0 1", 27},
    };
    for (const Case& c : cases) {
        const auto table = tb->probe_dtm(board_of(c.fen));
        ASSERT_EQ(table, (TbResult{Wdl::WIN, c.dtm})) << c.fen;
        EXPECT_EQ(plies_to_mate_played(tb, c.fen, false, 3000), c.dtm)
            << c.fen << ": both sides by the engine";
        EXPECT_EQ(plies_to_mate_played(tb, c.fen, true, 3000), c.dtm)
            << c.fen << ": the defence from the table";
    }
}

TEST_F(Tables, SearchReportsTheTablesMateDistance) {
    Engine engine({.hash_mb = 8, .threads = 1, .tablebase = tb});
    std::atomic<bool> stop{false};
    SearchLimits limits;
    limits.nodes = 2000;
    auto pos = Position::from_fen("8/8/8/4k3/8/8/8/KR6 w - - 0 1");
    ASSERT_TRUE(pos);
    SearchResult r = engine.search(*pos, limits, stop);
    EXPECT_EQ(r.score, (Score{true, 15}));  // 29 plies: white's 15th move mates
    EXPECT_GT(r.tbhits, 0u);
    ASSERT_TRUE(pos->play_uci("a1b2"));
    r = engine.search(*pos, limits, stop);
    EXPECT_EQ(r.score.is_mate, true);
    EXPECT_LT(r.score.value, 0);  // black is mated
    pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
    ASSERT_TRUE(pos);
    r = engine.search(*pos, limits, stop);
    EXPECT_EQ(r.score, (Score{false, 0}));
}

// KPK positions where the engine without tables, at this budget, pushes the pawn and lets the
// win go (found that way); with them it keeps the win and comes one ply nearer mate.
TEST_F(Tables, RootFilterNeverSpoilsAWin) {
    const char* fens[] = {
        "8/8/8/4k3/6K1/8/7P/8 w - - 0 1",  "8/2k5/8/8/8/8/4K1P1/8 w - - 0 1",
        "8/8/8/8/4k3/1P6/2K5/8 w - - 0 1", "8/2k5/8/8/3K4/8/4P3/8 w - - 0 1",
        "8/6k1/8/8/4K3/5P2/8/8 w - - 0 1", "8/8/8/5k2/1P6/8/3K4/8 w - - 0 1",
        "7k/8/8/8/8/8/3P1K2/8 w - - 0 1",  "8/8/3k4/8/8/5P2/5K2/8 w - - 0 1",
    };
    std::atomic<bool> stop{false};
    SearchLimits limits;
    limits.nodes = 20000;
    int spoiled_without = 0;
    for (const char* fen : fens) {
        auto pos = Position::from_fen(fen);
        ASSERT_TRUE(pos);
        const auto root = tb->probe_dtm(pos->board());
        ASSERT_TRUE(root && root->wdl == Wdl::WIN) << fen;

        Engine plain({.hash_mb = 8, .threads = 1});
        Board after = pos->board();
        after.make_move(plain.search(*pos, limits, stop).best);
        spoiled_without += tb->probe_wdl(after) != Wdl::LOSS;

        Engine with({.hash_mb = 8, .threads = 1, .tablebase = tb});
        const SearchResult r = with.search(*pos, limits, stop);
        after = pos->board();
        after.make_move(r.best);
        EXPECT_EQ(tb->probe_dtm(after), (TbResult{Wdl::LOSS, root->plies_to_mate - 1}))
            << fen << ": " << pos->to_uci(r.best);
        const auto keep = tablebase_root_moves(*tb, pos->board());
        ASSERT_TRUE(keep);
        EXPECT_EQ(keep->result, *root);
        for (Move m : keep->moves) {
            Board next = pos->board();
            next.make_move(m);
            EXPECT_EQ(tb->probe_dtm(next), (TbResult{Wdl::LOSS, root->plies_to_mate - 1}))
                << fen << ": kept " << pos->to_uci(m);
        }
    }
    EXPECT_GT(spoiled_without, 0) << "no position where the tables make a difference";
}

// Losing, the engine picks the longest resistance; drawn, it keeps the draw.
TEST_F(Tables, RootFilterDefendsLongestAndKeepsDraws) {
    auto keep = tablebase_root_moves(*tb, board_of("8/8/8/4k3/8/8/8/KR6 b - - 0 1"));
    ASSERT_TRUE(keep);
    EXPECT_EQ(keep->result, (TbResult{Wdl::LOSS, 30}));
    keep = tablebase_root_moves(*tb, board_of("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1"));
    ASSERT_TRUE(keep);
    EXPECT_EQ(keep->result.wdl, Wdl::DRAW);
    for (Move m : keep->moves) {
        Board next = board_of("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
        next.make_move(m);
        EXPECT_EQ(tb->probe_wdl(next), Wdl::DRAW);
    }
    EXPECT_LT(keep->moves.size(), legal_moves(board_of("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1")).size());
    // Castling rights or more pieces than the tables hold: nothing to say.
    EXPECT_FALSE(tb->probe_wdl(board_of("4k3/8/8/8/8/8/4P3/4K2R w K - 0 1")));
    EXPECT_FALSE(tb->probe_wdl(board_of("4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1")));
}

TEST_F(Tables, OneSetPerProcessSharedByEveryone) {
    const std::string other = "/usr/share/gaviotatb/gtb1";
    {
        auto again = Tablebase::load({kTables});
        ASSERT_TRUE(again) << again.error();
        EXPECT_EQ(again->get(), tb.get());
        auto refused = Tablebase::load({other});
        ASSERT_FALSE(refused);
        EXPECT_NE(refused.error().find("already loaded from " + kTables), std::string::npos)
            << refused.error();
    }
    EXPECT_FALSE(Tablebase::load({other}));  // `tb` still holds the first set
    tb.reset();                              // the last holder lets go: now the other loads
    auto loaded = Tablebase::load({other});
    ASSERT_TRUE(loaded) << loaded.error();
    EXPECT_EQ((*loaded)->compression_scheme(), 1);
    EXPECT_EQ((*loaded)->probe_dtm(board_of("8/8/8/4k3/8/8/8/KR6 w - - 0 1")),
              (TbResult{Wdl::WIN, 29}));
}

TEST(TablebaseErrors, MissingFolderIsNamed) {
    auto r = Tablebase::load({"/no/such/gaviota"});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), "/no/such/gaviota: no such folder");
    r = Tablebase::load({kTables, "/no/such/gaviota"});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), "/no/such/gaviota: no such folder");
    r = Tablebase::load({kTables + "/kqk.gtb.cp4"});
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error(), kTables + "/kqk.gtb.cp4: not a folder");
    r = Tablebase::load({});
    ASSERT_FALSE(r);
}

TEST(TablebaseErrors, FolderWithoutTablesIsNamedWithAHint) {
    outpost::testing::TempDir dir{"outpost-tb-test-"};
    std::ofstream(dir.path() / "readme.txt") << "no tables here\n";
    auto r = Tablebase::load({dir.path().string()});
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().find(dir.path().string() + ": holds no Gaviota tablebase files"),
              std::string::npos)
        << r.error();
    // Debian's package folder holds one subfolder per compression scheme.
    r = Tablebase::load({"/usr/share/gaviotatb"});
    ASSERT_FALSE(r);
    EXPECT_NE(r.error().find("its subfolder /usr/share/gaviotatb/gtb4 does"), std::string::npos)
        << r.error();
}

TEST(TablebaseErrors, CorruptFilesAreNamedNotProbed) {
    outpost::testing::TempDir dir{"outpost-tb-test-"};
    const fs::path file = dir.path() / "kqk.gtb.cp4";
    const auto expect_error = [&](const std::string& what) {
        auto r = Tablebase::load({dir.path().string()});
        ASSERT_FALSE(r) << what;
        EXPECT_EQ(r.error().rfind(file.string() + ": ", 0), 0u) << what << ": " << r.error();
    };
    {
        std::ofstream out(file, std::ios::binary);
        std::mt19937 rng(3);
        for (int i = 0; i < 9000; ++i) out.put(char(rng()));
    }
    expect_error("random bytes");
    std::ofstream(file, std::ios::binary | std::ios::trunc) << "not a table\n";
    expect_error("a text file");
    {
        std::ifstream in(kTables + "/kqk.gtb.cp4", std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        ASSERT_GT(bytes.size(), 5000u);
        std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes.substr(0, 5000);
        expect_error("a truncated copy");
        bytes[33] = char(0x7f);  // where the header says the block index ends
        std::ofstream(file, std::ios::binary | std::ios::trunc) << bytes;
        expect_error("a broken header");
    }
    // A sound copy loads and answers.
    fs::copy_file(kTables + "/kqk.gtb.cp4", file, fs::copy_options::overwrite_existing);
    auto r = Tablebase::load({dir.path().string()});
    ASSERT_TRUE(r) << r.error();
    EXPECT_EQ((*r)->probe_dtm(board_of("8/8/8/3k4/8/8/8/KQ6 w - - 0 1")), (TbResult{Wdl::WIN, 17}));
    EXPECT_FALSE((*r)->probe_wdl(board_of("8/8/8/4k3/8/8/8/KR6 w - - 0 1")));  // no krk here
}

TEST(TablebaseErrors, UciPathErrorsAreInfoStrings) {
    std::istringstream in(
        "setoption name GaviotaTbPath value /no/such/gaviota\n"
        "setoption name GaviotaTbPath value " +
        kTables +
        "\n"
        "setoption name GaviotaTbMaxPieces value 3\n"
        "position fen 8/8/8/3k4/8/8/8/KQ6 w - - 0 1\n"
        "go nodes 3000\n"
        "isready\n"
        "setoption name GaviotaTbPath value <empty>\n"
        "quit\n");
    std::ostringstream out;
    {
        Uci uci(out);
        uci.loop(in);
    }
    const std::string text = out.str();
    EXPECT_NE(text.find("info string error: GaviotaTbPath: /no/such/gaviota: no such folder"),
              std::string::npos)
        << text;
    EXPECT_NE(
        text.find("info string GaviotaTbPath: 5 tables (up to 3 pieces, cp4) from " + kTables),
        std::string::npos)
        << text;
    EXPECT_NE(text.find("score mate 9"), std::string::npos) << text;  // 17 plies
    EXPECT_NE(text.find(" tbhits "), std::string::npos) << text;
    EXPECT_NE(text.find("info string GaviotaTbPath: no tablebases"), std::string::npos) << text;
    // The set was let go: another one loads.
    auto r = Tablebase::load({"/usr/share/gaviotatb/gtb2"});
    EXPECT_TRUE(r) << r.error();
}

TEST(TablebaseErrors, UciListsTheOptions) {
    std::istringstream in("uci\nquit\n");
    std::ostringstream out;
    {
        Uci uci(out);
        uci.loop(in);
    }
    EXPECT_NE(out.str().find("option name GaviotaTbPath type string default <empty>\n"),
              std::string::npos);
    EXPECT_NE(out.str().find("option name GaviotaTbMaxPieces type spin default 5 min 3 max 5\n"),
              std::string::npos);
}

TEST(TablebasePaths, SplitsOnSemicolons) {
    EXPECT_EQ(split_tablebase_paths("/a;/b ; ;/c"), (std::vector<std::string>{"/a", "/b", "/c"}));
    EXPECT_TRUE(split_tablebase_paths("").empty());
    EXPECT_TRUE(split_tablebase_paths("<empty>").empty());
}

}  // namespace
}  // namespace engine
