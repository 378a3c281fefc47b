// Metrics updates and the Prometheus text rendering of a Metrics snapshot.
#include "service/metrics.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#ifndef OUTPOST_VERSION
#define OUTPOST_VERSION "unknown"
#endif

namespace service {

const char* to_string(GameResult result) {
    switch (result) {
        case GameResult::Win:
            return "win";
        case GameResult::Loss:
            return "loss";
        case GameResult::Draw:
            return "draw";
        case GameResult::Aborted:
            return "aborted";
    }
    return "unknown";
}

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

// ---------------------------------------------------------------------------------------------
// Prometheus text format

namespace {

// Shortest round-trip decimal, never exponent notation ("0.001", "1.5", "42").
std::string format_double(double value) {
    if (std::isnan(value)) return "NaN";
    if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
    char buf[400];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
    if (ec != std::errc()) return "NaN";
    return std::string(buf, end);
}

std::string escape_label_value(std::string_view value) {
    std::string out;
    out.reserve(value.size());
    for (char c : value) {
        if (c == '\\') {
            out += "\\\\";
        } else if (c == '"') {
            out += "\\\"";
        } else if (c == '\n') {
            out += "\\n";
        } else {
            out += c;
        }
    }
    return out;
}

double seconds(std::chrono::microseconds us) { return static_cast<double>(us.count()) / 1e6; }

class Writer {
  public:
    void family(std::string_view name, std::string_view type, std::string_view help) {
        out_ += "# HELP outpost_";
        out_ += name;
        out_ += ' ';
        out_ += help;
        out_ += "\n# TYPE outpost_";
        out_ += name;
        out_ += ' ';
        out_ += type;
        out_ += '\n';
    }
    // `labels` is the text inside the braces, already escaped; empty for none.
    void sample(std::string_view name, std::string_view labels, std::string_view value) {
        out_ += "outpost_";
        out_ += name;
        if (!labels.empty()) {
            out_ += '{';
            out_ += labels;
            out_ += '}';
        }
        out_ += ' ';
        out_ += value;
        out_ += '\n';
    }
    void sample(std::string_view name, std::string_view labels, std::uint64_t value) {
        sample(name, labels, std::to_string(value));
    }
    void counter(std::string_view name, std::string_view help, std::uint64_t value) {
        family(name, "counter", help);
        sample(name, "", value);
    }
    void histogram(std::string_view name, std::string_view help, const DurationHistogram& h) {
        const DurationHistogram::Snapshot snap = h.snapshot();
        family(name, "histogram", help);
        const std::string bucket = std::string(name) + "_bucket";
        for (std::size_t i = 0; i < snap.bounds_ms.size(); ++i) {
            sample(bucket, "le=\"" + format_double(snap.bounds_ms[i] / 1000.0) + "\"",
                   snap.cumulative[i]);
        }
        sample(bucket, "le=\"+Inf\"", snap.count);
        sample(std::string(name) + "_sum", "", format_double(seconds(snap.sum)));
        sample(std::string(name) + "_count", "", snap.count);
    }
    std::string take() { return std::move(out_); }

  private:
    std::string out_;
};

}  // namespace

std::string render_prometheus(const Metrics& m, Metrics::Clock::time_point now) {
    constexpr auto relaxed = std::memory_order_relaxed;
    Writer w;

    w.family("build_info", "gauge", "Version of the running outpost binary (value is always 1).");
    w.sample("build_info", "version=\"" + escape_label_value(OUTPOST_VERSION) + "\"", 1);

    w.family("start_time_seconds", "gauge",
             "When the daemon started, in seconds since the Unix epoch.");
    w.sample(
        "start_time_seconds", "",
        format_double(static_cast<double>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                              m.start_wall_time.time_since_epoch())
                                              .count()) /
                      1000.0));
    w.family("uptime_seconds", "gauge", "Seconds since the daemon started.");
    w.sample("uptime_seconds", "",
             format_double(seconds(std::chrono::duration_cast<std::chrono::microseconds>(
                 std::max(now - m.start_time, Metrics::Clock::duration::zero())))));

    w.counter("games_started_total", "Games the bot started playing.",
              m.games_started.load(relaxed));
    w.family("games_finished_total", "counter", "Games that ended, by result from the bot's side.");
    for (std::size_t i = 0; i < kGameResultCount; ++i) {
        const auto result = static_cast<GameResult>(i);
        w.sample("games_finished_total", std::string("result=\"") + to_string(result) + "\"",
                 m.games_finished_count(result));
    }
    w.family("games_active", "gauge", "Games being played right now.");
    w.sample("games_active", "", std::to_string(m.games_active.load(relaxed)));
    w.counter("moves_played_total", "Moves the bot posted.", m.moves_played.load(relaxed));
    w.counter("pgn_write_errors_total",
              "Failed attempts to write a game's PGN file (each retry counts).",
              m.pgn_write_errors.load(relaxed));

    w.counter("challenges_accepted_total", "Challenges the bot accepted.",
              m.challenges_accepted.load(relaxed));
    w.family("challenges_declined_total", "counter", "Challenges the bot declined, by reason.");
    for (const auto& [reason, count] : m.challenges_declined.snapshot()) {
        w.sample("challenges_declined_total", "reason=\"" + escape_label_value(reason) + "\"",
                 count);
    }

    w.counter("stream_reconnects_total", "Times an event or game stream was reopened.",
              m.stream_reconnects.load(relaxed));
    w.counter("rate_limited_total", "HTTP 429 (Too Many Requests) responses from Lichess.",
              m.rate_limited_429.load(relaxed));
    w.counter("http_errors_total",
              "Failed Lichess API requests other than 429s (5xx, other 4xx, network errors; "
              "each attempt, retries included).",
              m.http_errors.load(relaxed));
    w.counter("time_forfeits_total", "Games the bot lost on time.", m.time_forfeits.load(relaxed));
    w.counter("bot_game_limit_total",
              "Times Lichess refused a bot game because the daily bot-vs-bot limit was reached.",
              m.bot_game_limit_hits.load(relaxed));
    {
        const auto until = Metrics::Clock::time_point(
            Metrics::Clock::duration(m.bot_games_paused_until_ns.load(relaxed)));
        const auto left = until > now ? until - now : Metrics::Clock::duration::zero();
        w.family("bot_games_paused_seconds", "gauge",
                 "Seconds until challenges from bots are accepted again (0: not paused).");
        w.sample(
            "bot_games_paused_seconds", "",
            format_double(seconds(std::chrono::duration_cast<std::chrono::microseconds>(left))));
    }
    w.counter("games_aborted_over_limit_total",
              "Games Lichess started beyond challenge.concurrency that the bot aborted.",
              m.games_aborted_over_limit.load(relaxed));

    w.histogram("move_reaction_latency_seconds",
                "From receiving a gameState to posting the move, minus engine think time.",
                m.move_reaction_latency);
    w.histogram("move_think_time_seconds", "Engine search time per move.", m.move_think_time);

    w.family("event_stream_connected", "gauge", "1 while the incoming event stream is open.");
    w.sample("event_stream_connected", "", m.event_stream_connected.load(relaxed) ? 1 : 0);
    w.family("event_stream_last_activity_age_seconds", "gauge",
             "Seconds since the last line on the event stream (absent before the first).");
    if (auto last = m.last_event_stream_activity()) {
        auto age = std::max(now - *last, Metrics::Clock::duration::zero());
        w.sample(
            "event_stream_last_activity_age_seconds", "",
            format_double(seconds(std::chrono::duration_cast<std::chrono::microseconds>(age))));
    }
    return w.take();
}

}  // namespace service
