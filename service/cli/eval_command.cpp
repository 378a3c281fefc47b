// `outpost eval`: the static evaluation of one position (--fen, default the start position) as a
// table of every term for white and black, middlegame and endgame, then the blended score.
#include "service/cli/eval_command.hpp"

#include <iostream>
#include <memory>

#include "engine/evaluate.hpp"
#include "engine/fen.hpp"

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
        std::cout << engine::eval_trace(*board);
    });
}

}  // namespace cli
