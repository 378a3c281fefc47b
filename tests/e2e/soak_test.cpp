// Fault soak: many bullet and blitz games at concurrency 2 under seeded random faults
// (drops, mid-line drops, silence, split and batched lines, 429s, 5xx bursts, delays) and a
// daemon restart with games in progress; every game must reach a legal end with no time
// forfeit, no illegal move, and no slot left held. Size and clocks come from OUTPOST_SOAK_*.
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "bot_fixture.hpp"

namespace e2e {
namespace {

int env_int(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::atoi(v) : fallback;
}

// The soak's size. Defaults are the CI version (a few minutes, also under ASan); the long
// version is in docs/OPERATIONS.md.
struct SoakParams {
    int games = env_int("OUTPOST_SOAK_GAMES", 12);
    int bullet_s = env_int("OUTPOST_SOAK_SECONDS", 30);        // bullet clock: N+0
    int blitz_s = env_int("OUTPOST_SOAK_BLITZ_SECONDS", 180);  // blitz clock: N+0
    int blitz_every = env_int("OUTPOST_SOAK_BLITZ_EVERY", 0);  // every Nth game is blitz
    int restarts = env_int("OUTPOST_SOAK_RESTARTS", 1);
    int seed = env_int("OUTPOST_SOAK_SEED", 8);
    int min_resign_ply = env_int("OUTPOST_SOAK_MIN_PLY", 20);  // opponents resign from here
    int resign_span = env_int("OUTPOST_SOAK_PLY_SPAN", 12);    // ... to here + span
    int timeout_s = env_int("OUTPOST_SOAK_TIMEOUT_S", 540);    // the whole soak
    // A 429 on the event stream pauses it a minute (as Lichess asks): no new game for a
    // minute, so only the long version has it.
    bool event_stream_429 = env_int("OUTPOST_SOAK_EVENT_429", 0) != 0;
};

struct GamePlan {
    bool blitz = false;
    std::string color, opponent;  // opponent: YAML flow mapping
};

class Soak {
  public:
    explicit Soak(const SoakParams& p) : p_(p), rng_(std::uint64_t(p.seed)) {}

    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

    GamePlan plan_game(int index) {
        GamePlan g;
        g.blitz = p_.blitz_every > 0 && index % p_.blitz_every == p_.blitz_every - 1;
        g.color = std::vector<std::string>{"white", "black", "random"}[pick(0, 2)];
        const int resign = p_.min_resign_ply + pick(0, std::max(0, p_.resign_span));
        std::ostringstream o;
        if (chance(0.3))
            o << "{kind: engine, depth: 1, think_ms: " << pick(10, 80);
        else
            o << "{kind: random, think_ms: " << pick(5, 150);
        o << ", resign_at_ply: " << resign << "}";
        g.opponent = o.str();
        return g;
    }

    // Random faults bound to one game's stream connections and move/action requests.
    std::string game_faults(const std::string& id) {
        std::ostringstream f;
        const std::string on = "game: " + id;
        if (chance(0.5))
            f << "  - {kind: drop, target: game_stream, " << on << ", after_lines: " << pick(1, 12)
              << ", mid_line: " << (chance(0.5) ? "true" : "false") << "}\n";
        if (chance(0.3))
            f << "  - {kind: drop, target: game_stream, " << on
              << ", skip: 1, after_lines: " << pick(2, 10)
              << ", mid_line: " << (chance(0.5) ? "true" : "false") << "}\n";
        if (chance(0.3))
            f << "  - {kind: silence, target: game_stream, " << on
              << ", after_lines: " << pick(2, 10) << ", duration_ms: " << pick(300, 3000) << "}\n";
        if (chance(0.3)) f << "  - {kind: split, target: game_stream, " << on << "}\n";
        if (chance(0.3))
            f << "  - {kind: batch, target: game_stream, " << on << ", hold_ms: " << pick(30, 200)
              << "}\n";
        if (chance(0.2))
            f << "  - {kind: http_429, target: game_stream, " << on << ", ratelimit_seconds: 1}\n";
        if (chance(0.35))
            f << "  - {kind: http_429, target: move, " << on << ", skip: " << pick(1, 8)
              << ", ratelimit_seconds: 1}\n";
        if (chance(0.35))
            f << "  - {kind: http_5xx, target: move, " << on << ", skip: " << pick(1, 10)
              << ", count: " << pick(1, 3) << ", status: " << 500 + 2 * pick(0, 2) << "}\n";
        if (chance(0.4))
            f << "  - {kind: delay, target: move, " << on << ", skip: " << pick(0, 5)
              << ", count: " << pick(2, 6) << ", delay_ms: " << pick(30, 200) << "}\n";
        if (chance(0.2))
            f << "  - {kind: http_5xx, target: game_action, " << on << ", count: " << pick(1, 2)
              << ", status: 502}\n";
        if (chance(0.15))
            f << "  - {kind: http_429, target: game_action, " << on << ", ratelimit_seconds: 1}\n";
        return f.str();
    }

    // Faults on the event stream, the account and challenge endpoints, over the whole run.
    std::string global_faults() {
        std::ostringstream f;
        f << "  - {kind: drop, target: event_stream, after_lines: " << pick(2, 6) << "}\n"
          << "  - {kind: drop, target: event_stream, skip: 2, after_lines: " << pick(1, 4)
          << ", mid_line: true}\n"
          << "  - {kind: silence, target: event_stream, skip: 1, after_lines: 1, duration_ms: "
          << pick(2500, 4000) << "}\n"
          << "  - {kind: split, target: event_stream, skip: 3}\n"
          << "  - {kind: batch, target: event_stream, skip: 4, hold_ms: 150}\n"
          << (p_.event_stream_429
                  ? "  - {kind: http_429, target: event_stream, skip: 2, ratelimit_seconds: 1}\n"
                  : "")
          << "  - {kind: http_5xx, target: event_stream, skip: 3, count: 2, status: 503}\n"
          // account family: 1 account + 2 playing at start, 3 account + 4 playing at restart
          << "  - {kind: http_5xx, target: account, skip: 1, count: 2, status: 502}\n"
          << "  - {kind: http_429, target: account, skip: 5, ratelimit_seconds: 1}\n"
          << "  - {kind: http_5xx, target: challenge, skip: " << pick(1, 4)
          << ", count: 2, status: 504}\n"
          << "  - {kind: delay, target: challenge, skip: " << pick(0, 3)
          << ", count: 3, delay_ms: 150}\n";
        return f.str();
    }

  private:
    SoakParams p_;
    std::mt19937_64 rng_;
};

std::string challenge_yaml(const std::string& id, const GamePlan& g, const SoakParams& p) {
    std::ostringstream o;
    o << "challenges:\n  - {id: " << id << ", at_ms: 0, challenger: {name: Soaker" << id.substr(4)
      << ", title: BOT, rating: 1600}, clock: {limit: " << (g.blitz ? p.blitz_s : p.bullet_s)
      << ", increment: 0}, color: " << g.color << ", opponent: " << g.opponent << "}\n";
    return o.str();
}

// Starts the daemon; a start that fails (a fault on /api/account) is tried again, as a
// supervisor (systemd Restart=on-failure) would. Counts the failed starts.
std::unique_ptr<BotRunner> start_bot(emu::EmulatorFixture& fx, int& failed_starts) {
    using namespace std::chrono_literals;
    for (int attempt = 0;; ++attempt) {
        try {
            return std::make_unique<BotRunner>(fx, settings("{concurrency: 2}"));
        } catch (const std::exception& e) {
            if (attempt >= 3) throw;
            ++failed_starts;
            std::cout << "soak: the daemon did not start (" << e.what() << "); again in 1 s\n";
            std::this_thread::sleep_for(1s);
        }
    }
}

TEST(Soak, GamesUnderRandomFaultsAndARestartEndLegally) {
    using namespace std::chrono_literals;
    const SoakParams p;
    if (const char* level = std::getenv("OUTPOST_SOAK_LOG"))
        spdlog::set_level(spdlog::level::from_str(level));
    else
        spdlog::set_level(spdlog::level::warn);  // per-move lines drown the failures

    Soak soak(p);
    std::vector<GamePlan> plan;
    std::vector<std::string> ids;
    std::string faults = soak.global_faults();
    for (int i = 0; i < p.games; ++i) {
        const std::string n = std::to_string(10000 + (i + 1) % 10000);  // 8-character ids
        ids.push_back("soak" + n.substr(1));
        plan.push_back(soak.plan_game(i));
        faults += soak.game_faults(ids.back());
    }
    emu::EmulatorFixture fx("name: soak\nseed: " + std::to_string(p.seed) +
                            "\nkeepalive_ms: 400\nfaults:\n" + faults);

    const auto started = std::chrono::steady_clock::now();
    // Bounded: within ctest's 600 s by default (OUTPOST_SOAK_TIMEOUT_S for the long version).
    const auto deadline = started + std::chrono::seconds(p.timeout_s);
    std::uint64_t forfeits_metric = 0, moves_metric = 0;
    int failed_starts = 0;
    auto runner = start_bot(fx, failed_starts);
    ASSERT_TRUE(wait_event_stream(fx, 30s));

    std::size_t next = 0;
    std::set<std::string> sent;
    int restarts = 0;
    std::vector<std::string> in_progress_at_restart;
    bool timed_out = false;
    for (;;) {
        std::map<std::string, emu::GameView> games;
        for (auto& g : fx->games()) games[g.id] = g;
        int unfinished = 0, finished = 0;
        for (const auto& id : sent) {
            auto it = games.find(id);
            if (it == games.end() || !it->second.over)
                ++unfinished;
            else
                ++finished;
        }
        for (const auto& c : fx->challenges())
            ASSERT_NE(c.status, "declined")
                << "the bot declined soak challenge " << c.id << " (" << c.decline_reason_key
                << ": " << c.decline_reason << ") "
                << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()
                << " s into the soak, restarts so far " << restarts;
        if (next == ids.size() && unfinished == 0) break;
        if (std::chrono::steady_clock::now() > deadline) {
            timed_out = true;
            break;
        }
        // The restart: the daemon is destroyed with games in progress, and a new one starts.
        const int restart_at = (restarts + 1) * p.games / (p.restarts + 1);
        // Not while a challenge is on its way: a daemon that is stopping declines `later` a
        // challenge that arrives with the signal (Bot::run), which this test counts as a failure.
        const bool challenge_in_flight = std::any_of(
            sent.begin(), sent.end(), [&](const std::string& id) { return !games.count(id); });
        if (restarts < p.restarts && finished >= restart_at && !challenge_in_flight) {
            std::vector<std::string> running;
            for (const auto& id : sent)
                if (games.count(id) && !games[id].over && bot_moves(games[id]) >= 3)
                    running.push_back(id);
            if (!running.empty()) {
                EXPECT_EQ(runner->stop(), 0);
                forfeits_metric += runner->metrics().time_forfeits.load();
                moves_metric += runner->metrics().moves_played.load();
                runner.reset();
                std::this_thread::sleep_for(std::chrono::milliseconds(300 + 100 * restarts));
                runner = start_bot(fx, failed_starts);
                ASSERT_TRUE(wait_event_stream(fx, 30s));
                in_progress_at_restart.insert(in_progress_at_restart.end(), running.begin(),
                                              running.end());
                ++restarts;
                continue;
            }
        }
        const auto slots = runner->bot().slots();
        if (next < ids.size() && unfinished < 2 && slots.active + slots.reserved < 2) {
            send_challenges(fx, challenge_yaml(ids[next], plan[next], p));
            sent.insert(ids[next]);
            ++next;
        }
        std::this_thread::sleep_for(50ms);
    }
    const double duration_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    // Slots: the daemon's view and the emulator's.
    EXPECT_TRUE(fx.wait_until(
        [&] {
            const auto s = runner->bot().slots();
            return s.active == 0 && s.reserved == 0 && runner->bot().active_games() == 0;
        },
        15s))
        << "slots left: active " << runner->bot().slots().active << ", reserved "
        << runner->bot().slots().reserved;
    EXPECT_EQ(runner->stop(), 0);  // no crash: the daemon stops cleanly
    forfeits_metric += runner->metrics().time_forfeits.load();
    moves_metric += runner->metrics().moves_played.load();

    // Per game: a legal end, no forfeit, no illegal move (a 400 after the end is a race).
    std::map<std::string, emu::Ms> ended;
    const auto report = fx->report();  // a named copy: a range-for over report()["games"] dangles
    for (const auto& g : report["games"])
        ended[g["id"].get<std::string>()] = g["ended_ms"].get<emu::Ms>();
    std::map<std::string, int> statuses;
    int wins = 0, draws = 0, losses = 0, forfeits = 0, illegal = 0, end_races = 0, plies = 0,
        bot_move_count = 0;
    for (const auto& id : ids) {
        const auto g = game(fx, id);
        EXPECT_TRUE(g.over) << describe(g);
        EXPECT_TRUE(legal_end(g)) << describe(g);
        forfeits += bot_forfeited_on_time(g) ? 1 : 0;
        EXPECT_FALSE(bot_forfeited_on_time(g)) << describe(g);
        ++statuses[g.status.empty() ? "never ended" : g.status];
        if (!g.winner)
            ++draws;
        else
            (*g.winner == g.bot_color ? wins : losses)++;
        plies += int(g.moves.size());
        bot_move_count += bot_moves(g);
        for (const auto& r : fx->requests()) {
            if (r.family != "move" || r.status != 400 || r.path.find(id) == std::string::npos)
                continue;
            const bool after_end = ended.count(id) && ended[id] >= 0 && r.t_ms >= ended[id];
            (after_end ? end_races : illegal)++;
            EXPECT_TRUE(after_end) << "a move of " << id << " was refused with 400 at " << r.t_ms
                                   << " ms: " << r.path << "; " << describe(g);
        }
    }
    EXPECT_FALSE(timed_out) << "the soak ran past its deadline";
    EXPECT_EQ(forfeits, 0);
    EXPECT_EQ(forfeits_metric, 0u);
    EXPECT_EQ(illegal, 0);
    EXPECT_EQ(restarts, p.restarts);
    EXPECT_FALSE(in_progress_at_restart.empty());

    std::map<std::string, int> fired;
    for (const auto& f : fx->faults_fired()) ++fired[f.kind];
    std::ostringstream summary;
    summary << "soak: " << ids.size() << " games (" << p.bullet_s << "+0 bullet, " << p.blitz_s
            << "+0 blitz every " << p.blitz_every << "), seed " << p.seed << ", " << duration_s
            << " s\n"
            << "soak: bot +" << wins << " =" << draws << " -" << losses << "; ends:";
    for (const auto& [s, n] : statuses) summary << " " << s << " " << n;
    summary << "\nsoak: plies " << plies << ", bot moves " << bot_move_count << " (metrics "
            << moves_metric << ")\nsoak: faults fired:";
    int total_faults = 0;
    for (const auto& [k, n] : fired) {
        summary << " " << k << " " << n;
        total_faults += n;
    }
    summary << " (total " << total_faults << ")\nsoak: time forfeits " << forfeits << " (metrics "
            << forfeits_metric << "), illegal moves " << illegal << ", 400s after the game ended "
            << end_races << ", restarts " << restarts
            << " (failed starts retried: " << failed_starts << ") with games in progress:";
    for (const auto& id : in_progress_at_restart) summary << " " << id;
    summary << "\n";
    std::cout << summary.str() << std::flush;
    if (const char* path = std::getenv("OUTPOST_SOAK_REPORT")) {
        std::ofstream(path) << summary.str();
        (void)fx->write_report(std::string(path) + ".emulator.json");
    }
}

}  // namespace
}  // namespace e2e
