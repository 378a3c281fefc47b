// GameWatch: what the status page shows of one game (ops/status.hpp), read from the game's rules
// and from what its session feeds them: the clocks of the last state and when it came, where our
// last move came from and what the search said of it, how the game ended.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "service/game/game_rules.hpp"
#include "service/ops/status.hpp"

namespace service {

class GameWatch {
  public:
    // Called with each input before the rules get it.
    void saw(const GameInput& input, WallTime now);

    // The game now (the rules have had their gameFull).
    [[nodiscard]] GameStatus status(const GameRules& rules) const;
    // The game as the finished list keeps it.
    [[nodiscard]] FinishedGameStatus finished(const GameRules& rules, GameResult result,
                                              std::string pgn_path, WallTime now) const;
    // Our clock in the last state, in a game with a clock.
    [[nodiscard]] std::optional<std::int64_t> our_clock_ms(const GameRules& rules) const;

  private:
    std::int64_t white_ms_ = 0;
    std::int64_t black_ms_ = 0;
    WallTime clocks_at_{};
    std::string status_name_;  // of the last state: "started", "mate", ...
    std::optional<StatusMove> our_last_move_;
};

// "3+2", "½+0", "1.5+1" (Lichess's way: minutes + seconds), "3 days", "unlimited".
[[nodiscard]] std::string time_control_text(const lichess::GameFull& full);

}  // namespace service
