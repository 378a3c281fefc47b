// Labels from another engine's judgement of each position (engine_label.hpp).
#include "tools/tuner/engine_label.hpp"

#include <cmath>
#include <cstdio>

namespace tuner {

double expected_result(const match::EngineScore& score, engine::Color side_to_move) {
    const double own = score.mate ? (score.value > 0 ? 1.0 : 0.0)
                                  : 1.0 / (1.0 + std::pow(10.0, -score.value / 400.0));
    return side_to_move == engine::WHITE ? own : 1.0 - own;
}

std::string engine_labelled_line(const LabelledFen& line, const match::EngineScore& score,
                                 double mix) {
    // The side to move is the FEN's second field.
    const auto space = line.fen.find(' ');
    const bool black = space != std::string::npos && line.fen.compare(space + 1, 1, "b") == 0;
    const double label = mix * expected_result(score, black ? engine::BLACK : engine::WHITE) +
                         (1.0 - mix) * double(line.result);
    char text[16];
    std::snprintf(text, sizeof text, " [%.4f]", label);
    return line.fen + text;
}

}  // namespace tuner
