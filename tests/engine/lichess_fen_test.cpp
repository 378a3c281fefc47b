// FENs as lila reads them (FenRules::Lichess, scalachess format/FenReader.scala and
// Variant.valid with strict off): what is dropped or clamped, what is still refused, and that
// the engine plays positions past the strict counts (more than 8 pawns or 16 pieces a side)
// without writing past a move list.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <iterator>
#include <random>
#include <string>

#include "engine/fen.hpp"
#include "engine/fen_placement.hpp"
#include "engine/position.hpp"
#include "engine/search.hpp"

namespace engine {
namespace {

struct Normalised {
    Variant variant;
    const char* fen;   // as a challenger may send it
    const char* read;  // to_fen of what lila's reader keeps
};

void PrintTo(const Normalised& n, std::ostream* os) { *os << '"' << n.fen << '"'; }

class LichessFen : public ::testing::TestWithParam<Normalised> {};

TEST_P(LichessFen, ReadsAsFenReaderDoes) {
    const Normalised& n = GetParam();
    const auto pos = Position::from_fen(n.fen, n.variant, false, FenRules::Lichess);
    ASSERT_TRUE(pos.ok()) << pos.error();
    EXPECT_EQ(pos->fen(), n.read);
}

INSTANTIATE_TEST_SUITE_P(
    Rows, LichessFen,
    ::testing::Values(
        // Castling: a right with no king and rook on the back rank to match is dropped.
        Normalised{Variant::STANDARD, "r3k2r/8/8/8/8/8/8/4K3 w KQkq - 0 1",
                   "r3k2r/8/8/8/8/8/8/4K3 w kq - 0 1"},
        Normalised{Variant::STANDARD, "4k3/8/8/8/8/8/4K3/R6R w KQ - 0 1",
                   "4k3/8/8/8/8/8/4K3/R6R w - - 0 1"},
        Normalised{Variant::STANDARD, "4k3/8/8/8/8/8/8/R3K2R w KKQ - 0 1",
                   "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"},
        Normalised{Variant::STANDARD, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqZx - 0 1",
                   "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
        // A Shredder letter with no rook on its file is dropped and does not make it Chess960.
        Normalised{Variant::STANDARD, "r3k2r/8/8/8/8/8/8/R3K2R w KQkqC - 0 1",
                   "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"},
        // Variants without castling read no right at all; the horde has no king to castle.
        Normalised{Variant::ANTICHESS, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                   "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"},
        Normalised{Variant::RACING_KINGS, "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w KQkq - 0 1",
                   "8/8/8/8/8/8/krbnNBRK/qrbnNBRQ w - - 0 1"},
        Normalised{Variant::HORDE,
                   "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w KQkq - 0 1",
                   "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1"},
        // En passant: a square no pawn just passed, or no square at all, is no en passant.
        Normalised{Variant::STANDARD, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1",
                   "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
        Normalised{Variant::STANDARD, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1",
                   "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1"},
        Normalised{Variant::STANDARD, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
                   "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
        // A possible one that a pawn can take stays.
        Normalised{Variant::STANDARD, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
                   "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"},
        // Clocks: halfmove at most 100, fullmove at most 500, an unreadable one its default.
        Normalised{Variant::STANDARD, "4k3/8/8/8/8/8/8/4K2R w K - 999 1",
                   "4k3/8/8/8/8/8/8/4K2R w K - 100 1"},
        Normalised{Variant::STANDARD, "4k3/8/8/8/8/8/8/4K2R w K - x 9999",
                   "4k3/8/8/8/8/8/8/4K2R w K - 0 500"},
        // Counts: more than 8 pawns, more than 16 pieces, three checkers (strict off).
        Normalised{Variant::STANDARD, "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1",
                   "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"},
        Normalised{Variant::STANDARD,
                   "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                   "rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
        Normalised{Variant::STANDARD, "4k3/8/8/4r3/1b6/3n4/8/4K3 w - - 0 1",
                   "4k3/8/8/4r3/1b6/3n4/8/4K3 w - - 0 1"},
        Normalised{Variant::KING_OF_THE_HILL,
                   "4k3/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/4K3 w - - 0 1",
                   "4k3/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/4K3 w - - 0 1"}));

// What lila's reader cannot make a position of stays an error, with the strict rule's words.
TEST(LichessFen, WhatNoReaderCanPlayIsStillRefused) {
    const char* refused[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKKNR w KQkq - 0 1",  // two white kings
        "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",    // no black king
        "4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1",  // the side not to move in check
        "P3k3/8/8/8/8/8/8/4K3 w - - 0 1",   // a pawn on the last rank
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1",  // not a piece
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",  // no side to move
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1",           // seven ranks
    };
    for (const char* fen : refused) {
        const auto pos = Position::from_fen(fen, Variant::STANDARD, false, FenRules::Lichess);
        EXPECT_FALSE(pos.ok()) << fen;
        if (!pos.ok()) {
            EXPECT_EQ(pos.error().rfind("FEN ", 0), 0u) << pos.error();
        }
    }
    // Strict is unchanged: the rows above that Lichess reads are errors there.
    EXPECT_FALSE(Position::from_fen("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1").ok());
    EXPECT_FALSE(Position::from_fen("r3k2r/8/8/8/8/8/8/4K3 w KQkq - 0 1").ok());
}

// A ring of 24 white queens: 263 legal moves, more than a move list holds. The list keeps its
// capacity and no more, and a search still returns a legal move (ASan sees any write past the
// list).
TEST(LichessFen, MoreMovesThanAListHoldsAreCutNotOverrun) {
    const char* fen = "BQQQQQbk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQB w - - 0 1";
    const auto pos = Position::from_fen(fen, Variant::STANDARD, false, FenRules::Lichess);
    ASSERT_TRUE(pos.ok()) << pos.error();
    const std::uint64_t all = pos->visit([](const auto& b) { return count_legal_moves(b); });
    EXPECT_GT(all, 256u);
    const int listed = pos->visit([](const auto& b) { return legal_moves(b).size(); });
    EXPECT_EQ(listed, 256);
    Engine engine({.hash_mb = 1, .threads = 1});
    SearchLimits limits;
    limits.nodes = 3000;
    const std::atomic<bool> stop{false};
    const SearchResult r = engine.search(*pos, limits, stop);
    EXPECT_TRUE(pos->legal_moves().contains(r.best)) << pos->to_uci(r.best);
}

// Crowded positions (up to 16 pawns a side, promotions ahead) played out by the search for a
// few dozen plies in several variants: every move legal, never a crash.
TEST(LichessFen, CrowdedPositionsPlayOutLegally) {
    struct Game {
        Variant variant;
        const char* fen;
    };
    const Game games[] = {
        {Variant::STANDARD, "4k3/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/4K3 w - - 0 1"},
        {Variant::STANDARD, "rnbqkbnr/pPpppppp/1p6/8/8/PPPPPPPP/PPPPPPP1/RNBQKBNR w KQkq - 0 1"},
        {Variant::THREE_CHECK, "4k3/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/4K3 w - - 0 1 +0+0"},
        {Variant::ATOMIC, "rnbqkbnr/pppppppp/pppppppp/8/8/PPPPPPPP/PPPPPPPP/RNBQKBNR w KQkq - 0 1"},
        {Variant::KING_OF_THE_HILL, "QQQQkQQQ/8/8/8/8/8/8/QQQQKQQQ w - - 0 1"},
    };
    std::mt19937 rng(49);
    for (const Game& g : games) {
        auto start = Position::from_fen(g.fen, g.variant, false, FenRules::Lichess);
        if (!start.ok()) {
            // A row the variant's own rules refuse (a check, a king attacked) names why.
            EXPECT_FALSE(start.error().empty());
            continue;
        }
        Position pos = *start;
        Engine engine({.hash_mb = 1, .threads = 1});
        SearchLimits limits;
        limits.nodes = 300;
        const std::atomic<bool> stop{false};
        for (int ply = 0; ply < 40 && pos.status() == PositionStatus::ONGOING; ++ply) {
            Move m;
            if (ply % 3 == 2) {  // a random move now and then, to reach odd positions
                const auto moves = pos.legal_moves();
                m = moves[int(rng() % unsigned(moves.size()))];
            } else {
                m = engine.search(pos, limits, stop).best;
            }
            ASSERT_TRUE(pos.legal_moves().contains(m)) << g.fen << " " << pos.fen();
            pos.play(m);
        }
    }
}

// Random crowded FENs (one king a side, 20 to 60 other pieces of any kind and colour, pawns off
// the back ranks) in every variant with kings: each one read is searched briefly and its moves
// played one ply deep; every move stays legal and nothing crashes (ASan watches the lists).
TEST(LichessFen, RandomCrowdedFensNeverBreakTheEngine) {
    std::mt19937 rng(4949);
    const char pieces[] = "PNBRQpnbrq";
    int read = 0;
    for (int i = 0; i < 300; ++i) {
        char board[64];
        std::fill(std::begin(board), std::end(board), '.');
        const auto place = [&](char piece) {
            for (;;) {
                const int sq = int(rng() % 64);
                const bool back = sq < 8 || sq >= 56;
                if (board[sq] != '.' || ((piece == 'P' || piece == 'p') && back)) continue;
                board[sq] = piece;
                return;
            }
        };
        place('K');
        place('k');
        const int others = 20 + int(rng() % 41);
        for (int n = 0; n < others; ++n) place(pieces[rng() % 10]);
        std::string fen = engine::fen_placement(std::string_view(board, 64), '.');
        fen += rng() % 2 ? " w KQkq - 0 1" : " b KQkq - 0 1";
        const Variant variant = ALL_VARIANTS[rng() % VARIANT_NB];
        if (variant == Variant::HORDE || variant == Variant::RACING_KINGS) continue;
        const auto pos = Position::from_fen(fen, variant, false, FenRules::Lichess);
        if (!pos.ok()) {
            EXPECT_EQ(pos.error().rfind("FEN ", 0), 0u) << fen << ": " << pos.error();
            continue;
        }
        ++read;
        const auto moves = pos->legal_moves();
        for (const Move m : moves) {
            Position next = *pos;
            next.play(m);
            EXPECT_LE(next.legal_moves().size(), 512) << fen;
        }
        Engine engine({.hash_mb = 1, .threads = 1});
        SearchLimits limits;
        limits.nodes = 200;
        const std::atomic<bool> stop{false};
        const SearchResult r = engine.search(*pos, limits, stop);
        if (moves.empty()) {
            EXPECT_TRUE(r.best.is_none()) << fen;
        } else {
            EXPECT_TRUE(moves.contains(r.best)) << lichess_key(variant) << " " << fen;
        }
    }
    EXPECT_GT(read, 50);  // most crowded FENs are positions lila's reader takes
}

}  // namespace
}  // namespace engine
