// Counters and gauges the daemon updates from many threads, and their Prometheus text rendering.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "service/game/game_record.hpp"

namespace service {

// A fixed-bucket histogram of durations. observe() is lock-free; a snapshot is internally
// consistent in that the +Inf bucket always equals the count (Prometheus requires it).
class DurationHistogram {
  public:
    // Upper bounds in milliseconds, ascending; +Inf is implicit. At most kMaxBuckets of them.
    static constexpr std::size_t kMaxBuckets = 16;
    explicit DurationHistogram(std::span<const double> bounds_ms);

    void observe(std::chrono::microseconds value);  // negative values count as 0

    struct Snapshot {
        std::vector<double> bounds_ms;          // as given, without +Inf
        std::vector<std::uint64_t> cumulative;  // one per bound, then +Inf (== count)
        std::uint64_t count = 0;
        std::chrono::microseconds sum{0};
    };
    [[nodiscard]] Snapshot snapshot() const;

  private:
    std::array<double, kMaxBuckets> bounds_ms_{};
    std::size_t bound_count_ = 0;
    std::array<std::atomic<std::uint64_t>, kMaxBuckets + 1> counts_{};  // not cumulative
    std::atomic<std::int64_t> sum_us_{0};
};

// Bucket bounds for reaction latency (the target is p99 < 5 ms) and for engine think time.
inline constexpr std::array<double, 10> kReactionBucketsMs{1,  2,   5,   10,  20,
                                                           50, 100, 200, 500, 1000};
inline constexpr std::array<double, 12> kThinkBucketsMs{10,   50,   100,   250,   500,   1000,
                                                        2500, 5000, 10000, 30000, 60000, 300000};
// Bucket bounds for the time left on our clock when a move of ours is posted: bullet's last
// seconds up to a classical game's hour.
inline constexpr std::array<double, 13> kClockLeftBucketsMs{
    500, 1000, 2000, 5000, 10000, 20000, 30000, 60000, 120000, 300000, 600000, 1800000, 3600000};

// The online sources (online_moves.*), in lichess::OnlineSource's order, as /metrics labels them.
inline constexpr std::size_t kOnlineSourceCount = 4;
inline constexpr std::array<const char*, kOnlineSourceCount> kOnlineSourceNames{
    "explorer", "cloud", "tablebase", "chessdb"};
inline constexpr std::array<double, 9> kOnlineBucketsMs{10,  25,   50,   100, 250,
                                                        500, 1000, 2000, 5000};

// One online source's lookups: answered with a playable move (hit), answered without one (miss),
// failed requests (error, each attempt), not asked because paused or out of time (skipped).
struct OnlineSourceMetrics {
    std::atomic<std::uint64_t> hits{0};
    std::atomic<std::uint64_t> misses{0};
    std::atomic<std::uint64_t> errors{0};
    std::atomic<std::uint64_t> skipped{0};
    std::atomic<bool> paused{false};  // after failing again and again (OnlineMoves)
    std::atomic<std::uint64_t> pauses{0};
    // While paused: until when (Clock nanoseconds since its epoch).
    std::atomic<std::int64_t> paused_until_ns{0};
    DurationHistogram latency{kOnlineBucketsMs};
};

// Counts keyed by a short label value (e.g. a challenge decline reason). Distinct keys are
// capped so a misbehaving caller cannot grow the map (and the /metrics page) without bound.
class LabeledCounter {
  public:
    static constexpr std::size_t kMaxKeys = 64;
    static constexpr std::string_view kOverflowKey = "other";

    void increment(std::string_view key, std::uint64_t by = 1);
    [[nodiscard]] std::uint64_t get(std::string_view key) const;
    [[nodiscard]] std::map<std::string, std::uint64_t, std::less<>> snapshot() const;

  private:
    mutable std::mutex mutex_;
    std::map<std::string, std::uint64_t, std::less<>> counts_;
};

// Everything /metrics shows and /healthz may look at. Fields are updated directly with atomic
// operations (relaxed is enough: nothing else is published through them). It holds no secrets:
// keep the token and anything derived from it out of here.
// lila writes a keep-alive newline every 6 s on the event stream even when nothing happens, so
// 20 s without a byte means the stream is dead (the client's silence watchdog closes a stream
// after 12 s without one and opens a new one).
inline constexpr std::chrono::seconds kEventStreamLiveFor{20};

struct Metrics {
    using Clock = std::chrono::steady_clock;

    std::atomic<std::uint64_t> games_started{0};
    std::array<std::atomic<std::uint64_t>, kGameResultCount> games_finished{};  // by GameResult
    std::atomic<std::int64_t> games_active{0};                                  // gauge
    std::atomic<std::uint64_t> moves_played{0};
    // Moves chosen among those the local Syzygy tables keep (source "syzygy").
    std::atomic<std::uint64_t> syzygy_moves{0};
    // Failed attempts to write a game's PGN file (each retry counts; see write_pgn).
    std::atomic<std::uint64_t> pgn_write_errors{0};
    std::atomic<std::uint64_t> challenges_accepted{0};
    LabeledCounter challenges_declined;              // by decline reason ("tooFast", "noBot", ...)
    std::atomic<std::int64_t> challenges_queued{0};  // gauge: waiting for a slot (ChallengeQueue)
    std::atomic<std::uint64_t> stream_reconnects{0};
    std::atomic<std::uint64_t> rate_limited_429{0};
    std::atomic<std::uint64_t> http_errors{0};
    std::atomic<std::uint64_t> time_forfeits{0};
    // lila's daily bot-vs-bot limit (BotLimit, `bot.vsBot.day`): refusals seen, and until when
    // (Clock nanoseconds since epoch, 0: not paused) bot challenges are declined.
    std::atomic<std::uint64_t> bot_game_limit_hits{0};
    std::atomic<std::int64_t> bot_games_paused_until_ns{0};
    // Games Lichess started beyond challenge.concurrency that the bot aborted.
    std::atomic<std::uint64_t> games_aborted_over_limit{0};
    // Arena games started (gameStart with a tournamentId, ours or joined elsewhere), and the
    // arenas of `tournaments:` the bot is in now (gauge).
    std::atomic<std::uint64_t> tournament_games{0};
    std::atomic<std::int64_t> tournaments_joined{0};

    // From receiving a gameState to posting the move, minus the engine's think time.
    DurationHistogram move_reaction_latency{kReactionBucketsMs};
    DurationHistogram move_think_time{kThinkBucketsMs};
    // Our clock when a move of ours was posted (real-time games).
    DurationHistogram move_clock_left{kClockLeftBucketsMs};
    std::array<OnlineSourceMetrics, kOnlineSourceCount> online{};

    const Clock::time_point start_time = Clock::now();
    const std::chrono::system_clock::time_point start_wall_time = std::chrono::system_clock::now();

    std::atomic<bool> event_stream_connected{false};
    // Clock::time_point::time_since_epoch() in nanoseconds; 0 means no activity yet.
    std::atomic<std::int64_t> last_event_stream_activity_ns{0};

    void record_game_finished(GameResult result) {
        games_finished[static_cast<std::size_t>(result)].fetch_add(1, std::memory_order_relaxed);
    }
    [[nodiscard]] std::uint64_t games_finished_count(GameResult result) const {
        return games_finished[static_cast<std::size_t>(result)].load(std::memory_order_relaxed);
    }
    // Any byte (event or keep-alive newline) on the event stream counts as activity.
    void record_event_stream_activity(Clock::time_point when = Clock::now());
    [[nodiscard]] std::optional<Clock::time_point> last_event_stream_activity() const;
    // Why the event stream is not live at `now` (not connected, or no byte for longer than
    // kEventStreamLiveFor), or none when it is: what /healthz and the
    // outpost_event_stream_connected gauge both report.
    [[nodiscard]] std::optional<std::string> event_stream_problem(
        Clock::time_point now = Clock::now()) const;
};

// The process's resident set size (/proc/self/statm), or none where it cannot be read.
[[nodiscard]] std::optional<std::uint64_t> resident_memory_bytes();

// Prometheus text exposition format 0.0.4: HELP/TYPE lines, names prefixed `outpost_`, counters
// ending in `_total`, durations in seconds (bucket bounds are the millisecond bounds / 1000).
[[nodiscard]] std::string render_prometheus(const Metrics& metrics,
                                            Metrics::Clock::time_point now = Metrics::Clock::now());

// The Content-Type of render_prometheus's output.
inline constexpr std::string_view kPrometheusContentType =
    "text/plain; version=0.0.4; charset=utf-8";

}  // namespace service
