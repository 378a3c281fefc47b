// ChatCommands: parsing, each command's reply in each room, !eval's length, !wait once, our
// own lines, and the per-command spam guard.
#include "service/daemon/chat_commands.hpp"

#include <gtest/gtest.h>

#include "engine/position.hpp"
#include "service/game/chat_text.hpp"

namespace service {
namespace {

lichess::ChatLine line(std::string room, std::string text, std::string user = "alice") {
    return lichess::ChatLine{
        .room = std::move(room), .username = std::move(user), .text = std::move(text)};
}

SlotSnapshot slots(int active, int limit, int reserved) {
    SlotSnapshot s;
    s.active = active;
    s.limit = limit;
    s.reserved = reserved;
    return s;
}

struct Harness {
    SlotSnapshot snapshot = slots(1, 2, 0);
    ChatCommands commands{"outpostbot", "OutpostBot"};
    ChatCommands::Clock::time_point now{};

    // The session hands the daemon's slot counts down with each line.
    std::optional<ChatReply> say(const std::string& room, const std::string& text,
                                 ChatFacts facts = {}) {
        using namespace std::chrono_literals;
        now += 1min;  // past the spam guard unless a test says otherwise
        if (!facts.slots) facts.slots = snapshot;
        return commands.answer(line(room, text), facts, now);
    }
};

engine::Move uci(const engine::Position& pos, std::string_view text) {
    auto m = pos.parse_uci(text);
    EXPECT_TRUE(m) << text;
    return *m;
}

TEST(ChatCommands, ParsesCommandsAndNothingElse) {
    EXPECT_EQ(parse_chat_command("!help"), ChatCommand::Help);
    EXPECT_EQ(parse_chat_command("  !EVAL please"), ChatCommand::Eval);
    EXPECT_EQ(parse_chat_command("!name?"), ChatCommand::Name);
    EXPECT_EQ(parse_chat_command("!Wait"), ChatCommand::Wait);
    EXPECT_EQ(parse_chat_command("!queue"), ChatCommand::Queue);
    EXPECT_EQ(parse_chat_command("help"), std::nullopt);
    EXPECT_EQ(parse_chat_command("say !help"), std::nullopt);
    EXPECT_EQ(parse_chat_command("!helpme"), std::nullopt);
    EXPECT_EQ(parse_chat_command("!"), std::nullopt);
    EXPECT_EQ(parse_chat_command(""), std::nullopt);
}

TEST(ChatCommands, HelpAndNameInBothRooms) {
    Harness h;
    for (const char* room : {"player", "spectator"}) {
        auto help = h.say(room, "!help");
        ASSERT_TRUE(help);
        for (const char* c : {"!help", "!name", "!eval", "!wait", "!queue"})
            EXPECT_NE(help->text.find(c), std::string::npos) << c;
        auto name = h.say(room, "!name");
        ASSERT_TRUE(name);
        EXPECT_NE(name->text.find("OutpostBot"), std::string::npos) << name->text;
        EXPECT_NE(name->text.find("Outpost " + outpost_version()), std::string::npos) << name->text;
        EXPECT_EQ(name->room, std::string(room) == "player" ? lichess::ChatRoom::Player
                                                            : lichess::ChatRoom::Spectator);
    }
}

TEST(ChatCommands, IgnoresOurOwnLinesUnknownCommandsAndUnknownRooms) {
    Harness h;
    EXPECT_FALSE(h.commands.answer(line("player", "!help", "OutpostBot"), {}, h.now));
    EXPECT_FALSE(h.commands.answer(line("spectator", "!help", "outpostbot"), {}, h.now));
    EXPECT_FALSE(h.say("player", "!resign"));
    EXPECT_FALSE(h.say("player", "good luck"));
    EXPECT_FALSE(h.say("lobby", "!help"));
}

TEST(ChatCommands, EvalIsForSpectators) {
    Harness h;
    auto pos = engine::Position::start();
    LastSearch s{.position = pos, .info = {}};
    s.info.score = {.is_mate = false, .value = 35};
    s.info.depth = 12;
    s.info.nodes = 1'234'567;
    s.info.nps = 850'000;
    s.info.pv = {uci(pos, "e2e4")};
    auto player = h.say("player", "!eval", {.last_search = &s});
    ASSERT_TRUE(player);
    EXPECT_EQ(player->room, lichess::ChatRoom::Player);
    EXPECT_NE(player->text.find("spectator"), std::string::npos) << player->text;
    EXPECT_EQ(player->text.find("+0.35"), std::string::npos) << player->text;

    auto spectator = h.say("spectator", "!eval", {.last_search = &s});
    ASSERT_TRUE(spectator);
    EXPECT_EQ(spectator->room, lichess::ChatRoom::Spectator);
    EXPECT_EQ(spectator->text, "Eval +0.35 (White's view), depth 12, 1.2M nodes, 850k nps, pv: e4");

    auto none = h.say("spectator", "!eval");
    ASSERT_TRUE(none);
    EXPECT_NE(none->text.find("No evaluation"), std::string::npos);
}

TEST(ChatCommands, EvalShowsWhitesViewAndMates) {
    // We are Black here: our +1.20 is White's -1.20; our mate in 2 is White's #-2.
    auto pos = engine::Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 b - - 0 1");
    ASSERT_TRUE(pos);
    LastSearch s{.position = *pos, .info = {}};
    s.info.score = {.is_mate = false, .value = 120};
    s.info.nodes = 950;
    s.info.nps = 12'000;
    EXPECT_EQ(eval_text(s), "Eval -1.20 (White's view), depth 0, 950 nodes, 12k nps");
    s.info.score = {.is_mate = true, .value = 2};
    EXPECT_NE(eval_text(s).find("Eval #-2 "), std::string::npos) << eval_text(s);
    s.info.score = {.is_mate = false, .value = -7};
    EXPECT_NE(eval_text(s).find("Eval +0.07 "), std::string::npos) << eval_text(s);
}

TEST(ChatCommands, EvalCutsALongPvByWholeMovesToTheChatLimit) {
    // Knights shuffling back and forth: a pv as long as we like, all legal.
    auto pos = engine::Position::start();
    LastSearch s{.position = pos, .info = {}};
    s.info.score = {.is_mate = false, .value = -1234};
    s.info.depth = 99;
    s.info.nodes = 987'654'321;
    s.info.nps = 98'765'432;
    const char* cycle[] = {"g1f3", "g8f6", "f3g1", "f6g8"};
    for (int i = 0; i < 60; ++i) {
        s.info.pv.push_back(uci(pos, cycle[i % 4]));
        pos.play(s.info.pv.back());
    }
    const std::string text = eval_text(s);
    EXPECT_LE(text.size(), kChatLimit);
    EXPECT_GT(text.size(), kChatLimit - 5) << text;  // filled, not cut early
    EXPECT_EQ(
        text.rfind(
            "Eval -12.34 (White's view), depth 99, 987.7M nodes, 98.8M nps, pv: Nf3 Nf6 Ng1 Ng8",
            0),
        0u)
        << text;
    const std::string last = text.substr(text.rfind(' ') + 1);
    EXPECT_TRUE(last == "Nf3" || last == "Nf6" || last == "Ng1" || last == "Ng8") << text;
}

TEST(ChatCommands, EvalStopsThePvAtAMoveThatIsNotLegal) {
    auto pos = engine::Position::start();
    LastSearch s{.position = pos, .info = {}};
    s.info.pv = {uci(pos, "e2e4"), uci(pos, "d2d4")};  // d2d4 is not Black's move
    EXPECT_EQ(eval_text(s), "Eval +0.00 (White's view), depth 0, 0 nodes, 0 nps, pv: e4");
}

TEST(ChatCommands, EvalInAVariantGameWritesDropsAndAVariantWinAsLichessDoes) {
    // Crazyhouse, Black to move with a knight in the pocket: the pv drops it with check, and a
    // three-check game's third check is written as the win ('#'), as lila's SAN does.
    auto zh = engine::Position::from_fen(
        "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Nn] b KQkq - 0 4",
        engine::Variant::CRAZYHOUSE);
    ASSERT_TRUE(zh) << zh.error();
    LastSearch s{.position = *zh, .info = {}};
    s.info.score = {.is_mate = true, .value = 3};
    s.info.pv = {uci(*zh, "N@d3")};
    EXPECT_EQ(eval_text(s), "Eval #-3 (White's view), depth 0, 0 nodes, 0 nps, pv: N@d3+");

    auto three = engine::Position::from_fen(
        "rnbqkbnr/ppp2ppp/8/3pp3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3 +2+0",
        engine::Variant::THREE_CHECK);
    ASSERT_TRUE(three) << three.error();
    LastSearch t{.position = *three, .info = {}};
    t.info.pv = {uci(*three, "f1b5")};
    EXPECT_EQ(eval_text(t), "Eval +0.00 (White's view), depth 0, 0 nodes, 0 nps, pv: Bb5#");
}

TEST(ChatCommands, WaitExtendsTheAbortTimerOnceBeforeTheFirstMoves) {
    using namespace std::chrono_literals;
    Harness h;
    auto first = h.say("player", "!wait", {.first_moves_pending = true});
    ASSERT_TRUE(first);
    EXPECT_EQ(first->extend_abort_timer, 60s);
    EXPECT_NE(first->text.find("60 seconds"), std::string::npos) << first->text;

    auto again = h.say("player", "!wait", {.first_moves_pending = true});
    ASSERT_TRUE(again);
    EXPECT_EQ(again->extend_abort_timer, 0s);
    EXPECT_NE(again->text.find("already"), std::string::npos) << again->text;

    Harness late;
    auto after = late.say("spectator", "!wait", {.first_moves_pending = false});
    ASSERT_TRUE(after);
    EXPECT_EQ(after->extend_abort_timer, 0s);
    EXPECT_NE(after->text.find("before the first moves"), std::string::npos) << after->text;
}

TEST(ChatCommands, QueueTellsGamesAndWaitingChallenges) {
    Harness h;
    auto q = h.say("player", "!queue");
    ASSERT_TRUE(q);
    EXPECT_EQ(q->text, "Playing 1 of 2 games; no challenges waiting.");
    h.snapshot = slots(1, 1, 0);
    EXPECT_EQ(h.say("spectator", "!queue")->text, "Playing 1 of 1 game; no challenges waiting.");
    h.snapshot = slots(2, 3, 1);
    EXPECT_EQ(h.say("spectator", "!queue")->text,
              "Playing 2 of 3 games; 1 challenge accepted, waiting to start.");
    h.snapshot = slots(3, 3, 2);
    EXPECT_EQ(h.say("player", "!queue")->text,
              "Playing 3 of 3 games; 2 challenges accepted, waiting to start.");
    h.snapshot.queued = {"Alice", "SomeBot"};
    EXPECT_EQ(h.say("spectator", "!queue")->text,
              "Playing 3 of 3 games; 2 challenges accepted, waiting to start; in the queue: "
              "Alice, SomeBot.");
    h.snapshot.reserved = 0;
    h.snapshot.queued.assign(20, "AVeryLongUserName");
    const std::string cut = h.say("player", "!queue")->text;
    EXPECT_LE(cut.size(), 140u) << cut;
    EXPECT_NE(cut.find("more."), std::string::npos) << cut;

    ChatCommands blind("outpostbot", "OutpostBot", {});
    auto none = blind.answer(line("player", "!queue"), {});
    ASSERT_TRUE(none);
    EXPECT_FALSE(none->text.empty());
}

TEST(ChatCommands, OneReplyPerCommandAndRoomPerInterval) {
    using namespace std::chrono_literals;
    ChatCommands c("outpostbot", "OutpostBot",
                   ChatCommandSettings{.reply_interval = 10s, .wait_extension = 60s});
    const ChatCommands::Clock::time_point t0{};
    EXPECT_TRUE(c.answer(line("player", "!help"), {}, t0));
    EXPECT_FALSE(c.answer(line("player", "!help"), {}, t0 + 1s));
    EXPECT_FALSE(c.answer(line("player", "!HELP"), {}, t0 + 9999ms));
    // Other commands and the other room have their own clocks.
    EXPECT_TRUE(c.answer(line("player", "!name"), {}, t0 + 1s));
    EXPECT_TRUE(c.answer(line("spectator", "!help"), {}, t0 + 1s));
    EXPECT_TRUE(c.answer(line("player", "!help"), {}, t0 + 10s));
    // A spammer gets one reply per interval, however many lines.
    int replies = 0;
    for (int i = 0; i < 100; ++i)
        if (c.answer(line("spectator", "!name"), {}, t0 + 20s + i * 200ms)) ++replies;
    EXPECT_EQ(replies, 2);  // at 20 s and at 30 s
}

TEST(ChatCommands, EveryReplyFitsTheChatLimit) {
    Harness h;
    ChatCommands long_name("x", std::string(200, 'n'), {});
    auto r = long_name.answer(line("player", "!name"), {});
    ASSERT_TRUE(r);
    EXPECT_LE(r->text.size(), kChatLimit);
    for (const char* cmd : {"!help", "!name", "!eval", "!wait", "!queue"})
        for (const char* room : {"player", "spectator"}) {
            auto reply = h.say(room, cmd, {.first_moves_pending = true});
            ASSERT_TRUE(reply) << cmd;
            EXPECT_LE(reply->text.size(), kChatLimit) << cmd;
            EXPECT_FALSE(reply->text.empty()) << cmd;
        }
}

}  // namespace
}  // namespace service

namespace service {
namespace {

TEST(ChatCommands, LevelTellsTheGamesLevelAndHowItWasChosen) {
    Harness h;
    EXPECT_EQ(parse_chat_command("!level"), ChatCommand::Level);
    EXPECT_NE(h.say("player", "!help")->text.find("!level"), std::string::npos);
    EXPECT_EQ(h.say("player", "!level")->text, "My level for this game is not chosen yet.");
    const GameLevel matched{1150, "the opponent's blitz rating 1200, offset -50"};
    ChatFacts facts;
    facts.level = &matched;
    EXPECT_EQ(h.say("player", "!level", facts)->text,
              "I play this game at level 1150 (the opponent's blitz rating 1200, offset -50).");
    const GameLevel full{std::nullopt, "a bot, and engine.strength.match_bots is false"};
    facts.level = &full;
    EXPECT_EQ(h.say("spectator", "!level", facts)->text,
              "I play this game at full strength (a bot, and engine.strength.match_bots is "
              "false).");
}

}  // namespace
}  // namespace service
