// The events of a game as the GameRules tests write them: gameFull and gameState lines, chosen
// moves, answers to requests, and the settings of a plain game.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <sstream>
#include <string>

#include "engine/fen.hpp"
#include "service/game/game_rules.hpp"

namespace service::game_inputs {

inline constexpr const char* kGame = "game0001";
inline constexpr const char* kFen20 = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 20";  // K+P vs K at move 20
inline const TimePoint t0{};

// ---- events ---------------------------------------------------------------------------------

inline lichess::GameState state(const std::string& moves,
                                lichess::GameStatus status = lichess::GameStatus::Started) {
    lichess::GameState s;
    s.moves = moves;
    s.wtime_ms = 60000;
    s.btime_ms = 60000;
    s.status = status;
    s.status_name = lichess::to_string(status);
    return s;
}

inline lichess::GameFull full_game(bool we_white, const std::string& moves,
                                   const std::string& fen = "startpos") {
    lichess::GameFull f;
    f.id = kGame;
    f.variant.key = fen == "startpos" ? "standard" : "fromPosition";
    f.clock = lichess::Clock{60000, 0};
    f.speed = "bullet";
    lichess::GamePlayer us;
    us.id = "outpost";
    us.name = "Outpost";
    us.title = "BOT";
    lichess::GamePlayer them;
    them.id = "alice";
    them.name = "Alice";
    f.white = we_white ? us : them;
    f.black = we_white ? them : us;
    f.initial_fen = fen;
    f.state = state(moves);
    return f;
}

inline GameInput full(bool we_white, const std::string& moves = "") {
    return game::FullReceived{full_game(we_white, moves)};
}
// A game of a Lichess variant (its key), from its own start ("startpos") or a FEN.
inline lichess::GameFull variant_game(const std::string& key, bool we_white,
                                      const std::string& moves,
                                      const std::string& fen = "startpos") {
    auto f = full_game(we_white, moves, fen);
    f.variant.key = key;
    return f;
}
inline GameInput variant_full(const std::string& key, bool we_white, const std::string& moves = "",
                              const std::string& fen = "startpos") {
    return game::FullReceived{variant_game(key, we_white, moves, fen)};
}
inline GameInput moved(const std::string& moves) { return game::StateReceived{state(moves)}; }
inline GameInput with(lichess::GameState s,
                      const std::function<void(lichess::GameState&)>& change) {
    change(s);
    return game::StateReceived{s};
}
inline GameInput ended(const std::string& moves, lichess::GameStatus status,
                       std::optional<lichess::Color> winner = std::nullopt) {
    auto s = state(moves, status);
    s.winner = winner;
    return game::StateReceived{s};
}
inline GameInput tick() { return game::Tick{}; }
// gameFull of an arena game: it names its tournament.
inline lichess::GameFull in_arena(lichess::GameFull f) {
    f.tournament_id = "arena001";
    return f;
}

// The search's answer `uci` (after `moves` from `fen`), scored `cp` from our side.
inline GameInput searched(const std::string& moves, const std::string& uci, int cp = 20,
                          const std::string& ponder = "",
                          const std::string& fen = std::string(engine::START_FEN)) {
    auto pos = *engine::Position::from_fen(fen, false);
    std::istringstream in(moves);
    for (std::string m; in >> m;) (void)pos.play_uci(m);
    engine::SearchResult r;
    r.best = *pos.parse_uci(uci);
    r.score.value = cp;
    r.depth = 10;
    if (!ponder.empty()) {
        auto after = pos;
        after.play(r.best);
        r.ponder = *after.parse_uci(ponder);
    }
    return game::MoveChosen{.think_ms = 50, .search = r};
}
// The same in a variant game.
inline GameInput searched_in(engine::Variant variant, const std::string& moves,
                             const std::string& uci, int cp = 20, const std::string& fen = "",
                             std::optional<engine::Score> score = std::nullopt) {
    auto pos =
        fen.empty() ? engine::Position::start(variant) : *engine::Position::from_fen(fen, variant);
    std::istringstream in(moves);
    for (std::string m; in >> m;) (void)pos.play_uci(m);
    engine::SearchResult r;
    r.best = *pos.parse_uci(uci);
    r.score = score.value_or(engine::Score{false, cp});
    r.depth = 10;
    return game::MoveChosen{.think_ms = 50, .search = r};
}
inline GameInput book(const std::string& uci) {
    return game::MoveChosen{
        .source = MoveSource::Book, .uci = uci, .think_ms = 1, .note = "weight 1 from test.bin"};
}
// A move of an online source, with its score when the source gives one.
inline GameInput online(MoveSource source, const std::string& uci,
                        std::optional<engine::Score> score = std::nullopt) {
    return game::MoveChosen{
        .source = source, .uci = uci, .think_ms = 30, .score = score, .note = "from the test"};
}
inline GameInput posted() { return game::MovePosted{Outcome{}}; }
inline Outcome failed(bool final_no, std::optional<std::chrono::milliseconds> retry_after = {}) {
    return Outcome{.ok = false,
                   .final_no = final_no,
                   .cancelled = false,
                   .game_over = false,
                   .retry_after = retry_after,
                   .error = "HTTP error"};
}
inline GameInput post_failed(bool final_no, std::optional<std::chrono::milliseconds> after = {}) {
    return game::MovePosted{failed(final_no, after)};
}
// A line the client could not read (lichess::GameUnreadable).
inline GameInput unreadable(const std::string& type, const std::string& field) {
    return game::UnreadableReceived{{type, kGame, field, "expected a number, got text"}};
}
// gameFull with our clock (we are white) at `wtime_ms`, after `moves`.
inline GameInput full_with_clock(const std::string& moves, std::int64_t wtime_ms) {
    auto f = full_game(true, moves);
    f.state.wtime_ms = wtime_ms;
    return game::FullReceived{f};
}
inline GameInput gone(int seconds) { return game::OpponentGoneReceived{{true, seconds}}; }
inline GameInput back() { return game::OpponentGoneReceived{{false, std::nullopt}}; }
inline GameInput claimed(bool ok, bool final_no = false) {
    return game::ClaimAnswered{ok ? Outcome{} : failed(final_no)};
}

inline GameSettings base_settings() {
    using namespace std::chrono_literals;
    GameSettings s;
    s.game_id = kGame;
    s.my_id = "outpost";
    s.my_name = "Outpost";
    s.abort_time = 20s;
    return s;
}

inline ParkingRules parking(std::chrono::milliseconds linger, bool first_visit = true) {
    ParkingRules p;
    p.linger = linger;
    p.first_visit = first_visit;
    return p;
}

}  // namespace service::game_inputs
