// Fuzz target: SAN parsing. The first line picks the position, every further line is parsed
// with parse_san; an accepted move must print (move_to_san) to SAN that parses to the same
// move, and is then played so later lines meet new positions.
#include <string>

#include "engine/position.hpp"
#include "engine/san.hpp"
#include "fuzz_check.hpp"
#include "fuzz_positions.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto input = fuzz::lines(fuzz::as_text(data, size), 400);
    if (input.empty()) return 0;
    engine::Position pos = fuzz::pick_position(input[0]);
    for (std::size_t i = 1; i < input.size(); ++i) {
        const engine::Board& b = pos.board();
        const auto move = engine::parse_san(b, input[i]);
        if (!move) continue;
        bool legal = false;
        for (const engine::Move m : pos.legal_moves()) legal |= m == *move;
        fuzz::check(legal, "parse_san returns a legal move");
        const std::string san = engine::move_to_san(b, *move);
        const auto again = engine::parse_san(b, san);
        fuzz::check(again.ok() && *again == *move, "move_to_san text parses to the same move");
        pos.play(*move);
        fuzz::check(pos.board().key == pos.board().compute_key(), "key == compute_key()");
    }
    return 0;
}
