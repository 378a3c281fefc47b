// The engine's own games of a variant, for the tuner.
#include "tools/tuner/variant_selfplay.hpp"

#include <cctype>
#include <cstdlib>
#include <istream>
#include <sstream>

namespace tuner {

namespace {

constexpr int DECISIVE = 1500;
constexpr int DECISIVE_PLIES = 6;
constexpr int MAX_PLIES = 400;

// A position worth a data line: not in check, and the move played from it is quiet.
bool quiet_before(const engine::Position& pos, engine::Move played) {
    return pos.visit([&](const auto& b) {
        return !b.in_check() && !b.is_capture(played) && !b.is_promotion(played);
    });
}

}  // namespace

const char* result_label(float result) {
    return result == 1.0f ? "[1.0]" : result == 0.0f ? "[0.0]" : "[0.5]";
}

std::string read_pgn_game(std::istream& in) {
    std::string text, line;
    bool in_moves = false;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) {
            if (in_moves) break;
            continue;
        }
        if (line[0] != '[') in_moves = true;
        text += line + "\n";
    }
    return text;
}

std::optional<VariantGame> positions_of_pgn_game(const std::string& text, engine::Variant variant) {
    VariantGame game;
    const auto tag = text.find("[Result \"");
    if (tag == std::string::npos) return std::nullopt;
    const std::string result = text.substr(tag + 9, text.find('"', tag + 9) - tag - 9);
    if (result == "1-0")
        game.result = 1.0f;
    else if (result == "0-1")
        game.result = 0.0f;
    else if (result != "1/2-1/2")
        return std::nullopt;
    engine::Position pos = engine::Position::start(variant);
    std::istringstream words(text.substr(text.rfind("]\n") + 2));
    // The position before the last move, kept once the move's comment says it was no book move.
    std::optional<std::string> pending;
    auto keep_pending = [&] {
        if (pending) game.fens.push_back(*pending);
        pending.reset();
    };
    for (std::string w; words >> w;) {
        if (w[0] == '{') {
            std::string comment = w;
            while (comment.back() != '}' && words >> w) comment += " " + w;
            if (comment == "{book}") pending.reset();
            continue;
        }
        if (w == result) break;
        if (std::isdigit(static_cast<unsigned char>(w[0]))) continue;  // a move number
        keep_pending();
        const auto m = pos.parse_san(w);
        if (!m) return std::nullopt;
        if (quiet_before(pos, *m)) pending = pos.fen();
        pos.play(*m);
    }
    keep_pending();
    return game;
}

VariantGame play_variant_game(engine::Variant variant, const std::vector<std::string>& opening,
                              engine::Engine& white, engine::Engine& black, std::uint64_t nodes,
                              bool record) {
    VariantGame game;
    engine::Position pos = engine::Position::start(variant);
    for (const std::string& m : opening)
        if (!pos.play_uci(m)) break;
    for (engine::Engine* e : {&white, &black}) e->new_game();
    engine::SearchLimits limits;
    limits.nodes = nodes;
    const std::atomic<bool> stop{false};
    int decisive = 0;
    while (true) {
        const engine::GameResult r = pos.result();
        if (r.status != engine::PositionStatus::ONGOING) {
            game.result = !r.winner ? 0.5f : *r.winner == engine::WHITE ? 1.0f : 0.0f;
            break;
        }
        if (pos.game_ply() >= MAX_PLIES) break;
        const engine::Color us = pos.side_to_move();
        const engine::SearchResult s =
            (us == engine::WHITE ? white : black).search(pos, limits, stop);
        const int white_score = us == engine::WHITE ? s.raw_score : -s.raw_score;
        decisive = std::abs(white_score) >= DECISIVE &&
                           (decisive == 0 || (white_score > 0) == (decisive > 0))
                       ? decisive + (white_score > 0 ? 1 : -1)
                       : 0;
        if (std::abs(decisive) >= DECISIVE_PLIES) {
            game.result = decisive > 0 ? 1.0f : 0.0f;
            break;
        }
        if (record && quiet_before(pos, s.best) && std::abs(s.raw_score) < DECISIVE)
            game.fens.push_back(pos.fen());
        pos.play(s.best);
        game.plies = pos.game_ply();
    }
    return game;
}

}  // namespace tuner
