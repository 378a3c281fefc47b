// The search in every variant: each variant's win found as a mate-like score, a finished game's
// status at the root, and the UCI front end with UCI_Variant (positions, drops, perft, search,
// bad input).
#include <gtest/gtest.h>

#include <sstream>

#include "engine/score.hpp"
#include "engine/search.hpp"
#include "engine/uci.hpp"
#include "engine/variant_eval.hpp"
#include "uci_script.hpp"

namespace engine {
namespace {

SearchResult search_depth(const Position& pos, int depth) {
    Engine engine({.hash_mb = 8, .threads = 1});
    SearchLimits limits;
    limits.depth = depth;
    const std::atomic<bool> stop{false};
    return engine.search(pos, limits, stop);
}

struct WinInOne {
    Variant variant;
    const char* fen;
    const char* moves;  // the winning moves, any of them
};

class VariantSearch : public ::testing::TestWithParam<WinInOne> {};

TEST_P(VariantSearch, FindsTheVariantsWinAsAMateScore) {
    const auto& c = GetParam();
    const auto pos = Position::from_fen(c.fen, c.variant);
    ASSERT_TRUE(pos.ok()) << pos.error();
    const SearchResult r = search_depth(*pos, 5);
    EXPECT_TRUE(r.score.is_mate) << c.fen;
    EXPECT_EQ(r.score.value, 1) << c.fen;
    const std::string best = pos->to_uci(r.best);
    EXPECT_NE(std::string(c.moves).find(best), std::string::npos)
        << c.fen << ": played " << best << ", expected one of " << c.moves;
}

INSTANTIATE_TEST_SUITE_P(
    Variants, VariantSearch,
    ::testing::Values(
        WinInOne{Variant::KING_OF_THE_HILL, "7k/8/8/8/8/3K4/8/8 w - - 0 1", "d3d4 d3e4"},
        WinInOne{Variant::THREE_CHECK, "4k3/8/8/8/8/8/8/R3K3 w - - 0 1 +2+0", "a1a8"},
        WinInOne{Variant::ATOMIC, "4k3/3p4/8/8/8/8/8/3RK3 w - - 0 1", "d1d7"},
        WinInOne{Variant::HORDE, "4k3/8/8/8/8/8/3q4/4P3 b - - 0 1", "d2e1"},
        WinInOne{Variant::ANTICHESS, "7r/8/8/8/8/8/8/R7 w - - 0 1", "a1a8 a1h1"},
        WinInOne{Variant::RACING_KINGS, "8/5K2/8/8/8/8/8/k7 w - - 0 1", "f7e8 f7f8 f7g8"},
        WinInOne{Variant::CRAZYHOUSE, "6k1/5ppp/8/8/8/8/8/4K3[R] w - - 0 1",
                 "R@a8 R@b8 R@c8 R@d8 R@e8 R@f8"}),
    [](const auto& info) { return std::string(lichess_key(info.param.variant)); });

// Crazyhouse: black threatens a rook drop on the first rank with mate, which the knight's Nd2
// (guarding b1 and f1) or a pawn's step stops. A depth-1 search sees it only if the
// quiescence search after each move tries black's drop checks; the move it picks must leave
// black no mate in one.
TEST(VariantSearch, ADepthOneSearchSeesADropMateInQuiescence) {
    auto pos = Position::from_fen("5r1k/6pp/8/8/8/1N6/5PPP/6K1[r] w - - 0 1", Variant::CRAZYHOUSE);
    ASSERT_TRUE(pos.ok()) << pos.error();
    const SearchResult r = search_depth(*pos, 1);
    ASSERT_FALSE(r.best.is_none());
    EXPECT_FALSE(r.score.is_mate) << "depth 1 thinks it is mated";
    const std::string played = pos->to_uci(r.best);
    pos->play(r.best);
    const SearchResult reply = search_depth(*pos, 2);
    EXPECT_FALSE(reply.score.is_mate && reply.score.value > 0)
        << "after " << played << " black mates with " << pos->to_uci(reply.best);
}

// King of the hill: white's king is a pawn's step from the hill, black has two knights and two
// bishops more but none can guard d4 or check in one move. Kc3 or Kd3 wins next move whatever
// black does; a depth-1 search sees it only if a threatened hill step, like a check, is
// answered rather than stood pat against (and the move that makes it searched a ply deeper).
TEST(VariantSearch, ADepthOneSearchSeesAThreatenedHillStep) {
    auto pos = Position::from_fen("k1b1b2n/7n/8/8/8/8/2K5/8 w - - 0 1", Variant::KING_OF_THE_HILL);
    ASSERT_TRUE(pos.ok()) << pos.error();
    const SearchResult r = search_depth(*pos, 1);
    EXPECT_TRUE(r.score.is_mate && r.score.value == 2)
        << pos->to_uci(r.best) << " scores " << r.score.value << (r.score.is_mate ? " (mate)" : "");
    const std::string best = pos->to_uci(r.best);
    EXPECT_TRUE(best == "c2c3" || best == "c2d3") << best;
}

// Three-check: with two checks given, a threatened third check is answered like a check. Ng5
// (or Nd6) threatens Nf7+, which no black move prevents (Kg8 walks into the bishop); a depth-1
// search that let black stand pat on its extra pawns saw only that.
TEST(VariantSearch, ADepthOneSearchSeesAThreatenedThirdCheck) {
    auto pos =
        Position::from_fen("n6k/ppp3pp/8/8/4N3/8/B7/3K4 w - - 0 1 +2+0", Variant::THREE_CHECK);
    ASSERT_TRUE(pos.ok()) << pos.error();
    const SearchResult r = search_depth(*pos, 1);
    EXPECT_TRUE(r.score.is_mate && r.score.value == 2)
        << pos->to_uci(r.best) << " scores " << r.score.value << (r.score.is_mate ? " (mate)" : "");
    const std::string best = pos->to_uci(r.best);
    EXPECT_TRUE(best == "e4g5" || best == "e4d6") << best;
}

// Antichess: a node with a single legal move is searched a ply deeper. Here black wins by force
// (d2 Kxe3 Nc5 Kxd2 Na6 bxa6, every white reply a forced capture, and black's last pawn is left
// without a move), three plies past what a depth-3 search saw without the extension.
TEST(VariantSearch, AntichessSearchesASingleReplyAPlyDeeper) {
    auto pos = Position::from_fen("8/p7/8/1P6/n3K3/3pp3/8/8 b - - 0 59", Variant::ANTICHESS);
    ASSERT_TRUE(pos.ok()) << pos.error();
    const SearchResult r = search_depth(*pos, 3);
    ASSERT_FALSE(r.best.is_none());
    EXPECT_TRUE(r.score.is_mate && r.score.value > 0)
        << pos->to_uci(r.best) << " scores " << r.score.value << (r.score.is_mate ? " (mate)" : "");
}

// Antichess: quiescence stands pat where it has several captures to choose from (a single forced
// one it plays out), and a node where no capture is forced prunes as in chess. Searching every
// capture of every capture, as before, took this depth-9 search past four million nodes; it now
// takes some fifteen thousand.
TEST(VariantSearch, AntichessDoesNotSearchEveryChainOfCaptures) {
    auto pos = Position::from_fen("rnbqkbnr/pp1pp1pp/8/2p2p2/8/P1P4P/1P1PPPP1/RNBQKBNR b - - 0 3",
                                  Variant::ANTICHESS);
    ASSERT_TRUE(pos.ok()) << pos.error();
    const SearchResult r = search_depth(*pos, 9);
    ASSERT_FALSE(r.best.is_none());
    EXPECT_LT(r.nodes, 400'000u);
}

TEST(VariantSearch, AFinishedGameHasItsStatusAtTheRoot) {
    const auto hill = Position::from_fen("7k/8/8/8/3K4/8/8/8 b - - 0 1", Variant::KING_OF_THE_HILL);
    ASSERT_TRUE(hill.ok());
    const SearchResult r = search_depth(*hill, 3);
    EXPECT_TRUE(r.best.is_none());
    EXPECT_EQ(r.root_status, PositionStatus::VARIANT_END);
    EXPECT_EQ(r.raw_score, -SCORE_MATE);
    // Antichess: the side with no move has won.
    const auto stuck = Position::from_fen("8/8/8/8/8/1p6/1R6/8 b - - 0 1", Variant::ANTICHESS);
    ASSERT_TRUE(stuck.ok());
    const SearchResult w = search_depth(*stuck, 3);
    EXPECT_EQ(w.root_status, PositionStatus::VARIANT_END);
    EXPECT_EQ(w.raw_score, SCORE_MATE);
}

// Every variant: a short self-play game (a few hundred nodes a move) only ever plays legal
// moves and stops at the game's end with a result the rules agree with.
TEST(VariantSearch, SelfPlayGamesStayLegal) {
    for (const Variant v : ALL_VARIANTS) {
        Engine engine({.hash_mb = 4, .threads = 1});
        Position pos = Position::start(v);
        SearchLimits limits;
        limits.nodes = 400;
        const std::atomic<bool> stop{false};
        int plies = 0;
        for (; plies < 160 && pos.status() == PositionStatus::ONGOING; ++plies) {
            const SearchResult r = engine.search(pos, limits, stop);
            ASSERT_TRUE(pos.legal_moves().contains(r.best))
                << lichess_key(v) << " " << pos.fen() << " " << pos.to_uci(r.best);
            pos.play(r.best);
        }
        const SearchResult last = engine.search(pos, limits, stop);
        if (pos.status() == PositionStatus::ONGOING) {
            EXPECT_EQ(plies, 160) << lichess_key(v);
        } else if (pos.legal_moves().empty()) {
            EXPECT_TRUE(last.best.is_none()) << lichess_key(v) << " " << pos.fen();
        }
    }
}

// A net judges standard chess and the variants of net_judges_board (three-check, king of the
// hill, crazyhouse); every other variant searches the same tree whether the net is on or off.
TEST(VariantSearch, OnlyTheVariantsWithNetsSearchDifferentlyWithTheNetOn) {
    for (const Variant v : ALL_VARIANTS) {
        SearchResult with_net, without;
        for (const bool nnue : {true, false}) {
            Engine engine({.hash_mb = 8, .threads = 1, .nnue = nnue});
            ASSERT_EQ(engine.nnue(), nnue);
            SearchLimits limits;
            limits.depth = 7;
            const std::atomic<bool> stop{false};
            (nnue ? with_net : without) = engine.search(Position::start(v), limits, stop);
        }
        const bool same =
            with_net.nodes == without.nodes && with_net.raw_score == without.raw_score;
        EXPECT_EQ(same, v != Variant::STANDARD && !net_judges_board(v)) << lichess_key(v);
    }
}

std::string run_uci(const std::string& script) { return uci_script::run(script); }

TEST(VariantUci, OptionListsTheVariantsAndStartposFollowsIt) {
    const std::string out = run_uci("uci\n");
    EXPECT_NE(out.find("option name UCI_Variant type combo default chess var chess var crazyhouse "
                       "var antichess var atomic var horde var kingofthehill var racingkings "
                       "var 3check"),
              std::string::npos)
        << out;
    EXPECT_NE(run_uci("setoption name UCI_Variant value horde\nposition startpos\nd\n")
                  .find(std::string(start_fen(Variant::HORDE))),
              std::string::npos);
    EXPECT_NE(
        run_uci("setoption name UCI_Variant value racingkings\nposition startpos\ngo perft 3\n")
            .find("Nodes searched: 11264"),
        std::string::npos);
}

TEST(VariantUci, DropsInAndOutAndASearch) {
    const std::string moves = "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 P@d4";
    const std::string out =
        run_uci("setoption name UCI_Variant value crazyhouse\nposition startpos moves " + moves +
                "\nd\ngo depth 4\n");
    EXPECT_NE(out.find("/PPPP1PPP/R1BQKBNR[p] b KQkq - 0 4"), std::string::npos) << out;
    Position pos = Position::start(Variant::CRAZYHOUSE);
    std::istringstream in(moves);
    for (std::string m; in >> m;) ASSERT_TRUE(pos.play_uci(m).ok()) << m;
    EXPECT_TRUE(pos.parse_uci(uci_script::bestmove_of(out)).ok()) << out;
    // Three-check in both FEN forms.
    const std::string checks = run_uci(
        "setoption name UCI_Variant value 3check\n"
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 2+3 0 1\nd\n");
    EXPECT_NE(checks.find("RNBQKBNR w KQkq - 0 1 +1+0"), std::string::npos) << checks;
}

TEST(VariantUci, BadInputIsAnErrorLine) {
    const std::string out = run_uci(
        "setoption name UCI_Variant value bogus\n"
        "setoption name UCI_Variant value crazyhouse\n"
        "position fen 4k3/8/8/8/8/8/8/4K3[X] w - - 0 1\n"
        "position fen 4k3/8/8/8/8/8/8/4K3[P] w - - 0 1 moves N@f3\n"
        "position fen 4k3/8/8/8/8/8/8/4K3[P] w - - 0 1 moves P@e1\nd\n");
    EXPECT_NE(out.find("info string error: UCI_Variant: unknown variant 'bogus'"),
              std::string::npos)
        << out;
    EXPECT_NE(out.find("info string error: bad FEN"), std::string::npos) << out;
    EXPECT_NE(out.find("pocket has an invalid piece letter 'X'"), std::string::npos) << out;
    EXPECT_NE(out.find("info string error: illegal move 'N@f3'"), std::string::npos) << out;
    EXPECT_NE(out.find("not in the pocket"), std::string::npos) << out;
    EXPECT_NE(out.find("occupied square"), std::string::npos) << out;
    // The moves before an illegal one stay played (none here): the FEN's position is current.
    EXPECT_NE(out.find("4k3/8/8/8/8/8/8/4K3[P] w - - 0 1"), std::string::npos) << out;
}

}  // namespace
}  // namespace engine
