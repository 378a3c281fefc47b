// Bot: event loop, challenge handling, session lifecycle, graceful shutdown.
#include "service/daemon/bot.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <condition_variable>
#include <stdexcept>
#include <thread>
#include <utility>

#include "common/text.hpp"
#include "engine/nnue.hpp"
#include "service/challenges/challenge_policy.hpp"

namespace service {

using Clock = std::chrono::steady_clock;

namespace {

OpeningBooks load_books(const config::BookConfig& config) {
    auto books = OpeningBooks::load(config);
    if (!books) throw std::runtime_error("engine.book: " + books.error().message);
    for (const auto& [variant, book] : books->by_variant())
        for (const auto& source : book.sources())
            spdlog::info("opening book for {}: {} ({} entries)", variant, source.file,
                         source.book->size());
    return std::move(*books);
}

// The Gaviota tables of engine.tablebases, shared by every engine; null when none are named.
// Tables that cannot be loaded throw, naming the folder or file, so the daemon does not start.
std::shared_ptr<const engine::Tablebase> load_tablebase(const config::TablebaseConfig& config) {
    if (config.gaviota_paths.empty()) return nullptr;
    auto tb = engine::Tablebase::load(config.gaviota_paths);
    if (!tb) throw std::runtime_error("engine.tablebases.gaviota_paths: " + tb.error());
    spdlog::info("Gaviota tablebases: {}; probed up to {} pieces", (*tb)->describe(),
                 std::min(config.max_pieces, (*tb)->max_pieces()));
    return std::move(*tb);
}

// What every engine of the pool is made with. engine.evaluation "nnue" needs the embedded net;
// one that does not parse (caught by the tests, never expected) stops the start-up rather than
// let the engines fall back to the HCE unannounced.
engine::EngineOptions engine_options(const config::Config& config,
                                     std::shared_ptr<const engine::Tablebase> tablebase) {
    const bool nnue = config.engine.evaluation == "nnue";
    if (nnue && !engine::nnue::embedded_network())
        throw std::runtime_error(
            "engine.evaluation: nnue, but this build's embedded net cannot be read");
    spdlog::info("evaluation: {}", nnue ? "NNUE (the embedded net)" : "hand-crafted (HCE)");
    return engine::EngineOptions{.hash_mb = config.engine.hash_mb,
                                 .threads = config.engine.threads,
                                 .nnue = nnue,
                                 .tablebase = std::move(tablebase),
                                 .tablebase_max_pieces = config.engine.tablebases.max_pieces};
}

// The online sources (online_moves.*), or none when no source is enabled. Each source has its
// own connections: a slow one never holds up the Bot API.
std::unique_ptr<OnlineMoves> make_online_moves(const config::Config& config,
                                               const std::string& username, Metrics& metrics) {
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

}  // namespace

Bot::Bot(const config::Config& config, lichess::Api& api, BotIdentity me, Metrics& metrics,
         BotOptions options)
    : config_(config),
      api_(api),
      me_(std::move(me)),
      metrics_(metrics),
      options_(options),
      slots_(config.challenge.concurrency, std::chrono::seconds(config.challenge.accept_timeout_s)),
      books_(load_books(config.engine.book)),
      tablebase_(load_tablebase(config.engine.tablebases)),
      engines_(config.challenge.concurrency, engine_options(config, tablebase_),
               config.challenge.concurrency + config.correspondence.max_concurrent_searches),
      chat_(api),
      online_moves_(make_online_moves(config, me_.name, metrics)),
      online_block_list_(config.challenge.online_block_list, fetch_block_list),
      desk_(DeskSettings::from(config.correspondence, config.draw_or_resign,
                               config.max_takebacks_accepted),
            DeskHooks{.list_playing = [this] { return api_.playing(); },
                      .start_session = parked_sessions(session_context())}) {
    slots_.reserve_for_humans(config.challenge.games_reserved_for_humans);
}

Bot::~Bot() {
    std::lock_guard lock(sessions_mutex_);
    sessions_.clear();
}

int Bot::active_games() const {
    std::lock_guard lock(sessions_mutex_);
    int n = 0;
    for (const auto& [id, s] : sessions_) n += s->finished() ? 0 : 1;
    return n;
}

int Bot::run(std::stop_token stop, std::stop_token abort_now) {
    resume_ongoing_games();
    start_block_list_refresher();

    lichess::EventStream events(
        api_, [this](const lichess::Event& e) { queue_.push(e); }, options_.stream_options);
    // Every byte counts, keep-alives included: an idle bot's stream is alive (lila writes a
    // newline every 6 s), a stream that delivers nothing is not.
    events.set_liveness(
        [this] {
            stream_connected_ = true;
            metrics_.event_stream_connected = true;
            metrics_.record_event_stream_activity();
        },
        [this] {
            stream_connected_ = false;
            metrics_.event_stream_connected = false;
        });
    std::stop_source stream_stop;
    std::jthread stream_thread([&] {
        auto fatal = events.run(stream_stop.get_token());
        stream_connected_ = false;
        if (fatal) queue_.push(StreamFailed{*fatal});
    });

    // The client keeps its own counts; /metrics shows them. Game sessions add their streams'
    // reconnects to stream_reconnects themselves, so the event stream's are added as they grow.
    std::uint64_t event_reconnects_counted = 0;
    const auto sync_client_metrics = [&] {
        const std::uint64_t event_reconnects = events.stats().reconnects.load();
        metrics_.stream_reconnects += event_reconnects - event_reconnects_counted;
        event_reconnects_counted = event_reconnects;
        metrics_.rate_limited_429 = api_.rate_limiter().rate_limit_count();
        metrics_.http_errors = api_.error_count();
    };

    int exit_code = 0;
    // Phase 1: play until asked to stop.
    while (!stop.stop_requested() && !abort_now.stop_requested()) {
        auto item = queue_.pop_for(options_.tick);
        if (item) {
            if (auto* failed = std::get_if<StreamFailed>(&*item)) {
                spdlog::critical("event stream refused: {} (is the token valid, with bot:play?)",
                                 failed->error.describe());
                exit_code = 1;
                break;
            }
            // A challenge that arrived with the signal is declined `later`, not accepted.
            if (stop.stop_requested() || abort_now.stop_requested()) accepting_ = false;
            reap_sessions();  // a game that just ended frees its slot for this event
            handle(std::get<lichess::Event>(*item));
        }
        slots_.expire_now();
        accept_queued();  // before matchmaking, as lichess-bot: waiting challengers go first
        matchmaker_.tick();
        find_games_of_accepted_challenges();
        reap_sessions();
        desk_.tick();
        sync_client_metrics();
    }
    sync_client_metrics();  // what the last round of the loop did not see yet

    // Phase 2: stop accepting; running games may finish within the grace period.
    accepting_ = false;
    block_list_thread_ = {};  // stops and joins the refresher
    for (const auto& c : challenge_queue_.drain())
        decline(c, common::printable(c.challenger.name), lichess::DeclineReason::Later,
                "shutting down; it waited in the queue");
    publish_queue();
    matchmaker_.stop();  // cancels a challenge nobody has answered yet
    stream_stop.request_stop();
    desk_.stop();  // a correspondence game can wait for the next start
    finish_games(exit_code == 0, abort_now);
    if (online_moves_) online_moves_->shutdown();
    api_.shutdown();
    spdlog::info("stopped");
    return exit_code;
}

void Bot::start_block_list_refresher() {
    if (online_block_list_.empty_config()) return;
    refresh_block_lists();  // before the first challenge, as lichess-bot does
    block_list_thread_ = std::jthread([this](std::stop_token st) {
        std::mutex m;
        std::condition_variable_any cv;
        std::unique_lock lock(m);
        for (;;) {
            (void)cv.wait_for(lock, st, options_.block_list_refresh, [] { return false; });
            if (st.stop_requested()) return;
            refresh_block_lists();
        }
    });
}

void Bot::finish_games(bool wait, std::stop_token abort_now) {
    const auto deadline = Clock::now() + std::chrono::seconds(config_.shutdown_grace_s);
    if (active_games() > 0 && wait)
        spdlog::info(
            "shutting down: waiting up to {} s for {} game(s) to finish (signal again "
            "to stop now)",
            config_.shutdown_grace_s, active_games());
    while (wait && active_games() > 0 && Clock::now() < deadline && !abort_now.stop_requested()) {
        std::this_thread::sleep_for(options_.tick);
        reap_sessions();
    }
    std::map<std::string, std::unique_ptr<GameSession>> left;
    {
        std::lock_guard lock(sessions_mutex_);
        for (auto& [id, s] : sessions_) s->stop();
        left.swap(sessions_);
    }
    // Destroyed outside the lock: joining their threads can take a moment.
}

void Bot::resume_ongoing_games() {
    auto playing = api_.playing();
    if (!playing) {
        spdlog::warn("could not list ongoing games: {}", playing.error().describe());
        return;
    }
    for (const auto& g : playing->now_playing) {
        spdlog::info("resuming game {}", g.game_id);
        on_game_start(g);
    }
}

void Bot::find_games_of_accepted_challenges() {
    if (awaiting_start_.empty()) return;
    // A gameStart normally follows an accept within milliseconds; Lichess's first-move timer
    // (about 30 s for a bot) is what is at stake, so look after a few seconds, then every few.
    const auto wait = options_.game_start_poll;
    const auto now = Clock::now();
    bool overdue = false;
    for (auto it = awaiting_start_.begin(); it != awaiting_start_.end();) {
        if (now - it->second > options_.game_start_wait) {
            it = awaiting_start_.erase(it);  // never started: the reservation expires on its own
            continue;
        }
        overdue = overdue || now - it->second >= wait;
        ++it;
    }
    if (!overdue || now - last_playing_poll_ < wait) return;
    last_playing_poll_ = now;
    auto playing = api_.playing();
    if (!playing) {
        spdlog::warn("no gameStart for an accepted challenge, and listing ongoing games failed: {}",
                     playing.error().describe());
        return;
    }
    for (const auto& g : playing->now_playing) {
        if (!awaiting_start_.count(g.game_id)) continue;
        spdlog::warn("game {}: no gameStart on the event stream; found it among ongoing games",
                     g.game_id);
        on_game_start(g);
    }
}

void Bot::handle(const lichess::Event& event) {
    std::visit(
        [this](const auto& e) {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, lichess::Challenge>) {
                on_challenge(e.challenge);
            } else if constexpr (std::is_same_v<T, lichess::ChallengeCanceled>) {
                if (challenge_queue_.remove(e.challenge.id)) {
                    publish_queue();
                    spdlog::info("challenge {} canceled; it leaves the queue", e.challenge.id);
                }
                awaiting_start_.erase(e.challenge.id);
                slots_.release_reservation(e.challenge.id);
                matchmaker_.on_canceled(e.challenge.id);
                spdlog::info("challenge {} canceled", e.challenge.id);
            } else if constexpr (std::is_same_v<T, lichess::ChallengeDeclined>) {
                if (challenge_queue_.remove(e.challenge.id)) publish_queue();
                awaiting_start_.erase(e.challenge.id);
                slots_.release_reservation(e.challenge.id);
                matchmaker_.on_declined(e.challenge);
                spdlog::info("challenge {} declined", e.challenge.id);
            } else if constexpr (std::is_same_v<T, lichess::GameStart>) {
                on_game_start(e.game);
            } else if constexpr (std::is_same_v<T, lichess::ChallengeUnreadable>) {
                // Never ignored: unanswered, it would hang on the challenger's side.
                auto r = api_.decline_challenge(e.id, lichess::DeclineReason::Generic);
                metrics_.challenges_declined.increment("generic");
                spdlog::warn("challenge {}: declined (generic: unreadable, {}){}", e.id, e.problem,
                             r ? "" : " - " + r.error().describe());
            } else if constexpr (std::is_same_v<T, lichess::GameFinish>) {
                spdlog::debug("gameFinish {}", e.game.game_id);
                desk_.on_game_finish(e.game.game_id);
            }
        },
        event);
}

void Bot::on_challenge(const lichess::ChallengeInfo& c) {
    // Lichess sends pending challenges again when the event stream reconnects: one that waits
    // already keeps its place (judging it again would count it against its own challenger).
    if (challenge_queue_.contains(c.id)) return;
    SlotSnapshot view = slots_.snapshot();
    for (const auto& [user, n] : desk_.games_per_user()) view.per_user[user] += n;
    for (const auto& [user, n] : challenge_queue_.per_user()) view.per_user[user] += n;
    const Decision d = judge_challenge(c, config_.challenge, me_.id, view, facts_for(c));
    if (d.verdict == Verdict::Ignore) return;
    // Only for log lines: a name with control characters cannot forge one.
    const std::string who =
        common::printable(c.challenger.name) + (c.challenger.is_bot() ? " (BOT)" : "");
    if (!accepting_) {
        (void)api_.decline_challenge(c.id, lichess::DeclineReason::Later);
        return;
    }
    if (d.verdict == Verdict::Decline) {
        decline(c, who, d.reason, d.explanation);
        return;
    }
    // lila would refuse a bot game today (BotLimit): say so now rather than leave it pending.
    if (const auto left = bot_games_paused_for(); left && c.challenger.is_bot()) {
        decline(c, who, lichess::DeclineReason::Later,
                fmt::format("our bot games for today are played; {:.0f} s left",
                            std::chrono::duration<double>(*left).count()));
        return;
    }
    // As lichess-bot: a bot's challenge counts as recent once it is taken (queued or accepted).
    if (c.challenger.is_bot()) recent_bots_.record(c.challenger.id);
    if (d.verdict == Verdict::Queue || !accept_now(c, who))
        enqueue(c, who, d.verdict == Verdict::Queue ? d.explanation : "no free slot");
}

bool Bot::accept_now(const lichess::ChallengeInfo& c, const std::string& who) {
    // Correspondence games take no slot (see is_correspondence).
    if (!is_correspondence(c) &&
        !slots_.try_reserve(c.id, c.challenger.id, std::nullopt, c.challenger.is_bot()))
        return false;
    auto r = api_.accept_challenge(c.id);
    if (!r) {
        slots_.release_reservation(c.id);
        on_accept_failed(c, who, r.error());
        return true;
    }
    metrics_.challenges_accepted++;
    awaiting_start_[c.id] = Clock::now();
    spdlog::info("challenge {} from {} ({} {} {}): accepted", c.id, who, c.variant.key, c.speed,
                 c.rated ? "rated" : "casual");
    return true;
}

void Bot::enqueue(const lichess::ChallengeInfo& c, const std::string& who, std::string_view why) {
    if (!challenge_queue_.push(c)) {
        decline(c, who, lichess::DeclineReason::Later,
                fmt::format("{}, and the queue is full (challenge.max_queued {})", why,
                            config_.challenge.max_queued));
        return;
    }
    publish_queue();
    spdlog::info("challenge {} from {}: queued, {} waiting ({})", c.id, who,
                 challenge_queue_.size(), why);
}

void Bot::accept_queued() {
    if (challenge_queue_.empty() || !accepting_) return;
    const auto expired = challenge_queue_.expire(Clock::now() - options_.queue_max_wait);
    for (const auto& c : expired)
        spdlog::info("challenge {} leaves the queue: Lichess has dropped it by now", c.id);
    bool changed = !expired.empty();
    for (;;) {
        const SlotSnapshot s = slots_.snapshot();
        if (s.free() <= 0) break;
        const bool bots_paused = bot_games_paused_for().has_value();
        auto next = challenge_queue_.pop_first([&](const lichess::ChallengeInfo& c) {
            return !c.challenger.is_bot() || bots_paused || s.free_for_bots() > 0;
        });
        if (!next) break;
        changed = true;
        const std::string who =
            common::printable(next->challenger.name) + (next->challenger.is_bot() ? " (BOT)" : "");
        if (next->challenger.is_bot() && bots_paused) {
            decline(*next, who, lichess::DeclineReason::Later,
                    "our bot games for today are played");
            continue;
        }
        spdlog::info("challenge {} from {}: a slot is free, accepting it from the queue", next->id,
                     who);
        if (!accept_now(*next, who)) {
            (void)challenge_queue_.push(*next);  // lost the slot after all: wait on
            break;
        }
    }
    if (changed) publish_queue();
}

void Bot::publish_queue() {
    metrics_.challenges_queued = static_cast<std::int64_t>(challenge_queue_.size());
    slots_view_.publish_queue(challenge_queue_.names());
}

ChallengeFacts Bot::facts_for(const lichess::ChallengeInfo& c) {
    ChallengeFacts f;
    if (c.challenger.is_bot()) f.recent_bot_challenges = recent_bots_.count(c.challenger.id);
    f.online_blocked = online_block_list_.contains(c.challenger.id) ||
                       online_block_list_.contains(c.challenger.name);
    if (config_.challenge.rating_difference > 0) {
        // Our ratings move with every game: read them again every 10 minutes at most.
        const auto now = Clock::now();
        if (!ratings_read_ || now - *ratings_read_ > std::chrono::minutes(10)) {
            if (auto account = api_.account()) {
                my_ratings_.clear();
                for (const auto& [perf, p] : account->perfs) my_ratings_[perf] = p.rating;
                ratings_read_ = now;
            } else {
                spdlog::warn("challenge.rating_difference: could not read our ratings: {}",
                             account.error().describe());
            }
        }
        if (const auto it = my_ratings_.find(perf_key(c)); it != my_ratings_.end())
            f.our_rating = it->second;
    }
    return f;
}

void Bot::refresh_block_lists() {
    for (const auto& o : online_block_list_.refresh()) {
        if (o.ok)
            spdlog::info("challenge.online_block_list: {} names from {}", o.names, o.url);
        else
            spdlog::warn(
                "challenge.online_block_list: cannot read {} ({}); keeping the {} names "
                "read before",
                o.url, o.error, o.names);
    }
}

void Bot::decline(const lichess::ChallengeInfo& c, const std::string& who,
                  lichess::DeclineReason reason, std::string_view why) {
    auto r = api_.decline_challenge(c.id, reason);
    metrics_.challenges_declined.increment(lichess::to_string(reason));
    spdlog::info("challenge {} from {}: declined ({}: {}){}", c.id, who, lichess::to_string(reason),
                 why, r ? "" : " - " + r.error().describe());
}

void Bot::on_accept_failed(const lichess::ChallengeInfo& c, const std::string& who,
                           const lichess::ApiError& error) {
    const auto limit = lichess::bot_game_limit(error);
    if (!limit) {
        spdlog::warn("challenge {} from {}: accept failed: {}", c.id, who, error.describe());
        return;
    }
    if (!limit->ours) {
        // lila answers 400 when the challenger has played its bot games for today: the
        // challenge cannot become a game, so it is let go at once (its slot is free already).
        spdlog::info("challenge {} from {}: dropped, {} played its bot games for today ({})", c.id,
                     who, c.challenger.name, error.message);
        return;
    }
    // Our own daily limit: only bot games stop; humans' challenges are still accepted.
    const auto wait = limit->wait.value_or(options_.bot_limit_default_wait);
    const auto until = Clock::now() + wait;
    const bool fresh = !bot_games_paused_for().has_value();
    bot_games_paused_until_ = std::max(bot_games_paused_until_, until);
    matchmaker_.pause_bot_games(wait);
    metrics_.bot_game_limit_hits++;
    metrics_.bot_games_paused_until_ns = bot_games_paused_until_.time_since_epoch().count();
    if (fresh)
        spdlog::warn(
            "lichess: our bot-vs-bot games for today are played ({}); declining challenges "
            "from bots for {:.0f} s, humans are still welcome",
            error.message, std::chrono::duration<double>(wait).count());
    decline(c, who, lichess::DeclineReason::Later, "our bot games for today are played");
}

std::optional<std::chrono::milliseconds> Bot::bot_games_paused_for() const {
    const auto now = Clock::now();
    std::optional<std::chrono::milliseconds> left = matchmaker_.paused_for();
    if (bot_games_paused_until_ > now) {
        const auto ours =
            std::chrono::ceil<std::chrono::milliseconds>(bot_games_paused_until_ - now);
        left = std::max(left.value_or(ours), ours);
    }
    return left;
}

void Bot::on_game_start(const lichess::GameEventInfo& game) {
    // lila's abort is fire-and-forget: a replayed gameStart may still name a game we aborted.
    if (aborted_over_limit_.count(game.game_id)) return;
    awaiting_start_.erase(game.game_id);
    matchmaker_.on_game_start(game.game_id);
    if (is_correspondence(game)) {
        desk_.on_game_start(game);  // parked or in line; takes no slot
        return;
    }
    {
        std::lock_guard lock(sessions_mutex_);
        auto it = sessions_.find(game.game_id);
        if (it != sessions_.end() && !it->second->finished()) return;  // replayed gameStart
    }
    const std::string opponent = game.opponent && game.opponent->id ? *game.opponent->id : "";
    const auto admission = slots_.on_game_start(game.game_id, opponent);
    if (admission == Admission::OverLimit) {
        // A burst, another client on the same token, or a replay: as lichess-bot does, abort
        // what can still be aborted (lila: before each side has moved). What cannot is played
        // with a small engine (EnginePool), so memory stays bounded.
        auto r = api_.abort(game.game_id);
        if (r) {
            slots_.on_game_finish(game.game_id);
            if (aborted_over_limit_.size() >= 1000) aborted_over_limit_.clear();
            aborted_over_limit_.insert(game.game_id);
            metrics_.games_aborted_over_limit++;
            spdlog::warn("game {} started beyond challenge.concurrency ({}); aborted", game.game_id,
                         slots_.limit());
            return;
        }
        spdlog::warn(
            "game {} started beyond challenge.concurrency ({}) and cannot be aborted ({}); "
            "playing it with a small engine",
            game.game_id, slots_.limit(), r.error().describe());
    }
    start_session(game.game_id);
}

lichess::StreamOptions Bot::game_stream_options() const {
    lichess::StreamOptions o = options_.stream_options;
    o.reconnect = options_.game_reconnect;
    o.stable_after = options_.game_stable_after;
    o.data_resets_backoff = true;
    return o;
}

SessionContext Bot::session_context() {
    SessionContext ctx{.api = api_,
                       .game_api = game_api_,
                       .config = config_,
                       .my_id = me_.id,
                       .my_name = me_.name,
                       .engines = engines_,
                       .books = &books_,
                       .online = online_moves_.get(),
                       .chat = chat_,
                       .metrics = metrics_,
                       .stream_options = game_stream_options(),
                       .timings = options_.game_timings,
                       .slots = &slots_view_};
    return ctx;
}

void Bot::start_session(const std::string& game_id) {
    metrics_.games_started++;
    std::unique_ptr<GameSession> replaced;  // a finished session of the same game
    {
        std::lock_guard lock(sessions_mutex_);
        auto& slot = sessions_[game_id];
        replaced = std::move(slot);
        slot = std::make_unique<GameSession>(session_context(), game_id);
    }
    // Destroyed outside the lock: joining its threads can take a moment.
}

void Bot::reap_sessions() {
    std::vector<std::unique_ptr<GameSession>> done;
    {
        std::lock_guard lock(sessions_mutex_);
        for (auto it = sessions_.begin(); it != sessions_.end();) {
            if (it->second->finished()) {
                // A session's one end signal: its slot is free from now on.
                slots_.on_game_finish(it->first);
                done.push_back(std::move(it->second));
                it = sessions_.erase(it);
            } else {
                ++it;
            }
        }
    }
    metrics_.games_active = active_games();
    // Destroyed outside the lock: joining a session's threads can take a moment.
}

}  // namespace service
