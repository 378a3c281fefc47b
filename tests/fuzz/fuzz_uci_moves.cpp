// Fuzz target: UCI move text against a position. The first line picks the position, every
// further line is played with play_uci ("undo" takes a move back). An accepted move must
// leave a consistent position whose UCI text parses back to the same move.
#include <string>

#include "engine/fen.hpp"
#include "engine/position.hpp"
#include "fuzz_check.hpp"
#include "fuzz_positions.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto input = fuzz::lines(fuzz::as_text(data, size), 400);
    if (input.empty()) return 0;
    engine::Position pos = fuzz::pick_position(input[0]);
    for (std::size_t i = 1; i < input.size(); ++i) {
        const std::string_view text = input[i];
        if (text == "undo") {
            const int ply = pos.game_ply();
            fuzz::check(pos.undo() == (ply > 0), "undo succeeds exactly when a move was played");
            continue;
        }
        const std::string before = pos.fen();
        const int ply = pos.game_ply();
        const auto move = pos.play_uci(text);
        if (!move) {
            fuzz::check(pos.fen() == before && pos.game_ply() == ply,
                        "a rejected move leaves the position unchanged");
            continue;
        }
        const engine::Board& b = pos.board();
        fuzz::check(b.key == b.compute_key(), "key == compute_key() after play_uci");
        fuzz::check(pos.game_ply() == ply + 1, "an accepted move adds one ply");
        fuzz::check(engine::parse_fen(pos.fen(), pos.chess960()).ok(), "fen() reparses");
        pos.undo();
        const std::string uci = pos.to_uci(*move);
        const auto again = pos.parse_uci(uci);
        fuzz::check(again.ok() && *again == *move, "to_uci text parses to the same move");
        pos.play(*move);
        (void)pos.status();
    }
    return 0;
}
