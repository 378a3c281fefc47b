// The online sources' answers as moves in our position (online_moves.*, online_choice.hpp): each
// source's rules on replies shaped like the services' documented examples, and the lookup's
// deadline.
#include "service/moves/online_choice.hpp"

#include <gtest/gtest.h>

#include <set>

#include "engine/fen.hpp"

namespace service {
namespace {

engine::Position pos(const std::string& fen = std::string(engine::START_FEN)) {
    return *engine::Position::from_fen(fen, false);
}

// ---- notation -------------------------------------------------------------------------------

TEST(OnlineChoice, LegalMoveReadsUciKingToRookAndSan) {
    const auto start = pos();
    ASSERT_TRUE(legal_move(start, "e2e4"));
    EXPECT_EQ(start.to_uci(*legal_move(start, "e2e4")), "e2e4");
    EXPECT_EQ(start.to_uci(*legal_move(start, "Nf3")), "g1f3");
    EXPECT_FALSE(legal_move(start, "e2e5"));
    EXPECT_FALSE(legal_move(start, "Qh5"));
    EXPECT_FALSE(legal_move(start, ""));
    EXPECT_FALSE(legal_move(start, "\xff\xfe junk"));
    // The explorer writes castling king-to-rook.
    const auto castle = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    ASSERT_TRUE(legal_move(castle, "e1h1"));
    EXPECT_EQ(castle.to_uci(*legal_move(castle, "e1h1")), "e1g1");
    EXPECT_EQ(castle.to_uci(*legal_move(castle, "O-O-O")), "e1c1");
}

TEST(OnlineChoice, LegalMoveReadsDropsAndVariantMovesInTheirOwnGames) {
    // Crazyhouse: the explorer's UCI drop ("N@e5") and its SAN; a drop of a piece not in the
    // pocket, or onto a piece, is no move.
    const auto zh = *engine::Position::from_fen(
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR[Nn] w KQkq - 0 3",
        engine::Variant::CRAZYHOUSE);
    ASSERT_TRUE(legal_move(zh, "N@d5"));
    EXPECT_EQ(zh.to_uci(*legal_move(zh, "N@d5")), "N@d5");
    EXPECT_EQ(zh.to_uci(*legal_move(zh, "N@f3")), "N@f3");
    EXPECT_FALSE(legal_move(zh, "Q@d5"));
    EXPECT_FALSE(legal_move(zh, "N@e5"));
    // Antichess: a capture is compulsory, so the quiet move a source might suggest is none.
    const auto anti = *engine::Position::from_fen(
        "rnbqkbnr/p1pppppp/8/1p6/8/4P3/PPPP1PPP/RNBQKBNR w - - 0 2", engine::Variant::ANTICHESS);
    EXPECT_TRUE(legal_move(anti, "f1b5"));
    EXPECT_TRUE(legal_move(anti, "Bxb5"));
    EXPECT_FALSE(legal_move(anti, "a2a3"));
    // Atomic: castling king-to-rook, as every Lichess service writes it.
    const auto atomic = *engine::Position::from_fen(
        "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1", engine::Variant::ATOMIC);
    EXPECT_EQ(atomic.to_uci(*legal_move(atomic, "e1h1")), "e1g1");
}

// ---- opening explorer -----------------------------------------------------------------------

lichess::ExplorerMove explorer_move(const char* uci, const char* san, std::int64_t white,
                                    std::int64_t draws, std::int64_t black) {
    lichess::ExplorerMove m;
    m.uci = uci;
    m.san = san;
    m.white = white;
    m.draws = draws;
    m.black = black;
    return m;
}

// As the masters example: most played first.
lichess::ExplorerReply explorer_reply() {
    lichess::ExplorerReply r;
    r.moves = {explorer_move("e2e4", "e4", 400, 300, 300),  // 55% for white
               explorer_move("d2d4", "d4", 300, 400, 100),  // 62.5%
               explorer_move("c2c4", "c4", 5, 0, 0),        // 100%, 5 games
               explorer_move("e2e5", "e5?", 900, 0, 0)};    // not legal: ignored
    return r;
}

TEST(OnlineChoice, ExplorerPicksTheBestScoreAmongMovesWithEnoughGames) {
    config::OpeningExplorerConfig cfg;  // sort winrate, min_games 10
    auto c = choose_explorer_move(explorer_reply(), cfg, pos());
    ASSERT_TRUE(c);
    EXPECT_EQ(c->uci, "d2d4");
    EXPECT_EQ(c->source, MoveSource::Explorer);
    EXPECT_FALSE(c->score.has_value()) << "the explorer gives no evaluation";
    EXPECT_NE(c->note.find("800 games"), std::string::npos) << c->note;
    cfg.min_games = 0;
    EXPECT_EQ(choose_explorer_move(explorer_reply(), cfg, pos())->uci, "c2c4");
    cfg.sort = "games";
    EXPECT_EQ(choose_explorer_move(explorer_reply(), cfg, pos())->uci, "e2e4");
}

TEST(OnlineChoice, ExplorerScoresForBlackWhenBlackIsToMove) {
    lichess::ExplorerReply r;
    r.moves = {explorer_move("e7e5", "e5", 600, 200, 200),
               explorer_move("c7c5", "c5", 300, 200, 500)};
    config::OpeningExplorerConfig cfg;
    const auto after_e4 = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    EXPECT_EQ(choose_explorer_move(r, cfg, after_e4)->uci, "c7c5");
    cfg.min_games = 2000;
    EXPECT_FALSE(choose_explorer_move(r, cfg, after_e4)) << "no move has enough games";
}

// ---- cloud evaluation -----------------------------------------------------------------------

lichess::CloudEvalReply cloud_reply(int depth) {
    lichess::CloudEvalReply r;
    r.depth = depth;
    r.knodes = 100000;
    const auto pv = [](std::vector<std::string> moves, int cp) {
        lichess::CloudPv p;
        p.moves = std::move(moves);
        p.cp = cp;
        return p;
    };
    r.pvs = {pv({"e2e4", "e7e5"}, 30), pv({"d2d4", "d7d5"}, 20), pv({"g1f3"}, 5)};
    return r;
}

TEST(OnlineChoice, CloudBestPlaysTheFirstLineWithItsScore) {
    config::CloudAnalysisConfig cfg;  // best, min_depth 20
    OnlineRng rng(1);
    auto c = choose_cloud_move(cloud_reply(36), cfg, pos(), rng);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->uci, "e2e4");
    ASSERT_TRUE(c->score);
    EXPECT_EQ(*c->score, (engine::Score{false, 30}));
    EXPECT_FALSE(choose_cloud_move(cloud_reply(19), cfg, pos(), rng)) << "too shallow";
}

TEST(OnlineChoice, CloudGoodPicksOnlyLinesWithinTheScoreDifference) {
    config::CloudAnalysisConfig cfg;
    cfg.move_quality = "good";
    cfg.max_score_difference = 10;
    std::set<std::string> seen;
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
        OnlineRng rng(seed);
        seen.insert(choose_cloud_move(cloud_reply(30), cfg, pos(), rng)->uci);
    }
    EXPECT_EQ(seen, (std::set<std::string>{"e2e4", "d2d4"}));  // g1f3 is 25 cp worse
}

TEST(OnlineChoice, CloudScoresAreTurnedToOurSideAndMatesKept) {
    lichess::CloudEvalReply r;
    r.depth = 40;
    lichess::CloudPv pv;
    pv.moves = {"d8h4"};
    pv.mate = -1;  // White's view: black mates in 1
    r.pvs = {pv};
    config::CloudAnalysisConfig cfg;
    OnlineRng rng(1);
    const auto fools = pos("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
    auto c = choose_cloud_move(r, cfg, fools, rng);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->uci, "d8h4");
    EXPECT_EQ(*c->score, (engine::Score{true, 1}));  // black (we) mate in 1
}

// ---- tablebase ------------------------------------------------------------------------------

lichess::TablebaseMove tb_move(const char* uci, lichess::TablebaseCategory category, int dtm) {
    lichess::TablebaseMove m;
    m.uci = uci;
    m.category = category;
    m.dtm = dtm;
    return m;
}

const char* kKqk = "8/8/8/8/8/2k5/8/KQ6 w - - 0 60";  // white to move wins

TEST(OnlineChoice, TablebasePlaysTheBestMoveAndScoresTheWin) {
    lichess::TablebaseReply r;
    r.category = lichess::TablebaseCategory::Win;
    r.dtm = 13;
    r.moves = {tb_move("b1b4", lichess::TablebaseCategory::Loss, -12),
               tb_move("b1b5", lichess::TablebaseCategory::Loss, -14),
               tb_move("b1c1", lichess::TablebaseCategory::Draw, 0)};
    config::OnlineTablebaseConfig cfg;  // best
    auto c = choose_tablebase_move(r, cfg, pos(kKqk));
    ASSERT_TRUE(c);
    EXPECT_EQ(c->uci, "b1b4");
    EXPECT_EQ(c->source, MoveSource::Tablebase);
    EXPECT_EQ(*c->score, (engine::Score{true, 7}));  // mate in 7 moves (13 plies)
    EXPECT_TRUE(c->search_among.empty());
    cfg.move_quality = "suggest";
    c = choose_tablebase_move(r, cfg, pos(kKqk));
    EXPECT_EQ(c->search_among, (std::vector<std::string>{"b1b4", "b1b5"}))
        << "the search chooses among the moves that keep the win, never the draw";
}

TEST(OnlineChoice, TablebaseDrawsScoreZeroAndUnknownsAreNoAnswer) {
    lichess::TablebaseReply r;
    r.category = lichess::TablebaseCategory::Draw;
    r.moves = {tb_move("b1c1", lichess::TablebaseCategory::Draw, 0)};
    config::OnlineTablebaseConfig cfg;
    auto c = choose_tablebase_move(r, cfg, pos(kKqk));
    ASSERT_TRUE(c);
    EXPECT_EQ(*c->score, (engine::Score{false, 0}));
    r.category = lichess::TablebaseCategory::MaybeWin;
    EXPECT_FALSE(choose_tablebase_move(r, cfg, pos(kKqk)));
    r.category = lichess::TablebaseCategory::Win;
    r.moves = {tb_move("a1a8", lichess::TablebaseCategory::Loss, -3)};  // not legal here
    EXPECT_FALSE(choose_tablebase_move(r, cfg, pos(kKqk)));
}

TEST(OnlineChoice, ATablebaseLossIsANegativeMateScore) {
    lichess::TablebaseReply r;
    r.category = lichess::TablebaseCategory::Loss;
    r.moves = {tb_move("c3d4", lichess::TablebaseCategory::Win, 10)};
    config::OnlineTablebaseConfig cfg;
    auto c = choose_tablebase_move(r, cfg, pos("8/8/8/8/8/2k5/8/KQ6 b - - 0 60"));
    ASSERT_TRUE(c);
    ASSERT_TRUE(c->score->is_mate);
    EXPECT_LT(c->score->value, 0);
}

// ---- chessdb --------------------------------------------------------------------------------

lichess::ChessdbReply chessdb_reply() {
    lichess::ChessdbReply r;
    r.status = "ok";
    const auto m = [](const char* uci, int score, int rank) {
        lichess::ChessdbMove x;
        x.uci = uci;
        x.score = score;
        x.rank = rank;
        return x;
    };
    r.moves = {m("e2e4", 40, 2), m("d2d4", 35, 2), m("c2c4", 20, 1), m("g2g4", -80, 0)};
    return r;
}

TEST(OnlineChoice, ChessdbQualitiesPickFromTheRanks) {
    const auto picks = [](const char* quality) {
        std::set<std::string> seen;
        for (std::uint64_t seed = 0; seed < 60; ++seed) {
            OnlineRng rng(seed);
            seen.insert(choose_chessdb_move(chessdb_reply(), quality, pos(), rng)->uci);
        }
        return seen;
    };
    EXPECT_EQ(picks("best"), (std::set<std::string>{"e2e4"}));
    EXPECT_EQ(picks("good"), (std::set<std::string>{"e2e4", "d2d4", "c2c4"}));
    EXPECT_EQ(picks("all"), (std::set<std::string>{"e2e4", "d2d4", "c2c4", "g2g4"}));
    auto unknown = chessdb_reply();
    unknown.status = "unknown";
    OnlineRng rng(1);
    EXPECT_FALSE(choose_chessdb_move(unknown, "best", pos(), rng));
}

// ---- the deadline ---------------------------------------------------------------------------

TEST(OnlineChoice, TheDeadlineIsASmallShareOfOurClock) {
    using std::chrono::milliseconds;
    EXPECT_EQ(online_deadline(180'000, true), milliseconds(2000));  // capped
    EXPECT_EQ(online_deadline(10'000, true), milliseconds(500));    // a twentieth
    EXPECT_EQ(online_deadline(1'500, true), milliseconds(75));
    EXPECT_EQ(online_deadline(900, true), milliseconds(0)) << "too little time: not asked";
    EXPECT_EQ(online_deadline(0, false), milliseconds(2000)) << "correspondence";
}

}  // namespace
}  // namespace service
