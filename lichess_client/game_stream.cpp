// GameStream: parses game-stream lines, reconnects until the game is over.
#include "lichess_client/game_stream.hpp"

#include <spdlog/spdlog.h>

#include "common/text.hpp"
#include "lichess_client/json_util.hpp"

namespace lichess {

GameStream::GameStream(Api& api, std::string game_id, Handler on_event, StreamOptions options)
    : api_(api), game_id_(std::move(game_id)), on_event_(std::move(on_event)), options_(options) {}

std::string GameStream::shown(std::string_view line) const {
    return detail::excerpt(api_.http().redact(std::string(line.substr(0, 4096))), 120);
}

void GameStream::on_unreadable(const GameUnreadable& event, std::string_view line) {
    ++stats_.unreadable;
    spdlog::error("lichess: game {}: {} unreadable ({}{}{}): {}", common::printable(game_id_),
                  event.type.empty() ? "a line" : "its " + event.type, event.field,
                  event.field.empty() ? "" : ": ", common::printable(event.problem), shown(line));
    on_event_(GameEvent{event});
}

GameStreamEnd GameStream::run(std::stop_token stop) {
    bool game_over = false;
    bool fatal = false;
    const std::string what = "game stream " + common::printable(game_id_);
    detail::RunnerHooks hooks;
    hooks.open = [this](std::stop_token st, Millis silence, const ByteSink& sink) {
        return api_.stream_game(game_id_, std::move(st), silence, sink);
    };
    hooks.on_line = [&](std::string_view line) {
        auto parsed = parse_game_event(line);
        if (!parsed && parsed.error().unusable) {
            // No JSON object (invalid, nested too deep, too large): it may have been a
            // gameState, so the game is told rather than left waiting for it.
            on_unreadable(GameUnreadable{"", game_id_, "", parsed.error().message}, line);
            return;
        }
        if (!parsed) {
            ++stats_.skipped;
            spdlog::warn("lichess: {} line skipped ({}): {}", what,
                         common::printable(parsed.error().message), shown(line));
            return;
        }
        if (!parsed.value()) {
            ++stats_.skipped;
            spdlog::debug("lichess: {} unknown line skipped: {}", what, shown(line));
            return;
        }
        if (auto* unreadable = std::get_if<GameUnreadable>(&*parsed.value())) {
            unreadable->game_id = game_id_;
            on_unreadable(*unreadable, line);
            return;
        }
        const GameEvent& e = *parsed.value();
        if (const auto* full = std::get_if<GameFull>(&e))
            game_over = is_game_over(full->state.status);
        if (const auto* state = std::get_if<GameState>(&e)) game_over = is_game_over(state->status);
        on_event_(e);
    };
    hooks.after = [&](const StreamResult& r) {
        if (r.kind == StreamEnd::Kind::Closed && game_over) return detail::After::Finish;
        if (r.error && r.error->kind == ApiError::Kind::Http && r.error->status >= 400 &&
            r.error->status < 500) {
            fatal = true;
            return detail::After::Finish;
        }
        return detail::After::Reconnect;
    };
    StreamResult last = detail::run_reconnecting(api_, stop, options_, what.c_str(), hooks, stats_);
    if (fatal) return {GameStreamEnd::Reason::Error, last.error};
    if (last.kind == StreamEnd::Kind::Stopped)
        return {GameStreamEnd::Reason::Stopped, std::nullopt};
    return {GameStreamEnd::Reason::GameOver, std::nullopt};
}

}  // namespace lichess
