// Basic chess types shared by every engine file: colours, pieces, squares, moves.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <variant>

namespace engine {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

enum Color : std::uint8_t { WHITE, BLACK, COLOR_NB = 2 };

enum PieceType : std::uint8_t { PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB };

// A piece is colour * 8 + type, so both halves come out with a shift or a mask.
enum Piece : std::uint8_t {
    W_PAWN = 0,
    W_KNIGHT,
    W_BISHOP,
    W_ROOK,
    W_QUEEN,
    W_KING,
    B_PAWN = 8,
    B_KNIGHT,
    B_BISHOP,
    B_ROOK,
    B_QUEEN,
    B_KING,
    NO_PIECE = 15,
    PIECE_NB = 16
};

// clang-format off
enum Square : std::uint8_t {
    A1, B1, C1, D1, E1, F1, G1, H1,
    A2, B2, C2, D2, E2, F2, G2, H2,
    A3, B3, C3, D3, E3, F3, G3, H3,
    A4, B4, C4, D4, E4, F4, G4, H4,
    A5, B5, C5, D5, E5, F5, G5, H5,
    A6, B6, C6, D6, E6, F6, G6, H6,
    A7, B7, C7, D7, E7, F7, G7, H7,
    A8, B8, C8, D8, E8, F8, G8, H8,
    SQ_NONE, SQUARE_NB = 64
};
// clang-format on

constexpr Color operator~(Color c) { return Color(c ^ 1); }
constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }
constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
// The moves a king needs from a to b.
constexpr int distance(Square a, Square b) {
    const int files = file_of(a) > file_of(b) ? file_of(a) - file_of(b) : file_of(b) - file_of(a);
    const int ranks = rank_of(a) > rank_of(b) ? rank_of(a) - rank_of(b) : rank_of(b) - rank_of(a);
    return files > ranks ? files : ranks;
}
constexpr bool is_ok(Square s) { return s < SQ_NONE; }
// The rank as seen from c's side of the board (0 = c's back rank).
constexpr int relative_rank(Color c, Square s) { return c == WHITE ? rank_of(s) : 7 - rank_of(s); }
constexpr Square relative_square(Color c, Square s) { return Square(s ^ (c * 56)); }
// One step towards the opponent's back rank.
constexpr int pawn_push(Color c) { return c == WHITE ? 8 : -8; }

// Castling rights: one bit per (colour, side).
enum CastlingRight : std::uint8_t {
    NO_CASTLING = 0,
    WHITE_OO = 1,
    WHITE_OOO = 2,
    BLACK_OO = 4,
    BLACK_OOO = 8,
    ALL_CASTLING = 15
};
// Index 0..3 of a right, used for per-right tables (rook squares, masks).
constexpr int castling_index(Color c, bool king_side) { return c * 2 + (king_side ? 0 : 1); }

// A move in 16 bits: to (0-5), from (6-11), promotion piece (12-13), kind (14-15).
// Castling is stored king-to-rook so Chess960 and standard chess share one code path.
// Two variant moves reuse combinations no standard move has, so the TT keeps 16-bit moves:
// - a crazyhouse drop is kind EN_PASSANT with `from` on the first rank holding the dropped
//   piece type (A1 = pawn ... E1 = queen); an en-passant capture starts on the fifth rank (white)
//   or the fourth (black), never the first;
// - an antichess promotion to a king is kind CASTLING: antichess has no castling.
// Only the variant's own code paths create or read them.
enum class MoveKind : std::uint8_t { NORMAL = 0, PROMOTION = 1, EN_PASSANT = 2, CASTLING = 3 };

class Move {
  public:
    constexpr Move() = default;
    constexpr explicit Move(std::uint16_t raw) : raw_(raw) {}
    constexpr Move(Square from, Square to, MoveKind kind = MoveKind::NORMAL,
                   PieceType promo = KNIGHT)
        : raw_(std::uint16_t(to | (from << 6) | ((promo - KNIGHT) << 12) |
                             (static_cast<int>(kind) << 14))) {}

    constexpr Square from() const { return Square((raw_ >> 6) & 63); }
    constexpr Square to() const { return Square(raw_ & 63); }
    constexpr MoveKind kind() const { return MoveKind(raw_ >> 14); }
    constexpr PieceType promotion() const { return PieceType(((raw_ >> 12) & 3) + KNIGHT); }
    constexpr std::uint16_t raw() const { return raw_; }
    constexpr bool is_none() const { return raw_ == 0; }
    constexpr explicit operator bool() const { return raw_ != 0; }
    constexpr bool operator==(const Move&) const = default;

    // A crazyhouse drop of `pt` (PAWN..QUEEN) on `to`.
    static constexpr Move drop(PieceType pt, Square to) {
        return Move(Square(pt), to, MoveKind::EN_PASSANT);
    }
    constexpr bool is_drop() const { return kind() == MoveKind::EN_PASSANT && from() < 8; }
    constexpr PieceType drop_piece() const { return PieceType(from()); }
    // An antichess pawn promoting to a king.
    static constexpr Move king_promotion(Square from, Square to) {
        return Move(from, to, MoveKind::CASTLING);
    }

    static constexpr Move none() { return Move(); }
    // A non-zero code no legal move has (from == to), for "null move" in the search.
    static constexpr Move null() { return Move(std::uint16_t(65)); }

  private:
    std::uint16_t raw_ = 0;
};

// A value or an error message naming what was wrong; used where failure is normal
// (text from the network or a file), so callers never need exceptions.
template <class T>
class Result {
  public:
    Result(T value) : v_(std::move(value)) {}
    static Result failure(std::string message) { return Result(Error{std::move(message)}); }

    bool ok() const { return v_.index() == 0; }
    explicit operator bool() const { return ok(); }
    T& value() { return std::get<0>(v_); }
    const T& value() const { return std::get<0>(v_); }
    T& operator*() { return value(); }
    const T& operator*() const { return value(); }
    T* operator->() { return &value(); }
    const T* operator->() const { return &value(); }
    const std::string& error() const { return std::get<1>(v_).message; }

  private:
    struct Error {
        std::string message;
    };
    explicit Result(Error e) : v_(std::move(e)) {}
    std::variant<T, Error> v_;
};

std::string square_name(Square s);

}  // namespace engine
