// Labels from another engine's judgement of each position (engine_label.hpp).
#include "tools/tuner/engine_label.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>
#include <vector>

#include "engine/variant.hpp"

namespace tuner {

double expected_result(const match::EngineScore& score, engine::Color side_to_move) {
    const double own = score.mate ? (score.value > 0 ? 1.0 : 0.0)
                                  : 1.0 / (1.0 + std::pow(10.0, -score.value / 400.0));
    return side_to_move == engine::WHITE ? own : 1.0 - own;
}

std::string uci_fen(engine::Variant variant, const std::string& fen) {
    if (!engine::counts_checks(variant)) return fen;
    std::vector<std::string> fields;
    std::istringstream in(fen);
    for (std::string f; in >> f;) fields.push_back(f);
    const std::string& last = fields.empty() ? fen : fields.back();
    const bool given = last.size() == 4 && last[0] == '+' && last[2] == '+' && last[1] >= '0' &&
                       last[1] <= '3' && last[3] >= '0' && last[3] <= '3';
    if (!given || fields.size() < 5) return fen;
    const std::string remaining = std::string(1, char('3' - (last[1] - '0'))) + "+" +
                                  std::string(1, char('3' - (last[3] - '0')));
    fields.pop_back();
    fields.insert(fields.begin() + 4, remaining);
    std::string out;
    for (const auto& f : fields) out += (out.empty() ? "" : " ") + f;
    return out;
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
