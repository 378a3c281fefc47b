// One game on the emulated server: the position, both clocks, offers and the final status,
// driven by explicit timestamps so it is testable without threads or HTTP.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/position.hpp"
#include "scenario.hpp"

namespace emu {

struct Player {
    std::string id, name;
    std::optional<std::string> title;
    int rating = 1500;
    bool provisional = false;
};

// One move as the server saw it; times are ms since the emulator started.
struct MoveRecord {
    int ply = 0;      // 1-based: the first move of the game is ply 1
    std::string uci;  // as written in the move list
    bool by_bot = false;
    Ms at_ms = 0;
    Ms since_turn_ms = 0;        // from when the turn began on the server
    std::optional<Ms> think_ms;  // bot moves: from when the state was sent to the bot
    Ms wtime = 0, btime = 0;     // clocks after the move
};

struct GameSetup {
    std::string id;
    std::string variant = "standard";  // a Lichess key: standard, chess960, crazyhouse, ...
    std::string initial_fen;           // empty: the variant's start
    engine::Color bot_color = engine::WHITE;
    Player bot, opponent;
    bool rated = false;
    TimeControlSpec time_control;
    std::string source = "friend";
    int clock_start_ply = 2;
    Ms first_move_timeout_ms = 30000;
    bool king_to_rook = true;
    std::int64_t created_unix_ms = 0;
};

class Game {
  public:
    // Fails on a bad FEN or a preset move list that is not legal.
    static engine::Result<Game> create(GameSetup setup, const std::string& preset_moves, Ms now);

    const GameSetup& setup() const { return setup_; }
    const std::string& id() const { return setup_.id; }
    const engine::Position& position() const { return pos_; }
    engine::Color bot_color() const { return setup_.bot_color; }
    // Moves played since the initial position.
    int ply() const { return pos_.game_ply(); }
    bool bot_to_move() const { return !over() && pos_.side_to_move() == setup_.bot_color; }
    bool over() const { return status_ != "started"; }
    const std::string& status() const { return status_; }
    std::optional<engine::Color> winner() const { return winner_; }
    bool has_clock() const { return setup_.time_control.limit_s.has_value(); }
    bool clock_running() const;
    Ms remaining(engine::Color c, Ms now) const;
    Ms turn_started_at() const { return turn_start_; }
    Ms ended_at() const { return ended_at_; }
    const std::vector<MoveRecord>& records() const { return records_; }
    std::string speed() const;
    std::string uci_moves() const;
    std::string last_move() const { return uci_.empty() ? "" : uci_.back(); }
    bool draw_offer(engine::Color c) const { return draw_offer_[c]; }
    bool takeback_offer(engine::Color c) const { return takeback_offer_[c]; }

    // Plays a move for `by`; returns an error text for the 400 body, or nothing on success.
    std::optional<std::string> play(engine::Color by, const std::string& uci, Ms now, bool by_bot);
    // Ends the game by time when the side to move flagged or never made its first move.
    bool check_time(Ms now);
    void finish(const std::string& status, std::optional<engine::Color> winner, Ms now);
    bool abortable() const { return !over() && ply() < 2; }
    // lila GameExt.expirable: only games from Source.expirable (lobby, arena, pool, swiss) have
    // a first-move timer; challenge games (source friend) have none.
    bool expirable() const {
        const auto& s = setup_.source;
        return setup_.first_move_timeout_ms > 0 &&
               (s == "lobby" || s == "arena" || s == "pool" || s == "swiss");
    }
    void set_draw_offer(engine::Color c, bool v) { draw_offer_[c] = v; }
    void set_takeback_offer(engine::Color c, bool v) { takeback_offer_[c] = v; }
    // Takes back the proposer's last move (one or two plies); false when there is none.
    bool take_back(engine::Color proposer, Ms now);
    void set_think_ms(int ply, Ms think) {
        if (ply >= 1 && ply <= int(records_.size())) records_[ply - 1].think_ms = think;
    }

  private:
    explicit Game(GameSetup s) : setup_(std::move(s)) {}
    std::string uci_text(engine::Move m) const;
    void end_if_terminal(Ms now);

    GameSetup setup_;
    engine::Position pos_;
    std::vector<std::string> uci_;
    std::vector<MoveRecord> records_;
    Ms stored_[2] = {0, 0};
    Ms turn_start_ = 0;
    Ms ended_at_ = -1;
    std::string status_ = "started";
    std::optional<engine::Color> winner_;
    bool draw_offer_[2] = {false, false};
    bool takeback_offer_[2] = {false, false};
};

const char* color_name(engine::Color c);
std::string speed_of(const TimeControlSpec& tc);

}  // namespace emu
