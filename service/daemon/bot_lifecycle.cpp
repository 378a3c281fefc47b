// Bot: starting and stopping. run() plays until a stop (phase 1, the loop in bot.cpp), then
// stops accepting, hands each rule owner's last requests to the runner, lets the games finish
// within their grace and gives the runner a few seconds for what is still on its way (phase 2).
#include <spdlog/spdlog.h>

#include <thread>

#include "service/challenges/declined_bots.hpp"
#include "service/daemon/bot.hpp"

namespace service {

void Bot::start_matchmaking() {
    if (!config_.matchmaking.enabled) return;
    matchmaker_.set_online_block_list(
        [this](std::string_view name) { return online_block_list_.contains(name); });
    keep_declines(config_.matchmaking.declined_bots_file, matchmaker_);
    matchmaking_ = true;
}

void Bot::start(std::optional<EventFeed>& events) {
    // The ongoing games are listed off the loop: lila may hold /api/account/playing for a while
    // (tried for up to about 22 s), and the event stream, which replays the ongoing games
    // itself, opens at once.
    requests_.run(ResumeGames{});
    block_lists_.emplace(online_block_list_, options_.block_list_refresh);
    start_matchmaking();
    events.emplace(
        api_, options_.stream_options, metrics_, stream_connected_,
        [this](const lichess::Event& e) { queue_.push(e); },
        [this](std::string error, bool broken) {
            queue_.push(StreamFailed{std::move(error), broken});
        });
}

int Bot::run(std::stop_token stop, std::stop_token abort_now) {
    int exit_code = 0;
    {
        // The event stream's thread is joined at the end of this block, the loop's exception
        // or not.
        std::optional<EventFeed> events;
        try {
            exit_code = play(stop, abort_now, events);
        } catch (const std::exception& e) {
            exit_code = fail(e.what());
        } catch (...) {
            exit_code = fail("an unknown exception");
        }
    }
    // Phase 2: stop accepting; running games may finish within the grace period (also after a
    // failure: /healthz says 503 meanwhile). Each step on its own, so one failing does not
    // keep the others from stopping what they own.
    const auto step = [&](const char* what, const auto& f) {
        try {
            f();
        } catch (const std::exception& e) {
            spdlog::critical("shutdown: {} failed: {}", what, e.what());
            exit_code = 1;
        }
    };
    step("declining the queue", [&] {
        challenges_.stop_accepting();
        block_lists_.reset();  // stops a read in flight and joins the refresher
        carry_out(challenges_.decline_queued(std::chrono::steady_clock::now()));
        carry_out(arenas_.stop());  // withdraws from the arenas we are in
        publish();
    });
    // Cancels a challenge nobody has answered yet.
    step("cancelling our challenge", [&] {
        if (matchmaking_) carry_out(matchmaker_.stop());
    });
    step("parking correspondence games", [&] { desk_.stop(); });
    // A refused token ends the games too; after a failure of the loop they may still finish.
    step("finishing the games", [&] { finish_games(!token_refused_, abort_now); });
    // The declines, withdrawals and cancels still on their way get a few seconds.
    step("sending the last requests", [&] {
        if (!requests_.wait_idle_until(std::chrono::steady_clock::now() + options_.requests_grace))
            spdlog::warn("shutting down with requests to Lichess still unanswered");
    });
    if (online_moves_) online_moves_->shutdown();
    api_.shutdown();
    spdlog::info("stopped");
    return exit_code;
}

int Bot::fail(const std::string& what) {
    {
        std::lock_guard lock(fatal_mutex_);
        fatal_ = "the event loop stopped: " + what;
    }
    spdlog::critical("the event loop stopped: {}; stopping the daemon (exit code 1)", what);
    return 1;
}

std::optional<std::string> Bot::health_problem() const {
    {
        std::lock_guard lock(fatal_mutex_);
        if (fatal_) return fatal_;
    }
    return metrics_.event_stream_problem();
}

void Bot::finish_games(bool wait, std::stop_token abort_now) {
    const auto deadline =
        std::chrono::steady_clock::now() + std::chrono::seconds(config_.shutdown_grace_s);
    if (active_games() > 0 && wait)
        spdlog::info(
            "shutting down: waiting up to {} s for {} game(s) to finish (signal again "
            "to stop now)",
            config_.shutdown_grace_s, active_games());
    while (wait && active_games() > 0 && std::chrono::steady_clock::now() < deadline &&
           !abort_now.stop_requested()) {
        std::this_thread::sleep_for(options_.tick);
        reap_sessions();
    }
    sessions_.stop_all();
}

SessionContext Bot::session_context() {
    lichess::StreamOptions stream = options_.stream_options;
    stream.reconnect = options_.game_reconnect;
    stream.stable_after = options_.game_stable_after;
    stream.data_resets_backoff = true;
    return SessionContext{.api = api_,
                          .requests = requests_,
                          .config = config_,
                          .my_id = me_.id,
                          .my_name = me_.name,
                          .engines = engines_,
                          .books = &books_,
                          .online = online_moves_.get(),
                          .metrics = metrics_,
                          .stream_options = stream,
                          .timings = options_.game_timings,
                          .slots = &slots_view_,
                          .status = &status_};
}

}  // namespace service
