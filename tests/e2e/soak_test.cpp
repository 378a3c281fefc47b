// Fault soak: many bullet, blitz and correspondence games at concurrency 2 under seeded random
// faults (drops, mid-line drops, silence, split and batched lines, 429s with and without hints,
// 5xx bursts, delays, stalling and vanishing opponents) and daemon restarts with games in
// progress; every game must reach a legal end with no time forfeit and no illegal move. The
// daemon runs in-process, or (OUTPOST_SOAK_CHILD=1) as the real `outpost run` in a child process
// whose output pipe is closed mid-run, with its memory sampled. Size and clocks come from
// OUTPOST_SOAK_* (docs/OPERATIONS.md).
#include <gtest/gtest.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "bot_fixture.hpp"
#include "child_process.hpp"

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
    // Every Nth game is correspondence (1 day per move; they take no slot, two at a time).
    int correspondence_every = env_int("OUTPOST_SOAK_CORRESPONDENCE_EVERY", 0);
    int restarts = env_int("OUTPOST_SOAK_RESTARTS", 1);
    int seed = env_int("OUTPOST_SOAK_SEED", 8);
    int min_resign_ply = env_int("OUTPOST_SOAK_MIN_PLY", 20);  // opponents resign from here
    int resign_span = env_int("OUTPOST_SOAK_PLY_SPAN", 12);    // ... to here + span
    int timeout_s = env_int("OUTPOST_SOAK_TIMEOUT_S", 540);    // the whole soak
    // A 429 on the event stream pauses it a minute (as Lichess asks): no new game for a
    // minute, so only the long version has it.
    bool event_stream_429 = env_int("OUTPOST_SOAK_EVENT_429", 0) != 0;
    // The real binary as a child process: its output goes to a pipe whose reader closes it
    // after `pipe_close_after` games of each run; its memory is sampled every second.
    bool child = env_int("OUTPOST_SOAK_CHILD", 0) != 0;
    int pipe_close_after = env_int("OUTPOST_SOAK_PIPE_CLOSE_AFTER", 3);
};

enum class Kind { Bullet, Blitz, Correspondence };

struct GamePlan {
    Kind kind = Kind::Bullet;
    std::string color, opponent;  // opponent: YAML flow mapping
};

class Soak {
  public:
    explicit Soak(const SoakParams& p) : p_(p), rng_(std::uint64_t(p.seed)) {}

    int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
    bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

    GamePlan plan_game(int index) {
        GamePlan g;
        const auto every = [&](int n) { return n > 0 && index % n == n - 1; };
        g.kind = every(p_.correspondence_every) ? Kind::Correspondence
                 : every(p_.blitz_every)        ? Kind::Blitz
                                                : Kind::Bullet;
        g.color = std::vector<std::string>{"white", "black", "random"}[pick(0, 2)];
        const int resign = p_.min_resign_ply + pick(0, std::max(0, p_.resign_span));
        std::ostringstream o;
        if (g.kind == Kind::Correspondence) {
            // Some think past the daemon's disconnect time: the game is parked and checked in.
            o << "{kind: random, think_ms: " << (chance(0.3) ? pick(2500, 4000) : pick(5, 150));
        } else if (chance(0.08)) {
            // Stops moving mid-game: its clock runs out (a win for us, never an abort).
            o << "{kind: staller, stall_from_ply: " << pick(6, 16) << ", think_ms: " << pick(5, 80);
        } else if (chance(0.06)) {
            // Leaves mid-game: we claim the win after claimWinInSeconds.
            o << "{kind: random, think_ms: " << pick(5, 80) << ", go_away_at_ply: " << pick(6, 16)
              << ", claim_win_in_seconds: " << pick(1, 4);
        } else if (chance(0.3)) {
            o << "{kind: engine, depth: 1, think_ms: " << pick(10, 80);
        } else {
            o << "{kind: random, think_ms: " << pick(5, 150);
        }
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
        // 429s on moves: with a small hint, with lila's hour-long one, with a Retry-After
        // header, and with no hint at all (an HTML page).
        if (chance(0.3))
            f << "  - {kind: http_429, target: move, " << on << ", skip: " << pick(1, 8)
              << ", ratelimit_seconds: 1}\n";
        if (chance(0.15))
            f << "  - {kind: http_429, target: move, " << on << ", skip: " << pick(1, 12)
              << ", count: " << pick(1, 3) << ", ratelimit_seconds: 3600}\n";
        if (chance(0.1))
            f << "  - {kind: http_429, target: move, " << on << ", skip: " << pick(1, 12)
              << ", retry_after_s: " << pick(1, 60) << "}\n";
        if (chance(0.1))
            f << "  - {kind: http_429, target: move, " << on << ", skip: " << pick(1, 12)
              << ", body: html}\n";
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
      << ", title: BOT, rating: 1600}, ";
    if (g.kind == Kind::Correspondence)
        o << "days: 1";
    else
        o << "clock: {limit: " << (g.kind == Kind::Blitz ? p.blitz_s : p.bullet_s)
          << ", increment: 0}";
    o << ", color: " << g.color << ", opponent: " << g.opponent << "}\n";
    return o.str();
}

// The daemon's settings: concurrency 2; correspondence games searched briefly, parked soon and
// checked in often, so that they end within the soak.
BotSettings soak_settings() {
    BotSettings s = settings(
        "{concurrency: 2, time_controls: [bullet, blitz, rapid, classical, correspondence]}",
        "correspondence: {move_time_ms: 200, disconnect_time_s: 2, checkin_period_s: 5}\n");
    return s;
}

// ---- the daemon, in-process or as a child ---------------------------------------------------

// What the soak asks of the daemon, whichever way it runs.
class SoakDaemon {
  public:
    virtual ~SoakDaemon() = default;
    // Stops it (SIGTERM for the child); its exit code, -1 when it did not end cleanly.
    virtual int stop() = 0;
    // It ended by itself (a crash): a description; none while it runs.
    virtual std::optional<std::string> died() = 0;
    // Whether its slots are free for one more real-time game (the in-process daemon says; the
    // child's queue takes a challenge that comes a moment early).
    virtual bool has_free_slot() = 0;
    virtual void on_games_finished(int finished_in_run) = 0;
    // Slots and sessions all free (in-process); true for the child.
    virtual bool idle() = 0;
    virtual std::uint64_t time_forfeits() = 0;  // the daemon's own count, where it has one
};

class InProcessDaemon final : public SoakDaemon {
  public:
    explicit InProcessDaemon(emu::EmulatorFixture& fx)
        : runner_(std::make_unique<BotRunner>(fx, soak_settings())) {}
    int stop() override { return runner_->stop(); }
    std::optional<std::string> died() override { return std::nullopt; }
    bool has_free_slot() override {
        const auto s = runner_->bot().slots();
        return s.active + s.reserved < 2;
    }
    void on_games_finished(int) override {}
    bool idle() override {
        const auto s = runner_->bot().slots();
        return s.active == 0 && s.reserved == 0 && runner_->bot().active_games() == 0;
    }
    std::uint64_t time_forfeits() override { return runner_->metrics().time_forfeits.load(); }

  private:
    std::unique_ptr<BotRunner> runner_;
};

// One memory sample of the child.
struct MemorySample {
    double t_s = 0;
    int run = 0;
    int finished = 0;  // games finished in the whole soak when it was taken
    long rss_kb = 0, hwm_kb = 0, threads = 0;
};

long status_field(pid_t pid, const std::string& field) {
    std::ifstream in("/proc/" + std::to_string(pid) + "/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind(field + ":", 0) == 0) return std::atol(line.c_str() + field.size() + 1);
    return -1;
}

// `outpost run` as a child: output to a pipe read into a file until the reader closes it (the
// daemon goes on with EPIPE on its standard error and its log file), memory sampled each second.
class ChildDaemon final : public SoakDaemon {
  public:
    ChildDaemon(emu::EmulatorFixture& fx, const std::filesystem::path& dir, int run,
                const SoakParams& p, const std::atomic<int>& finished,
                std::vector<MemorySample>& samples, std::mutex& samples_mutex,
                std::chrono::steady_clock::time_point started)
        : p_(p), run_(run) {
        const std::string config = (dir / ("run" + std::to_string(run) + ".yml")).string();
        BotSettings s = soak_settings();
        s.extra += "log: {level: info, file: \"" +
                   (dir / ("outpost-run" + std::to_string(run) + ".log")).string() + "\"}\n";
        std::ofstream(config) << config_text(fx, s);
        int fds[2];
        if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
        read_fd_ = fds[0];
        child_ = std::make_unique<ChildProcess>(exe(),
                                                std::vector<std::string>{"run", "--config", config},
                                                ChildOptions{.output_fd = fds[1]});
        ::close(fds[1]);
        if (!child_->started()) throw std::runtime_error("cannot start " + exe());
        const pid_t pid = child_->pid();
        reader_ = std::jthread(
            [this, path = (dir / ("pipe-run" + std::to_string(run) + ".out")).string()](
                std::stop_token stop) {
                std::ofstream out(path);
                char buf[4096];
                while (!stop.stop_requested() && !close_pipe_) {
                    const ssize_t n = ::read(read_fd_, buf, sizeof buf);
                    if (n <= 0) break;
                    out.write(buf, n);
                    out.flush();
                }
                ::close(read_fd_);  // the daemon's standard output and error: a closed pipe now
                pipe_closed_ = true;
            });
        sampler_ = std::jthread([&, pid, run, started](std::stop_token stop) {
            while (!stop.stop_requested()) {
                MemorySample m{
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - started)
                        .count(),
                    run,
                    finished.load(),
                    status_field(pid, "VmRSS"),
                    status_field(pid, "VmHWM"),
                    status_field(pid, "Threads")};
                if (m.rss_kb > 0) {
                    std::lock_guard lock(samples_mutex);
                    samples.push_back(m);
                }
                for (int i = 0; i < 10 && !stop.stop_requested(); ++i)
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
            }
        });
    }
    ~ChildDaemon() override {
        sampler_ = {};
        if (child_->running()) (void)stop();
        close_pipe_ = true;
        reader_ = {};
    }

    int stop() override {
        sampler_ = {};
        child_->signal(SIGTERM);
        const auto status = child_->wait(std::chrono::seconds(60));
        if (!status) {
            child_->signal(SIGKILL);
            (void)child_->wait(std::chrono::seconds(10));
            return -1;
        }
        return WIFEXITED(*status) ? WEXITSTATUS(*status) : -1;
    }
    std::optional<std::string> died() override {
        if (child_->running()) return std::nullopt;
        const auto status = child_->wait(std::chrono::milliseconds(0));
        if (!status) return "gone";
        return WIFEXITED(*status) ? "exited with " + std::to_string(WEXITSTATUS(*status))
                                  : "killed by signal " + std::to_string(WTERMSIG(*status));
    }
    bool has_free_slot() override { return true; }
    void on_games_finished(int finished_in_run) override {
        // The log pipe closes mid-game: a log shipper that restarts, a terminal that went away.
        if (finished_in_run >= p_.pipe_close_after && !close_pipe_) {
            close_pipe_ = true;
            // The reader sits in read(): the daemon's next line wakes it, and it closes.
            std::cout << "soak: run " << run_ << ": closing the daemon's output pipe\n"
                      << std::flush;
        }
    }
    bool idle() override { return true; }
    std::uint64_t time_forfeits() override { return 0; }  // the emulator's record counts
    // The binary: OUTPOST_SOAK_EXE (a copy that a rebuild does not replace mid-soak), else the
    // build's.
    static std::string exe() {
        const char* e = std::getenv("OUTPOST_SOAK_EXE");
        return e && *e ? e : OUTPOST_EXE;
    }
    [[nodiscard]] bool pipe_closed() const { return pipe_closed_; }

  private:
    SoakParams p_;
    int run_;
    int read_fd_ = -1;
    std::atomic<bool> close_pipe_{false}, pipe_closed_{false};
    std::unique_ptr<ChildProcess> child_;
    std::jthread reader_, sampler_;
};

// ---- the soak --------------------------------------------------------------------------------

TEST(Soak, GamesUnderRandomFaultsAndARestartEndLegally) {
    using namespace std::chrono_literals;
    const SoakParams p;
    if (const char* level = std::getenv("OUTPOST_SOAK_LOG"))
        spdlog::set_level(spdlog::level::from_str(level));
    else
        spdlog::set_level(spdlog::level::warn);  // per-move lines drown the failures
    const std::filesystem::path dir = std::getenv("OUTPOST_SOAK_DIR")
                                          ? std::filesystem::path(std::getenv("OUTPOST_SOAK_DIR"))
                                          : std::filesystem::temp_directory_path() /
                                                ("outpost-soak-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);

    Soak soak(p);
    std::vector<GamePlan> plan;
    std::vector<std::string> ids;
    std::string faults = soak.global_faults();
    for (int i = 0; i < p.games; ++i) {
        const std::string n = std::to_string(100000 + (i + 1) % 100000);  // 8-character ids
        ids.push_back("soa" + n.substr(1));
        plan.push_back(soak.plan_game(i));
        faults += soak.game_faults(ids.back());
    }
    // lila lets a bot play 100 games a day against other bots; the soak's challengers are bots,
    // and the long version plays more.
    emu::EmulatorFixture fx("name: soak\nseed: " + std::to_string(p.seed) +
                            "\nkeepalive_ms: 400\nbot_games_per_day: 100000\nfaults:\n" + faults);

    const auto started = std::chrono::steady_clock::now();
    // Bounded: within ctest's 600 s by default (OUTPOST_SOAK_TIMEOUT_S for the long version).
    const auto deadline = started + std::chrono::seconds(p.timeout_s);
    std::uint64_t forfeits_metric = 0;
    std::atomic<int> finished_total{0};
    std::vector<MemorySample> samples;
    std::mutex samples_mutex;
    std::vector<std::string> crashes;
    int failed_starts = 0, run = 0, pipes_closed = 0;
    // Starts the daemon; a start that fails (a fault on /api/account) is tried again, as a
    // supervisor (systemd Restart=on-failure) would. Counts the failed starts.
    const auto start = [&]() -> std::unique_ptr<SoakDaemon> {
        ++run;
        for (int attempt = 0;; ++attempt) {
            try {
                std::unique_ptr<SoakDaemon> d;
                if (p.child)
                    d = std::make_unique<ChildDaemon>(fx, dir, run, p, finished_total, samples,
                                                      samples_mutex, started);
                else
                    d = std::make_unique<InProcessDaemon>(fx);
                // A 429 on the event stream pauses it a minute (as lila asks): wait longer.
                if (wait_event_stream(fx, 90s)) return d;
                if (auto why = d->died()) throw std::runtime_error("the daemon " + *why);
                throw std::runtime_error("no event stream after 90 s");
            } catch (const std::exception& e) {
                if (attempt >= 3) throw;
                ++failed_starts;
                std::cout << "soak: the daemon did not start (" << e.what() << "); again in 1 s\n";
                std::this_thread::sleep_for(1s);
            }
        }
    };
    std::unique_ptr<SoakDaemon> daemon;
    ASSERT_NO_THROW(daemon = start());
    int finished_at_run_start = 0;

    std::size_t next = 0;
    std::set<std::string> sent;
    int restarts = 0;
    std::vector<std::string> in_progress_at_restart;
    bool timed_out = false;
    const auto stop_daemon = [&] {
        EXPECT_EQ(daemon->stop(), 0) << "run " << run;  // no crash: the daemon stops cleanly
        forfeits_metric += daemon->time_forfeits();
        if (auto* child = dynamic_cast<ChildDaemon*>(daemon.get()))
            pipes_closed += child->pipe_closed() ? 1 : 0;
        daemon.reset();
    };
    for (;;) {
        std::map<std::string, emu::GameView> games;
        for (auto& g : fx->games()) games[g.id] = g;
        int unfinished_live = 0, unfinished_correspondence = 0, finished = 0;
        for (std::size_t i = 0; i < next; ++i) {
            auto it = games.find(ids[i]);
            if (it != games.end() && it->second.over)
                ++finished;
            else
                ++(plan[i].kind == Kind::Correspondence ? unfinished_correspondence
                                                        : unfinished_live);
        }
        finished_total = finished;
        daemon->on_games_finished(finished - finished_at_run_start);
        for (const auto& c : fx->challenges())
            ASSERT_NE(c.status, "declined")
                << "the bot declined soak challenge " << c.id << " (" << c.decline_reason_key
                << ": " << c.decline_reason << ") "
                << std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()
                << " s into the soak, restarts so far " << restarts;
        if (auto why = daemon->died()) {
            // A crash: counted (the test fails), and the daemon started again to go on.
            crashes.push_back("run " + std::to_string(run) + ": " + *why);
            ADD_FAILURE() << "the daemon " << *why << " (run " << run << ")";
            daemon.reset();
            ASSERT_NO_THROW(daemon = start());
            finished_at_run_start = finished;
            continue;
        }
        if (next == ids.size() && unfinished_live + unfinished_correspondence == 0) break;
        if (std::chrono::steady_clock::now() > deadline) {
            timed_out = true;
            break;
        }
        // The restart: the daemon is stopped with games in progress, and a new one starts.
        const int restart_at = (restarts + 1) * p.games / (p.restarts + 1);
        // Not while a challenge is on its way: a daemon that is stopping declines `later` a
        // challenge that arrives with the signal (Bot::run), which this test counts as a failure.
        const bool challenge_in_flight =
            std::any_of(sent.begin(), sent.end(), [&](const auto& id) { return !games.count(id); });
        if (restarts < p.restarts && finished >= restart_at && !challenge_in_flight) {
            std::vector<std::string> running;
            for (const auto& id : sent)
                if (games.count(id) && !games[id].over && bot_moves(games[id]) >= 3)
                    running.push_back(id);
            if (!running.empty()) {
                stop_daemon();
                std::this_thread::sleep_for(std::chrono::milliseconds(300 + 100 * restarts));
                ASSERT_NO_THROW(daemon = start());
                finished_at_run_start = finished;
                in_progress_at_restart.insert(in_progress_at_restart.end(), running.begin(),
                                              running.end());
                ++restarts;
                continue;
            }
        }
        if (next < ids.size()) {
            const bool correspondence = plan[next].kind == Kind::Correspondence;
            const bool room = correspondence ? unfinished_correspondence < 2
                                             : unfinished_live < 2 && daemon->has_free_slot();
            if (room) {
                send_challenges(fx, challenge_yaml(ids[next], plan[next], p));
                sent.insert(ids[next]);
                ++next;
            }
        }
        std::this_thread::sleep_for(50ms);
    }
    const double duration_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    // Slots: the daemon's view (in-process) and the emulator's.
    EXPECT_TRUE(fx.wait_until([&] { return daemon->idle(); }, 15s)) << "slots or sessions left";
    stop_daemon();

    // Per game: a legal end, no forfeit, no illegal move (a 400 after the end is a race).
    std::map<std::string, emu::Ms> ended;
    const auto report = fx->report();  // a named copy: a range-for over report()["games"] dangles
    for (const auto& g : report["games"])
        ended[g["id"].get<std::string>()] = g["ended_ms"].get<emu::Ms>();
    std::map<std::string, std::vector<emu::RequestRecord>> refused_moves;  // 400s, by game
    for (const auto& r : fx->requests())
        if (r.family == "move" && r.status == 400)
            for (const auto& id : ids)
                if (r.path.find(id) != std::string::npos) refused_moves[id].push_back(r);
    std::map<std::string, int> statuses, by_kind;
    int wins = 0, draws = 0, losses = 0, forfeits = 0, illegal = 0, end_races = 0, plies = 0,
        bot_move_count = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const std::string& id = ids[i];
        const auto g = game(fx, id);
        ++by_kind[plan[i].kind == Kind::Correspondence ? "correspondence"
                  : plan[i].kind == Kind::Blitz        ? "blitz"
                                                       : "bullet"];
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
        for (const auto& r : refused_moves[id]) {
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
    EXPECT_TRUE(crashes.empty());
    EXPECT_FALSE(in_progress_at_restart.empty());
    // The child's logs: no game lost on time, no critical line (a failed loop or session).
    int lost_lines = 0, critical_lines = 0;
    if (p.child) {
        for (int r = 1; r <= run; ++r) {
            const std::string log =
                read_file((dir / ("outpost-run" + std::to_string(r) + ".log")).string());
            lost_lines += occurrences(log, "LOST ON TIME");
            critical_lines += occurrences(log, " critical ");
        }
        EXPECT_EQ(lost_lines, 0);
        EXPECT_EQ(critical_lines, 0);
        EXPECT_EQ(pipes_closed, run) << "each run's output pipe was closed mid-run";
    }

    std::map<std::string, int> fired;
    for (const auto& f : fx->faults_fired()) ++fired[f.kind + "/" + f.family];
    std::ostringstream summary;
    summary << "soak: " << ids.size() << " games (";
    for (const auto& [k, n] : by_kind) summary << n << " " << k << " ";
    summary << "; " << p.bullet_s << "+0 bullet, " << p.blitz_s << "+0 blitz, 1-day "
            << "correspondence), seed " << p.seed << ", " << duration_s << " s, daemon "
            << (p.child ? "a child process (" + ChildDaemon::exe() + ")" : "in-process") << "\n"
            << "soak: bot +" << wins << " =" << draws << " -" << losses << "; ends:";
    for (const auto& [s, n] : statuses) summary << " " << s << " " << n;
    summary << "\nsoak: plies " << plies << ", bot moves " << bot_move_count
            << "\nsoak: faults fired:";
    int total_faults = 0;
    for (const auto& [k, n] : fired) {
        summary << " " << k << " " << n;
        total_faults += n;
    }
    summary << " (total " << total_faults << ")\nsoak: time forfeits " << forfeits << " (metrics "
            << forfeits_metric << ", log lines " << lost_lines << "), illegal moves " << illegal
            << ", 400s after the game ended " << end_races << ", crashes " << crashes.size()
            << ", critical log lines " << critical_lines << ", restarts " << restarts
            << " (failed starts retried: " << failed_starts << ") with games in progress:";
    for (const auto& id : in_progress_at_restart) summary << " " << id;
    summary << "\n";
    if (p.child) {
        // Memory: per run, the first sample once 10 games were played in it, the peak and the
        // last; overall peak (VmHWM) and final RSS.
        std::lock_guard lock(samples_mutex);
        std::ofstream csv(dir / "memory.csv");
        csv << "t_s,run,finished,rss_kb,hwm_kb,threads\n";
        for (const auto& m : samples)
            csv << m.t_s << "," << m.run << "," << m.finished << "," << m.rss_kb << "," << m.hwm_kb
                << "," << m.threads << "\n";
        long peak = 0, final_rss = 0, threads_peak = 0;
        for (int r = 1; r <= run; ++r) {
            std::vector<MemorySample> of_run;
            for (const auto& m : samples)
                if (m.run == r) of_run.push_back(m);
            if (of_run.empty()) continue;
            const auto settled = std::find_if(of_run.begin(), of_run.end(), [&](const auto& m) {
                return m.finished >= of_run.front().finished + 10;
            });
            long run_peak = 0;
            for (const auto& m : of_run) {
                run_peak = std::max(run_peak, m.hwm_kb);
                threads_peak = std::max(threads_peak, m.threads);
            }
            peak = std::max(peak, run_peak);
            final_rss = of_run.back().rss_kb;
            summary << "soak: memory run " << r << ": games " << of_run.front().finished << ".."
                    << of_run.back().finished << ", RSS after 10 games "
                    << (settled == of_run.end() ? -1 : settled->rss_kb) << " kB, last "
                    << of_run.back().rss_kb << " kB, peak (VmHWM) " << run_peak << " kB\n";
        }
        summary << "soak: memory peak (VmHWM) " << peak << " kB, final RSS " << final_rss
                << " kB, threads peak " << threads_peak << "; samples in "
                << (dir / "memory.csv").string() << "\n";
    }
    std::cout << summary.str() << std::flush;
    if (const char* path = std::getenv("OUTPOST_SOAK_REPORT")) {
        std::ofstream(path) << summary.str();
        (void)fx->write_report(std::string(path) + ".emulator.json");
    }
}

}  // namespace
}  // namespace e2e
