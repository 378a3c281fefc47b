// Fuzz target: FEN parsing, standard and every variant's (pockets, promoted marks, three-check
// counts). A FEN that parses must have a consistent key, print back to a FEN that reparses to
// the same key and text, and allow every legal move to be made consistently.
#include <string>

#include "engine/fen.hpp"
#include "engine/movegen.hpp"
#include "fuzz_check.hpp"

namespace {

template <engine::Variant V>
void check_fen(std::string_view text, bool chess960) {
    const auto board = engine::parse_variant_fen<V>(text, chess960);
    if (!board) {
        fuzz::check(!board.error().empty(), "a FEN error names the problem");
        return;
    }
    fuzz::check(board->key == board->compute_key(), "parsed key == compute_key()");
    const std::string fen = engine::to_fen(*board);
    const auto again = engine::parse_variant_fen<V>(fen, chess960);
    fuzz::check(again.ok(), "to_fen output reparses");
    fuzz::check(again->key == board->key, "to_fen round trip keeps the key");
    fuzz::check(engine::to_fen(*again) == fen, "to_fen round trip keeps the text");
    for (const engine::Move m : engine::legal_moves(*board)) {
        engine::BasicBoard<V> next = *board;
        next.make_move(m);
        fuzz::check(next.key == next.compute_key(), "key after a legal move == compute_key()");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text = fuzz::as_text(data, size);
    check_fen<engine::Variant::STANDARD>(text, true);
    for (const engine::Variant v : engine::ALL_VARIANTS)
        engine::visit_variant(v, [&](auto tag) { check_fen<decltype(tag)::value>(text, false); });
    return 0;
}
