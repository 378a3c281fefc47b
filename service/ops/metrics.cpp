// Metrics updates, and the Prometheus text of a Metrics snapshot (rendered by prometheus-cpp).
#include "service/ops/metrics.hpp"

#include <prometheus/counter.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>
#include <prometheus/text_serializer.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "lichess_client/api.hpp"

#ifndef OUTPOST_VERSION
#define OUTPOST_VERSION "unknown"
#endif

namespace service {

// ---------------------------------------------------------------------------------------------
// DurationHistogram

DurationHistogram::DurationHistogram(std::span<const double> bounds_ms) {
    // Bad bounds are a programming error in this file's callers; keep what is usable.
    for (double bound : bounds_ms) {
        if (bound_count_ == kMaxBuckets || !std::isfinite(bound)) break;
        if (bound_count_ > 0 && bound <= bounds_ms_[bound_count_ - 1]) break;
        bounds_ms_[bound_count_++] = bound;
    }
}

void DurationHistogram::observe(std::chrono::microseconds value) {
    const std::int64_t us = std::max<std::int64_t>(value.count(), 0);
    const double ms = static_cast<double>(us) / 1000.0;
    std::size_t bucket = 0;
    while (bucket < bound_count_ && ms > bounds_ms_[bucket]) ++bucket;  // le: value <= bound
    counts_[bucket].fetch_add(1, std::memory_order_relaxed);
    sum_us_.fetch_add(us, std::memory_order_relaxed);
}

DurationHistogram::Snapshot DurationHistogram::snapshot() const {
    Snapshot out;
    out.bounds_ms.assign(bounds_ms_.begin(), bounds_ms_.begin() + bound_count_);
    out.cumulative.reserve(bound_count_ + 1);
    std::uint64_t running = 0;
    for (std::size_t i = 0; i <= bound_count_; ++i) {
        running += counts_[i].load(std::memory_order_relaxed);
        out.cumulative.push_back(running);
    }
    // Count derives from the buckets so +Inf == count even while other threads observe.
    out.count = running;
    out.sum = std::chrono::microseconds(sum_us_.load(std::memory_order_relaxed));
    return out;
}

// ---------------------------------------------------------------------------------------------
// LabeledCounter

namespace {

constexpr std::size_t kMaxKeyBytes = 64;

// Printable ASCII only, bounded length: label values stay valid UTF-8 and one line each.
std::string sanitize_key(std::string_view key) {
    std::string out(key.substr(0, kMaxKeyBytes));
    for (char& c : out) {
        if (c < 0x20 || c > 0x7e) c = '_';
    }
    if (out.empty()) out = "unknown";
    return out;
}

}  // namespace

void LabeledCounter::increment(std::string_view key, std::uint64_t by) {
    std::string clean = sanitize_key(key);
    std::lock_guard lock(mutex_);
    auto it = counts_.find(clean);
    if (it == counts_.end()) {
        if (counts_.size() >= kMaxKeys - 1 && clean != kOverflowKey) clean = kOverflowKey;
        it = counts_.try_emplace(std::move(clean), 0).first;
    }
    it->second += by;
}

std::uint64_t LabeledCounter::get(std::string_view key) const {
    std::string clean = sanitize_key(key);
    std::lock_guard lock(mutex_);
    auto it = counts_.find(clean);
    return it == counts_.end() ? 0 : it->second;
}

std::map<std::string, std::uint64_t, std::less<>> LabeledCounter::snapshot() const {
    std::lock_guard lock(mutex_);
    return counts_;
}

// ---------------------------------------------------------------------------------------------
// Metrics

void Metrics::record_event_stream_activity(Clock::time_point when) {
    auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(when.time_since_epoch()).count();
    last_event_stream_activity_ns.store(std::max<std::int64_t>(ns, 1), std::memory_order_relaxed);
}

std::optional<Metrics::Clock::time_point> Metrics::last_event_stream_activity() const {
    const std::int64_t ns = last_event_stream_activity_ns.load(std::memory_order_relaxed);
    if (ns == 0) return std::nullopt;
    return Clock::time_point(
        std::chrono::duration_cast<Clock::duration>(std::chrono::nanoseconds(ns)));
}

std::optional<std::string> Metrics::event_stream_problem(Clock::time_point now) const {
    if (!event_stream_connected.load(std::memory_order_relaxed))
        return "event stream not connected";
    const auto last = last_event_stream_activity();
    if (!last) return "event stream connected but silent";
    const auto age = std::chrono::duration_cast<std::chrono::seconds>(now - *last);
    if (age > kEventStreamLiveFor)
        return "no byte on the event stream for " + std::to_string(age.count()) + " s";
    return std::nullopt;
}

std::optional<std::uint64_t> resident_memory_bytes() {
    // statm: size resident shared text lib data dt, in pages (proc(5)).
    std::ifstream statm("/proc/self/statm");
    std::uint64_t size_pages = 0, resident_pages = 0;
    if (!(statm >> size_pages >> resident_pages)) return std::nullopt;
    const long page = ::sysconf(_SC_PAGESIZE);
    if (page <= 0) return std::nullopt;
    return resident_pages * static_cast<std::uint64_t>(page);
}

// ---------------------------------------------------------------------------------------------
// Prometheus text format: each scrape copies the atomics into a fresh prometheus-cpp registry and
// serializes it with the library's TextSerializer (names, HELP/TYPE lines, label escaping,
// buckets).

namespace {

double to_seconds(Metrics::Clock::duration d) {
    return std::chrono::duration<double>(std::max(d, Metrics::Clock::duration::zero())).count();
}

class RegistryFiller {
  public:
    explicit RegistryFiller(prometheus::Registry& registry) : registry_(registry) {}

    void counter(const std::string& name, const std::string& help, std::uint64_t value) {
        prometheus::BuildCounter().Name(name).Help(help).Register(registry_).Add({}).Increment(
            static_cast<double>(value));
    }
    prometheus::Family<prometheus::Counter>& counter_family(const std::string& name,
                                                            const std::string& help) {
        return prometheus::BuildCounter().Name(name).Help(help).Register(registry_);
    }
    prometheus::Family<prometheus::Gauge>& gauge_family(const std::string& name,
                                                        const std::string& help) {
        return prometheus::BuildGauge().Name(name).Help(help).Register(registry_);
    }
    void gauge(const std::string& name, const std::string& help, double value) {
        gauge_family(name, help).Add({}).Set(value);
    }
    void histogram(const std::string& name, const std::string& help, const DurationHistogram& h) {
        add_histogram(prometheus::BuildHistogram().Name(name).Help(help).Register(registry_), {},
                      h);
    }
    prometheus::Family<prometheus::Histogram>& histogram_family(const std::string& name,
                                                                const std::string& help) {
        return prometheus::BuildHistogram().Name(name).Help(help).Register(registry_);
    }
    static void add_histogram(prometheus::Family<prometheus::Histogram>& family,
                              const prometheus::Labels& labels, const DurationHistogram& h) {
        const DurationHistogram::Snapshot snap = h.snapshot();
        prometheus::Histogram::BucketBoundaries bounds;
        bounds.reserve(snap.bounds_ms.size());
        for (double ms : snap.bounds_ms) bounds.push_back(ms / 1000.0);
        // ObserveMultiple wants per-bucket (not cumulative) counts, +Inf last.
        std::vector<double> increments;
        increments.reserve(snap.cumulative.size());
        std::uint64_t previous = 0;
        for (std::uint64_t cumulative : snap.cumulative) {
            increments.push_back(static_cast<double>(cumulative - previous));
            previous = cumulative;
        }
        family.Add(labels, bounds)
            .ObserveMultiple(increments, static_cast<double>(snap.sum.count()) / 1e6);
    }

  private:
    prometheus::Registry& registry_;
};

// The online sources (online_moves.*): lookups by result, pauses and latency, per source.
void add_online_sources(RegistryFiller& r, const Metrics& m) {
    constexpr auto relaxed = std::memory_order_relaxed;
    auto& online = r.counter_family("outpost_online_requests_total",
                                    "Online source lookups (online_moves.*) by source and result: "
                                    "hit (a playable move), miss, error (each failed attempt), "
                                    "skipped (paused or no time left).");
    auto& online_paused =
        r.gauge_family("outpost_online_source_paused",
                       "1 while an online source is paused after failing again and again.");
    auto& online_pauses =
        r.counter_family("outpost_online_source_pauses_total",
                         "Times an online source was paused after failing again and again.");
    auto& online_latency = r.histogram_family("outpost_online_request_duration_seconds",
                                              "Time an online source took to answer or fail.");
    for (std::size_t i = 0; i < kOnlineSourceCount; ++i) {
        const OnlineSourceMetrics& o = m.online[i];
        const std::string source = kOnlineSourceNames[i];
        online.Add({{"source", source}, {"result", "hit"}})
            .Increment(static_cast<double>(o.hits.load(relaxed)));
        online.Add({{"source", source}, {"result", "miss"}})
            .Increment(static_cast<double>(o.misses.load(relaxed)));
        online.Add({{"source", source}, {"result", "error"}})
            .Increment(static_cast<double>(o.errors.load(relaxed)));
        online.Add({{"source", source}, {"result", "skipped"}})
            .Increment(static_cast<double>(o.skipped.load(relaxed)));
        online_paused.Add({{"source", source}}).Set(o.paused.load(relaxed) ? 1 : 0);
        online_pauses.Add({{"source", source}})
            .Increment(static_cast<double>(o.pauses.load(relaxed)));
        RegistryFiller::add_histogram(online_latency, {{"source", source}}, o.latency);
    }
}

}  // namespace

std::string render_prometheus(const Metrics& m, Metrics::Clock::time_point now) {
    constexpr auto relaxed = std::memory_order_relaxed;
    prometheus::Registry registry;
    RegistryFiller r(registry);

    r.gauge_family("outpost_build_info",
                   "Version of the running outpost binary (value is always 1).")
        .Add({{"version", OUTPOST_VERSION}})
        .Set(1);
    r.gauge("outpost_start_time_seconds",
            "When the daemon started, in seconds since the Unix epoch.",
            static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                    m.start_wall_time.time_since_epoch())
                                    .count()) /
                1000.0);
    r.gauge("outpost_uptime_seconds", "Seconds since the daemon started.",
            to_seconds(now - m.start_time));

    r.counter("outpost_games_started_total", "Games the bot started playing.",
              m.games_started.load(relaxed));
    auto& finished = r.counter_family("outpost_games_finished_total",
                                      "Games that ended, by result from the bot's side.");
    for (std::size_t i = 0; i < kGameResultCount; ++i) {
        const auto result = static_cast<GameResult>(i);
        finished.Add({{"result", to_string(result)}})
            .Increment(static_cast<double>(m.games_finished_count(result)));
    }
    r.gauge("outpost_games_active", "Games being played right now.",
            static_cast<double>(m.games_active.load(relaxed)));
    r.counter("outpost_moves_played_total", "Moves the bot posted.", m.moves_played.load(relaxed));
    r.counter("outpost_syzygy_moves_total",
              "Moves chosen among those the local Syzygy tablebases keep (never asked online).",
              m.syzygy_moves.load(relaxed));
    r.counter("outpost_pgn_write_errors_total",
              "Failed attempts to write a game's PGN file (each retry counts).",
              m.pgn_write_errors.load(relaxed));

    r.counter("outpost_challenges_accepted_total", "Challenges the bot accepted.",
              m.challenges_accepted.load(relaxed));
    r.gauge("outpost_challenges_queued", "Acceptable challenges waiting for a free slot.",
            static_cast<double>(m.challenges_queued.load(relaxed)));
    auto& declined = r.counter_family("outpost_challenges_declined_total",
                                      "Challenges the bot declined, by reason.");
    // Every reason Lichess knows has its series from the start, at 0, so a dashboard's panel
    // shows a flat line rather than "no data" until the first decline (Prometheus's advice for
    // labelled metrics whose label values are known).
    auto declines = m.challenges_declined.snapshot();
    for (const lichess::DeclineReason reason : lichess::kAllDeclineReasons)
        declines.try_emplace(lichess::to_string(reason), 0);
    for (const auto& [reason, count] : declines) {
        declined.Add({{"reason", reason}}).Increment(static_cast<double>(count));
    }

    r.counter("outpost_stream_reconnects_total", "Times an event or game stream was reopened.",
              m.stream_reconnects.load(relaxed));
    r.counter("outpost_rate_limited_total", "HTTP 429 (Too Many Requests) responses from Lichess.",
              m.rate_limited_429.load(relaxed));
    r.counter("outpost_http_errors_total",
              "Failed Lichess API requests other than 429s (5xx, other 4xx, network errors; "
              "each attempt, retries included).",
              m.http_errors.load(relaxed));
    r.counter("outpost_time_forfeits_total", "Games the bot lost on time.",
              m.time_forfeits.load(relaxed));
    r.counter("outpost_bot_game_limit_total",
              "Times Lichess refused a bot game because the daily bot-vs-bot limit was reached.",
              m.bot_game_limit_hits.load(relaxed));
    {
        const auto until = Metrics::Clock::time_point(
            Metrics::Clock::duration(m.bot_games_paused_until_ns.load(relaxed)));
        r.gauge("outpost_bot_games_paused_seconds",
                "Seconds until challenges from bots are accepted again (0: not paused).",
                to_seconds(until - now));
    }
    r.counter("outpost_games_aborted_over_limit_total",
              "Games Lichess started beyond challenge.concurrency that the bot aborted.",
              m.games_aborted_over_limit.load(relaxed));
    r.counter("outpost_tournament_games_total",
              "Arena games started (joined by the bot or elsewhere with its token).",
              m.tournament_games.load(relaxed));
    r.gauge("outpost_tournaments_joined", "Arenas of `tournaments:` the bot is in now.",
            static_cast<double>(m.tournaments_joined.load(relaxed)));

    r.histogram("outpost_move_reaction_latency_seconds",
                "From receiving a gameState to posting the move, minus engine think time.",
                m.move_reaction_latency);
    r.histogram("outpost_move_think_time_seconds", "Engine search time per move.",
                m.move_think_time);
    r.histogram("outpost_move_clock_left_seconds",
                "Time left on the bot's clock when its move was posted (real-time games).",
                m.move_clock_left);

    add_online_sources(r, m);

    r.gauge("outpost_event_stream_connected",
            "1 while the incoming event stream is open and delivered a byte in the last 20 s.",
            m.event_stream_problem(now) ? 0 : 1);
    // Absent (no sample, so no family in the output) before the first line.
    auto& age = r.gauge_family("outpost_event_stream_last_activity_age_seconds",
                               "Seconds since the last line on the event stream (absent before "
                               "the first).");
    if (auto last = m.last_event_stream_activity()) age.Add({}).Set(to_seconds(now - *last));

    auto& memory = r.gauge_family("outpost_process_resident_memory_bytes",
                                  "Resident set size of the daemon's process (absent where "
                                  "/proc/self/statm cannot be read).");
    if (auto bytes = resident_memory_bytes()) memory.Add({}).Set(static_cast<double>(*bytes));

    return prometheus::TextSerializer().Serialize(registry.Collect());
}

}  // namespace service
