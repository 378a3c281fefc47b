// World lifecycle, the scheduler tick (clocks, opponents, scripted events), streams, and the
// snapshot the report and the tests read.
#include "world.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>

#include "engine/fen.hpp"
#include "engine/variant_table.hpp"
#include "game_json.hpp"

namespace emu {

using json = nlohmann::json;

namespace {

std::int64_t steady_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

const char* kind_name(OpponentSpec::Kind k) {
    switch (k) {
        case OpponentSpec::Kind::RANDOM:
            return "random";
        case OpponentSpec::Kind::LINE:
            return "line";
        case OpponentSpec::Kind::ENGINE:
            return "engine";
        case OpponentSpec::Kind::STALLER:
            return "staller";
    }
    return "?";
}

// A random Chess960 start position (bishops on opposite colours, king between the rooks).
std::string chess960_fen(std::mt19937_64& rng) {
    char rank[8] = {};
    auto free_squares = [&] {
        std::vector<int> f;
        for (int i = 0; i < 8; ++i)
            if (!rank[i]) f.push_back(i);
        return f;
    };
    auto pick = [&](std::vector<int> from) {
        return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
    };
    rank[pick({0, 2, 4, 6})] = 'b';
    rank[pick({1, 3, 5, 7})] = 'b';
    rank[pick(free_squares())] = 'q';
    rank[pick(free_squares())] = 'n';
    rank[pick(free_squares())] = 'n';
    const auto rest = free_squares();  // three squares left: rook, king, rook
    rank[rest[0]] = 'r';
    rank[rest[1]] = 'k';
    rank[rest[2]] = 'r';
    std::string black(rank, 8), white = black;
    for (auto& ch : white) ch = char(std::toupper(static_cast<unsigned char>(ch)));
    return black + "/pppppppp/8/8/8/8/PPPPPPPP/" + white + " w KQkq - 0 1";
}

}  // namespace

Reply ok_reply() { return {200, "application/json", R"({"ok":true})"}; }

Reply error_reply(int status, const std::string& message) {
    return {status, "application/json", json{{"error", message}}.dump()};
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

Player player_of(const UserSpec& u) {
    return Player{lower(u.name), u.name, u.title, u.rating, u.provisional};
}

World::World(Scenario scenario, Recorder& recorder, FaultPlan& faults)
    : scenario_(std::move(scenario)),
      recorder_(recorder),
      faults_(faults),
      rng_(scenario_.seed),
      title_(scenario_.account.title),
      stream_seed_(scenario_.seed),
      bot_limit_(scenario_.bot_games_per_day, scenario_.bot_limit_window_ms) {
    bot_limit_.preset(lower(scenario_.account.username), scenario_.account.bot_games_today, 0);
    pending_challenges_ = scenario_.challenges;
    pending_games_ = scenario_.games;
    for (const auto& t : scenario_.tournaments) {
        ArenaSlot a;
        a.spec = t;
        a.view.id = t.id;
        arenas_.emplace(t.id, std::move(a));
    }
    outgoing_uses_.assign(scenario_.outgoing.size(), 0);
    steady_start_ms_ = steady_ms();
    unix_start_ms_ = std::chrono::duration_cast<std::chrono::milliseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
}

World::~World() { stop(); }

void World::start() {
    std::lock_guard lock(mutex_);
    if (scheduler_.joinable() || stop_) return;
    steady_start_ms_ = steady_ms();
    tick(nullptr);  // what the scenario has at time 0 exists as soon as start() returns
    scheduler_ = std::thread([this] {
        std::unique_lock lock(mutex_);
        while (!stop_) {
            std::vector<MoveJob> jobs;
            tick(&jobs);
            for (auto& job : jobs) {
                // Only this thread uses a slot's mover; slots live as long as the World.
                lock.unlock();
                const auto move = job.slot->mover.choose(job.position, stop_search_);
                lock.lock();
                if (stop_) break;
                apply_opponent_move(*job.slot, job.ply, move);
            }
            if (!stop_) cv_.wait_for(lock, std::chrono::milliseconds(10));
        }
    });
}

void World::stop() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
        stop_search_ = true;
        if (events_) events_->close("server stopping");
        for (auto& [id, s] : games_)
            if (s->stream) s->stream->close("server stopping");
    }
    cv_.notify_all();
    done_cv_.notify_all();
    if (scheduler_.joinable()) scheduler_.join();
}

Ms World::now() const { return steady_ms() - steady_start_ms_; }

bool World::stopping() const {
    std::lock_guard lock(mutex_);
    return stop_;
}

bool World::sleep_for(Ms ms) {
    std::unique_lock lock(mutex_);
    return !cv_.wait_for(lock, std::chrono::milliseconds(ms), [&] { return stop_; });
}

std::string World::new_id() {
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    for (;;) {
        std::string id;
        for (int i = 0; i < 8; ++i) id += alphabet[std::uniform_int_distribution<int>(0, 61)(rng_)];
        if (!games_.count(id) && !challenges_.count(id)) return id;
    }
}

Player World::bot_player() const {
    const auto& a = scenario_.account;
    return Player{lower(a.username), a.username, title_, a.rating, false};
}

GameSetup World::base_setup(const std::string& id, const std::string& variant,
                            const TimeControlSpec& tc, bool rated, const std::string& fen,
                            const UserSpec& opponent) const {
    GameSetup g;
    g.id = id;
    g.variant = variant;
    g.initial_fen = fen;
    g.bot = bot_player();
    g.opponent = player_of(opponent);
    g.rated = rated;
    g.time_control = tc;
    g.clock_start_ply = scenario_.clock_start_ply;
    g.first_move_timeout_ms = scenario_.first_move_timeout_ms;
    g.king_to_rook = scenario_.king_to_rook;
    g.created_unix_ms = unix_ms();
    return g;
}

World::GameSlot* World::create_game(GameSetup setup, const std::string& moves, OpponentSpec opp,
                                    std::string* error) {
    if (!engine::parse_variant(setup.variant)) {
        *error = "Game incompatible with a BOT account (no such variant: " + setup.variant + ")";
        return nullptr;
    }
    const engine::GameType* type = engine::find_game_type(setup.variant);
    if (type && type->chess960 && setup.initial_fen.empty()) setup.initial_fen = chess960_fen(rng_);
    // lila plays a "position" that is the standard start as a standard game.
    const engine::GameType& standard = engine::game_type(engine::Variant::STANDARD);
    if (type && type->needs_fen && setup.initial_fen == engine::START_FEN) {
        setup.variant = standard.key;
        setup.initial_fen.clear();
    }
    if (setup.variant == standard.key && setup.initial_fen == engine::START_FEN)
        setup.initial_fen.clear();
    auto game = Game::create(setup, moves, now());
    if (!game) {
        *error = game.error();
        return nullptr;
    }
    const std::string id = setup.id;
    const auto seed = scenario_.seed ^ std::hash<std::string>{}(id);
    auto slot = std::make_unique<GameSlot>(std::move(*game), std::move(opp), seed);
    slot->chat_sent.assign(slot->opp.chat.size(), false);
    auto* raw = slot.get();
    games_[id] = std::move(slot);
    game_order_.push_back(id);
    emit_event(game_event_json(raw->game, "gameStart", now()));
    return raw;
}

World::GameSlot* World::find_game(const std::string& id) {
    const auto it = games_.find(id);
    return it == games_.end() ? nullptr : it->second.get();
}

void World::emit_event(const json& line) {
    if (events_) events_->push(Line{line.dump(), "", -1, false});
}

void World::emit_chat(GameSlot& s, const std::string& user, const std::string& room,
                      const std::string& text) {
    s.chat.push_back({now(), user, room, text});
    if (s.stream)
        s.stream->push(Line{
            json{{"type", "chatLine"}, {"username", user}, {"text", text}, {"room", room}}.dump(),
            s.game.id(), -1, false});
}

void World::publish(GameSlot& s) {
    const Game& g = s.game;
    if (s.stream)
        s.stream->push(Line{game_state_json(g, now()).dump(), g.id(), g.ply(), g.bot_to_move()});
    if (g.over() && !s.finish_sent) {
        s.finish_sent = true;
        if (s.stream) s.stream->close("game over");
        emit_event(game_event_json(g, "gameFinish", now()));
    }
}

void World::on_line_sent(const Line& line) {
    std::lock_guard lock(mutex_);
    if (!line.bot_turn || line.game_id.empty()) return;
    if (auto* s = find_game(line.game_id)) s->turn_sent.emplace(line.ply, now());
}

StreamStart World::make_stream(const std::string& family, const std::string& game_id,
                               std::shared_ptr<LineQueue> queue, std::vector<FaultSpec> faults) {
    StreamStart st;
    st.queue = std::move(queue);
    st.faults = std::move(faults);
    st.keepalive_ms = scenario_.keepalive_ms;
    st.chunk_gap_ms = scenario_.chunk_gap_ms;
    st.seed = ++stream_seed_;
    const int record = recorder_.stream_opened(family, game_id, now());
    st.now = [this] { return now(); };
    st.stopping = [this] { return stopping(); };
    auto sent = std::make_shared<std::atomic<int>>(0);
    st.on_sent = [this, sent](const Line& l) {
        ++*sent;
        on_line_sent(l);
    };
    st.on_fault = [this, family, game_id](const FaultSpec& f, const std::string& detail) {
        recorder_.fault({now(), fault_kind_name(f.kind), family, game_id, detail});
    };
    st.on_end = [this, record, sent](StreamEnd end, int) {
        recorder_.stream_closed(record, now(), sent->load(), stream_end_name(end));
    };
    return st;
}

StreamStart World::open_event_stream(std::vector<FaultSpec> faults) {
    std::lock_guard lock(mutex_);
    if (events_) events_->close("replaced by a new event stream");
    events_ = std::make_shared<LineQueue>();
    // Lichess replays the ongoing games and the pending incoming challenges on connect.
    for (const auto& id : game_order_) {
        const auto& g = games_[id]->game;
        if (!g.over()) emit_event(game_event_json(g, "gameStart", now()));
    }
    for (const auto& id : challenge_order_) {
        const auto& c = challenges_[id];
        if (!c.c.outgoing && c.c.status == "created")
            emit_event({{"type", "challenge"},
                        {"challenge", challenge_json(c.c, false)},
                        {"compat", {{"bot", true}, {"board", true}}}});
    }
    return make_stream("event_stream", "", events_, std::move(faults));
}

std::variant<Reply, StreamStart> World::open_game_stream(const std::string& id,
                                                         std::vector<FaultSpec> faults) {
    std::lock_guard lock(mutex_);
    auto* s = find_game(id);
    if (!s) return error_reply(404, "No such game");
    if (s->stream) s->stream->close("replaced by a new game stream");
    s->stream = std::make_shared<LineQueue>();
    const Game& g = s->game;
    s->stream->push(Line{game_full_json(g, now()).dump(), id, g.ply(), g.bot_to_move()});
    if (s->gone) push_gone_line(*s);
    if (g.over()) s->stream->close("game over");
    return make_stream("game_stream", id, s->stream, std::move(faults));
}

void World::add_challenge(ChallengeSpec spec) {
    std::lock_guard lock(mutex_);
    pending_challenges_.push_back(std::move(spec));
}

void World::add_game(GameSpec spec) {
    std::lock_guard lock(mutex_);
    pending_games_.push_back(std::move(spec));
}

void World::release_game(const GameSpec& spec) {
    const std::string id = spec.id.empty() ? new_id() : spec.id;
    auto setup = base_setup(id, spec.variant, spec.time_control, spec.rated, spec.initial_fen,
                            spec.opponent.user);
    setup.bot_color = spec.bot_color == "white" ? engine::WHITE : engine::BLACK;
    setup.source = spec.source;
    setup.tournament_id = spec.tournament_id;
    std::string error;
    if (!create_game(setup, spec.moves, spec.opponent, &error))
        recorder_.fault({now(), "scenario_error", "games", id, error});
    else
        charge_bot_limit(setup);
}

void World::tick(std::vector<MoveJob>* jobs) {
    const Ms t = now();
    for (auto it = pending_challenges_.begin(); it != pending_challenges_.end();) {
        if (it->at_ms <= t) {
            release_challenge(*it);
            it = pending_challenges_.erase(it);
        } else {
            ++it;
        }
    }
    for (auto it = pending_games_.begin(); it != pending_games_.end();) {
        if (it->at_ms <= t) {
            release_game(*it);
            it = pending_games_.erase(it);
        } else {
            ++it;
        }
    }
    for (const auto& id : challenge_order_) {
        auto& slot = challenges_[id];
        if (slot.c.status != "created") continue;
        if (!slot.c.outgoing && slot.cancel_at >= 0 && t >= slot.cancel_at) {
            slot.c.status = "canceled";
            emit_event(
                {{"type", "challengeCanceled"}, {"challenge", challenge_json(slot.c, false)}});
        }
        if (slot.c.outgoing && slot.answer_at >= 0 && t >= slot.answer_at) answer_outgoing(slot);
    }
    for (const auto& id : game_order_) {
        auto& s = *games_[id];
        Game& g = s.game;
        if (g.over()) continue;
        if (g.check_time(t)) {
            publish(s);
            continue;
        }
        if (s.gone && t >= s.gone_line_at + kGoneTickMs) {
            s.gone_line_at = t;
            push_gone_line(s);
        }
        for (std::size_t i = 0; i < s.opp.chat.size(); ++i)
            // Scripted chat waits for the bot's game stream so the bot can see it.
            if (!s.chat_sent[i] && g.ply() >= s.opp.chat[i].at_ply && s.stream &&
                !s.stream->closed()) {
                s.chat_sent[i] = true;
                emit_chat(s, g.setup().opponent.name, s.opp.chat[i].room, s.opp.chat[i].text);
            }
        if (s.draw_answer_due >= 0 && t >= s.draw_answer_due) {
            s.draw_answer_due = -1;
            if (g.draw_offer(g.bot_color())) {
                if (s.opp.accept_draw) {
                    s.events.push_back("draw_accepted_by_opponent@" + std::to_string(g.ply()));
                    g.finish("draw", std::nullopt, t);
                } else {
                    s.events.push_back("draw_declined_by_opponent@" + std::to_string(g.ply()));
                    g.set_draw_offer(g.bot_color(), false);
                }
                publish(s);
            }
        }
        if (s.takeback_answer_due >= 0 && t >= s.takeback_answer_due) {
            s.takeback_answer_due = -1;
            if (g.takeback_offer(g.bot_color())) {
                if (s.opp.accept_takeback && g.take_back(g.bot_color(), t)) {
                    s.events.push_back("takeback_accepted_by_opponent@" + std::to_string(g.ply()));
                    s.turn_sent.erase(s.turn_sent.lower_bound(g.ply()), s.turn_sent.end());
                } else {
                    s.events.push_back("takeback_declined_by_opponent@" + std::to_string(g.ply()));
                    g.set_takeback_offer(g.bot_color(), false);
                }
                publish(s);
            }
        }
        if (!g.over() && !g.bot_to_move()) opponent_turn(s, jobs);
    }
    arena_tick(t);
    bool connected = events_ && !events_->closed();
    for (const auto& [id, s] : games_) connected = connected || (s->stream && !s->stream->closed());
    if (connected) presence_until_ = t + 10'000;
    check_exit();
}

void World::opponent_turn(GameSlot& s, std::vector<MoveJob>* jobs) {
    Game& g = s.game;
    const Ms t = now();
    if (s.gone) {
        if (s.opp.come_back_after_ms >= 0 && t >= s.gone_at + s.opp.come_back_after_ms) {
            s.gone = false;
            s.events.push_back("opponent_back@" + std::to_string(g.ply()));
            // Player.setOnline says so only when the player was already long gone.
            const bool was_claimable = t >= s.gone_at + Ms(s.opp.claim_win_in_seconds) * 1000;
            if (s.stream && was_claimable)
                s.stream->push(Line{json{{"type", "opponentGone"}, {"gone", false}}.dump(), g.id(),
                                    -1, false});
        }
        return;
    }
    if (t < g.turn_started_at() + s.opp.think_ms) return;
    if (s.opp.resign_at_ply >= 0 && g.ply() >= s.opp.resign_at_ply) {
        s.events.push_back("opponent_resigned@" + std::to_string(g.ply()));
        g.finish("resign", g.bot_color(), t);
        publish(s);
        return;
    }
    if (!s.opp.go_away_on_bot_turn && s.opp.go_away_at_ply >= 0 &&
        g.ply() >= s.opp.go_away_at_ply && !s.went_away) {
        go_away(s);
        return;
    }
    if (jobs) jobs->push_back({&s, g.ply(), g.position()});
}

void World::go_away(GameSlot& s) {
    s.went_away = s.gone = true;
    s.gone_at = now();
    s.gone_line_at = now();
    s.events.push_back("opponent_gone@" + std::to_string(s.game.ply()));
    push_gone_line(s);
}

// lila RoundAsyncActor Tick: {"type":"opponentGone","gone":true,"claimWinInSeconds":N}, sent
// again on each 5 s Tick while the opponent stays away: N counting down (notifyGoneIn) only
// while the gone player's clock holds more than N s plus 3 s, and 0 once the claim is open
// (notifyGone), whatever the clock.
void World::push_gone_line(GameSlot& s) {
    if (!s.stream) return;
    const Ms left = std::max<Ms>(0, s.gone_at + Ms(s.opp.claim_win_in_seconds) * 1000 - now());
    const engine::Color gone = ~s.game.bot_color();
    if (left > 0 && s.game.has_clock() && s.game.remaining(gone, now()) <= left + 3000) return;
    s.stream->push(Line{
        json{{"type", "opponentGone"}, {"gone", true}, {"claimWinInSeconds", (left + 999) / 1000}}
            .dump(),
        s.game.id(), -1, false});
}

void World::apply_opponent_move(GameSlot& s, int ply, const std::optional<std::string>& move) {
    Game& g = s.game;
    if (!move || g.over() || g.bot_to_move() || g.ply() != ply || s.gone)
        return;  // stalling, or too late
    const Ms t = now();
    const engine::Color opp = ~g.bot_color();
    if (auto err = g.play(opp, *move, t, false)) {
        s.events.push_back("opponent_move_rejected:" + *move + ":" + *err);
        return;
    }
    if (s.opp.offer_draw_at_ply >= 0 && g.ply() >= s.opp.offer_draw_at_ply && !s.draw_offer_done &&
        !g.over()) {
        s.draw_offer_done = true;
        g.set_draw_offer(opp, true);
        s.events.push_back("draw_offer_opponent@" + std::to_string(g.ply()));
    }
    publish(s);
    if (s.opp.go_away_on_bot_turn && s.opp.go_away_at_ply >= 0 && g.ply() >= s.opp.go_away_at_ply &&
        !s.went_away && !g.over())
        go_away(s);
    if (s.opp.takeback_at_ply >= 0 && g.ply() >= s.opp.takeback_at_ply && !s.takeback_done &&
        !g.over()) {
        s.takeback_done = true;
        g.set_takeback_offer(opp, true);
        s.events.push_back("takeback_offer_opponent@" + std::to_string(g.ply()));
        publish(s);
    }
}

bool World::check_exit() {
    const Ms t = now();
    if (scenario_.max_duration_ms > 0 && t >= scenario_.max_duration_ms) done_ = true;
    if (scenario_.exit_when_all_games_finished && !done_) {
        bool all = !games_.empty() && pending_challenges_.empty() && pending_games_.empty();
        for (const auto& [id, s] : games_) all = all && s->game.over();
        for (const auto& [id, c] : challenges_) all = all && c.c.status != "created";
        if (!all) {
            all_finished_since_ = -1;
        } else if (all_finished_since_ < 0) {
            all_finished_since_ = t;
        } else if (t - all_finished_since_ >= scenario_.exit_linger_ms) {
            done_ = true;
        }
    }
    if (done_) done_cv_.notify_all();
    return done_;
}

bool World::done() const {
    std::lock_guard lock(mutex_);
    return done_;
}

bool World::wait_done(Ms timeout) {
    std::unique_lock lock(mutex_);
    return done_cv_.wait_for(lock, std::chrono::milliseconds(timeout), [&] {
        return done_ || stop_;
    }) && done_;
}

std::vector<GameView> World::games() const {
    std::lock_guard lock(mutex_);
    std::vector<GameView> out;
    for (const auto& id : game_order_) {
        const auto& s = *games_.at(id);
        GameView v;
        v.id = id;
        v.status = s.game.status();
        v.bot_color = color_name(s.game.bot_color());
        v.opponent_kind = kind_name(s.opp.kind);
        v.uci_moves = s.game.uci_moves();
        if (s.game.winner()) v.winner = color_name(*s.game.winner());
        v.over = s.game.over();
        v.started_ms = s.game.created_at();
        v.tournament_id = s.game.setup().tournament_id;
        v.moves = s.game.records();
        v.chat = s.chat;
        v.events = s.events;
        out.push_back(std::move(v));
    }
    return out;
}

std::vector<ChallengeView> World::challenges() const {
    std::lock_guard lock(mutex_);
    std::vector<ChallengeView> out;
    for (const auto& id : challenge_order_) {
        const auto& c = challenges_.at(id).c;
        out.push_back({id, c.outgoing ? "out" : "in", c.status, c.decline_reason,
                       c.decline_reason_key, c.outgoing ? c.dest.name : c.challenger.name,
                       speed_of(c.time_control), c.variant, c.rated, c.created_ms});
    }
    return out;
}

json World::snapshot_json() const {
    const auto game_views = games();
    const auto challenge_views = challenges();
    std::lock_guard lock(mutex_);
    json games = json::array();
    for (const auto& v : game_views) {
        const auto& g = games_.at(v.id)->game;
        json moves = json::array(), think = json::array(), chat = json::array();
        for (const auto& m : v.moves) {
            json j{{"ply", m.ply},
                   {"uci", m.uci},
                   {"by", m.by_bot ? "bot" : "opponent"},
                   {"at_ms", m.at_ms},
                   {"since_turn_ms", m.since_turn_ms},
                   {"wtime", m.wtime},
                   {"btime", m.btime}};
            if (m.think_ms) j["think_ms"] = *m.think_ms;
            if (m.by_bot) think.push_back(m.think_ms ? json(*m.think_ms) : json(nullptr));
            moves.push_back(j);
        }
        for (const auto& c : v.chat)
            chat.push_back(
                {{"t_ms", c.t_ms}, {"user", c.user}, {"room", c.room}, {"text", c.text}});
        const auto& tc = g.setup().time_control;
        json j{{"id", v.id},
               {"variant", g.setup().variant},
               {"speed", g.speed()},
               {"rated", g.setup().rated},
               {"bot_color", v.bot_color},
               {"opponent", {{"name", g.setup().opponent.name}, {"kind", v.opponent_kind}}},
               {"initial_fen", g.setup().initial_fen.empty() ? "startpos" : g.setup().initial_fen},
               {"status", v.status},
               {"winner", v.winner ? json(*v.winner) : json(nullptr)},
               {"over", v.over},
               {"ended_ms", g.ended_at()},
               {"uci_moves", v.uci_moves},
               {"final_fen", g.position().fen()},
               {"moves", moves},
               {"bot_think_ms", think},
               {"chat", chat},
               {"events", v.events}};
        if (tc.limit_s) j["clock"] = {{"limit", *tc.limit_s}, {"increment", tc.increment_s}};
        if (tc.days) j["days"] = *tc.days;
        games.push_back(j);
    }
    json challenges = json::array();
    for (const auto& c : challenge_views) {
        json j{{"id", c.id},         {"direction", c.direction},
               {"status", c.status}, {"opponent", c.opponent},
               {"speed", c.speed},   {"variant", c.variant},
               {"rated", c.rated},   {"created_ms", c.created_ms}};
        if (c.status == "declined") {
            j["decline_reason"] = c.decline_reason;
            j["decline_reason_key"] = c.decline_reason_key;
        }
        challenges.push_back(j);
    }
    json arenas = json::array();
    for (const auto& [id, a] : arenas_)
        arenas.push_back({{"id", id},
                          {"joined", a.view.joined},
                          {"withdrawn", a.view.withdrawn},
                          {"finished", a.view.finished},
                          {"joins", a.view.joins},
                          {"withdrawals", a.view.withdrawals},
                          {"games", a.view.games},
                          {"events", a.view.events}});
    return {{"scenario", scenario_.name}, {"started_unix_ms", unix_start_ms_},
            {"duration_ms", now()},       {"games", games},
            {"challenges", challenges},   {"arenas", arenas}};
}

}  // namespace emu
