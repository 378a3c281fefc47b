// The match runner's game loop and its scheduling over concurrent games.
#include "tools/match/match.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <ctime>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>
#include <vector>

#include "tools/match/elo.hpp"
#include "tools/match/openings.hpp"

namespace match {

namespace {

// How long an engine without a clock may take before it counts as hung: its movetime plus
// this, or this alone for node and depth limits.
constexpr std::int64_t HANG_MS = 60000;

std::string today() {
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    localtime_r(&now, &tm);
    char text[16];
    std::strftime(text, sizeof text, "%Y.%m.%d", &tm);
    return text;
}

std::string time_control_tag(const TimeControl& tc) {
    if (!tc.has_clock()) return "-";
    std::ostringstream s;
    s << tc.base_ms / 1000.0 << "+" << tc.inc_ms / 1000.0;
    return s.str();
}

// "-107.52 +- 60.13"; a score of 0% or 100% has no finite Elo and no interval.
std::string elo_text(const EloEstimate& e) {
    if (!std::isfinite(e.elo)) return e.elo > 0 ? "+inf (no game lost)" : "-inf (no game won)";
    std::ostringstream s;
    s << std::fixed << std::setprecision(2) << e.elo << " +- " << e.error;
    return s.str();
}

}  // namespace

GameRecord play_game(UciEngine& white, UciEngine& black, const MatchConfig& config,
                     const std::vector<std::string>& opening) {
    GameRecord game;
    game.white = white.name();
    game.black = black.name();
    game.variant = config.variant;
    game.time_control = time_control_tag(config.time_control);
    game.date = today();

    engine::Position pos = engine::Position::start(config.variant);
    std::string position = "position startpos moves";
    for (const std::string& m : opening) {
        if (!pos.play_uci(m)) break;  // openings are generated legal; never expected
        game.moves.push_back({m, true, std::nullopt, 0});
        position += " " + m;
    }

    UciEngine* engines[2] = {&white, &black};
    for (const engine::Color c : {engine::WHITE, engine::BLACK}) {
        const auto error = engines[c]->ensure_started(engine::uci_name(config.variant));
        if (error || !engines[c]->new_game()) {
            game.end = loss_of(c, error ? *error : engines[c]->name() + " is not ready");
            game.fault = Fault::ENGINE_FAILURE;
            return game;
        }
    }

    const TimeControl& tc = config.time_control;
    GameClock clock(tc, config.margin_ms);
    Adjudicator adjudicator(config.adjudication);
    while (true) {
        if (auto end = rules_end(pos)) {
            game.end = *end;
            break;
        }
        const engine::Color side = pos.side_to_move();
        const std::int64_t allowed =
            tc.has_clock() ? clock.allowed_ms(side) : tc.movetime_ms + HANG_MS;
        const UciEngine::Reply reply = engines[side]->play(
            pos.game_ply() ? position : "position startpos", clock.go_command(), allowed);
        if (reply.status == UciEngine::Status::DIED) {
            game.end = loss_of(side, engines[side]->name() + " died");
            game.fault = Fault::ENGINE_FAILURE;
            break;
        }
        const std::int64_t left = clock.left_ms(side);
        if (reply.status == UciEngine::Status::TIMEOUT || !clock.spend(side, reply.elapsed_ms)) {
            game.end =
                loss_of(side, tc.has_clock() ? "time forfeit: " + std::to_string(reply.elapsed_ms) +
                                                   " ms with " + std::to_string(left) + " ms left"
                                             : "no move in time");
            game.fault = tc.has_clock() ? Fault::TIME : Fault::ENGINE_FAILURE;
            break;
        }
        game.moves.push_back({reply.move, false, reply.score, reply.elapsed_ms});
        if (!pos.play_uci(reply.move)) {
            game.end = loss_of(side, "illegal move " + reply.move);
            game.fault = Fault::ILLEGAL_MOVE;
            break;
        }
        position += " " + reply.move;
        if (auto end = rules_end(pos)) {
            game.end = *end;
            break;
        }
        if (auto end = adjudicator.after_move(side, reply.score, pos.game_ply())) {
            game.end = *end;
            break;
        }
    }
    return game;
}

void Tally::add(const GameRecord& game, bool first_is_white) {
    const Outcome first_wins = first_is_white ? Outcome::WHITE_WINS : Outcome::BLACK_WINS;
    if (game.end.outcome == Outcome::DRAW)
        ++draws;
    else if (game.end.outcome == first_wins)
        ++wins;
    else
        ++losses;
    if (game.fault != Fault::NONE) {
        // The loser is the engine that did not win.
        const int loser = game.end.outcome == first_wins ? 1 : 0;
        if (game.fault == Fault::TIME) ++time_losses[loser];
        if (game.fault == Fault::ILLEGAL_MOVE) ++illegal_moves[loser];
        if (game.fault == Fault::ENGINE_FAILURE) ++failures[loser];
    }
    const char* fault_name = game.fault == Fault::TIME           ? "time forfeit"
                             : game.fault == Fault::ILLEGAL_MOVE ? "illegal move"
                                                                 : "engine failure";
    ++endings[game.fault == Fault::NONE ? game.end.reason : fault_name];
}

void Tally::add_pair(double first_points) {
    pairs[std::size_t(std::clamp(int(std::lround(first_points * 2)), 0, 4))] += 1;
}

Tally run_match(const MatchConfig& config, std::ostream& log) {
    const int pair_count = (std::max(config.games, 1) + 1) / 2;
    const int total = 2 * pair_count;
    std::vector<std::vector<std::string>> openings;
    for (int p = 0; p < pair_count; ++p)
        openings.push_back(random_opening(config.variant, config.opening_plies,
                                          config.seed * 1000003ULL + std::uint64_t(p)));

    Tally tally;
    std::mutex mutex;
    std::vector<double> pair_points(std::size_t(pair_count), 0.0);
    std::vector<int> pair_games(std::size_t(pair_count), 0);
    std::ofstream pgn;
    if (!config.pgn_path.empty()) pgn.open(config.pgn_path, std::ios::app);
    std::atomic<int> next{0};

    auto worker = [&] {
        UciEngine engines[2] = {UciEngine(config.engines[0]), UciEngine(config.engines[1])};
        for (int g; (g = next.fetch_add(1)) < total;) {
            const int pair = g / 2;
            const bool first_white = g % 2 == 0;
            GameRecord game = play_game(engines[first_white ? 0 : 1], engines[first_white ? 1 : 0],
                                        config, openings[std::size_t(pair)]);
            game.round = g + 1;
            const double first_points = game.end.outcome == Outcome::DRAW ? 0.5
                                        : (game.end.outcome == Outcome::WHITE_WINS) == first_white
                                            ? 1.0
                                            : 0.0;
            std::lock_guard lock(mutex);
            tally.add(game, first_white);
            pair_points[std::size_t(pair)] += first_points;
            if (++pair_games[std::size_t(pair)] == 2)
                tally.add_pair(pair_points[std::size_t(pair)]);
            if (pgn) pgn << to_pgn(game) << std::flush;
            const int played = tally.wins + tally.losses + tally.draws;
            log << "Game " << game.round << " (" << game.white << " vs " << game.black
                << "): " << result_text(game.end.outcome) << " {" << game.end.reason << "}, "
                << game.moves.size() << " plies | " << config.engines[0].name << " " << tally.wins
                << "-" << tally.losses << "-" << tally.draws << " of " << played << ", "
                << std::fixed << std::setprecision(1)
                << 100.0 * (tally.wins + tally.draws / 2.0) / played << "%\n"
                << std::defaultfloat << std::flush;
        }
    };
    std::vector<std::thread> threads;
    for (int i = 1; i < std::max(config.concurrency, 1); ++i) threads.emplace_back(worker);
    worker();
    for (auto& t : threads) t.join();
    return tally;
}

void print_summary(const MatchConfig& config, const Tally& t, std::ostream& out) {
    const std::string& a = config.engines[0].name;
    const std::string& b = config.engines[1].name;
    const int games = t.wins + t.losses + t.draws;
    const EloEstimate single = trinomial_elo(t.wins, t.losses, t.draws);
    const EloEstimate paired = pentanomial_elo(t.pairs);
    out << std::fixed << std::setprecision(2);
    out << a << " vs " << b << ", " << engine::uci_name(config.variant) << ", " << games
        << " games\n";
    out << "W-L-D (" << a << "'s view): " << t.wins << "-" << t.losses << "-" << t.draws
        << ", score " << 100 * single.score << "%\n";
    out << "Elo: " << elo_text(paired) << " (95%, from game pairs "
        << "[" << t.pairs[0] << ", " << t.pairs[1] << ", " << t.pairs[2] << ", " << t.pairs[3]
        << ", " << t.pairs[4] << "]); from single games " << elo_text(single) << "\n";
    out << "Time losses: " << a << " " << t.time_losses[0] << ", " << b << " " << t.time_losses[1]
        << "; illegal moves: " << t.illegal_moves[0] << ", " << t.illegal_moves[1]
        << "; engine failures: " << t.failures[0] << ", " << t.failures[1] << "\n";
    out << "Endings:";
    for (const auto& [reason, n] : t.endings) out << " " << reason << " " << n << ";";
    out << "\n" << std::defaultfloat;
}

}  // namespace match
