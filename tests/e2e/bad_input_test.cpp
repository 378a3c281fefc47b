// End-to-end bad input from the server: an illegal move list, an unknown status, a
// gameFull for other players, for another game id, with an unparsable initial FEN, or a line
// with a field of the wrong type each end that game's session with a clear log line and leave
// the game; the daemon plays on.
#include <gtest/gtest.h>

#include "bot_fixture.hpp"
#include "tests/support/log_capture.hpp"

namespace e2e {
namespace {

struct BadInput {
    std::string game;       // 8-character game id
    std::string line_type;  // the stream line that is patched
    int after_lines;        // 0: the first gameFull; more: a gameState in the middle
    std::string patch;      // JSON merge patch
    std::string log_part;   // what the session's log line must say
};

const std::vector<BadInput> kCases = {
    {"badmoves", "gameState", 5, R"({"moves": "e2e4 e7e5 e1e8"})",
     "ending the session: the move list does not replay legally"},
    {"badstat1", "gameState", 5, R"({"status": "brandNewStatus"})",
     "ending the session: unknown game status 'brandNewStatus'"},
    {"badplayr", "gameFull", 0,
     R"({"white": {"id": "someoneelse", "name": "SomeoneElse"},
         "black": {"id": "anotherone", "name": "AnotherOne"}})",
     "ending the session: gameFull names neither player as us"},
    {"badgid01", "gameFull", 0, R"({"id": "othergme"})",
     "ending the session: gameFull is for another game ('othergme')"},
    {"badfen01", "gameFull", 0, R"({"initialFen": "rnbqkbnr/pppppppp/8/8 w KQkq - zero one"})",
     "ending the session: the initial FEN 'rnbqkbnr/pppppppp/8/8 w KQkq - zero one' is not a "
     "standard position"},
    // Lines the client cannot read: the game's state is unknown, so it is left, not lost on time.
    {"badclock", "gameState", 5, R"({"wtime": "soon"})",
     "ending the session: its gameState could not be read (wtime)"},
    {"badfull1", "gameFull", 0, R"({"clock": {"initial": "one minute", "increment": 0}})",
     "ending the session: its gameFull could not be read (clock.initial)"},
};

std::string scenario() {
    std::string s = "name: bad-input\nseed: 8\nkeepalive_ms: 400\nfaults:\n";
    for (const auto& c : kCases) {
        std::string patch = c.patch;
        for (auto& ch : patch)
            if (ch == '\n') ch = ' ';
        s += "  - {kind: inject, target: game_stream, game: " + c.game +
             ", line_type: " + c.line_type + ", after_lines: " + std::to_string(c.after_lines) +
             ", patch: '" + patch + "'}\n";
    }
    return s;
}

// The challenger plays a quiet line, not random moves: a random mover can walk into mate by ply 4
// (1.f3 e5 2.g4 Qh4#), before the patched line, and the game ends as a bot win, not resigned.
std::string challenge_yaml(const std::string& id, int resign_at_ply) {
    return "challenges:\n  - {id: " + id +
           ", at_ms: 0, challenger: {name: Tricky, title: BOT, rating: 1700}, clock: {limit: 60, "
           "increment: 0}, color: random, opponent: {kind: line, moves: \"" +
           std::string(kQuietLineEitherColour) +
           "\", think_ms: 20, resign_at_ply: " + std::to_string(resign_at_ply) + "}}\n";
}

TEST(E2eBadInput, EachBadLineEndsItsSessionAndTheDaemonPlaysOn) {
    using namespace std::chrono_literals;
    test_support::LogCapture log;  // outlives the daemon: its threads log to it until they stop
    emu::EmulatorFixture fx(scenario());
    BotRunner bot(fx, settings("{concurrency: 1}"));
    ASSERT_TRUE(wait_event_stream(fx));

    for (const auto& c : kCases) {
        SCOPED_TRACE(c.game);
        send_challenges(fx, challenge_yaml(c.game, 60));
        const auto g = fx.wait_game_over(c.game, 60s);
        ASSERT_TRUE(g.over) << describe(game(fx, c.game));
        // The bot left the game: aborted before move 2, resigned later; never a bot win.
        EXPECT_TRUE(g.status == "aborted" ||
                    (g.status == "resign" && g.winner && *g.winner != g.bot_color))
            << describe(g);
        if (c.after_lines > 0) {
            EXPECT_EQ(g.status, "resign") << describe(g);
        }
        EXPECT_TRUE(
            fx.wait_until([&] { return log.contains("game " + c.game + ": " + c.log_part); }, 5s))
            << "no log line '" << c.log_part << "' in:\n"
            << log.text();
        EXPECT_TRUE(fx.wait_until([&] { return bot.bot().slots().active == 0; }, 10s));
        EXPECT_EQ(bot.bot().active_games(), 0);
        EXPECT_EQ(rejected_moves(fx, c.game), 0);
    }
    int injected = 0;
    for (const auto& f : fx->faults_fired()) injected += f.kind == "inject";
    EXPECT_EQ(injected, int(kCases.size()));

    // Still running: the next game is played to its end.
    send_challenges(fx, challenge_yaml("goodgame", 14));
    const auto g = fx.wait_game_over("goodgame", 90s);
    ASSERT_TRUE(g.over) << describe(game(fx, "goodgame"));
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "goodgame"), 0);
    EXPECT_GE(bot_moves(g), 3) << describe(g);
    EXPECT_TRUE(fx.wait_until(
        [&] { return bot.bot().slots().active == 0 && bot.bot().slots().reserved == 0; }, 10s));
    EXPECT_EQ(bot.metrics().time_forfeits.load(), 0u);
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
