// End-to-end: 100 correspondence games at once. Every game gets the bot's moves and ends as the
// emulator scripts it, while the daemon's sessions, engines and threads stay bounded: games on
// the opponent's move are parked (no thread, no engine) and found again by check-ins.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <thread>

#include "bot_fixture.hpp"

namespace e2e {
namespace {

constexpr int kGames = 100;
constexpr int kMaxSessions = 4;  // correspondence.max_concurrent_searches
constexpr int kBotMoves = 3;     // each opponent resigns on its turn after the bot's third move

int threads_now() {
    int n = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator("/proc/self/task"))
        ++n;
    return n;
}

std::string id_of(int i) {
    char id[9];
    std::snprintf(id, sizeof id, "cor%05d", i);
    return id;
}

// Half the games with the bot white, half black; every fourth opponent thinks longer than the
// daemon lingers (1 s), so its game is parked and must be found again by a check-in.
std::string scenario() {
    std::ostringstream s;
    s << "name: correspondence-100\nseed: 11\nkeepalive_ms: 500\nfirst_move_timeout_ms: 0\n"
      << "games:\n";
    for (int i = 0; i < kGames; ++i) {
        const bool white = i % 2 == 0;
        // The opponent moves on odd plies when the bot is white, on even ones when it is black.
        const int resign_at = white ? 2 * kBotMoves - 1 : 2 * kBotMoves;
        const int think_ms = i % 4 == 1 ? 1500 : 30;
        s << "  - {id: " << id_of(i) << ", at_ms: 1500, bot_color: " << (white ? "white" : "black")
          << ", days: 3, opponent: {kind: random, think_ms: " << think_ms
          << ", resign_at_ply: " << resign_at << "}}\n";
    }
    return s.str();
}

TEST(E2eCorrespondence, HundredGamesPlayWithBoundedSessionsEnginesAndThreads) {
    using namespace std::chrono_literals;
    const std::filesystem::path pgn_dir =
        std::filesystem::temp_directory_path() / ("outpost-e2e-corr-" + std::to_string(::getpid()));
    std::filesystem::remove_all(pgn_dir);
    emu::EmulatorFixture fx(scenario());
    BotRunner bot(fx, settings("{concurrency: 1, time_controls: [correspondence]}",
                               "correspondence: {move_time_ms: 50, checkin_period_s: 1, "
                               "max_concurrent_searches: 4, disconnect_time_s: 1}\n"
                               "greeting: {hello: \"hi\", goodbye: \"\", hello_spectators: \"\", "
                               "goodbye_spectators: \"\"}\n"
                               "pgn_directory: \"" +
                                   pgn_dir.string() + "\"\n"));
    ASSERT_TRUE(wait_event_stream(fx));
    ASSERT_TRUE(fx.wait_until([&] { return fx->world().now() >= 1000; }, 5s));
    const int baseline = threads_now();  // daemon and emulator, before any game

    std::atomic<int> peak_threads{baseline}, peak_sessions{0};
    std::jthread sampler([&](std::stop_token stop) {
        while (!stop.stop_requested()) {
            peak_threads = std::max(peak_threads.load(), threads_now());
            peak_sessions = std::max(peak_sessions.load(), bot.bot().correspondence().running);
            std::this_thread::sleep_for(5ms);
        }
    });

    const bool all_over = fx.wait_until(
        [&] {
            const auto games = fx->games();
            return games.size() == std::size_t(kGames) &&
                   std::all_of(games.begin(), games.end(), [](const auto& g) { return g.over; });
        },
        50s);
    sampler.request_stop();
    sampler.join();

    int over = 0, moves = 0;
    for (int i = 0; i < kGames; ++i) {
        const auto g = game(fx, id_of(i));
        over += g.over ? 1 : 0;
        moves += bot_moves(g);
        // The opponent resigns, unless the bot mates the random mover first.
        EXPECT_TRUE(g.status == "resign" || g.status == "mate") << describe(g);
        EXPECT_EQ(g.winner.value_or("none"), g.bot_color) << describe(g);
        if (g.status == "resign") {
            EXPECT_EQ(bot_moves(g), kBotMoves) << describe(g);
        }
        EXPECT_GE(bot_moves(g), 2) << describe(g);
        EXPECT_EQ(rejected_moves(fx, g.id), 0) << g.id;
        int hellos = 0;
        for (const auto& c : g.chat) hellos += c.room == "player" && c.text == "hi" ? 1 : 0;
        EXPECT_LE(hellos, 1) << g.id;  // one greeting per game, not per session
    }
    ASSERT_TRUE(all_over) << over << " of " << kGames << " games over";

    // Bounded: sessions by max_concurrent_searches; engines by the warm one plus one per search;
    // threads by what those sessions need (two each, plus the emulator's connection per game
    // stream and a few for requests), where one session per game would add 300.
    const auto desk = bot.bot().correspondence();
    std::printf(
        "correspondence e2e: %d games, %d bot moves, %d sessions (at most %d at once), engines "
        "at most %d (%d made), threads %d before the games and at most %d during them\n",
        kGames, moves, desk.sessions_started, desk.peak_running, bot.bot().engines().peak_live(),
        bot.bot().engines().created(), baseline, peak_threads.load());
    EXPECT_LE(desk.peak_running, kMaxSessions);
    EXPECT_LE(peak_sessions.load(), kMaxSessions);
    EXPECT_LE(bot.bot().engines().peak_live(), 1 + kMaxSessions);
    EXPECT_LE(peak_threads.load(), baseline + 3 * kMaxSessions + 16)
        << "baseline " << baseline << " threads";
    // Parking happened: more sessions than games, found by check-ins.
    EXPECT_GT(desk.sessions_started, kGames);
    EXPECT_GE(requests_to(fx, "/api/account/playing"), 3);

    // Everything recorded: each game's end seen by a session (PGN, result), nothing left over.
    auto& m = bot.metrics();
    EXPECT_EQ(m.games_started.load(), std::uint64_t(kGames));
    EXPECT_EQ(m.moves_played.load(), std::uint64_t(moves));
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().correspondence().games == 0; }, 10s))
        << bot.bot().correspondence().games << " correspondence games still tracked";
    EXPECT_EQ(m.games_finished_count(service::GameResult::Win), std::uint64_t(kGames));
    int pgns = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(pgn_dir)) ++pgns;
    EXPECT_EQ(pgns, kGames);
    EXPECT_EQ(bot.bot().engines().live(), 1);  // back to the warm engine
    EXPECT_EQ(bot.bot().slots().active, 0);    // correspondence games never took a slot
    EXPECT_EQ(bot.stop(), 0);
    std::filesystem::remove_all(pgn_dir);
}

}  // namespace
}  // namespace e2e
