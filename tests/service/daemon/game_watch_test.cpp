// GameWatch: what the status page shows of a game, read from its rules and the lines the session
// feeds them: players, the position's FEN, the last move, the clocks and when they came, our last
// move's source and search, the finished record; and the time controls as Lichess writes them.
#include "service/daemon/game_watch.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>

namespace service {
namespace {

const WallTime kAt =
    WallTime(std::chrono::sys_days(std::chrono::year(2026) / 11 / 27)) + std::chrono::hours(9);

lichess::GameState state(const std::string& moves, std::int64_t wtime, std::int64_t btime,
                         lichess::GameStatus status = lichess::GameStatus::Started) {
    lichess::GameState s;
    s.moves = moves;
    s.wtime_ms = wtime;
    s.btime_ms = btime;
    s.status = status;
    s.status_name = lichess::to_string(status);
    return s;
}

lichess::GameFull full_game(std::optional<lichess::Clock> clock) {
    lichess::GameFull f;
    f.id = "game0001";
    f.variant = {"standard", "Standard"};
    f.clock = clock;
    if (!clock) f.days_per_turn = 3;
    f.speed = clock ? "blitz" : "correspondence";
    f.rated = true;
    f.white.id = "alice";
    f.white.name = "Alice";
    f.white.title = "GM";
    f.white.rating = 2400;
    f.black.id = "outpost";
    f.black.name = "Outpost";
    f.black.title = "BOT";
    f.black.rating = 2000;
    f.black.provisional = true;
    f.state = state("", 180000, 180000);
    return f;
}

struct Game {
    GameRules rules{[] {
        GameSettings s;
        s.game_id = "game0001";
        s.my_id = "outpost";
        s.my_name = "Outpost";
        return s;
    }()};
    GameWatch watch;

    void feed(const GameInput& input, WallTime at) {
        watch.saw(input, at);
        (void)rules.on(input, TimePoint{});
    }
};

std::string fen_after(const std::string& moves) {
    engine::Position pos;
    std::istringstream in(moves);
    for (std::string m; in >> m;) EXPECT_TRUE(pos.play_uci(m)) << m;
    return pos.fen();
}

TEST(GameWatch, ShowsThePlayersThePositionAndTheClocks) {
    using namespace std::chrono_literals;
    Game g;
    g.feed(game::FullReceived{full_game(lichess::Clock{180000, 2000})}, kAt);
    g.feed(game::StateReceived{state("e2e4", 180000, 180000)}, kAt + 1s);
    GameStatus s = g.watch.status(g.rules);
    EXPECT_EQ(s.id, "game0001");
    EXPECT_FALSE(s.we_play_white);
    EXPECT_EQ(s.white.name, "Alice");
    EXPECT_EQ(s.white.title, "GM");
    EXPECT_EQ(s.white.rating, 2400);
    EXPECT_EQ(s.black.name, "Outpost");
    EXPECT_TRUE(s.black.provisional);
    EXPECT_EQ(s.variant_key, "standard");
    EXPECT_EQ(s.variant_name, "Standard");
    EXPECT_EQ(s.speed, "blitz");
    EXPECT_TRUE(s.rated);
    EXPECT_EQ(s.time_control, "3+2");
    EXPECT_EQ(s.fen, fen_after("e2e4"));
    EXPECT_EQ(s.last_move, "e2e4");
    EXPECT_EQ(s.plies, 1);
    EXPECT_TRUE(s.real_time);
    EXPECT_FALSE(s.clock_running) << "Lichess starts the clocks after both first moves";
    EXPECT_EQ(s.clocks_at, kAt + 1s);
    EXPECT_FALSE(s.our_last_move);

    g.feed(game::StateReceived{state("e2e4 e7e5 g1f3", 176500, 181000)}, kAt + 9s);
    s = g.watch.status(g.rules);
    EXPECT_EQ(s.fen, fen_after("e2e4 e7e5 g1f3"));
    EXPECT_EQ(s.last_move, "g1f3");
    EXPECT_EQ(s.white_ms, 176500);
    EXPECT_EQ(s.black_ms, 181000);
    EXPECT_EQ(s.clocks_at, kAt + 9s);
    EXPECT_TRUE(s.clock_running);
    EXPECT_EQ(g.watch.our_clock_ms(g.rules), 181000);
}

TEST(GameWatch, OurLastMoveAndWhereItCameFrom) {
    Game g;
    g.feed(game::FullReceived{full_game(lichess::Clock{180000, 2000})}, kAt);
    g.feed(game::StateReceived{state("e2e4", 180000, 180000)}, kAt);
    engine::SearchResult r;
    r.score = {false, -35};
    r.depth = 17;
    r.nps = 850'000;
    g.feed(game::MoveChosen{.think_ms = 2500, .search = r}, kAt);
    auto m = g.watch.status(g.rules).our_last_move;
    ASSERT_TRUE(m);
    EXPECT_EQ(m->source, MoveSource::Search);
    EXPECT_EQ(m->score, (engine::Score{false, -35}));
    EXPECT_EQ(m->depth, 17);
    EXPECT_EQ(m->nps, 850'000u);
    EXPECT_EQ(m->think_ms, 2500);

    g.feed(game::MoveChosen{.source = MoveSource::Book, .uci = "e7e5", .think_ms = 1}, kAt);
    m = g.watch.status(g.rules).our_last_move;
    ASSERT_TRUE(m);
    EXPECT_EQ(m->source, MoveSource::Book);
    EXPECT_FALSE(m->score);
    EXPECT_EQ(m->depth, 0);

    g.feed(game::MoveChosen{.source = MoveSource::Tablebase,
                            .uci = "e7e5",
                            .think_ms = 40,
                            .score = engine::Score{true, 12}},
           kAt);
    m = g.watch.status(g.rules).our_last_move;
    ASSERT_TRUE(m);
    EXPECT_EQ(m->source, MoveSource::Tablebase);
    EXPECT_EQ(m->score, (engine::Score{true, 12}));

    // A move the local Syzygy tables chose among: searched, and named by its tables.
    r.depth = 9;
    g.feed(game::MoveChosen{.source = MoveSource::Syzygy, .uci = "e7e5", .search = r}, kAt);
    m = g.watch.status(g.rules).our_last_move;
    ASSERT_TRUE(m);
    EXPECT_EQ(m->source, MoveSource::Syzygy);
    EXPECT_EQ(m->depth, 9);
}

TEST(GameWatch, TheFinishedRecordNamesTheOpponentAndHowItEnded) {
    using namespace std::chrono_literals;
    Game g;
    g.feed(game::FullReceived{full_game(lichess::Clock{180000, 2000})}, kAt);
    g.feed(game::StateReceived{state("f2f3 e7e5 g2g4 d8h4", 170000, 175000,
                                     lichess::GameStatus::Mate)},
           kAt + 30s);
    const FinishedGameStatus f =
        g.watch.finished(g.rules, GameResult::Win, "/pgn/game0001.pgn", kAt + 31s);
    EXPECT_EQ(f.id, "game0001");
    EXPECT_EQ(f.result, GameResult::Win);
    EXPECT_EQ(f.opponent.name, "Alice");
    EXPECT_EQ(f.opponent.title, "GM");
    EXPECT_FALSE(f.we_played_white);
    EXPECT_EQ(f.status, "mate");
    EXPECT_EQ(f.speed, "blitz");
    EXPECT_EQ(f.pgn_path, "/pgn/game0001.pgn");
    EXPECT_EQ(f.ended_at, kAt + 31s);
}

TEST(GameWatch, ACorrespondenceGameHasNoClockToShow) {
    Game g;
    g.feed(game::FullReceived{full_game(std::nullopt)}, kAt);
    const GameStatus s = g.watch.status(g.rules);
    EXPECT_FALSE(s.real_time);
    EXPECT_FALSE(s.clock_running);
    EXPECT_EQ(s.time_control, "3 days");
    EXPECT_EQ(g.watch.our_clock_ms(g.rules), std::nullopt);
}

TEST(GameWatch, TimeControlsAsLichessWritesThem) {
    struct Row {
        std::optional<lichess::Clock> clock;
        std::optional<int> days;
        const char* shown;
    };
    for (const Row& row : std::initializer_list<Row>{
             {lichess::Clock{15000, 0}, {}, "¼+0"},
             {lichess::Clock{30000, 0}, {}, "½+0"},
             {lichess::Clock{45000, 1000}, {}, "¾+1"},
             {lichess::Clock{60000, 0}, {}, "1+0"},
             {lichess::Clock{90000, 1000}, {}, "1.5+1"},
             {lichess::Clock{180000, 2000}, {}, "3+2"},
             {lichess::Clock{1800000, 20000}, {}, "30+20"},
             {std::nullopt, 1, "1 day"},
             {std::nullopt, 14, "14 days"},
             {std::nullopt, std::nullopt, "unlimited"},
         }) {
        lichess::GameFull f;
        f.clock = row.clock;
        f.days_per_turn = row.days;
        EXPECT_EQ(time_control_text(f), row.shown);
    }
}

}  // namespace
}  // namespace service
