// ChatCommands: answers !help, !name, !eval, !wait, !queue and !level in a game's player and
// spectator rooms, at most one reply per command and room every few seconds.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "lichess_client/api.hpp"
#include "lichess_client/events.hpp"
#include "service/challenges/game_slots.hpp"
#include "service/game/last_search.hpp"
#include "service/game/strength_level.hpp"

namespace service {

enum class ChatCommand { Help, Name, Eval, Wait, Queue, Level };

// "!eval", "  !EVAL please" -> Eval; anything else (no '!', unknown word) -> nullopt.
[[nodiscard]] std::optional<ChatCommand> parse_chat_command(std::string_view text);

// "Eval +0.35 (White's view), depth 12, 1.2M nodes, 850k nps, pv: e4 e5 Nf3": the score from
// White's side (so spectators need not know our colour), the pv in SAN, cut by whole moves so
// the line fits the 140-character chat limit.
[[nodiscard]] std::string eval_text(const LastSearch& search);

// "I play this game at level 1200 (the opponent's blitz rating 1200)." or "... at full strength
// (...)": the answer to !level.
[[nodiscard]] std::string level_reply(const GameLevel& level);

struct ChatCommandSettings {
    // A second reply to the same command in the same room waits this long (spam guard).
    std::chrono::milliseconds reply_interval{std::chrono::seconds(10)};
    // What !wait adds to the abort timer, once per game.
    std::chrono::seconds wait_extension{60};
};

// What the session knows when a line arrives.
struct ChatFacts {
    const LastSearch* last_search = nullptr;  // none before our first search
    bool first_moves_pending = false;         // the opponent has not moved: the abort timer runs
    std::optional<SlotSnapshot> slots{};      // the daemon's slot counts (!queue); none: unknown
    const GameLevel* level = nullptr;         // the game's level (!level); none before gameFull
};

struct ChatReply {
    lichess::ChatRoom room = lichess::ChatRoom::Player;
    std::string text;
    std::chrono::seconds extend_abort_timer{0};  // !wait: add this to the abort timer
};

// One per game (the spam guard and !wait are per game). Worker-thread only.
class ChatCommands {
  public:
    using Clock = std::chrono::steady_clock;

    // my_id: our lowercase user id (our own lines are never answered); my_name: our display
    // name for !name.
    ChatCommands(std::string my_id, std::string my_name, ChatCommandSettings settings = {});

    // The reply to a chat line, in the line's room; nullopt for our own lines, lines that are
    // no command, and commands answered in that room less than reply_interval ago.
    [[nodiscard]] std::optional<ChatReply> answer(const lichess::ChatLine& line,
                                                  const ChatFacts& facts,
                                                  Clock::time_point now = Clock::now());

  private:
    [[nodiscard]] std::string reply_text(ChatCommand command, lichess::ChatRoom room,
                                         const ChatFacts& facts, ChatReply& reply);

    std::string my_id_;
    std::string my_name_;
    ChatCommandSettings settings_;
    std::map<std::pair<ChatCommand, lichess::ChatRoom>, Clock::time_point> last_reply_;
    bool waited_ = false;
};

}  // namespace service
