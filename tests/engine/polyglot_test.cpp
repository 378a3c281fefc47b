// Polyglot books: the key test vectors published with the format, move codes (castling as
// king-takes-rook, promotions), parsing of the 16-byte big-endian entries and lookup.
#include "engine/polyglot.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <string>
#include <vector>

#include "engine/position.hpp"
#include "tests/engine/polyglot_test_util.hpp"

namespace engine {
namespace {

Position after(std::initializer_list<const char*> moves) {
    Position p;
    for (const char* m : moves) EXPECT_TRUE(p.play_uci(m).ok()) << m;
    return p;
}

struct Vector {
    const char* name;
    std::vector<const char*> moves;  // from the starting position
    const char* fen;                 // the same position as the page gives it
    Key key;
};

// "Test data" of the Polyglot book format page (http://hgm.nubati.net/book_format.html), FENs
// as the page gives them. Their en-passant squares e3 and d6 have no pawn beside to take, so
// those keys leave the file out; f6 and c3 have one, and count.
const Vector kVectors[] = {
    {"start", {}, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 0x463b96181691fc9c},
    {"e4",
     {"e2e4"},
     "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
     0x823c9b50fd114196},
    {"e4 d5",
     {"e2e4", "d7d5"},
     "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2",
     0x0756b94461c50fb0},
    {"e4 d5 e5",
     {"e2e4", "d7d5", "e4e5"},
     "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR b KQkq - 0 2",
     0x662fafb965db29d4},
    {"e4 d5 e5 f5",
     {"e2e4", "d7d5", "e4e5", "f7f5"},
     "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
     0x22a48b5a8e47ff78},
    {"e4 d5 e5 f5 Ke2",
     {"e2e4", "d7d5", "e4e5", "f7f5", "e1e2"},
     "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR b kq - 0 3",
     0x652a607ca3f242c1},
    {"e4 d5 e5 f5 Ke2 Kf7",
     {"e2e4", "d7d5", "e4e5", "f7f5", "e1e2", "e8f7"},
     "rnbq1bnr/ppp1pkpp/8/3pPp2/8/8/PPPPKPPP/RNBQ1BNR w - - 0 4",
     0x00fdd303c946bdd9},
    {"a4 b5 h4 b4 c4",
     {"a2a4", "b7b5", "h2h4", "b5b4", "c2c4"},
     "rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3",
     0x3c8123ea7b067637},
    {"a4 b5 h4 b4 c4 bxc3 Ra3",
     {"a2a4", "b7b5", "h2h4", "b5b4", "c2c4", "b4c3", "a1a3"},
     "rnbqkbnr/p1pppppp/8/8/P6P/R1p5/1P1PPPP1/1NBQKBNR b Kkq - 0 4",
     0x5c3f9b829b279560},
};

TEST(PolyglotKey, PublishedTestVectorsFromPlayedMoves) {
    for (const Vector& v : kVectors) {
        Position p;
        for (const char* m : v.moves) ASSERT_TRUE(p.play_uci(m).ok()) << v.name << ": " << m;
        EXPECT_EQ(polyglot::key(p.board()), v.key) << v.name;
    }
}

TEST(PolyglotKey, PublishedTestVectorsFromFen) {
    for (const Vector& v : kVectors)
        EXPECT_EQ(polyglot::key(test_util::position(v.fen).board()), v.key) << v.name;
}

TEST(PolyglotKey, EnPassantCountsWhenAPawnStandsBesideEvenIfPinned) {
    // fxe6 would leave the white king on h5 to the rook on a5, so it is illegal; Polyglot
    // hashes the en-passant file all the same, because a white pawn stands beside e5.
    const Position pinned = test_util::position("4k3/8/8/r3pP1K/8/8/8/8 w - e6 0 2");
    const Position no_ep = test_util::position("4k3/8/8/r3pP1K/8/8/8/8 w - - 0 2");
    EXPECT_NE(polyglot::key(pinned.board()), polyglot::key(no_ep.board()));
    EXPECT_EQ(polyglot::key(pinned.board()) ^ polyglot::key(no_ep.board()),
              polyglot::detail::kRandom64[772 + 4]);
}

TEST(PolyglotKey, SideCastlingAndPiecesAllCount) {
    const Key start = polyglot::key(Position().board());
    const Key black_to_move = polyglot::key(
        test_util::position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1").board());
    EXPECT_EQ(start ^ black_to_move, polyglot::detail::kRandom64[780]);
    const Key no_castling = polyglot::key(
        test_util::position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1").board());
    const auto& r = polyglot::detail::kRandom64;
    EXPECT_EQ(start ^ no_castling, r[768] ^ r[769] ^ r[770] ^ r[771]);
    // A white king alone on a1 against a black king on h8: kinds 11 and 10.
    EXPECT_EQ(polyglot::key(test_util::position("7k/8/8/8/8/8/8/K7 b - - 0 1").board()),
              r[64 * 11 + 0] ^ r[64 * 10 + 63]);
}

// ---- move codes

std::uint16_t code(int from_sq, int to_sq, int promo = 0) {
    return std::uint16_t(to_sq | (from_sq << 6) | (promo << 12));
}

// The UCI text of the castling move a code decodes to; "none" when it is no castling move.
std::string castling(const Position& p, int from_sq, int to_sq) {
    const Move m = polyglot::decode_move(p.board(), code(from_sq, to_sq));
    if (!m || m.kind() != MoveKind::CASTLING) return "none";
    EXPECT_EQ(polyglot::encode_move(m), code(from_sq, to_sq));
    return p.to_uci(m);
}

TEST(PolyglotMove, CastlingIsKingTakesRook) {
    const Position w = test_util::position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    EXPECT_EQ(castling(w, E1, H1), "e1g1");
    EXPECT_EQ(castling(w, E1, A1), "e1c1");
    // The king-two-squares form is not Polyglot's: e1g1 is no move here.
    EXPECT_FALSE(polyglot::decode_move(w.board(), code(E1, G1)));
    const Position b = test_util::position("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1");
    EXPECT_EQ(castling(b, E8, H8), "e8g8");
    EXPECT_EQ(castling(b, E8, A8), "e8c8");
}

TEST(PolyglotMove, Chess960CastlingIsKingToTheRooksSquare) {
    // King on b1, rooks on a1 and g1 (the black rooks on a8 and h8 attack neither path).
    const Position p = test_util::position("rk5r/8/8/8/8/8/8/RK4R1 w AGah - 0 1", true);
    EXPECT_EQ(castling(p, B1, A1), "b1a1");
    EXPECT_EQ(castling(p, B1, G1), "b1g1");
}

TEST(PolyglotMove, PromotionsNeedTheirPieceCode) {
    const Position p = test_util::position("8/P6k/8/8/8/8/8/K7 w - - 0 1");
    const char pieces[] = {'n', 'b', 'r', 'q'};
    for (int promo = 1; promo <= 4; ++promo) {
        const Move m = polyglot::decode_move(p.board(), code(A7, A8, promo));
        ASSERT_TRUE(m) << promo;
        EXPECT_EQ(p.to_uci(m), std::string("a7a8") + pieces[promo - 1]);
        EXPECT_EQ(polyglot::encode_move(m), code(A7, A8, promo));
    }
    EXPECT_FALSE(polyglot::decode_move(p.board(), code(A7, A8)));     // no piece: not a move
    EXPECT_FALSE(polyglot::decode_move(p.board(), code(A7, A8, 5)));  // no such piece code
    EXPECT_FALSE(polyglot::decode_move(p.board(), code(A1, A2, 4)));  // a king does not promote
}

TEST(PolyglotMove, IllegalCodesDecodeToNone) {
    const Position p;
    EXPECT_FALSE(polyglot::decode_move(p.board(), 0));             // a1a1
    EXPECT_FALSE(polyglot::decode_move(p.board(), code(E2, E5)));  // not a move
    EXPECT_FALSE(polyglot::decode_move(p.board(), code(E7, E5)));  // not our piece
    EXPECT_FALSE(polyglot::decode_move(p.board(), code(E1, H1)));  // castling blocked
    EXPECT_FALSE(polyglot::decode_move(p.board(), 0xFFFF));        // bit 15 and code 7
    EXPECT_EQ(p.to_uci(polyglot::decode_move(p.board(), code(E2, E4))), "e2e4");
}

TEST(PolyglotMove, EveryLegalMoveRoundTrips) {
    const std::pair<const char*, bool> fens[] = {
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
        {"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", false},
        {"n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", false},
        {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
    };
    for (const auto& [fen, chess960] : fens) {
        const Position p = test_util::position(fen, chess960);
        for (const Move m : p.legal_moves())
            EXPECT_EQ(polyglot::decode_move(p.board(), polyglot::encode_move(m)), m)
                << fen << " " << p.to_uci(m);
    }
}

// ---- books

polyglot::Book book_of(std::vector<polyglot::Entry> entries) {
    auto book = polyglot::Book::parse(test_util::book_bytes(std::move(entries)));
    EXPECT_TRUE(book.ok()) << book.error();
    return *book;
}

TEST(PolyglotBook, EntriesAreSixteenBigEndianBytes) {
    const polyglot::Entry e{
        .key = 0x0123456789abcdef, .move = 0x0e1f, .weight = 0xa0b0, .learn = 0xdeadbeef};
    const std::string bytes = polyglot::to_bytes(std::vector{e});
    const std::string expected("\x01\x23\x45\x67\x89\xab\xcd\xef\x0e\x1f\xa0\xb0\xde\xad\xbe\xef",
                               16);
    EXPECT_EQ(bytes, expected);
    auto book = polyglot::Book::parse(bytes);
    ASSERT_TRUE(book.ok()) << book.error();
    ASSERT_EQ(book->size(), 1u);
    ASSERT_EQ(book->entries(e.key).size(), 1u);
    EXPECT_EQ(book->entries(e.key)[0], e);
}

TEST(PolyglotBook, LooksUpMovesWithWeightsInFileOrder) {
    const Position start;
    const Position e4 = after({"e2e4"});
    const Position e4e5 = after({"e2e4", "e7e5"});
    const polyglot::Book book = book_of({
        test_util::book_entry(start, "e2e4", 100, 7),
        test_util::book_entry(start, "d2d4", 80),
        test_util::book_entry(start, "g1f3", 3),
        test_util::book_entry(e4, "e7e5", 50),
        test_util::book_entry(e4, "c7c5", 60),
        test_util::book_entry(e4e5, "g1f3", 9),
    });
    EXPECT_EQ(book.size(), 6u);

    const auto first = book.moves(start.board());
    ASSERT_EQ(first.size(), 3u);
    EXPECT_EQ(start.to_uci(first[0].move), "e2e4");
    EXPECT_EQ(first[0].weight, 100);
    EXPECT_EQ(first[0].learn, 7u);
    EXPECT_EQ(start.to_uci(first[1].move), "d2d4");
    EXPECT_EQ(first[1].weight, 80);
    EXPECT_EQ(start.to_uci(first[2].move), "g1f3");

    const auto reply = book.moves(e4.board());
    ASSERT_EQ(reply.size(), 2u);
    EXPECT_EQ(e4.to_uci(reply[0].move), "e7e5");
    EXPECT_EQ(e4.to_uci(reply[1].move), "c7c5");
    EXPECT_EQ(reply[1].weight, 60);

    ASSERT_EQ(book.moves(e4e5.board()).size(), 1u);
    EXPECT_TRUE(book.moves(after({"d2d4"}).board()).empty());
    EXPECT_TRUE(book.entries(0).empty());
    EXPECT_TRUE(book.entries(~Key(0)).empty());
}

TEST(PolyglotBook, CastlingEntriesDecodeToCastling) {
    const Position p =
        test_util::position("r3k2r/pppq1ppp/2npbn2/2b1p3/2B1P3/2NPBN2/PPPQ1PPP/R3K2R w KQkq - 0 1");
    polyglot::Entry e1h1{.key = polyglot::key(p.board()), .move = code(E1, H1), .weight = 5};
    polyglot::Entry e1a1{.key = e1h1.key, .move = code(E1, A1), .weight = 4};
    const polyglot::Book book = book_of({e1h1, e1a1});
    const auto moves = book.moves(p.board());
    ASSERT_EQ(moves.size(), 2u);
    EXPECT_EQ(moves[0].move.kind(), MoveKind::CASTLING);
    EXPECT_EQ(p.to_uci(moves[0].move), "e1g1");
    EXPECT_EQ(p.to_uci(moves[1].move), "e1c1");
}

TEST(PolyglotBook, IllegalAndNullEntriesAreSkipped) {
    const Position start;
    const Key k = polyglot::key(start.board());
    const polyglot::Book book = book_of({
        {.key = k, .move = 0, .weight = 10},                // a1a1
        {.key = k, .move = code(E2, E5), .weight = 10},     // no such move
        {.key = k, .move = code(E7, E5), .weight = 10},     // the other side's move (a collision)
        {.key = k, .move = code(E2, E4, 4), .weight = 10},  // a promotion code on a pawn push
        test_util::book_entry(start, "c2c4", 2),
    });
    const auto moves = book.moves(start.board());
    ASSERT_EQ(moves.size(), 1u);
    EXPECT_EQ(start.to_uci(moves[0].move), "c2c4");
}

TEST(PolyglotBook, BinarySearchFindsEveryKeyOfALargeBook) {
    std::vector<polyglot::Entry> entries;
    for (std::uint64_t i = 0; i < 1000; ++i)
        for (std::uint16_t j = 0; j < 1 + i % 3; ++j)
            entries.push_back({.key = i * 0x9E3779B97F4A7C15ULL, .move = j, .weight = 1});
    const polyglot::Book book = book_of(entries);
    for (std::uint64_t i = 0; i < 1000; ++i) {
        const auto found = book.entries(i * 0x9E3779B97F4A7C15ULL);
        ASSERT_EQ(found.size(), 1 + i % 3) << i;
        for (std::size_t j = 0; j < found.size(); ++j) EXPECT_EQ(found[j].move, j);
    }
    EXPECT_TRUE(book.entries(12345).empty());
}

TEST(PolyglotBook, TruncatedBytesAreAnError) {
    const Position start;
    const std::string whole =
        polyglot::to_bytes(std::vector{test_util::book_entry(start, "e2e4", 1)});
    for (std::size_t cut : {1u, 8u, 15u}) {
        auto book = polyglot::Book::parse(std::string_view(whole).substr(0, whole.size() - cut));
        ASSERT_FALSE(book.ok()) << cut;
        EXPECT_NE(book.error().find(std::to_string(16 - cut) + " bytes is not a whole number"),
                  std::string::npos)
            << book.error();
        EXPECT_NE(book.error().find("truncated"), std::string::npos) << book.error();
    }
    auto longer = polyglot::Book::parse(whole + "x");
    ASSERT_FALSE(longer.ok());
    EXPECT_NE(longer.error().find("17 bytes"), std::string::npos) << longer.error();
}

TEST(PolyglotBook, UnsortedKeysAreAnError) {
    const std::vector<polyglot::Entry> entries{{.key = 5, .move = 1, .weight = 1},
                                               {.key = 9, .move = 1, .weight = 1},
                                               {.key = 7, .move = 1, .weight = 1}};
    auto book = polyglot::Book::parse(polyglot::to_bytes(entries));
    ASSERT_FALSE(book.ok());
    EXPECT_NE(book.error().find("entry 3 is out of key order"), std::string::npos) << book.error();
}

TEST(PolyglotBook, EmptyBookHasNoMoves) {
    auto book = polyglot::Book::parse("");
    ASSERT_TRUE(book.ok()) << book.error();
    EXPECT_EQ(book->size(), 0u);
    EXPECT_TRUE(book->moves(Position().board()).empty());
}

}  // namespace
}  // namespace engine
