// Self-play games for NNUE training data (see datagen.hpp and docs/NNUE.md).
#include "tools/datagen/datagen.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>

#include "engine/fen.hpp"
#include "engine/position.hpp"
#include "engine/score.hpp"

namespace datagen {

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

engine::SearchResult search_nodes(engine::Engine& engine, const engine::Position& pos, int nodes,
                                  const std::atomic<bool>& stop) {
    engine::SearchLimits limits;
    limits.nodes = std::uint64_t(nodes);
    return engine.search(pos, limits, stop);
}

const std::atomic<bool> never{false};

// A random opening: random legal plies from the start, searched once to reject lopsided ones.
engine::Position random_opening(engine::Engine& engine, const Config& config, std::uint64_t& rng,
                                const std::atomic<bool>& stop) {
    for (int attempt = 0;; ++attempt) {
        engine::Position pos;
        const int plies = config.random_plies + int(splitmix64(rng) & 1);
        bool ok = true;
        for (int i = 0; i < plies && ok; ++i) {
            const auto moves = pos.legal_moves();
            if (moves.empty()) {
                ok = false;
                break;
            }
            pos.play(moves[int(splitmix64(rng) % std::uint64_t(moves.size()))]);
        }
        if (!ok || pos.status() != engine::PositionStatus::ONGOING) continue;
        const engine::SearchResult r = search_nodes(engine, pos, config.nodes, stop);
        if (stop) return pos;  // the game is dropped anyway
        if (attempt < 1000 && (engine::is_mate_score(r.raw_score) ||
                               std::abs(r.raw_score) > config.max_opening_score))
            continue;
        return pos;
    }
}

}  // namespace

std::uint64_t game_seed(std::uint64_t seed, std::uint64_t index) {
    std::uint64_t s = seed * 0xD1B54A32D192ED03ULL + index;
    splitmix64(s);
    return splitmix64(s);
}

Game play_game(engine::Engine& engine, const Config& config, std::uint64_t index,
               const std::atomic<bool>* stop_flag) {
    const std::atomic<bool>& stop = stop_flag ? *stop_flag : never;
    engine.new_game();
    std::uint64_t rng = game_seed(config.seed, index);
    engine::Position pos = random_opening(engine, config, rng, stop);
    engine.new_game();

    Game game;
    int white_wins = 0, black_wins = 0, quiet_plies = 0;
    for (;; ++game.plies) {
        const engine::PositionStatus status = pos.status();
        if (status == engine::PositionStatus::CHECKMATE) {
            game.result = pos.side_to_move() == engine::WHITE ? 0.0f : 1.0f;
            break;
        }
        if (status != engine::PositionStatus::ONGOING || game.plies >= config.max_plies) {
            game.result = 0.5f;
            break;
        }
        const engine::SearchResult r = search_nodes(engine, pos, config.nodes, stop);
        if (stop) {  // a search cut short: the rest of the game would not be this game's
            game.complete = false;
            return game;
        }
        const engine::Board& b = pos.board();
        const int score = r.raw_score;
        const int white = b.side == engine::WHITE ? score : -score;

        const bool quiet = !b.in_check() && !b.is_capture(r.best) &&
                           r.best.kind() != engine::MoveKind::PROMOTION &&
                           !engine::is_mate_score(score);
        if (quiet) game.samples.push_back({b, white});

        // Adjudication on the search score: mates count as beyond the win score.
        white_wins = white >= config.win_score ? white_wins + 1 : 0;
        black_wins = white <= -config.win_score ? black_wins + 1 : 0;
        if (white_wins >= config.win_plies) {
            game.result = 1.0f;
            break;
        }
        if (black_wins >= config.win_plies) {
            game.result = 0.0f;
            break;
        }
        quiet_plies = std::abs(white) <= config.draw_score ? quiet_plies + 1 : 0;
        if (pos.game_ply() >= config.draw_ply && quiet_plies >= config.draw_plies) {
            game.result = 0.5f;
            break;
        }
        pos.play(r.best);
    }
    return game;
}

std::string format_line(const Sample& s, float result, std::uint64_t index) {
    char tail[64];
    std::snprintf(tail, sizeof tail, ";%d;%s;%llu\n", s.score_white,
                  result == 1.0f   ? "1.0"
                  : result == 0.0f ? "0.0"
                                   : "0.5",
                  static_cast<unsigned long long>(index));
    return engine::to_fen(s.board) + tail;
}

bool parse_line(const std::string& text, Line& out) {
    const std::size_t a = text.find(';');
    if (a == std::string::npos) return false;
    const std::size_t b = text.find(';', a + 1);
    if (b == std::string::npos) return false;
    const std::size_t c = text.find(';', b + 1);
    if (c == std::string::npos) return false;
    const char* end = text.data() + text.size();
    if (auto [p, ec] = std::from_chars(text.data() + a + 1, text.data() + b, out.score_white);
        ec != std::errc() || p != text.data() + b)
        return false;
    const std::string res = text.substr(b + 1, c - b - 1);
    if (res == "1.0")
        out.result = 1.0f;
    else if (res == "0.5")
        out.result = 0.5f;
    else if (res == "0.0")
        out.result = 0.0f;
    else
        return false;
    if (auto [p, ec] = std::from_chars(text.data() + c + 1, end, out.game);
        ec != std::errc() || p != end)
        return false;
    out.fen = text.substr(0, a);
    return true;
}

}  // namespace datagen
