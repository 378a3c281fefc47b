// Move generation properties beyond perft counts: noisy + quiet = all, incremental keys,
// the bulk counter agreeing with the list, and tricky legality cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "engine/fen.hpp"
#include "engine/movegen.hpp"
#include "engine/perft.hpp"
#include "engine/position.hpp"
#include "test_util.hpp"

namespace engine {
namespace {

constexpr const char* KIWIPETE =
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

// What walk_checking_keys found.
struct KeyWalk {
    std::uint64_t leaves = 0, guesses = 0;
    int bad = 0, bad_guesses = 0;
};

// Walks the tree and checks, at every node, the incremental key and the kept checkers against
// fresh ones, and key_after (the TT prefetch's guess) against the made move's key for every
// ordinary move or capture that leaves castling rights and en passant alone.
void walk_checking_keys(const Board& b, int depth, KeyWalk& w) {
    if (b.key != b.compute_key() || b.checkers() != b.compute_checkers()) ++w.bad;
    if (depth == 0) {
        ++w.leaves;
        return;
    }
    for (const Move m : legal_moves(b)) {
        Board next = b;
        next.make_move(m);
        if (m.kind() == MoveKind::NORMAL && next.castling == b.castling &&
            next.en_passant == SQ_NONE) {
            ++w.guesses;
            if (b.key_after(m) != next.key) ++w.bad_guesses;
        }
        walk_checking_keys(next, depth - 1, w);
    }
}

TEST(Zobrist, IncrementalKeyEqualsFromScratchAtEveryNodeOfKiwipeteDepth4) {
    auto b = parse_fen(KIWIPETE);
    ASSERT_TRUE(b.ok());
    KeyWalk w;
    walk_checking_keys(*b, 4, w);
    EXPECT_EQ(w.leaves, 4085603u);
    EXPECT_EQ(w.bad, 0);
    EXPECT_GT(w.guesses, 2000000u);  // most of the 4.2M moves made are ordinary
    EXPECT_EQ(w.bad_guesses, 0);
}

TEST(Zobrist, Chess960CastlingKeysStayConsistent) {
    auto b = parse_fen("1rqbkrbn/1ppppp1p/1n6/p1N3p1/8/2P4P/PP1PPPP1/1RQBKRBN w FBfb - 0 9");
    ASSERT_TRUE(b.ok()) << b.error();
    KeyWalk w;
    walk_checking_keys(*b, 4, w);
    EXPECT_EQ(w.bad, 0);
    EXPECT_EQ(w.bad_guesses, 0);
}

TEST(Zobrist, NullMoveFlipsSideAndClearsEnPassant) {
    auto b = parse_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3");
    ASSERT_TRUE(b.ok());
    Board n = *b;
    n.make_null_move();
    EXPECT_EQ(n.side, BLACK);
    EXPECT_EQ(n.en_passant, SQ_NONE);
    EXPECT_EQ(n.key, n.compute_key());
    EXPECT_EQ(n.checkers(), n.compute_checkers());
}

// A position and every position one legal move after it.
std::vector<Board> root_and_children(const Board& root) {
    std::vector<Board> boards{root};
    for (const Move m : legal_moves(root)) {
        Board n = root;
        n.make_move(m);
        boards.push_back(n);
    }
    return boards;
}

TEST(Movegen, NoisyAndQuietPartitionAllMoves) {
    int positions = 0;
    for (const auto& line : test_util::read_lines("perft/standard.epd")) {
        auto b = parse_fen((**parse_perft_line(line)).fen);
        ASSERT_TRUE(b.ok());
        // The root and every child, so positions in check are covered too.
        for (const Board& x : root_and_children(*b)) {
            ++positions;
            MoveList all, noisy, quiet;
            generate_moves(x, all, GenType::ALL);
            generate_moves(x, noisy, GenType::NOISY);
            generate_moves(x, quiet, GenType::QUIET);
            std::multiset<std::uint16_t> a, nq;
            for (const Move m : all) a.insert(m.raw());
            for (const Move m : noisy) {
                nq.insert(m.raw());
                EXPECT_TRUE(x.is_capture(m) || m.kind() == MoveKind::PROMOTION) << to_fen(x);
            }
            for (const Move m : quiet) {
                nq.insert(m.raw());
                EXPECT_FALSE(x.is_capture(m) || m.kind() == MoveKind::PROMOTION) << to_fen(x);
            }
            EXPECT_EQ(a, nq) << to_fen(x);
            EXPECT_EQ(std::uint64_t(all.size()), count_legal_moves(x)) << to_fen(x);
        }
    }
    EXPECT_GT(positions, 1000);
}

// gives_check (computed without making the move, alone and with the node's check_info) against
// making it, for every legal move at the roots and children of the perft suites: promotions,
// en passant discoveries, castling rooks and Chess960 included.
TEST(Movegen, GivesCheckAgreesWithMakingTheMove) {
    int moves = 0, checks = 0;
    for (const char* suite : {"perft/standard.epd", "perft/fischer.epd"}) {
        for (const auto& line : test_util::read_lines(suite)) {
            auto b = parse_fen((**parse_perft_line(line)).fen);
            ASSERT_TRUE(b.ok());
            for (const Board& x : root_and_children(*b)) {
                const CheckInfo ci = x.check_info();
                for (const Move m : legal_moves(x)) {
                    Board n = x;
                    n.make_move(m);
                    ++moves;
                    checks += n.in_check();
                    EXPECT_EQ(x.gives_check(m), n.in_check()) << to_fen(x) << " " << m.raw();
                    EXPECT_EQ(x.gives_check(m, ci), n.in_check()) << to_fen(x) << " " << m.raw();
                }
            }
        }
    }
    EXPECT_GT(moves, 100000);
    EXPECT_GT(checks, 1000);
}

// The rare ways to check, each position holding at least one: en passant uncovering a rook
// along the rank, castling with the rook landing on the king's file, promotions (a queen along
// the rank, a knight), a discovered check by a bishop.
TEST(Movegen, GivesCheckInTheRareCases) {
    for (const char* fen : {"8/8/8/R2pP2k/8/8/8/4K3 w - d6 0 1", "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
                            "3k4/P7/8/8/8/8/8/4K3 w - - 0 1", "8/1P6/3k4/8/8/8/8/4K3 w - - 0 1",
                            "7k/8/8/8/8/2N5/8/B3K3 w - - 0 1"}) {
        auto b = parse_fen(fen);
        ASSERT_TRUE(b.ok()) << fen;
        int checks = 0;
        for (const Move m : legal_moves(*b)) {
            Board n = *b;
            n.make_move(m);
            checks += n.in_check();
            EXPECT_EQ(b->gives_check(m), n.in_check()) << fen << " " << m.raw();
            EXPECT_EQ(b->gives_check(m, b->check_info()), n.in_check()) << fen << " " << m.raw();
        }
        EXPECT_GT(checks, 0) << fen;
    }
}

TEST(Movegen, EnPassantThatWouldExposeTheKingAlongTheRankIsIllegal) {
    // White king a5, pawns b5 (white) and c5 (black, just moved c7-c5), black rook h5.
    auto b = parse_fen("8/8/8/KPp4r/8/8/8/7k w - c6 0 2");
    ASSERT_TRUE(b.ok()) << b.error();
    const MoveList moves = legal_moves(*b);
    for (const Move m : moves) EXPECT_NE(m.kind(), MoveKind::EN_PASSANT);
}

TEST(Movegen, EnPassantCanCaptureTheCheckingPawn) {
    // Black pawn d7-d5 gives check to the king on e4; exd6 e.p. removes the checker.
    auto b = parse_fen("8/8/8/3pP3/4K3/8/8/7k w - d6 0 2");
    ASSERT_TRUE(b.ok()) << b.error();
    const MoveList moves = legal_moves(*b);
    EXPECT_TRUE(moves.contains(Move(E5, D6, MoveKind::EN_PASSANT)));
}

TEST(Movegen, Chess960CastlingWhereTheRookShieldsTheKingsDestination) {
    // King b1, castling rook a1 (queen side): after O-O-O the king stands on c1 and the rook
    // on d1, so the black queen on the a-file... here on a2? No: a queen on the first rank
    // beyond the rook is impossible, so use the b-file: king b1 moves to c1, attacked by a
    // black bishop on a3 through b2. Castling must be illegal.
    auto b = parse_fen("4k3/8/8/8/8/b7/8/RK6 w A - 0 1");
    ASSERT_TRUE(b.ok()) << b.error();
    for (const Move m : legal_moves(*b)) EXPECT_NE(m.kind(), MoveKind::CASTLING);
}

TEST(Movegen, Chess960CastlingWithKingAndRookSwappingSquares) {
    // King f1, rook g1: O-O puts the king on g1 and the rook on f1.
    auto b = parse_fen("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    ASSERT_TRUE(b.ok()) << b.error();
    const Move castle(F1, G1, MoveKind::CASTLING);
    ASSERT_TRUE(legal_moves(*b).contains(castle));
    Board n = *b;
    n.make_move(castle);
    EXPECT_EQ(n.piece_on(G1), W_KING);
    EXPECT_EQ(n.piece_on(F1), W_ROOK);
    EXPECT_EQ(n.castling, NO_CASTLING);
    EXPECT_EQ(n.key, n.compute_key());
}

TEST(Movegen, CheckmateAndStalemateHaveNoMoves) {
    EXPECT_EQ(count_legal_moves(
                  *parse_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")),
              0u);
    EXPECT_EQ(count_legal_moves(*parse_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")), 0u);
}

}  // namespace
}  // namespace engine
