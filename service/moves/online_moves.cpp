// OnlineMoves: which source is asked when, what its answer means in our position, and what a
// failing source costs (nothing: it is paused, logged once, and counted in /metrics).
#include "service/moves/online_moves.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/bitboard.hpp"
#include "engine/variant.hpp"

namespace service {

namespace {

std::size_t index(lichess::OnlineSource s) { return static_cast<std::size_t>(s); }

// What each source serves of a game's variant. Standard chess (standard, chess960, fromPosition)
// everywhere. The explorer's Lichess and player databases (lila-openingexplorer
// src/api/variant.rs) and cloud eval (lila app/controllers/Api.scala cloudEval) take every
// Lichess key as `variant`; the masters database and chessdb are standard chess only; the
// tablebase has atomic and antichess tables besides standard chess's (the spec's
// tags/tablebase/*.yaml, lila-tablebase's /atomic and /antichess).
struct VariantSupport {
    bool standard_rules = true;   // standard, chess960, fromPosition
    const char* table = nullptr;  // the online tablebase's, or none
    int max_table_pieces = 7;
};

std::optional<VariantSupport> support_of(const std::string& key) {
    const std::optional<engine::Variant> v = engine::from_lichess_key(key);
    if (!v) return std::nullopt;
    switch (*v) {
        case engine::Variant::STANDARD:
            return VariantSupport{true, "standard", 7};
        // Lichess's atomic and antichess tables are Syzygy tables of up to 6 pieces.
        case engine::Variant::ATOMIC:
            return VariantSupport{false, "atomic", 6};
        case engine::Variant::ANTICHESS:
            return VariantSupport{false, "antichess", 6};
        default:
            return VariantSupport{false, nullptr, 0};
    }
}

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
    http.base_url = config.url;  // the token may go to the Bot API's own host
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
            m.pauses++;
            m.paused_until_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                                    s.paused_until.time_since_epoch())
                                    .count();
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
    const std::optional<VariantSupport> variant = support_of(ask.variant);
    if (!variant) return std::nullopt;
    // Tablebases first: exact, and never counted as leaving the book.
    const auto [pieces, castling] = position.visit([](const auto& b) {
        return std::pair{engine::popcount(b.pieces()), b.castling != 0};
    });
    const auto& egtb = config_.online_egtb;
    const bool has_table =
        egtb.source == "chessdb" ? variant->standard_rules : variant->table != nullptr;
    if (has_table && pieces <= std::min(egtb.max_pieces, variant->max_table_pieces) && !castling &&
        may_ask(egtb.source == "chessdb" ? lichess::OnlineSource::Chessdb
                                         : lichess::OnlineSource::Tablebase,
                egtb.ask, ask, deadline)) {
        auto c = ask_tablebase(position, deadline, variant->table);
        count(egtb.source == "chessdb" ? lichess::OnlineSource::Chessdb
                                       : lichess::OnlineSource::Tablebase,
              c.has_value());
        if (c) return c;
    }
    // chess960 and fromPosition games ask only the tablebase; the seven variants ask the
    // sources that have them.
    const bool standard = ask.variant == "standard";
    if (game.misses_in_a_row >= config_.max_out_of_book_moves || ask.fullmove > config_.max_depth ||
        (variant->standard_rules && !standard))
        return std::nullopt;
    bool asked = false;
    const auto found = [&](std::optional<OnlineChoice> c) {
        game.misses_in_a_row = 0;
        return c;
    };
    // lichess-bot's order: the chessdb book, cloud analysis, then the opening explorer.
    if (standard &&
        may_ask(lichess::OnlineSource::Chessdb, config_.chessdb_book.ask, ask, deadline)) {
        asked = true;
        auto c = ask_chessdb(position, deadline);
        count(lichess::OnlineSource::Chessdb, c.has_value());
        if (c) return found(std::move(c));
    }
    if (may_ask(lichess::OnlineSource::CloudEval, config_.lichess_cloud_analysis.ask, ask,
                deadline)) {
        asked = true;
        auto c = ask_cloud(position, ask.variant, deadline);
        count(lichess::OnlineSource::CloudEval, c.has_value());
        if (c) return found(std::move(c));
    }
    if ((standard || config_.lichess_opening_explorer.source != "masters") &&
        may_ask(lichess::OnlineSource::Explorer, config_.lichess_opening_explorer.ask, ask,
                deadline)) {
        asked = true;
        auto c = ask_explorer(position, ask.variant, deadline);
        count(lichess::OnlineSource::Explorer, c.has_value());
        if (c) return found(std::move(c));
    }
    if (asked) ++game.misses_in_a_row;
    return std::nullopt;
}

std::optional<OnlineChoice> OnlineMoves::ask_tablebase(const engine::Position& position,
                                                       Clock::time_point deadline,
                                                       const char* table) {
    const std::string fen = position.fen();
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
        [&](std::chrono::milliseconds left) { return client_->tablebase(fen, left, table); });
    if (!reply) return std::nullopt;
    return choose_tablebase_move(*reply, config_.online_egtb, position);
}

std::optional<OnlineChoice> OnlineMoves::ask_chessdb(const engine::Position& position,
                                                     Clock::time_point deadline) {
    const std::string fen = position.fen();
    auto reply = request<lichess::ChessdbReply>(
        lichess::OnlineSource::Chessdb, deadline,
        [&](std::chrono::milliseconds left) { return client_->chessdb(fen, left); });
    if (!reply) return std::nullopt;
    std::lock_guard lock(mutex_);
    return choose_chessdb_move(*reply, config_.chessdb_book.move_quality, position, rng_);
}

std::optional<OnlineChoice> OnlineMoves::ask_cloud(const engine::Position& position,
                                                   const std::string& variant,
                                                   Clock::time_point deadline) {
    // Crazyhouse pockets in brackets and three-check's "+W+B" suffix: the FEN lila reads.
    const std::string fen = position.fen();
    const int lines = config_.lichess_cloud_analysis.move_quality == "good" ? 5 : 1;
    auto reply = request<lichess::CloudEvalReply>(
        lichess::OnlineSource::CloudEval, deadline, [&](std::chrono::milliseconds left) {
            return client_->cloud_eval(fen, lines, left, variant);
        });
    if (!reply) return std::nullopt;
    std::lock_guard lock(mutex_);
    return choose_cloud_move(*reply, config_.lichess_cloud_analysis, position, rng_);
}

std::optional<OnlineChoice> OnlineMoves::ask_explorer(const engine::Position& position,
                                                      const std::string& variant,
                                                      Clock::time_point deadline) {
    const std::string fen = position.fen();
    const auto& cfg = config_.lichess_opening_explorer;
    lichess::ExplorerQuery query;
    query.source = cfg.source;
    query.variant = variant;
    query.player = cfg.player_name;
    query.color = position.side_to_move() == engine::WHITE ? "white" : "black";
    auto reply = request<lichess::ExplorerReply>(
        lichess::OnlineSource::Explorer, deadline,
        [&](std::chrono::milliseconds left) { return client_->explorer(fen, query, left); });
    if (!reply) return std::nullopt;
    return choose_explorer_move(*reply, cfg, position);
}

}  // namespace service
