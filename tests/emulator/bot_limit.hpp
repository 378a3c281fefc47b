// lila's daily limit of bot-vs-bot games (modules/bot/src/main/BotLimit.scala): every game
// whose players are all BOTs costs each of them one credit; 100 credits per window, the window
// running from the first counted game (lila.memo.RateLimit: clearAt = first charge + 1 day).
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace emu {

using Ms = std::int64_t;

class BotLimit {
  public:
    BotLimit(int per_window, Ms window_ms) : per_window_(per_window), window_ms_(window_ms) {}

    // Credits a user had spent before the emulator started (window starting at `now`).
    void preset(const std::string& user_id, int games, Ms now);
    // A bot-vs-bot game started: one credit for this user.
    void charge(const std::string& user_id, Ms now);
    // The user has no credit left in the current window.
    [[nodiscard]] bool limited(const std::string& user_id, Ms now) const;
    // Milliseconds until the user's window clears (0 when not limited).
    [[nodiscard]] Ms left_ms(const std::string& user_id, Ms now) const;
    [[nodiscard]] int per_window() const { return per_window_; }

  private:
    struct Entry {
        int games = 0;
        Ms window_start = 0;
    };
    const Entry* current(const std::string& user_id, Ms now) const;

    int per_window_;
    Ms window_ms_;
    std::map<std::string, Entry> users_;
};

}  // namespace emu
