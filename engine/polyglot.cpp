// Polyglot keys, move codes and book parsing, as the Polyglot book format describes them
// (http://hgm.nubati.net/book_format.html).
#include "engine/polyglot.hpp"

#include <algorithm>

#include "engine/bitboard.hpp"
#include "engine/movegen.hpp"

namespace engine::polyglot {

namespace {

constexpr int kCastlingOffset = 768;
constexpr int kEnPassantOffset = 772;
constexpr int kTurnOffset = 780;

// Polyglot numbers piece kinds black pawn 0, white pawn 1, black knight 2, ... white king 11.
int piece_kind(Piece p) { return 2 * type_of(p) + (color_of(p) == WHITE ? 1 : 0); }

template <class T>
T read_big_endian(const unsigned char* p) {
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) value = T((value << 8) | p[i]);
    return value;
}

template <class T>
void write_big_endian(T value, std::string& out) {
    for (int shift = int(sizeof(T) - 1) * 8; shift >= 0; shift -= 8)
        out.push_back(char((value >> shift) & 0xFF));
}

}  // namespace

template <Variant V>
Key key(const BasicBoard<V>& board) {
    const auto& random = detail::kRandom64;
    Key k = 0;
    for (Bitboard b = board.pieces(); b;) {
        const Square s = pop_lsb(b);
        k ^= random[64 * piece_kind(board.piece_on(s)) + s];
    }
    // Our castling bits are in Polyglot's order: white short, white long, black short, long.
    for (int right = 0; right < 4; ++right)
        if (board.castling & (1 << right)) k ^= random[kCastlingOffset + right];
    // The board keeps an en-passant square only when a pawn of the side to move attacks it,
    // which is Polyglot's rule too (legality of the capture does not matter).
    if (board.en_passant != SQ_NONE) k ^= random[kEnPassantOffset + file_of(board.en_passant)];
    if (board.side == WHITE) k ^= random[kTurnOffset];
    return k;
}

namespace {

template <Variant V>
Move decode_in(const BasicBoard<V>& board, const MoveListOf<V>& legal, std::uint16_t code) {
    const Square to = Square(code & 63);
    const Square from = Square((code >> 6) & 63);
    const int promo = (code >> 12) & 7;  // 0 none, 1 knight ... 4 queen
    if (from == to || promo > 4) return Move::none();
    for (const Move m : legal) {
        if constexpr (has_drops(V))
            if (m.is_drop()) continue;
        if (m.from() != from || m.to() != to) continue;
        const bool promotes = board.is_promotion(m);
        if (promo == 0 ? !promotes
                       : promotes && board.promotion_type(m) == PieceType(KNIGHT + promo - 1))
            return m;
    }
    return Move::none();
}

}  // namespace

template <Variant V>
Move decode_move(const BasicBoard<V>& board, std::uint16_t code) {
    return decode_in(board, legal_moves(board), code);
}

std::uint16_t encode_move(Move m) {
    const int promo = m.kind() == MoveKind::PROMOTION ? m.promotion() - KNIGHT + 1 : 0;
    return std::uint16_t(m.to() | (m.from() << 6) | (promo << 12));
}

std::string to_bytes(std::span<const Entry> entries) {
    std::string out;
    out.reserve(entries.size() * kEntryBytes);
    for (const Entry& e : entries) {
        write_big_endian(e.key, out);
        write_big_endian(e.move, out);
        write_big_endian(e.weight, out);
        write_big_endian(e.learn, out);
    }
    return out;
}

Result<Book> Book::parse(std::string_view bytes) {
    if (bytes.size() % kEntryBytes != 0)
        return Result<Book>::failure(std::to_string(bytes.size()) +
                                     " bytes is not a whole number of " +
                                     std::to_string(kEntryBytes) +
                                     "-byte entries (a truncated file, or not a Polyglot book)");
    Book book;
    book.entries_.reserve(bytes.size() / kEntryBytes);
    const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
    for (std::size_t offset = 0; offset < bytes.size(); offset += kEntryBytes) {
        Entry e;
        e.key = read_big_endian<Key>(p + offset);
        e.move = read_big_endian<std::uint16_t>(p + offset + 8);
        e.weight = read_big_endian<std::uint16_t>(p + offset + 10);
        e.learn = read_big_endian<std::uint32_t>(p + offset + 12);
        // Lookup is a binary search, which only works on a file sorted by key.
        if (!book.entries_.empty() && e.key < book.entries_.back().key)
            return Result<Book>::failure("entry " + std::to_string(book.entries_.size() + 1) +
                                         " is out of key order (a Polyglot book is sorted by "
                                         "key): a damaged file, or not a Polyglot book");
        book.entries_.push_back(e);
    }
    return book;
}

std::span<const Entry> Book::entries(Key k) const {
    const auto [first, last] =
        std::equal_range(entries_.begin(), entries_.end(), Entry{.key = k},
                         [](const Entry& a, const Entry& b) { return a.key < b.key; });
    return {first, last};
}

template <Variant V>
std::vector<BookMove> Book::moves(const BasicBoard<V>& board) const {
    std::vector<BookMove> out;
    const auto found = entries(key(board));
    if (found.empty()) return out;
    const MoveListOf<V> legal = legal_moves(board);
    for (const Entry& e : found)
        if (const Move m = decode_in(board, legal, e.move))
            out.push_back(BookMove{.move = m, .weight = e.weight, .learn = e.learn});
    return out;
}

#define OUTPOST_INSTANTIATE(V)                                      \
    template Key key(const BasicBoard<V>&);                         \
    template Move decode_move(const BasicBoard<V>&, std::uint16_t); \
    template std::vector<BookMove> Book::moves(const BasicBoard<V>&) const;
OUTPOST_FOR_EACH_VARIANT(OUTPOST_INSTANTIATE)
#undef OUTPOST_INSTANTIATE

}  // namespace engine::polyglot
