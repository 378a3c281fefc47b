// BotLimit: per-user credits in a window that starts at the first counted game.
#include "bot_limit.hpp"

#include <algorithm>

namespace emu {

const BotLimit::Entry* BotLimit::current(const std::string& user_id, Ms now) const {
    const auto it = users_.find(user_id);
    if (it == users_.end() || now >= it->second.window_start + window_ms_) return nullptr;
    return &it->second;
}

void BotLimit::preset(const std::string& user_id, int games, Ms now) {
    if (games > 0) users_[user_id] = Entry{games, now};
}

void BotLimit::charge(const std::string& user_id, Ms now) {
    if (const Entry* e = current(user_id, now)) {
        ++users_[user_id].games;
        (void)e;
        return;
    }
    users_[user_id] = Entry{1, now};  // a new window from this game
}

bool BotLimit::limited(const std::string& user_id, Ms now) const {
    const Entry* e = current(user_id, now);
    return e != nullptr && e->games >= per_window_;
}

Ms BotLimit::left_ms(const std::string& user_id, Ms now) const {
    if (!limited(user_id, now)) return 0;
    return std::max<Ms>(0, current(user_id, now)->window_start + window_ms_ - now);
}

}  // namespace emu
