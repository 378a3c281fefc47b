// PGN text of a match game.
#include "tools/match/pgn.hpp"

#include <cstdio>
#include <sstream>

#include "engine/variant_table.hpp"

namespace match {

namespace {

std::string score_comment(const PlayedMove& m) {
    char text[64];
    const double seconds = double(m.ms) / 1000.0;
    if (!m.score) {
        std::snprintf(text, sizeof text, "%.3fs", seconds);
    } else if (m.score->mate) {
        std::snprintf(text, sizeof text, "%sM%d %.3fs", m.score->value < 0 ? "-" : "+",
                      m.score->value < 0 ? -m.score->value : m.score->value, seconds);
    } else {
        std::snprintf(text, sizeof text, "%+.2f %.3fs", m.score->value / 100.0, seconds);
    }
    return text;
}

}  // namespace

std::string to_pgn(const GameRecord& game) {
    const char* result = result_text(game.end.outcome);
    std::ostringstream out;
    out << "[Event \"outpost-match\"]\n[Site \"?\"]\n[Date \"" << game.date << "\"]\n[Round \""
        << game.round << "\"]\n[White \"" << game.white << "\"]\n[Black \"" << game.black
        << "\"]\n[Result \"" << result << "\"]\n[Variant \"" << engine::game_type(game.variant).name
        << "\"]\n[TimeControl \"" << game.time_control << "\"]\n[Termination \"" << game.end.reason
        << "\"]\n[PlyCount \"" << game.moves.size() << "\"]\n\n";

    engine::Position pos = engine::Position::start(game.variant);
    std::string line;
    auto emit = [&](const std::string& token) {
        if (!line.empty() && line.size() + 1 + token.size() > 79) {
            out << line << '\n';
            line.clear();
        }
        line += (line.empty() ? "" : " ") + token;
    };
    for (std::size_t i = 0; i < game.moves.size(); ++i) {
        const PlayedMove& m = game.moves[i];
        // Every move has a comment, so black's moves carry their number too ("1...").
        emit(std::to_string(i / 2 + 1) + (i % 2 == 0 ? "." : "..."));
        const auto move = pos.parse_uci(m.uci);
        if (!move) {
            emit("{illegal move: " + m.uci + "}");
            break;
        }
        emit(pos.san(*move));
        emit(m.book ? "{book}" : "{" + score_comment(m) + "}");
        pos.play(*move);
    }
    emit("{" + game.end.reason + "}");
    emit(result);
    out << line << "\n\n";
    return out.str();
}

}  // namespace match
