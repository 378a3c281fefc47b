// End-to-end online sources: the daemon plays a move of each source the emulator
// serves (logged, marked in the PGN, counted in /metrics), and a bullet game with every source
// slow or failing ends with no time lost, each lookup given up within its deadline.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bot_fixture.hpp"
#include "engine/timeman.hpp"
#include "service/moves/online_choice.hpp"
#include "tests/support/log_capture.hpp"
#include "tests/support/time_scale.hpp"

namespace e2e {
namespace {

// Every source at the emulator's online port, asked from the first second of the clock on.
std::string online_config(emu::EmulatorFixture& fx, const std::string& enabled) {
    const std::string url = fx.emulator().online_url();
    std::string yaml = "online_moves:\n";
    for (const char* source :
         {"lichess_opening_explorer", "lichess_cloud_analysis", "online_egtb", "chessdb_book"}) {
        const bool on = enabled == "all" || enabled == source;
        yaml += std::string("  ") + source + ": {enabled: " + (on ? "true" : "false") +
                ", min_time: 0, url: \"" + url + "\"}\n";
    }
    return yaml;
}

struct SourceCase {
    const char* name;
    const char* config_key;  // online_moves.<key>
    const char* fen;         // "" for the start position
    const char* logged;      // "(explorer)", ...
    std::size_t metric;      // index in Metrics::online
};

void PrintTo(const SourceCase& c, std::ostream* os) { *os << c.name; }

class E2eOnline : public ::testing::TestWithParam<SourceCase> {};

TEST_P(E2eOnline, TheSourcesMoveIsPlayedLoggedAndMarked) {
    using namespace std::chrono_literals;
    const SourceCase& c = GetParam();
    test_support::LogCapture log;
    emu::EmulatorFixture fx("name: online\nseed: 16\nkeepalive_ms: 500\n");
    const auto pgn_dir = std::filesystem::temp_directory_path() /
                         (std::string("e2e-online-") + c.name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(pgn_dir);
    BotSettings s =
        settings("{concurrency: 1}",
                 online_config(fx, c.config_key) + "pgn_directory: \"" + pgn_dir.string() + "\"\n");
    BotRunner bot(fx, s);
    ASSERT_TRUE(wait_event_stream(fx));
    const std::string fen =
        c.fen[0] ? std::string(", variant: fromPosition, initial_fen: \"") + c.fen + "\"" : "";
    // The opponent resigns on its turn after the bot's first move.
    send_challenges(fx, std::string("challenges:\n  - {id: onl00001, at_ms: 0, challenger: "
                                    "{name: Student, rating: 1500}, clock: {limit: 300, "
                                    "increment: 0}, color: black") +
                            fen + ", opponent: {kind: random, think_ms: 20, resign_at_ply: 1}}\n");
    const auto g = fx.wait_game_over("onl00001", 60s);
    ASSERT_TRUE(g.over) << describe(game(fx, "onl00001"));
    ASSERT_FALSE(g.moves.empty());
    const std::string first = g.moves.front().uci;
    EXPECT_TRUE(g.moves.front().by_bot);
    ASSERT_TRUE(fx.wait_until([&] { return bot.bot().active_games() == 0; }, 10s));
    const std::string text = log.text();
    EXPECT_NE(text.find("game onl00001: move " + first + " " + c.logged), std::string::npos)
        << text;
    EXPECT_EQ(bot.metrics().online[c.metric].hits.load(), 1u);
    EXPECT_EQ(bot.metrics().online[c.metric].errors.load(), 0u);
    // The PGN marks the move with its source, as a book move is marked { book }.
    std::string pgn;
    ASSERT_TRUE(fx.wait_until(
        [&] {
            if (!std::filesystem::exists(pgn_dir)) return false;
            for (const auto& e : std::filesystem::directory_iterator(pgn_dir)) {
                std::ifstream in(e.path());
                std::stringstream all;
                all << in.rdbuf();
                pgn = all.str();
            }
            return !pgn.empty();
        },
        10s));
    const std::string mark =
        "{ " + std::string(c.logged).substr(1, std::strlen(c.logged) - 2);  // "{ explorer"
    EXPECT_NE(pgn.find(mark), std::string::npos) << pgn;
    EXPECT_EQ(bot.stop(), 0);
    std::filesystem::remove_all(pgn_dir);
}

INSTANTIATE_TEST_SUITE_P(
    Sources, E2eOnline,
    ::testing::Values(SourceCase{"Explorer", "lichess_opening_explorer", "", "(explorer)", 0},
                      SourceCase{"Cloud", "lichess_cloud_analysis", "", "(cloud)", 1},
                      // The tablebase spec's example: white to move wins with h8=Q.
                      SourceCase{"Tablebase", "online_egtb", "4k3/6KP/8/8/8/8/7p/8 w - - 0 1",
                                 "(tablebase)", 2},
                      SourceCase{"Chessdb", "chessdb_book", "", "(chessdb)", 3}),
    [](const auto& info) { return std::string(info.param.name); });

// Every source slow or failing in a 1+0 game: the explorer answers 5 s late (past any deadline),
// cloud eval and chessdb answer 429, the tablebase 503. The bot must lose no time to them: each
// lookup is given up within its deadline (at most 2 s) and the game is played to a legal end.
TEST(E2eOnlineFaults, ABulletGameWithEverySourceSlowOrFailingLosesNoTime) {
    using namespace std::chrono_literals;
    test_support::LogCapture log;
    emu::EmulatorFixture fx(R"(name: online-faults
seed: 16
keepalive_ms: 500
faults:
  - {kind: delay, target: explorer, delay_ms: 5000, count: -1}
  - {kind: http_429, target: cloud_eval, retry_after_s: 5, count: -1}
  - {kind: http_429, target: chessdb, count: -1}
  - {kind: http_5xx, target: tablebase, status: 503, count: -1}
)");
    BotRunner bot(fx, settings("{concurrency: 1}", online_config(fx, "all")));
    ASSERT_TRUE(wait_event_stream(fx));
    send_challenges(fx,
                    "challenges:\n  - {id: onlf0001, at_ms: 0, challenger: {name: Blitzer, "
                    "rating: 1500}, clock: {limit: 60, increment: 0}, color: black, opponent: "
                    "{kind: engine, depth: 1, think_ms: 50, resign_at_ply: 40}}\n");
    const auto g = fx.wait_game_over("onlf0001", 180s);
    ASSERT_TRUE(g.over) << describe(game(fx, "onlf0001"));
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_FALSE(bot_forfeited_on_time(g)) << describe(g);
    // A move takes at most the lookups' shared deadline (2 s, a twentieth of the clock at most)
    // plus the search's hard limit for the clock left, which is below the limit for the whole
    // minute. What the search takes of that varies with the machine (a sanitizer build on two
    // busy cores takes more of it): the bound is the design's, not a typical figure.
    const std::int64_t online_ms = service::online_deadline(60'000, true).count();
    engine::SearchLimits whole_clock;
    whole_clock.wtime = whole_clock.btime = 60'000;
    const std::int64_t search_ms = engine::allocate_time(whole_clock, engine::WHITE).hard_ms;
    for (const auto& m : g.moves) {
        if (m.by_bot && m.think_ms) {
            EXPECT_LT(*m.think_ms, online_ms + search_ms + test_time::scaled_ms(1000))
                << "ply " << m.ply << " " << m.uci;
        }
    }
    const auto& explorer = bot.metrics().online[0];
    EXPECT_GE(explorer.errors.load(), 3u) << "the late explorer answers are failures";
    EXPECT_EQ(explorer.hits.load(), 0u);
    // Each explorer request was given up at the deadline, not waited for (the answer comes 5 s
    // late): on average well under the delay (the slower builds' margin kept below it).
    const auto asked = explorer.latency.snapshot();
    ASSERT_GT(asked.count, 0u);
    const std::int64_t mean_bound_ms =
        std::min<std::int64_t>(online_ms + test_time::scaled_ms(1000), 4500);
    EXPECT_LT(asked.sum.count() / std::int64_t(asked.count), mean_bound_ms * 1000)
        << "mean explorer request in microseconds";
    const std::string text = log.text();
    EXPECT_GE(occurrences(text, "online source explorer paused"), 1) << text;
    EXPECT_EQ(explorer.pauses.load(),
              static_cast<std::uint64_t>(occurrences(text, "online source explorer paused")))
        << "each pause logged is counted";
    EXPECT_GE(bot.metrics().online[1].errors.load() + bot.metrics().online[1].skipped.load(), 1u)
        << "cloud eval was asked and refused with 429, then skipped while paused";
    EXPECT_EQ(bot.metrics().time_forfeits.load(), 0u);
    EXPECT_EQ(bot.stop(), 0);
}

}  // namespace
}  // namespace e2e
