// Challenges: scripted incoming ones, accept/decline/cancel by the bot, and the bot's own
// challenges answered per the scenario's `outgoing` rules (including the bot-vs-bot limits).
#include <nlohmann/json.hpp>

#include <ctime>

#include "game_json.hpp"
#include "world.hpp"

namespace emu {

using json = nlohmann::json;

namespace {

std::string form_value(const std::map<std::string, std::string>& form, const std::string& key) {
    const auto it = form.find(key);
    return it == form.end() ? "" : it->second;
}

bool parse_int(const std::string& s, int& out) {
    if (s.empty() || s.size() > 9) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    out = std::stoi(s);
    return true;
}

bool is_bot(const Player& p) { return p.title && *p.title == "BOT"; }

// lila's isoDateTime: 2026-08-23T10:11:12Z
std::string iso_utc(std::int64_t unix_ms) {
    const std::time_t secs = static_cast<std::time_t>(unix_ms / 1000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace

std::optional<Reply> World::bot_limit_error(const Player& orig, const Player& dest) const {
    if (!is_bot(orig) || !is_bot(dest)) return std::nullopt;
    const Ms t = now();
    const auto body = [&](const std::string& text, const std::string& user) {
        return json{{"error", text},
                    {"ratelimit",
                     {{"key", "bot.vsBot.day"}, {"seconds", bot_limit_.left_ms(user, t) / 1000}}}}
            .dump();
    };
    const std::string games = std::to_string(bot_limit_.per_window());
    // modules/web/src/main/ResponseBuilder.scala JsonLimited: 429; CtrlErrors writes the body.
    if (bot_limit_.limited(orig.id, t))
        return Reply{429, "application/json",
                     body("You played " + games +
                              " games against other bots today, please wait before challenging "
                              "another bot.",
                          orig.id)};
    // BotLimit.OpponentLimit: 400 BadRequest with the same shape.
    if (bot_limit_.limited(dest.id, t))
        return Reply{
            400, "application/json",
            body(dest.name + " played " + games +
                     " games against other bots today, please wait until " +
                     iso_utc(unix_ms() + bot_limit_.left_ms(dest.id, t)) + " to challenge them.",
                 dest.id)};
    return std::nullopt;
}

void World::charge_bot_limit(const GameSetup& setup) {
    if (!is_bot(setup.bot) || !is_bot(setup.opponent)) return;
    bot_limit_.charge(setup.bot.id, now());
    bot_limit_.charge(setup.opponent.id, now());
}

void World::release_challenge(const ChallengeSpec& spec) {
    ChallengeSlot slot;
    Challenge& c = slot.c;
    c.id = spec.id.empty() ? new_id() : spec.id;
    c.challenger = player_of(spec.challenger);
    c.dest = bot_player();
    c.variant = spec.variant;
    c.time_control = spec.time_control;
    c.rated = spec.rated;
    c.color = spec.color;
    c.final_color = spec.color != "random"
                        ? spec.color
                        : (std::uniform_int_distribution<int>(0, 1)(rng_) ? "white" : "black");
    c.initial_fen = spec.initial_fen;
    c.rematch_of = spec.rematch_of;
    c.created_ms = now();
    slot.opp = spec.opponent;
    slot.opp.user = spec.challenger;
    slot.accept_status = spec.accept_status;
    slot.accept_error = spec.accept_error;
    slot.cancel_at = spec.cancel_at_ms;
    if (!bot_limit_.limited(c.challenger.id, now()))
        bot_limit_.preset(c.challenger.id, spec.challenger.bot_games_today, now());
    challenges_[c.id] = slot;
    challenge_order_.push_back(c.id);
    emit_event({{"type", "challenge"},
                {"challenge", challenge_json(c, false)},
                {"compat", {{"bot", speed_of(c.time_control) != "ultraBullet"}, {"board", true}}}});
}

Reply World::accept_challenge(const std::string& id) {
    std::lock_guard lock(mutex_);
    const auto it = challenges_.find(id);
    if (it == challenges_.end() || it->second.c.outgoing) return error_reply(404, "Not found");
    auto& slot = it->second;
    Challenge& c = slot.c;
    if (c.status == "canceled") return error_reply(400, "The challenge has been canceled.");
    // Challenge.apiAccept: an accepted challenge is looked up as a rematch offer, and without
    // one the answer is CtrlErrors.notFoundJson.
    if (c.status == "accepted") return error_reply(404, "Not found");
    if (c.status == "declined") return error_reply(400, "The challenge has been declined.");
    if (slot.accept_status != 200) return error_reply(slot.accept_status, slot.accept_error);
    // app/controllers/Challenge.scala apiAccept: BotLimit.acceptLimitError before api.accept,
    // the acceptor (us) as `orig`.
    if (auto limited = bot_limit_error(bot_player(), c.challenger)) return *limited;
    if (speed_of(c.time_control) == "ultraBullet")
        return error_reply(400, "Game incompatible with a BOT account");
    auto setup = base_setup(c.id, c.variant, c.time_control, c.rated, c.initial_fen, slot.opp.user);
    setup.bot_color = c.final_color == "white" ? engine::BLACK : engine::WHITE;
    std::string error;
    if (!create_game(setup, "", slot.opp, &error)) return error_reply(400, error);
    charge_bot_limit(setup);
    c.status = "accepted";
    return ok_reply();
}

Reply World::decline_challenge(const std::string& id, const std::string& reason) {
    std::lock_guard lock(mutex_);
    const auto it = challenges_.find(id);
    if (it == challenges_.end() || it->second.c.outgoing) return error_reply(404, "Not found");
    Challenge& c = it->second.c;
    // Challenge.apiDecline: only an active challenge for us (activeByIdFor), else 404.
    if (c.status != "created") return error_reply(404, "Not found");
    c.status = "declined";
    c.decline_reason = reason;
    c.decline_reason_key = decline_reason_key(reason);
    return ok_reply();
}

Reply World::cancel_challenge(const std::string& id) {
    std::lock_guard lock(mutex_);
    const auto it = challenges_.find(id);
    if (it != challenges_.end() && it->second.c.status == "created") {
        Challenge& c = it->second.c;
        if (c.outgoing) {
            c.status = "canceled";
        } else {  // lila: cancelling an incoming challenge declines it
            c.status = "declined";
            c.decline_reason = "cancel";
            c.decline_reason_key = "generic";
        }
        return ok_reply();
    }
    // An accepted challenge whose game nobody has moved in yet: the game is aborted.
    if (auto* s = find_game(id); s && s->game.abortable()) {
        s->events.push_back("aborted_by_bot_cancel@" + std::to_string(s->game.ply()));
        s->game.finish("aborted", std::nullopt, now());
        publish(*s);
        return ok_reply();
    }
    return error_reply(404, "Not found");
}

Reply World::create_challenge(const std::string& username,
                              const std::map<std::string, std::string>& form) {
    std::lock_guard lock(mutex_);
    TimeControlSpec tc;
    const auto limit = form_value(form, "clock.limit"), inc = form_value(form, "clock.increment"),
               days = form_value(form, "days");
    if (!limit.empty() || !inc.empty()) {
        int l = 0, i = 0;
        if (!parse_int(limit, l) || !parse_int(inc, i) || l > 10800 || i > 60 ||
            !(l == 0 || l == 15 || l == 30 || l == 45 || l == 90 || l % 60 == 0))
            return error_reply(400, "clock: invalid clock.limit or clock.increment");
        tc.limit_s = l;
        tc.increment_s = i;
    } else if (!days.empty()) {
        int d = 0;
        if (!parse_int(days, d) ||
            !(d == 1 || d == 2 || d == 3 || d == 5 || d == 7 || d == 10 || d == 14))
            return error_reply(400, "days: invalid value");
        tc.days = d;
    }
    const std::string variant =
        form_value(form, "variant").empty() ? "standard" : form_value(form, "variant");
    std::string color = form_value(form, "color").empty() ? "random" : form_value(form, "color");
    if (color != "white" && color != "black" && color != "random")
        return error_reply(400, "color: invalid value");
    const bool rated = form_value(form, "rated") == "true";
    if (speed_of(tc) == "ultraBullet")
        return error_reply(400, "Bots cannot play UltraBullet. Choose a slower time control.");

    // The first rule for this user (or "*") with uses left decides.
    OutgoingRule rule;
    for (std::size_t i = 0; i < scenario_.outgoing.size(); ++i) {
        const auto& r = scenario_.outgoing[i];
        if (r.user != "*" && lower(r.user) != lower(username)) continue;
        if (r.max_uses >= 0 && outgoing_uses_[i] >= r.max_uses) continue;
        ++outgoing_uses_[i];
        rule = r;
        break;
    }
    if (rule.response == OutgoingRule::Response::RATE_LIMIT)
        return {429, "application/json",
                json{{"error",
                      "You played 100 games against other bots today, please wait before "
                      "challenging another bot."},
                     {"ratelimit", {{"key", "bot.vsBot.day"}, {"seconds", rule.ratelimit_seconds}}}}
                    .dump()};
    if (rule.response == OutgoingRule::Response::OPPONENT_LIMIT)  // BotLimit.OpponentLimit
        return {400, "application/json",
                json{{"error", username +
                                   " played 100 games against other bots today, please wait "
                                   "until " +
                                   iso_utc(unix_ms() + Ms(rule.ratelimit_seconds) * 1000) +
                                   " to challenge them."},
                     {"ratelimit", {{"key", "bot.vsBot.day"}, {"seconds", rule.ratelimit_seconds}}}}
                    .dump()};

    UserSpec target = rule.opponent.user;
    target.name = username;
    for (const auto& b : scenario_.online_bots)
        if (lower(b.name) == lower(username)) target = b;
    // Challenge.apiCreate: BotLimit.challengeLimitError(me, dest) before the challenge is made.
    if (!bot_limit_.limited(lower(target.name), now()))
        bot_limit_.preset(lower(target.name), target.bot_games_today, now());
    if (auto limited = bot_limit_error(bot_player(), player_of(target))) return *limited;

    ChallengeSlot slot;
    Challenge& c = slot.c;
    c.id = new_id();
    c.outgoing = true;
    c.challenger = bot_player();
    c.dest = player_of(target);
    c.variant = variant;
    c.time_control = tc;
    c.rated = rated;
    c.color = color;
    c.final_color = color != "random"
                        ? color
                        : (std::uniform_int_distribution<int>(0, 1)(rng_) ? "white" : "black");
    c.initial_fen = form_value(form, "fen");
    c.created_ms = now();
    slot.opp = rule.opponent;
    slot.opp.user = target;
    slot.rule = rule;
    slot.answer_at = rule.response == OutgoingRule::Response::IGNORE ? -1 : now() + rule.delay_ms;
    challenges_[c.id] = slot;
    challenge_order_.push_back(c.id);
    // lila shows the bot its own challenge on the event stream too
    emit_event({{"type", "challenge"},
                {"challenge", challenge_json(c, false)},
                {"compat", {{"bot", true}, {"board", true}}}});
    return {200, "application/json", challenge_json(c, true).dump()};
}

void World::answer_outgoing(ChallengeSlot& slot) {
    Challenge& c = slot.c;
    slot.answer_at = -1;
    if (slot.rule.response == OutgoingRule::Response::DECLINE) {
        c.status = "declined";
        c.decline_reason = slot.rule.decline_reason;
        c.decline_reason_key = decline_reason_key(slot.rule.decline_reason);
        emit_event({{"type", "challengeDeclined"}, {"challenge", challenge_json(c, false)}});
        return;
    }
    auto setup = base_setup(c.id, c.variant, c.time_control, c.rated, c.initial_fen, slot.opp.user);
    setup.bot_color = c.final_color == "white" ? engine::WHITE : engine::BLACK;
    std::string error;
    if (!create_game(setup, "", slot.opp, &error)) {
        c.status = "declined";
        c.decline_reason_key = "variant";
        emit_event({{"type", "challengeDeclined"}, {"challenge", challenge_json(c, false)}});
        return;
    }
    charge_bot_limit(setup);
    c.status = "accepted";
}

}  // namespace emu
