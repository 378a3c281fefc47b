// Bot: the event loop, routing each event and each answer to the rule owner that decides it, and
// each of their requests to the RequestRunner or, when it is no call to Lichess, to its place.
#include "service/daemon/bot.hpp"

#include <spdlog/spdlog.h>

#include <type_traits>
#include <utility>

#include "common/text.hpp"
#include "service/game/game_rights.hpp"
#include "service/ops/logging.hpp"

namespace service {

Bot::Bot(const config::Config& config, lichess::Api& api, BotIdentity me, Metrics& metrics,
         BotOptions options)
    : config_(config),
      api_(api),
      me_(std::move(me)),
      metrics_(metrics),
      options_(options),
      slots_(config.challenge.concurrency, std::chrono::seconds(config.challenge.accept_timeout_s)),
      books_(open_books(config.engine.book)),
      engines_(config.challenge.concurrency,
               engine_options(config.engine, load_tablebase(config.engine.tablebases),
                              load_syzygy(config.engine.tablebases)),
               config.challenge.concurrency + config.correspondence.max_concurrent_searches),
      chat_(api, config.token),
      online_moves_(OnlineMoves::from_config(config, me_.name, metrics)),
      online_block_list_(
          config.challenge.online_block_list,
          [](const std::string& url, std::stop_token stop) { return fetch_block_list(url, stop); }),
      desk_(DeskSettings::from(config.correspondence, config.draw_or_resign,
                               config.max_takebacks_accepted),
            DeskHooks{.start_session = parked_sessions(session_context())}) {
    slots_.reserve_for_humans(config.challenge.games_reserved_for_humans);
    const config::OnlineMovesConfig& online = config.online_moves;
    status_.set_account(me_.name, config.url);
    status_.set_online_enabled({online.lichess_opening_explorer.ask.enabled,
                                online.lichess_cloud_analysis.ask.enabled,
                                online.online_egtb.ask.enabled, online.chessdb_book.ask.enabled});
}

Bot::~Bot() { sessions_.stop_all(); }

int Bot::play(std::stop_token stop, std::stop_token abort_now, std::optional<EventFeed>& events) {
    start(events);
    // Phase 1: play until asked to stop.
    while (!stop.stop_requested() && !abort_now.stop_requested()) {
        auto item = queue_.pop_for(options_.tick);
        if (item) {
            if (auto* failed = std::get_if<StreamFailed>(&*item)) {
                if (failed->broken) return fail(failed->error);
                spdlog::critical("event stream refused: {} (is the token valid, with bot:play?)",
                                 failed->error);
                token_refused_ = true;
                return 1;
            }
            // A challenge that arrived with the signal is declined `later`, not accepted.
            if (stop.stop_requested() || abort_now.stop_requested()) challenges_.stop_accepting();
            reap_sessions();  // a game that just ended frees its slot for this event
            if (auto* event = std::get_if<lichess::Event>(&*item))
                handle(*event);
            else if (auto* answered = std::get_if<LichessAnswer>(&*item))
                answer(*answered);
        }
        const auto now = std::chrono::steady_clock::now();
        // The queue first, then the arenas, then matchmaking.
        carry_out(challenges_.tick(now));
        carry_out(arenas_.tick(now, std::chrono::system_clock::now()));
        if (matchmaking_)
            carry_out(matchmaker_.tick(api_.paused_for(lichess::Family::ChallengeCreate)));
        reap_sessions();
        // The correspondence desk's round; its check-in goes to the runner like any request.
        if (auto check_in = desk_.tick()) requests_.run(*check_in);
        publish();
        events->sync_metrics();
    }
    events->sync_metrics();  // what the last round of the loop did not see yet
    return 0;
}

void Bot::handle(const lichess::Event& event) {
    const auto now = std::chrono::steady_clock::now();
    std::visit(
        [&](const auto& e) {
            using T = std::decay_t<decltype(e)>;
            if constexpr (std::is_same_v<T, lichess::Challenge>) {
                ChallengeArrival arrival{
                    .online_blocked = online_block_list_.contains(e.challenge.challenger.id) ||
                                      online_block_list_.contains(e.challenge.challenger.name),
                    .other_games = desk_.games_per_user()};
                carry_out(challenges_.on_challenge(e.challenge, std::move(arrival), now));
            } else if constexpr (std::is_same_v<T, lichess::ChallengeCanceled>) {
                carry_out(challenges_.on_challenge_gone(e.challenge.id, true));
                if (matchmaking_) matchmaker_.on_canceled(e.challenge.id);
            } else if constexpr (std::is_same_v<T, lichess::ChallengeDeclined>) {
                carry_out(challenges_.on_challenge_gone(e.challenge.id, false));
                if (matchmaking_) matchmaker_.on_declined(e.challenge);
            } else if constexpr (std::is_same_v<T, lichess::GameStart>) {
                on_game_start(e.game);
            } else if constexpr (std::is_same_v<T, lichess::ChallengeUnreadable>) {
                carry_out(challenges_.on_unreadable(e.id, e.problem, now));
            } else if constexpr (std::is_same_v<T, lichess::GameFinish>) {
                spdlog::debug("gameFinish {}", common::printable(e.game.game_id));
                carry_out(arenas_.on_game_finish(e.game));
                desk_.on_game_finish(e.game.game_id);
            }
        },
        event);
    publish();
}

void Bot::answer(LichessAnswer& answer) {
    const auto now = std::chrono::steady_clock::now();
    std::visit(
        [&](auto& a) {
            using T = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<T, GamesToResume>) {
                // Each as a gameStart: the loop alone starts sessions, and one the event
                // stream's replay started already is found running.
                for (auto& g : a.games) {
                    spdlog::info("resuming game {}", common::printable(g.game_id));
                    handle(lichess::Event{lichess::GameStart{std::move(g)}});
                }
            } else if constexpr (std::is_same_v<T, match::CancelAnswered>) {
                matchmaker_.on(a);
            } else if constexpr (std::is_same_v<T, match::AccountRead> ||
                                 std::is_same_v<T, match::BotsListed> ||
                                 std::is_same_v<T, match::ChallengeCreated>) {
                carry_out(matchmaker_.on(a));
            } else if constexpr (std::is_same_v<T, correspondence::CheckedIn>) {
                desk_.on(a);
            } else if constexpr (std::is_same_v<T, arena::ArenaRead>) {
                carry_out(arenas_.on(a, now, std::chrono::system_clock::now()));
            } else if constexpr (std::is_same_v<T, arena::JoinAnswered>) {
                carry_out(arenas_.on(a, now));
            } else if constexpr (std::is_same_v<T, challenge::AbortAnswered>) {
                carry_out(challenges_.on(a));
            } else {
                carry_out(challenges_.on(a, now));
            }
        },
        answer);
    publish();
}

void Bot::on_game_start(const lichess::GameEventInfo& game) {
    if (matchmaking_) matchmaker_.on_game_start(game.game_id);
    const bool running = sessions_.running(game.game_id);
    if (!running) {
        if (game.tournament_id) metrics_.tournament_games++;
        // An arena's game takes the slot its arena held (the desk below finds it running).
        (void)arenas_.on_game_start(game);
    }
    carry_out(challenges_.on_game_start(game, running));
}

void Bot::carry_out(std::vector<challenge::Request> requests) {
    for (auto& request : requests) execute(request);
}

void Bot::execute(challenge::Request& request) {
    std::visit(
        [&](auto& r) {
            using T = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<T, challenge::ResignGame>) {
                // No session plays it: an arena of ours takes its slot back at once.
                carry_out(arenas_.on_session_finished(r.game_id, std::chrono::steady_clock::now()));
                requests_.run(std::move(r));
            } else if constexpr (std::is_constructible_v<LichessRequest, T>) {
                requests_.run(std::move(r));
            } else if constexpr (std::is_same_v<T, challenge::StartGame>) {
                if (is_correspondence(r.game))
                    desk_.on_game_start(r.game);  // parked or in line; takes no slot
                else
                    on_game_start(r.game);
            } else if constexpr (std::is_same_v<T, challenge::StartSession>) {
                const GameRights rights =
                    rights_of(r.game.source, r.game.tournament_id.has_value(), r.rules);
                sessions_.start(r.game_id, [&] {
                    return std::make_unique<GameSession>(session_context(), r.game_id, std::nullopt,
                                                         rights);
                });
                metrics_.games_started++;
            } else if constexpr (std::is_same_v<T, challenge::PauseBotGames>) {
                if (matchmaking_) matchmaker_.pause_bot_games(r.wait);
                metrics_.bot_game_limit_hits++;
                metrics_.bot_games_paused_until_ns = r.until.time_since_epoch().count();
            } else if constexpr (std::is_same_v<T, challenge::Log>) {
                write_log(r);
            }
        },
        request);
}

void Bot::carry_out(std::vector<arena::Request> requests) {
    for (auto& request : requests) {
        std::visit(
            [&](auto& r) {
                if constexpr (std::is_same_v<std::decay_t<decltype(r)>, arena::Log>)
                    write_log(r);
                else
                    requests_.run(std::move(r));
            },
            request);
    }
}

void Bot::carry_out(std::vector<match::Request> requests) {
    for (auto& request : requests)
        std::visit([&](auto& r) { requests_.run(std::move(r)); }, request);
}

void Bot::publish() {
    const auto now = std::chrono::steady_clock::now();
    challenges_.matchmaking_paused_for(matchmaking_ ? matchmaker_.paused_for() : std::nullopt, now);
    metrics_.challenges_queued = static_cast<std::int64_t>(challenges_.queued());
    slots_view_.publish_queue(challenges_.queued_names());
    std::vector<ArenaStatus> joined;
    for (const JoinedArena& a : arenas_.joined()) joined.push_back({a.id, a.name, a.ends_at});
    metrics_.tournaments_joined = static_cast<std::int64_t>(joined.size());
    status_.publish_arenas(std::move(joined));
    SlotSnapshot slots = slots_view_.snapshot();
    status_.publish_slots({.limit = slots.limit,
                           .active = slots.active,
                           .reserved = slots.reserved,
                           .queued = std::move(slots.queued),
                           .correspondence_games = desk_.counts().games});
}

void Bot::reap_sessions() {
    const auto now = std::chrono::steady_clock::now();
    for (const std::string& game_id : sessions_.reap()) {
        challenges_.on_session_finished(game_id);
        carry_out(arenas_.on_session_finished(game_id, now));
    }
    metrics_.games_active = sessions_.active();
}

}  // namespace service
