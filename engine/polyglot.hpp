// Polyglot opening books (.bin): the Polyglot key of a position, the 16-byte entry format, and
// a book parsed from a file's bytes that gives the legal moves it holds for a position. No file
// I/O here: the service reads the file.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "board.hpp"

namespace engine::polyglot {

// One book entry as the file stores it: four big-endian integers, 16 bytes in all.
struct Entry {
    Key key = 0;
    std::uint16_t move = 0;  // to (bits 0-5), from (6-11), promotion (12-14: none, N, B, R, Q)
    std::uint16_t weight = 0;
    std::uint32_t learn = 0;
    bool operator==(const Entry&) const = default;
};
inline constexpr std::size_t kEntryBytes = 16;

// The Polyglot key of a board: pieces, castling rights, the en-passant file only when a pawn of
// the side to move stands beside the pawn that just moved two squares, and White to move. A
// variant's board gets the same key over its pieces (pockets and checks given are not in it), as
// variant books made with python-chess's polyglot writer have them.
template <Variant V>
[[nodiscard]] Key key(const BasicBoard<V>& board);

// The legal move a Polyglot move code stands for on this board, or Move::none() when it stands
// for none (an illegal move, a1a1, a bad promotion code). Castling is king-takes-rook (e1h1,
// e8a8, and the rook's own square in Chess960), as Move stores it. The format has no code for a
// crazyhouse drop or an antichess king promotion: no code stands for them.
template <Variant V>
[[nodiscard]] Move decode_move(const BasicBoard<V>& board, std::uint16_t code);
// The Polyglot code of a legal move: the inverse of decode_move.
[[nodiscard]] std::uint16_t encode_move(Move m);

// The file bytes of entries, in the order given (a book needs them sorted by key).
[[nodiscard]] std::string to_bytes(std::span<const Entry> entries);

// A move of the book that is legal in the position asked about.
struct BookMove {
    Move move;
    std::uint16_t weight = 0;
    std::uint32_t learn = 0;
};

class Book {
  public:
    Book() = default;
    // Parses a whole .bin file. Fails, saying why, when the size is not a whole number of
    // entries (a truncated file) or the keys are not in ascending order.
    [[nodiscard]] static Result<Book> parse(std::string_view bytes);

    [[nodiscard]] std::size_t size() const { return entries_.size(); }
    [[nodiscard]] std::span<const Entry> all() const { return entries_; }
    // The entries with this key, in file order (binary search).
    [[nodiscard]] std::span<const Entry> entries(Key key) const;
    // The book's moves for this board that are legal on it, in file order; other entries under
    // its key (an illegal move, a key collision) are left out.
    template <Variant V>
    [[nodiscard]] std::vector<BookMove> moves(const BasicBoard<V>& board) const;

  private:
    std::vector<Entry> entries_;
};

namespace detail {
// Offsets: 64 * kind + square for pieces (kind: black pawn 0, white pawn 1, ... white king 11),
// 768 + right for castling (white short, white long, black short, black long), 772 + file for
// en passant, 780 for White to move. Defined in polyglot_keys.cpp.
extern const std::array<Key, 781> kRandom64;
}  // namespace detail

}  // namespace engine::polyglot
