// Fuzz target: Polyglot book parsing and lookup. Bytes that parse are whole entries sorted by
// key that print back to the same bytes, every entry is found again under its key, and the moves
// a book gives in real positions are legal ones whose codes decode back to them; bytes that do
// not parse give an error that says why.
#include <algorithm>
#include <string>

#include "engine/movegen.hpp"
#include "engine/polyglot.hpp"
#include "fuzz_check.hpp"
#include "fuzz_positions.hpp"

namespace {

namespace polyglot = engine::polyglot;

// Enough entries to reach every path, few enough that one input stays fast.
constexpr std::size_t kMaxCheckedEntries = 256;

void check_book_moves(const engine::Board& board, const polyglot::Book& book) {
    for (const auto& m : book.moves(board)) {
        fuzz::check(engine::is_legal(board, m.move), "a book move is legal");
        fuzz::check(polyglot::decode_move(board, polyglot::encode_move(m.move)) == m.move,
                    "a book move's code decodes back to it");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view bytes = fuzz::as_text(data, size);
    const auto book = polyglot::Book::parse(bytes);
    if (!book) {
        fuzz::check(!book.error().empty(), "a book error names the problem");
        fuzz::check(size % polyglot::kEntryBytes != 0 || size >= 2 * polyglot::kEntryBytes,
                    "only a truncated file or keys out of order fail");
        return 0;
    }
    fuzz::check(book->size() * polyglot::kEntryBytes == size, "every byte is in an entry");
    const auto all = book->all();
    fuzz::check(std::is_sorted(all.begin(), all.end(),
                               [](const auto& a, const auto& b) { return a.key < b.key; }),
                "a parsed book is sorted by key");
    fuzz::check(polyglot::to_bytes(all) == bytes, "entries print back to the same bytes");

    const auto checked = all.first(std::min(all.size(), kMaxCheckedEntries));
    for (const polyglot::Entry& e : checked) {
        const auto found = book->entries(e.key);
        fuzz::check(std::find(found.begin(), found.end(), e) != found.end(),
                    "an entry is found under its key");
    }
    // The move codes are arbitrary, the positions real: a code decodes to nothing or to a legal
    // move whose code it is (bit 15 is not part of it).
    for (const auto& named : fuzz::kPositions) {
        const auto position = engine::Position::from_fen(named.fen, named.chess960);
        const engine::Board& board = position->board();
        check_book_moves(board, *book);
        for (const polyglot::Entry& e : checked) {
            const engine::Move m = polyglot::decode_move(board, e.move);
            fuzz::check(!m || engine::is_legal(board, m), "a decoded move is legal");
            fuzz::check(!m || polyglot::encode_move(m) == (e.move & 0x7FFF),
                        "a decoded move encodes back to its code");
        }
    }
    return 0;
}
