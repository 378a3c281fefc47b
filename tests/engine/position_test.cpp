// Position: UCI move text in both castling notations, take-backs, and the game-end rules.
#include <gtest/gtest.h>

#include "engine/fen.hpp"
#include "engine/position.hpp"

namespace engine {
namespace {

Position from(const char* fen, bool chess960 = false) {
    auto p = Position::from_fen(fen, chess960);
    EXPECT_TRUE(p.ok()) << fen << ": " << p.error();
    return *p;
}

TEST(UciMoves, CastlingAcceptsKingTwoSquaresAndKingToRook) {
    const char* fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    for (const char* text : {"e1g1", "e1h1"}) {
        Position p = from(fen);
        auto m = p.play_uci(text);
        ASSERT_TRUE(m.ok()) << text << ": " << m.error();
        EXPECT_EQ(m->kind(), MoveKind::CASTLING);
        EXPECT_EQ(p.board().piece_on(G1), W_KING);
        EXPECT_EQ(p.board().piece_on(F1), W_ROOK);
    }
    Position p = from(fen);
    EXPECT_EQ(p.to_uci(*p.parse_uci("e1a1")), "e1c1");  // standard chess prints king-two-squares
}

TEST(UciMoves, Chess960PrintsKingToRook) {
    Position p = from("4k3/8/8/8/8/8/8/5KR1 w G - 0 1");
    auto m = p.parse_uci("f1g1");
    ASSERT_TRUE(m.ok()) << m.error();
    EXPECT_EQ(m->kind(), MoveKind::CASTLING);
    EXPECT_EQ(p.to_uci(*m), "f1g1");
    Position q = from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", true);
    EXPECT_EQ(q.to_uci(*q.parse_uci("e1g1")), "e1h1");
}

TEST(UciMoves, PromotionsNeedThePieceLetter) {
    Position p = from("8/P7/8/8/8/8/8/k6K w - - 0 1");
    EXPECT_FALSE(p.parse_uci("a7a8").ok());
    auto m = p.parse_uci("a7a8n");
    ASSERT_TRUE(m.ok()) << m.error();
    EXPECT_EQ(m->promotion(), KNIGHT);
    EXPECT_EQ(p.to_uci(*m), "a7a8n");
}

TEST(UciMoves, MalformedOrIllegalTextIsAnErrorAndLeavesThePositionAlone) {
    Position p;
    const std::string before = p.fen();
    for (const char* text : {"", "e2", "e2e5", "e2e4e", "i2i4", "e2e4qq", "0000", "e7e5", "e1g1",
                             "e2e4x", "\xff\xff\xff\xff"}) {
        auto m = p.play_uci(text);
        EXPECT_FALSE(m.ok()) << text;
        if (!m.ok()) {
            EXPECT_FALSE(m.error().empty());
        }
    }
    EXPECT_EQ(p.fen(), before);
}

TEST(Position, PlayAndUndo) {
    Position p;
    const Key start = p.board().key;
    ASSERT_TRUE(p.play_uci("e2e4").ok());
    ASSERT_TRUE(p.play_uci("c7c5").ok());
    EXPECT_EQ(p.game_ply(), 2);
    EXPECT_EQ(p.key_history().size(), 3u);
    EXPECT_TRUE(p.undo());
    EXPECT_TRUE(p.undo());
    EXPECT_FALSE(p.undo());
    EXPECT_EQ(p.board().key, start);
}

TEST(GameEnd, Checkmate) {
    Position p;
    for (const char* m : {"f2f3", "e7e5", "g2g4", "d8h4"}) ASSERT_TRUE(p.play_uci(m).ok());
    EXPECT_EQ(p.status(), PositionStatus::CHECKMATE);
}

TEST(GameEnd, Stalemate) {
    EXPECT_EQ(from("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").status(), PositionStatus::STALEMATE);
}

TEST(GameEnd, FiftyMoveRuleAt100Plies) {
    EXPECT_EQ(from("4k3/8/8/8/8/8/8/R3K3 w - - 99 80").status(), PositionStatus::ONGOING);
    Position p = from("4k3/8/8/8/8/8/8/R3K3 w - - 99 80");
    ASSERT_TRUE(p.play_uci("a1a2").ok());
    EXPECT_EQ(p.status(), PositionStatus::FIFTY_MOVES);
}

TEST(GameEnd, CheckmateOnThe100thPlyBeatsTheFiftyMoveRule) {
    Position p = from("7k/8/6K1/8/8/8/8/R7 w - - 99 80");
    ASSERT_TRUE(p.play_uci("a1a8").ok());
    EXPECT_EQ(p.status(), PositionStatus::CHECKMATE);
}

TEST(GameEnd, ThreefoldRepetition) {
    Position p;
    const char* shuffle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    for (const char* m : shuffle) ASSERT_TRUE(p.play_uci(m).ok());
    EXPECT_EQ(p.repetitions(), 1);
    EXPECT_EQ(p.status(), PositionStatus::ONGOING);
    for (const char* m : shuffle) ASSERT_TRUE(p.play_uci(m).ok());
    EXPECT_EQ(p.repetitions(), 2);
    EXPECT_EQ(p.status(), PositionStatus::THREEFOLD_REPETITION);
}

TEST(GameEnd, RepetitionNeedsTheSameCastlingRights) {
    // The rook leaves and returns: the position looks the same but castling rights differ.
    Position p = from("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    for (const char* m : {"h1h2", "h8h7", "h2h1", "h7h8", "h1h2", "h8h7", "h2h1", "h7h8"})
        ASSERT_TRUE(p.play_uci(m).ok()) << m;
    // Positions after move 4 and 8 repeat (2 times), the start differs (rights lost).
    EXPECT_EQ(p.repetitions(), 1);
    EXPECT_EQ(p.status(), PositionStatus::ONGOING);
}

struct MaterialCase {
    const char* fen;
    bool insufficient;
};

void PrintTo(const MaterialCase& c, std::ostream* os) { *os << '"' << c.fen << '"'; }

class InsufficientMaterial : public ::testing::TestWithParam<MaterialCase> {};

TEST_P(InsufficientMaterial, FollowsFideDeadPositionByMaterial) {
    EXPECT_EQ(insufficient_material(from(GetParam().fen).board()), GetParam().insufficient)
        << GetParam().fen;
}

INSTANTIATE_TEST_SUITE_P(
    GameEnd, InsufficientMaterial,
    ::testing::Values(MaterialCase{"4k3/8/8/8/8/8/8/4K3 w - - 0 1", true},
                      MaterialCase{"4k3/8/8/8/8/8/8/4KB2 w - - 0 1", true},
                      MaterialCase{"4k3/8/8/8/8/8/8/4KN2 w - - 0 1", true},
                      MaterialCase{"4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1", true},    // same colour
                      MaterialCase{"4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", false},  // opposite
                      MaterialCase{"4k3/8/8/8/8/8/8/3NKN2 w - - 0 1", false},    // KNN: helpmate
                      MaterialCase{"4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", false},
                      MaterialCase{"4k3/8/8/8/8/8/8/3BKN2 w - - 0 1", false},
                      MaterialCase{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", false},
                      MaterialCase{"4k3/8/8/8/8/8/8/4K2R w - - 0 1", false}));

TEST(GameEnd, InsufficientMaterialIsAGameEnd) {
    EXPECT_EQ(from("4k3/8/8/8/8/8/8/4KB2 w - - 0 1").status(),
              PositionStatus::INSUFFICIENT_MATERIAL);
}

}  // namespace
}  // namespace engine
