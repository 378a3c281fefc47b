// The bot's actions in a game: move (with draw offers), chat, abort, resign, draw and
// takeback answers, claims after the opponent left. Status codes and bodies follow the spec.
#include <nlohmann/json.hpp>

#include "game_json.hpp"
#include "world.hpp"

namespace emu {

using json = nlohmann::json;

namespace {
const char* const NO_GAME = "No such game";
}

Reply World::move(const std::string& id, const std::string& uci,
                  std::optional<bool> offering_draw) {
    std::lock_guard lock(mutex_);
    auto* s = find_game(id);
    if (!s) return error_reply(404, NO_GAME);
    Game& g = s->game;
    const Ms t = now();
    if (g.check_time(t)) {
        publish(*s);
        return error_reply(400, "Not your turn, or game already over");
    }
    const int ply_before = g.ply();
    const engine::Color bot = g.bot_color();
    const bool opponent_offered = g.draw_offer(~bot);
    if (auto err = g.play(bot, uci, t, true)) return error_reply(400, *err);
    const auto sent = s->turn_sent.find(ply_before);
    if (sent != s->turn_sent.end()) g.set_think_ms(g.ply(), t - sent->second);
    // modules/round/src/main/Player.scala postHumanOrBotPlay: a move declines the opponent's
    // pending draw offer (Game::play cleared it).
    if (opponent_offered && !offering_draw.value_or(false))
        s->events.push_back("draw_declined_by_bot_move@" + std::to_string(g.ply()));
    if (!g.over() && offering_draw.value_or(false)) {
        if (opponent_offered) {
            s->events.push_back("draw_agreed_by_bot@" + std::to_string(g.ply()));
            g.finish("draw", std::nullopt, t);
        } else {
            s->events.push_back("draw_offer_bot@" + std::to_string(g.ply()));
            g.set_draw_offer(bot, true);
            s->draw_answer_due = t + s->opp.think_ms / 2;
        }
    }
    publish(*s);
    const auto& takeback_plies = s->opp.takeback_on_turn_at_plies;
    if (s->takebacks_on_turn_asked < takeback_plies.size() && !g.over() &&
        g.ply() >= takeback_plies[s->takebacks_on_turn_asked]) {
        ++s->takebacks_on_turn_asked;
        g.set_takeback_offer(~bot, true);
        s->events.push_back("takeback_offer_opponent@" + std::to_string(g.ply()));
        publish(*s);
    }
    cv_.notify_all();  // the opponent's turn: wake the scheduler now rather than at its next tick
    return ok_reply();
}

Reply World::chat(const std::string& id, const std::string& room, const std::string& text) {
    std::lock_guard lock(mutex_);
    auto* s = find_game(id);
    if (!s) return error_reply(404, NO_GAME);
    if (room != "player" && room != "spectator")
        return error_reply(400, "room: must be player or spectator");
    if (text.empty()) return error_reply(400, "text: This field is required.");
    emit_chat(*s, scenario_.account.username, room, text);
    return ok_reply();
}

Reply World::chat_history(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto* s = find_game(id);
    if (!s) return error_reply(404, NO_GAME);
    json out = json::array();
    for (const auto& c : s->chat)
        if (c.room == "player") out.push_back({{"text", c.text}, {"user", c.user}});
    return {200, "application/json", out.dump()};
}

Reply World::abort(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto* s = find_game(id);
    if (!s) return error_reply(404, NO_GAME);
    if (!s->game.abortable()) return error_reply(400, "This game can no longer be aborted");
    s->events.push_back("aborted_by_bot@" + std::to_string(s->game.ply()));
    s->game.finish("aborted", std::nullopt, now());
    publish(*s);
    return ok_reply();
}

Reply World::resign(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto* s = find_game(id);
    if (!s) return error_reply(404, NO_GAME);
    Game& g = s->game;
    if (g.over()) return error_reply(400, "This game cannot be resigned");
    // lila: a game that can still be aborted is aborted instead
    if (g.abortable()) {
        s->events.push_back("aborted_by_bot_resign@" + std::to_string(g.ply()));
        g.finish("aborted", std::nullopt, now());
    } else {
        s->events.push_back("resigned_by_bot@" + std::to_string(g.ply()));
        g.finish("resign", ~g.bot_color(), now());
    }
    publish(*s);
    return ok_reply();
}

Reply World::draw(const std::string& id, bool yes) {
    std::lock_guard lock(mutex_);
    auto* s = find_game(id);
    if (!s) return error_reply(404, NO_GAME);
    Game& g = s->game;
    if (g.over()) return ok_reply();  // lila: a silent no-op when not applicable
    const engine::Color bot = g.bot_color();
    if (yes && g.draw_offer(~bot)) {
        s->events.push_back("draw_accepted_by_bot@" + std::to_string(g.ply()));
        g.finish("draw", std::nullopt, now());
    } else if (yes && !g.draw_offer(bot)) {
        s->events.push_back("draw_offer_bot@" + std::to_string(g.ply()));
        g.set_draw_offer(bot, true);
        s->draw_answer_due = now() + s->opp.think_ms / 2;
    } else if (!yes && g.draw_offer(~bot)) {
        s->events.push_back("draw_declined_by_bot@" + std::to_string(g.ply()));
        g.set_draw_offer(~bot, false);
    } else {
        return ok_reply();
    }
    publish(*s);
    return ok_reply();
}

Reply World::takeback(const std::string& id, bool yes) {
    std::lock_guard lock(mutex_);
    auto* s = find_game(id);
    if (!s) return error_reply(404, NO_GAME);
    Game& g = s->game;
    if (g.over()) return ok_reply();
    const engine::Color bot = g.bot_color();
    if (yes && g.takeback_offer(~bot)) {
        if (!g.take_back(~bot, now())) return ok_reply();
        s->events.push_back("takeback_accepted_by_bot@" + std::to_string(g.ply()));
        s->turn_sent.erase(s->turn_sent.lower_bound(g.ply()), s->turn_sent.end());
    } else if (yes && !g.takeback_offer(bot)) {
        s->events.push_back("takeback_offer_bot@" + std::to_string(g.ply()));
        g.set_takeback_offer(bot, true);
        s->takeback_answer_due = now() + s->opp.think_ms / 2;
    } else if (!yes && g.takeback_offer(~bot)) {
        s->events.push_back("takeback_declined_by_bot@" + std::to_string(g.ply()));
        g.set_takeback_offer(~bot, false);
    } else {
        return ok_reply();
    }
    publish(*s);
    return ok_reply();
}

// modules/bot/src/main/BotPlayer.scala claimVictory: `pov.mightClaimWin.so(...)`, where
// mightClaimWin = forceResignable && !isMyTurn (modules/core/src/main/game/Pov.scala) and
// forceResignable needs a clock and a game past its abortable start: otherwise lila answers 200
// and does nothing. Then RoundAsyncActor ResignForce ends the game as `timeout` when the
// opponent is long gone, else the reply is 400.
Reply World::claim_victory(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto* s = find_game(id);
    if (!s) return error_reply(404, NO_GAME);
    const Game& g = s->game;
    if (g.over() || g.abortable() || !g.has_clock() || g.bot_to_move()) {
        s->events.push_back("claim_ignored@" + std::to_string(g.ply()));
        return ok_reply();
    }
    if (!s->gone || now() < s->gone_at + Ms(s->opp.claim_win_in_seconds) * 1000)
        return error_reply(400, "You cannot claim the win on this game");
    s->events.push_back("victory_claimed_by_bot@" + std::to_string(g.ply()));
    s->game.finish("timeout", s->game.bot_color(), now());
    publish(*s);
    return ok_reply();
}

// BotPlayer.claimDraw: `pov.game.drawable.so(...)` (200 and nothing when not drawable); the
// round's DrawForce needs a clock, the opponent on move and long gone, and ends the game with
// Finisher.rageQuit(game, None): status `timeout`, no winner.
Reply World::claim_draw(const std::string& id) {
    std::lock_guard lock(mutex_);
    auto* s = find_game(id);
    if (!s) return error_reply(404, NO_GAME);
    const Game& g = s->game;
    if (g.over() || g.abortable()) {
        s->events.push_back("claim_ignored@" + std::to_string(g.ply()));
        return ok_reply();
    }
    if (!g.has_clock() || g.bot_to_move() || !s->gone ||
        now() < s->gone_at + Ms(s->opp.claim_win_in_seconds) * 1000)
        return error_reply(400, "You cannot claim draw on this game");
    s->events.push_back("draw_claimed_by_bot@" + std::to_string(g.ply()));
    s->game.finish("timeout", std::nullopt, now());
    publish(*s);
    return ok_reply();
}

}  // namespace emu
