// End-to-end chat commands: each answered in the room it was asked in, spam answered once,
// !eval only for spectators, and !wait keeping a slow opponent's game from being aborted.
#include <gtest/gtest.h>

#include <algorithm>

#include "bot_fixture.hpp"
#include "service/game/chat_text.hpp"

namespace e2e {
namespace {

constexpr const char* kBot = "OutpostBot";  // the emulator's default account

// The bot's chat lines in `room` that contain `part`.
int bot_lines(const emu::GameView& g, const std::string& room, const std::string& part) {
    return int(std::count_if(g.chat.begin(), g.chat.end(), [&](const emu::ChatRecord& c) {
        return c.user == kBot && c.room == room && c.text.find(part) != std::string::npos;
    }));
}

std::string chat_dump(const emu::GameView& g) {
    std::string s;
    for (const auto& c : g.chat) s += "\n  [" + c.room + "] " + c.user + ": " + c.text;
    return s;
}

TEST(E2eChatCommands, AnsweredInTheRoomTheyWereAskedInOncePerSpam) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: chat\nseed: 31\nkeepalive_ms: 500\n");
    BotRunner bot(fx);
    ASSERT_TRUE(wait_event_stream(fx));
    // The opponent asks in both rooms (the emulator lets a scripted player use either);
    // !help three times in a row gets one answer. !eval waits for the bot's first search. The
    // game must last while the paced replies go out: the opponent plays a quiet line, not random
    // moves, which can walk into mate within a few moves.
    send_challenges(fx, R"(
challenges:
  - id: chat0001
    at_ms: 0
    challenger: {name: Chatty, rating: 1500}
    clock: {limit: 120, increment: 2}
    color: black
    opponent:
      kind: line
      moves: "e7e5 b8c6 g8f6 f8e7 e8g8 d7d6 h7h6 c8e6 d8d7 a7a6 f8e8 a8d8"
      think_ms: 30
      resign_at_ply: 30
      chat:
        - {at_ply: 0, room: player, text: "!help"}
        - {at_ply: 0, room: player, text: "!help"}
        - {at_ply: 0, room: player, text: "!HELP"}
        - {at_ply: 0, room: spectator, text: "!name"}
        - {at_ply: 2, room: player, text: "!eval"}
        - {at_ply: 2, room: spectator, text: "!eval"}
        - {at_ply: 2, room: spectator, text: "!queue"}
)");
    const auto answered = [&] {
        const auto g = game(fx, "chat0001");
        return bot_lines(g, "player", "Commands:") >= 1 &&
               bot_lines(g, "spectator", "Eval ") >= 1 &&
               bot_lines(g, "spectator", "Playing ") >= 1 &&
               bot_lines(g, "player", "ask in the spectator room") >= 1 &&
               bot_lines(g, "spectator", "plays with Outpost") >= 1;
    };
    // Replies are paced (ChatSender: one line per 1.2 s, after the two greetings).
    ASSERT_TRUE(fx.wait_until(answered, 40s)) << chat_dump(game(fx, "chat0001"));
    const auto g = game(fx, "chat0001");
    EXPECT_EQ(bot_lines(g, "player", "Commands:"), 1) << chat_dump(g);
    EXPECT_EQ(bot_lines(g, "spectator", "Commands:"), 0) << chat_dump(g);
    EXPECT_EQ(
        bot_lines(g, "spectator", "OutpostBot plays with Outpost " + service::outpost_version()), 1)
        << chat_dump(g);
    // !eval: the numbers for spectators, a pointer to the spectator room for the player.
    EXPECT_EQ(bot_lines(g, "player", "Eval "), 0) << chat_dump(g);
    EXPECT_EQ(bot_lines(g, "spectator", "(White's view), depth "), 1) << chat_dump(g);
    EXPECT_EQ(bot_lines(g, "spectator", "Playing 1 of 1 game"), 1) << chat_dump(g);
    for (const auto& c : g.chat) EXPECT_LE(c.text.size(), 140u) << c.text;
    EXPECT_EQ(bot.stop(), 0);
}

TEST(E2eChatCommands, WaitKeepsASlowFirstMoveFromBeingAborted) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: wait\nseed: 32\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{concurrency: 2}", "abort_time: 5\n"));
    ASSERT_TRUE(wait_event_stream(fx));
    // Two opponents with White who take 6.5 s over their first move, past the bot's 5 s
    // abort time: the one who asked for !wait gets the game, the other is aborted.
    send_challenges(fx, R"(
challenges:
  - id: wait0001
    at_ms: 0
    challenger: {name: Slowpoke, rating: 1500}
    clock: {limit: 120, increment: 2}
    color: white
    opponent: {kind: random, think_ms: 6500, resign_at_ply: 2, chat: [{at_ply: 0, room: player, text: "!wait"}]}
  - id: wait0002
    at_ms: 0
    challenger: {name: Silent, rating: 1500}
    clock: {limit: 120, increment: 2}
    color: white
    opponent: {kind: random, think_ms: 6500, resign_at_ply: 2}
)");
    const auto waited = fx.wait_game_over("wait0001", 60s);
    const auto aborted = fx.wait_game_over("wait0002", 30s);
    ASSERT_TRUE(waited.over) << describe(game(fx, "wait0001"));
    ASSERT_TRUE(aborted.over) << describe(game(fx, "wait0002"));
    EXPECT_EQ(aborted.status, "aborted") << describe(aborted);
    EXPECT_TRUE(has_event(aborted, "aborted_by_bot@0")) << describe(aborted);

    EXPECT_EQ(waited.status, "resign") << describe(waited);
    EXPECT_FALSE(has_event(waited, "aborted_by_bot")) << describe(waited);
    EXPECT_EQ(waited.winner.value_or(""), "black") << describe(waited);
    EXPECT_EQ(bot_lines(waited, "player", "wait 60 seconds longer"), 1) << chat_dump(waited);
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
