// OnlineMoves: which source is asked when, what its answer means in our position, and what a
// failing source costs (nothing: it is paused, logged once, and counted in /metrics).
#include "service/moves/online_moves.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>

#include "engine/bitboard.hpp"
#include "engine/fen.hpp"
#include "engine/san.hpp"

namespace service {

namespace {

std::size_t index(lichess::OnlineSource s) { return static_cast<std::size_t>(s); }

}  // namespace

OnlineMoves::OnlineMoves(config::OnlineMovesConfig config,
                         std::unique_ptr<lichess::OnlineSources> client, Metrics& metrics,
                         std::uint64_t seed)
    : config_(std::move(config)), client_(std::move(client)), metrics_(metrics), rng_(seed) {}

std::unique_ptr<OnlineMoves> OnlineMoves::from_config(const config::Config& config,
                                                      const std::string& username,
                                                      Metrics& metrics) {
    const config::OnlineMovesConfig& om = config.online_moves;
    if (!om.lichess_opening_explorer.ask.enabled && !om.lichess_cloud_analysis.ask.enabled &&
        !om.online_egtb.ask.enabled && !om.chessdb_book.ask.enabled)
        return nullptr;
    lichess::HttpConfig http;
    http.username = username;
    http.connect_timeout = std::chrono::milliseconds(2000);
    http.request_timeout = std::chrono::milliseconds(5000);
    lichess::OnlineUrls urls{.explorer = om.lichess_opening_explorer.ask.url,
                             .cloud_eval = om.lichess_cloud_analysis.ask.url,
                             .tablebase = om.online_egtb.ask.url,
                             .chessdb = om.chessdb_book.ask.url};
    spdlog::info("online moves from:{}{}{}{}",
                 om.lichess_opening_explorer.ask.enabled ? " explorer" : "",
                 om.lichess_cloud_analysis.ask.enabled ? " cloud" : "",
                 om.online_egtb.ask.enabled ? " tablebase" : "",
                 om.chessdb_book.ask.enabled ? " chessdb" : "");
    return std::make_unique<OnlineMoves>(
        om, std::make_unique<lichess::OnlineSources>(http, urls, config.token), metrics);
}

bool OnlineMoves::any_enabled() const {
    return config_.lichess_opening_explorer.ask.enabled ||
           config_.lichess_cloud_analysis.ask.enabled || config_.online_egtb.ask.enabled ||
           config_.chessdb_book.ask.enabled;
}

void OnlineMoves::shutdown() { client_->shutdown(); }

bool OnlineMoves::may_ask(lichess::OnlineSource source,
                          const config::OnlineSourceConfig& ask_config, const OnlineAsk& ask,
                          Clock::time_point deadline) {
    if (!ask_config.enabled) return false;
    OnlineSourceMetrics& m = metrics_.online[index(source)];
    // Correspondence and unlimited games have no clock to protect: they count as max_time.
    const std::int64_t seconds = ask.real_time ? ask.our_ms / 1000 : ask_config.max_time;
    if (seconds < ask_config.min_time || seconds > ask_config.max_time) return false;
    const auto now = Clock::now();
    bool paused = false;
    {
        std::lock_guard lock(mutex_);
        paused = now < sources_[index(source)].paused_until;
    }
    if (paused || client_->paused_for(source) || deadline - now < std::chrono::milliseconds(20)) {
        m.skipped++;
        return false;
    }
    return true;
}

template <class Reply, class Request>
std::optional<Reply> OnlineMoves::request(lichess::OnlineSource source, Clock::time_point deadline,
                                          const Request& send) {
    OnlineSourceMetrics& m = metrics_.online[index(source)];
    for (int attempt = 0; attempt <= config_.max_retries; ++attempt) {
        const auto started = Clock::now();
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - started);
        if (left < std::chrono::milliseconds(20)) break;
        lichess::Result<Reply> r = send(left);
        m.latency.observe(
            std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started));
        if (r) {
            std::lock_guard lock(mutex_);
            SourceState& s = sources_[index(source)];
            if (s.failures >= kFailuresBeforePause)
                spdlog::info("online source {} answers again", lichess::to_string(source));
            s.failures = 0;
            s.next_pause = kFirstPause;
            m.paused = false;
            return std::move(*r);
        }
        const lichess::ApiError& e = r.error();
        // Cloud eval's 404 is "no evaluation of this position": an answer, not a failure.
        if (e.kind == lichess::ApiError::Kind::Http && e.status == 404) return std::nullopt;
        m.errors++;
        // A 429 pauses the source in the client (Retry-After); a cancel is the shutdown; a 4xx
        // will not pass by asking again.
        if (e.kind == lichess::ApiError::Kind::RateLimited ||
            e.kind == lichess::ApiError::Kind::Cancelled ||
            (e.kind == lichess::ApiError::Kind::Http && e.status >= 400 && e.status < 500))
            return std::nullopt;
        std::lock_guard lock(mutex_);
        SourceState& s = sources_[index(source)];
        if (++s.failures == kFailuresBeforePause) {
            s.paused_until = Clock::now() + s.next_pause;
            spdlog::warn("online source {} paused for {} s after {} failures in a row: {}",
                         lichess::to_string(source), s.next_pause.count(), s.failures,
                         e.describe());
            s.next_pause = std::min(s.next_pause * 2, std::chrono::seconds(kLongestPause));
            s.failures = 0;
            m.paused = true;
            return std::nullopt;
        }
    }
    return std::nullopt;
}

std::optional<OnlineChoice> OnlineMoves::find(const engine::Position& position,
                                              const OnlineAsk& ask, OnlineGameState& game) {
    if (ask.deadline.count() <= 0 || !any_enabled()) return std::nullopt;
    const auto deadline = Clock::now() + ask.deadline;
    const auto count = [&](lichess::OnlineSource s, bool hit) {
        (hit ? metrics_.online[index(s)].hits : metrics_.online[index(s)].misses)++;
    };
    // Tablebases first: exact, and never counted as leaving the book.
    const int pieces = engine::popcount(position.board().pieces());
    const auto& egtb = config_.online_egtb;
    if (pieces <= egtb.max_pieces && position.board().castling == 0 &&
        may_ask(egtb.source == "chessdb" ? lichess::OnlineSource::Chessdb
                                         : lichess::OnlineSource::Tablebase,
                egtb.ask, ask, deadline)) {
        auto c = ask_tablebase(position, deadline);
        count(egtb.source == "chessdb" ? lichess::OnlineSource::Chessdb
                                       : lichess::OnlineSource::Tablebase,
              c.has_value());
        if (c) return c;
    }
    if (game.misses_in_a_row >= config_.max_out_of_book_moves || ask.fullmove > config_.max_depth ||
        ask.variant != "standard")
        return std::nullopt;
    bool asked = false;
    const auto found = [&](std::optional<OnlineChoice> c) {
        game.misses_in_a_row = 0;
        return c;
    };
    // lichess-bot's order: the chessdb book, cloud analysis, then the opening explorer.
    if (may_ask(lichess::OnlineSource::Chessdb, config_.chessdb_book.ask, ask, deadline)) {
        asked = true;
        auto c = ask_chessdb(position, deadline);
        count(lichess::OnlineSource::Chessdb, c.has_value());
        if (c) return found(std::move(c));
    }
    if (may_ask(lichess::OnlineSource::CloudEval, config_.lichess_cloud_analysis.ask, ask,
                deadline)) {
        asked = true;
        auto c = ask_cloud(position, deadline);
        count(lichess::OnlineSource::CloudEval, c.has_value());
        if (c) return found(std::move(c));
    }
    if (may_ask(lichess::OnlineSource::Explorer, config_.lichess_opening_explorer.ask, ask,
                deadline)) {
        asked = true;
        auto c = ask_explorer(position, deadline);
        count(lichess::OnlineSource::Explorer, c.has_value());
        if (c) return found(std::move(c));
    }
    if (asked) ++game.misses_in_a_row;
    return std::nullopt;
}

std::optional<OnlineChoice> OnlineMoves::ask_tablebase(const engine::Position& position,
                                                       Clock::time_point deadline) {
    const std::string fen = engine::to_fen(position.board());
    if (config_.online_egtb.source == "chessdb") {
        auto reply = request<lichess::ChessdbReply>(
            lichess::OnlineSource::Chessdb, deadline,
            [&](std::chrono::milliseconds left) { return client_->chessdb(fen, left); });
        if (!reply) return std::nullopt;
        std::lock_guard lock(mutex_);
        auto c = choose_chessdb_move(*reply, "best", position, rng_);
        if (c) c->source = MoveSource::Tablebase;
        return c;
    }
    auto reply = request<lichess::TablebaseReply>(
        lichess::OnlineSource::Tablebase, deadline,
        [&](std::chrono::milliseconds left) { return client_->tablebase(fen, left); });
    if (!reply) return std::nullopt;
    return choose_tablebase_move(*reply, config_.online_egtb, position);
}

std::optional<OnlineChoice> OnlineMoves::ask_chessdb(const engine::Position& position,
                                                     Clock::time_point deadline) {
    const std::string fen = engine::to_fen(position.board());
    auto reply = request<lichess::ChessdbReply>(
        lichess::OnlineSource::Chessdb, deadline,
        [&](std::chrono::milliseconds left) { return client_->chessdb(fen, left); });
    if (!reply) return std::nullopt;
    std::lock_guard lock(mutex_);
    return choose_chessdb_move(*reply, config_.chessdb_book.move_quality, position, rng_);
}

std::optional<OnlineChoice> OnlineMoves::ask_cloud(const engine::Position& position,
                                                   Clock::time_point deadline) {
    const std::string fen = engine::to_fen(position.board());
    const int lines = config_.lichess_cloud_analysis.move_quality == "good" ? 5 : 1;
    auto reply = request<lichess::CloudEvalReply>(
        lichess::OnlineSource::CloudEval, deadline,
        [&](std::chrono::milliseconds left) { return client_->cloud_eval(fen, lines, left); });
    if (!reply) return std::nullopt;
    std::lock_guard lock(mutex_);
    return choose_cloud_move(*reply, config_.lichess_cloud_analysis, position, rng_);
}

std::optional<OnlineChoice> OnlineMoves::ask_explorer(const engine::Position& position,
                                                      Clock::time_point deadline) {
    const std::string fen = engine::to_fen(position.board());
    const auto& cfg = config_.lichess_opening_explorer;
    lichess::ExplorerQuery query;
    query.source = cfg.source;
    query.player = cfg.player_name;
    query.color = position.side_to_move() == engine::WHITE ? "white" : "black";
    auto reply = request<lichess::ExplorerReply>(
        lichess::OnlineSource::Explorer, deadline,
        [&](std::chrono::milliseconds left) { return client_->explorer(fen, query, left); });
    if (!reply) return std::nullopt;
    return choose_explorer_move(*reply, cfg, position);
}

}  // namespace service
