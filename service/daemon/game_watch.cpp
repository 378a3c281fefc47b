// GameWatch: a game's rules and lines as the status page's GameStatus and FinishedGameStatus.
#include "service/daemon/game_watch.hpp"

#include <fmt/format.h>

#include <type_traits>
#include <variant>

namespace service {

namespace {

StatusPlayer player_of(const lichess::GamePlayer& p) {
    StatusPlayer out;
    out.name = p.name;
    if (out.name.empty() && p.ai_level) out.name = fmt::format("Stockfish level {}", *p.ai_level);
    out.title = p.title.value_or("");
    out.rating = p.rating;
    out.provisional = p.provisional;
    return out;
}

}  // namespace

std::string time_control_text(const lichess::GameFull& full) {
    if (full.clock) {
        const std::int64_t seconds = full.clock->initial_ms / 1000;
        std::string minutes;
        switch (seconds) {
            case 15:
                minutes = "¼";
                break;
            case 30:
                minutes = "½";
                break;
            case 45:
                minutes = "¾";
                break;
            default:
                minutes = seconds % 60 == 0
                              ? fmt::format("{}", seconds / 60)
                              : fmt::format("{:g}", static_cast<double>(seconds) / 60);
        }
        return fmt::format("{}+{}", minutes, full.clock->increment_ms / 1000);
    }
    if (full.days_per_turn)
        return fmt::format("{} day{}", *full.days_per_turn, *full.days_per_turn == 1 ? "" : "s");
    return "unlimited";
}

void GameWatch::saw(const GameInput& input, WallTime now) {
    std::visit(
        [&](const auto& e) {
            using T = std::decay_t<decltype(e)>;
            const lichess::GameState* state = nullptr;
            if constexpr (std::is_same_v<T, game::FullReceived>) state = &e.full.state;
            if constexpr (std::is_same_v<T, game::StateReceived>) state = &e.state;
            if (state) {
                white_ms_ = state->wtime_ms;
                black_ms_ = state->btime_ms;
                clocks_at_ = now;
                status_name_ = state->status_name;
            }
            if constexpr (std::is_same_v<T, game::MoveChosen>) {
                StatusMove m;
                m.source = e.source;
                m.think_ms = e.think_ms;
                m.score = e.score;
                if (e.search) {
                    m.score = e.search->score;
                    m.depth = e.search->depth;
                    m.nps = e.search->nps;
                }
                our_last_move_ = m;
            }
        },
        input);
}

GameStatus GameWatch::status(const GameRules& rules) const {
    GameStatus g;
    g.id = rules.settings().game_id;
    g.we_play_white = rules.our_color() == engine::WHITE;
    if (const lichess::GameFull* full = rules.full()) {
        g.variant_key = full->variant.key;
        g.variant_name = full->variant.name.empty() ? full->variant.key : full->variant.name;
        g.speed = full->speed;
        g.rated = full->rated;
        g.time_control = time_control_text(*full);
        g.white = player_of(full->white);
        g.black = player_of(full->black);
        g.real_time = full->clock.has_value();
    }
    if (const engine::Position* position = rules.position()) g.fen = position->fen();
    const auto& moves = rules.moves();
    if (!moves.empty()) g.last_move = moves.back();
    g.plies = static_cast<int>(moves.size());
    g.white_ms = white_ms_;
    g.black_ms = black_ms_;
    g.clocks_at = clocks_at_;
    g.clock_running = g.real_time && g.plies >= 2 && rules.phase() == Phase::Playing;
    g.our_last_move = our_last_move_;
    if (const GameLevel* level = rules.level()) g.level = level->elo;
    return g;
}

FinishedGameStatus GameWatch::finished(const GameRules& rules, GameResult result,
                                       std::string pgn_path, WallTime now) const {
    FinishedGameStatus f;
    f.id = rules.settings().game_id;
    f.result = result;
    f.we_played_white = rules.our_color() == engine::WHITE;
    if (const lichess::GameFull* full = rules.full()) {
        f.opponent = player_of(f.we_played_white ? full->black : full->white);
        f.speed = full->speed;
    }
    f.status = status_name_;
    f.pgn_path = std::move(pgn_path);
    f.ended_at = now;
    return f;
}

std::optional<std::int64_t> GameWatch::our_clock_ms(const GameRules& rules) const {
    const lichess::GameFull* full = rules.full();
    if (!full || !full->clock) return std::nullopt;
    return rules.our_color() == engine::WHITE ? white_ms_ : black_ms_;
}

}  // namespace service
