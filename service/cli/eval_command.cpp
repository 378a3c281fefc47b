// `outpost eval`: the static evaluation of one position (--fen, default the start position): the
// hand-crafted one as a table of every term for white and black, middlegame and endgame, then
// the blended score; then the embedded NNUE's value of the same position.
#include "service/cli/eval_command.hpp"

#include <iostream>
#include <memory>

#include "engine/evaluate.hpp"
#include "engine/fen.hpp"
#include "engine/nnue.hpp"

namespace cli {

void add_eval_command(CLI::App& app) {
    auto fen = std::make_shared<std::string>(engine::START_FEN);
    auto* cmd = app.add_subcommand("eval", "Print the static evaluation of a position, by term");
    cmd->add_option("--fen", *fen, "position (default: the start position)");
    cmd->callback([fen] {
        auto board = engine::parse_fen(*fen);
        if (!board) {
            std::cerr << "eval: " << board.error() << "\n";
            throw CLI::RuntimeError(2);
        }
        std::cout << "Hand-crafted evaluation (HCE)\n\n" << engine::eval_trace(*board);
        if (const auto net = engine::nnue::embedded_network()) {
            const int stm = engine::nnue::evaluate(*net, *board);
            std::cout << "NNUE (the embedded net): " << (board->side == engine::WHITE ? stm : -stm)
                      << " (white's view), " << stm << " (side to move)\n";
        }
    });
}

}  // namespace cli
