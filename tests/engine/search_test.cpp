// The Engine API: always a legal move, prompt stops, edge-case roots, draws, determinism,
// pondering and threads.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "engine/position.hpp"
#include "engine/search.hpp"
#include "tests/support/time_scale.hpp"

namespace engine {
namespace {

Position from_fen(const char* fen) {
    auto p = Position::from_fen(fen);
    EXPECT_TRUE(p) << fen;
    return p ? *p : Position();
}

SearchLimits depth_limit(int d) {
    SearchLimits l;
    l.depth = d;
    return l;
}

SearchLimits node_limit(std::uint64_t n) {
    SearchLimits l;
    l.nodes = n;
    return l;
}

const char* MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 4 8";

TEST(Search, ReturnsALegalMoveAtFixedDepth) {
    Engine eng;
    std::atomic<bool> stop{false};
    const Position pos = from_fen(MIDDLEGAME);
    const SearchResult r = eng.search(pos, depth_limit(6), stop);
    EXPECT_TRUE(pos.legal_moves().contains(r.best));
    EXPECT_EQ(r.depth, 6);
    EXPECT_GT(r.nodes, 0u);
    ASSERT_FALSE(r.pv.empty());
    EXPECT_EQ(r.pv[0], r.best);
    EXPECT_EQ(r.root_status, PositionStatus::ONGOING);
}

TEST(Search, StopFlagSetBeforeTheSearchStillGivesALegalMove) {
    Engine eng;
    std::atomic<bool> stop{true};
    const Position pos = from_fen(MIDDLEGAME);
    SearchLimits l;
    l.infinite = true;
    const SearchResult r = eng.search(pos, l, stop);
    EXPECT_TRUE(pos.legal_moves().contains(r.best));
}

TEST(Search, OneMillisecondMoveTime) {
    Engine eng;
    std::atomic<bool> stop{false};
    const Position pos = from_fen(MIDDLEGAME);
    SearchLimits l;
    l.movetime = 1;
    l.move_overhead_ms = 0;
    const SearchResult r = eng.search(pos, l, stop);
    EXPECT_TRUE(pos.legal_moves().contains(r.best));
}

TEST(Search, TinyClockStillGivesALegalMove) {
    Engine eng;
    std::atomic<bool> stop{false};
    const Position pos = from_fen(MIDDLEGAME);
    SearchLimits l;
    l.wtime = 3;
    l.btime = 3;
    l.move_overhead_ms = 50;
    const SearchResult r = eng.search(pos, l, stop);
    EXPECT_TRUE(pos.legal_moves().contains(r.best));
}

TEST(Search, OnlyOneLegalMove) {
    Engine eng;
    std::atomic<bool> stop{false};
    // Black king in check from the rook; the knight covers g7, so Kg8 is the only move.
    const Position pos = from_fen("7k/8/4N3/8/8/8/8/K6R b - - 0 1");
    ASSERT_EQ(pos.legal_moves().size(), 1);
    SearchLimits l;
    l.btime = 60'000;
    l.wtime = 60'000;
    const SearchResult r = eng.search(pos, l, stop);
    EXPECT_EQ(r.best, pos.legal_moves()[0]);
}

TEST(Search, CheckmatedRootHasNoMoveAndSaysSo) {
    Engine eng;
    std::atomic<bool> stop{false};
    const Position pos = from_fen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    const SearchResult r = eng.search(pos, depth_limit(5), stop);
    EXPECT_TRUE(r.best.is_none());
    EXPECT_EQ(r.root_status, PositionStatus::CHECKMATE);
    EXPECT_TRUE(r.score.is_mate);
    EXPECT_EQ(r.score.value, 0);
}

TEST(Search, StalematedRootHasNoMoveAndSaysSo) {
    Engine eng;
    std::atomic<bool> stop{false};
    const Position pos = from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    const SearchResult r = eng.search(pos, depth_limit(5), stop);
    EXPECT_TRUE(r.best.is_none());
    EXPECT_EQ(r.root_status, PositionStatus::STALEMATE);
    EXPECT_FALSE(r.score.is_mate);
    EXPECT_EQ(r.score.value, 0);
}

TEST(Search, FindsABackRankMateAndReportsIt) {
    Engine eng;
    std::atomic<bool> stop{false};
    const Position pos = from_fen("3r2k1/5ppp/8/8/8/8/5PPP/3RR1K1 w - - 0 1");
    const SearchResult r = eng.search(pos, depth_limit(6), stop);
    EXPECT_TRUE(r.score.is_mate);
    EXPECT_EQ(r.score.value, 1);
    EXPECT_EQ(pos.to_uci(r.best), "d1d8");
}

// Two rooks against a bare king: Ra7 Kg8 Rb8# (or Rb7 Kg8 Ra8#) is mate in 2. Reverse futility
// let the lone king "stand pat" against a beta of being mated, so only mate in 3 was found.
TEST(Search, FindsTheShortestRookLadderMate) {
    Engine eng;
    std::atomic<bool> stop{false};
    const Position pos = from_fen("7k/8/8/8/8/8/R7/1R2K3 w - - 0 1");
    for (int depth : {5, 6, 8, 12}) {
        eng.new_game();
        const SearchResult r = eng.search(pos, depth_limit(depth), stop);
        EXPECT_TRUE(r.score.is_mate) << "depth " << depth;
        EXPECT_EQ(r.score.value, 2) << "depth " << depth;
        const std::string best = pos.to_uci(r.best);  // Ra7 or, the mirror, Rb7
        EXPECT_TRUE(best == "a2a7" || best == "b1b7") << "depth " << depth << ": " << best;
    }
}

TEST(Search, ALostPositionScoresBadly) {
    Engine eng;
    std::atomic<bool> stop{false};
    const Position pos = from_fen("3qk3/8/8/8/8/8/8/4K3 w - - 0 1");
    const SearchResult r = eng.search(pos, depth_limit(6), stop);
    EXPECT_TRUE(pos.legal_moves().contains(r.best));
    EXPECT_TRUE(r.score.is_mate ? r.score.value < 0 : r.score.value < -500);
}

TEST(Search, InfoCallbackOncePerIterationAtLeast) {
    Engine eng;
    std::atomic<bool> stop{false};
    const Position pos = from_fen(MIDDLEGAME);
    int exact = 0, last_depth = 0;
    eng.search(pos, depth_limit(5), stop, [&](const SearchInfo& info) {
        if (info.bound != BOUND_EXACT) return;
        ++exact;
        EXPECT_EQ(info.depth, last_depth + 1);
        last_depth = info.depth;
        EXPECT_FALSE(info.pv.empty());
    });
    EXPECT_EQ(exact, 5);
}

TEST(Search, RepetitionAgainstGameHistoryIsADraw) {
    // White is a rook down; the game history already has this position twice, so repeating
    // it is a third occurrence: the search should see a draw (score 0) in Kg1-h1 shuffles.
    Position pos = from_fen("6k1/8/8/8/8/8/r7/6K1 w - - 0 1");
    for (const char* m : {"g1h1", "a2b2", "h1g1", "b2a2", "g1h1", "a2b2", "h1g1", "b2a2"})
        ASSERT_TRUE(pos.play_uci(m)) << m;
    EXPECT_EQ(pos.repetitions(), 2);
    Engine eng;
    std::atomic<bool> stop{false};
    // The root itself is a threefold repetition; its moves are searched normally, and each
    // reply that returns to a history position counts as a draw.
    const SearchResult r = eng.search(pos, depth_limit(6), stop);
    EXPECT_TRUE(pos.legal_moves().contains(r.best));
}

TEST(Search, FiftyMoveRuleScoresADraw) {
    // White is a queen up but the clock is at 99 plies: any non-capture, non-pawn move draws.
    const Position pos = from_fen("6k1/8/8/8/8/8/8/Q5K1 w - - 99 120");
    Engine eng;
    std::atomic<bool> stop{false};
    const SearchResult r = eng.search(pos, depth_limit(5), stop);
    EXPECT_EQ(r.score.is_mate, false);
    EXPECT_EQ(r.score.value, 0);
}

TEST(Search, InsufficientMaterialIsADraw) {
    const Position pos = from_fen("8/8/4k3/8/8/3NK3/8/8 w - - 0 1");
    Engine eng;
    std::atomic<bool> stop{false};
    const SearchResult r = eng.search(pos, depth_limit(6), stop);
    EXPECT_EQ(r.score.value, 0);
}

TEST(Search, FixedNodeSearchIsReproducibleAfterNewGame) {
    Engine eng;
    std::atomic<bool> stop{false};
    const Position pos = from_fen(MIDDLEGAME);
    eng.new_game();
    const SearchResult a = eng.search(pos, node_limit(30'000), stop);
    eng.new_game();
    const SearchResult b = eng.search(pos, node_limit(30'000), stop);
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_EQ(a.best, b.best);
    EXPECT_EQ(a.pv, b.pv);
    EXPECT_EQ(a.raw_score, b.raw_score);
    EXPECT_EQ(a.nodes, 30'000u);  // one thread stops exactly at the limit
}

TEST(Search, StopFromAnotherThreadIsPrompt) {
    Engine eng;
    std::atomic<bool> stop{false};
    const Position pos = from_fen(MIDDLEGAME);
    SearchLimits l;
    l.infinite = true;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        stop = true;
    });
    const auto start = std::chrono::steady_clock::now();
    const SearchResult r = eng.search(pos, l, stop);
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                        std::chrono::steady_clock::now() - start)
                        .count();
    stopper.join();
    EXPECT_TRUE(pos.legal_moves().contains(r.best));
    // generous: only catches a search that ignores the flag
    EXPECT_LT(ms, test_time::scaled_ms(5'000));
}

TEST(Search, PonderKeepsSearchingUntilPonderhitThenObeysTheClock) {
    Engine eng;
    std::atomic<bool> stop{false};
    const Position pos = from_fen(MIDDLEGAME);
    SearchLimits l;
    l.ponder = true;
    l.wtime = l.btime = 100;  // tiny clock: without ponder this would return at once
    l.move_overhead_ms = 0;
    std::atomic<bool> returned{false};
    SearchResult r;
    std::thread searcher([&] {
        r = eng.search(pos, l, stop);
        returned = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    EXPECT_FALSE(returned.load());  // still pondering after more than the whole clock
    eng.ponderhit();
    searcher.join();  // returns on its own within the (tiny) budget
    EXPECT_TRUE(pos.legal_moves().contains(r.best));
}

TEST(Search, TwoThreadsReturnALegalMove) {
    Engine eng({.hash_mb = 8, .threads = 2});
    EXPECT_EQ(eng.threads(), 2);
    std::atomic<bool> stop{false};
    const Position pos = from_fen(MIDDLEGAME);
    const SearchResult r = eng.search(pos, depth_limit(7), stop);
    EXPECT_TRUE(pos.legal_moves().contains(r.best));
    EXPECT_EQ(r.depth, 7);
}

TEST(Search, SettingsCanChangeBetweenSearches) {
    Engine eng;
    eng.set_hash_mb(4);
    EXPECT_EQ(eng.hash_mb(), 4);
    eng.set_threads(3);
    EXPECT_EQ(eng.threads(), 3);
    eng.set_threads(1);
    std::atomic<bool> stop{false};
    const SearchResult r = eng.search(Position(), depth_limit(4), stop);
    EXPECT_TRUE(Position().legal_moves().contains(r.best));
    EXPECT_FALSE(r.ponder.is_none());
}

TEST(Search, Chess960CastlingRootIsHandled) {
    auto pos = Position::from_fen(
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true);
    ASSERT_TRUE(pos);
    Engine eng;
    std::atomic<bool> stop{false};
    const SearchResult r = eng.search(*pos, depth_limit(6), stop);
    EXPECT_TRUE(pos->legal_moves().contains(r.best));
}

}  // namespace
}  // namespace engine
