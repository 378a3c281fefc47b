// StatusBoard: what sessions and the event loop publish is what a snapshot shows; a session's
// entry is its own (a later session of the same game is not removed by an earlier one's end); the
// finished list and today's results; and the lock design: readers copy, so no page being rendered
// or sent holds up a game that publishes its move.
#include "service/ops/status_board.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <iostream>
#include <thread>
#include <vector>

#include "service/ops/status_page.hpp"

namespace service::test {
namespace {

const WallTime kNoon =
    WallTime(std::chrono::sys_days(std::chrono::year(2026) / 11 / 27)) + std::chrono::hours(12);

GameStatus game(const std::string& id, int plies) {
    GameStatus g;
    g.id = id;
    g.plies = plies;
    g.fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    g.white.name = "OutpostBot";
    g.black.name = "Opponent";
    return g;
}

FinishedGameStatus finished(const std::string& id, GameResult result, WallTime at) {
    FinishedGameStatus f;
    f.id = id;
    f.result = result;
    f.ended_at = at;
    f.pgn_path = "/pgn/" + id + ".pgn";
    return f;
}

std::vector<std::string> ids(const StatusSnapshot& s) {
    std::vector<std::string> out;
    for (const GameStatus& g : s.games) out.push_back(g.id);
    return out;
}

TEST(StatusBoard, ShowsWhatIsPublished) {
    using namespace std::chrono_literals;
    Metrics metrics;
    StatusBoard board;
    board.set_account("OutpostBot", "http://127.0.0.1:9999");
    board.publish_slots({.limit = 2, .active = 1, .reserved = 1, .queued = {"Alice"}});
    board.publish_arenas({{"late", "Late Arena", kNoon + 2h},
                          {"unsaid", "New Arena", std::nullopt},
                          {"soon", "Soon Arena", kNoon + 1h}});
    StatusBoard::GameEntry a(&board, "game000a");
    StatusBoard::GameEntry b(&board, "game000b");
    EXPECT_TRUE(board.snapshot(metrics, kNoon).games.empty()) << "nothing published yet";
    b.publish(game("game000b", 3));
    a.publish(game("game000a", 1));
    a.publish(game("game000a", 2));

    const StatusSnapshot s = board.snapshot(metrics, kNoon);
    EXPECT_EQ(s.account, "OutpostBot");
    EXPECT_EQ(s.site, "http://127.0.0.1:9999");
    EXPECT_EQ(ids(s), (std::vector<std::string>{"game000a", "game000b"}));
    EXPECT_EQ(s.games[0].plies, 2);
    EXPECT_EQ(s.slots.queued, std::vector<std::string>{"Alice"});
    EXPECT_EQ(s.slots.reserved, 1);
    ASSERT_EQ(s.arenas.size(), 3u);
    EXPECT_EQ(s.arenas[0].id, "soon");    // the soonest end first
    EXPECT_EQ(s.arenas[2].id, "unsaid");  // an end not known yet last
    EXPECT_EQ(s.now, kNoon);
    EXPECT_FALSE(s.version.empty());
}

TEST(StatusBoard, AnEntryRemovesOnlyItsOwnGame) {
    Metrics metrics;
    StatusBoard board;
    auto first = std::make_unique<StatusBoard::GameEntry>(&board, "game0001");
    first->publish(game("game0001", 10));
    // The game's next session (a restart, a correspondence game's next visit) comes before the
    // first one is gone: the first one's end leaves the new one's game on the board.
    StatusBoard::GameEntry second(&board, "game0001");
    second.publish(game("game0001", 11));
    first->publish(game("game0001", 99));  // too late: no longer its place
    first.reset();
    const StatusSnapshot s = board.snapshot(metrics, kNoon);
    ASSERT_EQ(s.games.size(), 1u);
    EXPECT_EQ(s.games[0].plies, 11);
    {
        StatusBoard::GameEntry gone(&board, "game0002");
        gone.publish(game("game0002", 1));
        EXPECT_EQ(board.snapshot(metrics, kNoon).games.size(), 2u);
    }
    EXPECT_EQ(ids(board.snapshot(metrics, kNoon)), std::vector<std::string>{"game0001"});
    // A null board: a session without a page publishes nowhere.
    StatusBoard::GameEntry nowhere(nullptr, "game0003");
    nowhere.publish(game("game0003", 1));
    nowhere.finished(finished("game0003", GameResult::Win, kNoon));
}

TEST(StatusBoard, FinishedGamesNewestFirstAndTodaysResults) {
    using namespace std::chrono_literals;
    Metrics metrics;
    StatusBoard board;
    {
        StatusBoard::GameEntry yesterday(&board, "old00001");
        yesterday.publish(game("old00001", 40));
        yesterday.finished(finished("old00001", GameResult::Win, kNoon - 24h));
    }
    for (int i = 0; i < 25; ++i) {
        const std::string id = "game" + std::to_string(1000 + i);
        StatusBoard::GameEntry entry(&board, id);
        entry.publish(game(id, 30));
        const GameResult result = i % 4 == 0   ? GameResult::Loss
                                  : i % 4 == 1 ? GameResult::Draw
                                  : i % 4 == 2 ? GameResult::Aborted
                                               : GameResult::Win;
        entry.finished(finished(id, result, kNoon + std::chrono::minutes(i)));
        EXPECT_TRUE(board.snapshot(metrics, kNoon).games.empty()) << "over: not in progress";
    }
    const StatusSnapshot s = board.snapshot(metrics, kNoon + 1h);
    ASSERT_EQ(s.finished.size(), StatusBoard::kFinishedKept);
    EXPECT_EQ(s.finished.front().id, "game1024");
    EXPECT_EQ(s.finished.back().id, "game1005");
    // Yesterday's win does not count today; 25 games today: 7 losses, 6 draws, 6 aborted, 6 wins.
    EXPECT_EQ(s.today.losses, 7);
    EXPECT_EQ(s.today.draws, 6);
    EXPECT_EQ(s.today.aborted, 6);
    EXPECT_EQ(s.today.wins, 6);
    // The next day starts from nothing.
    const StatusSnapshot tomorrow = board.snapshot(metrics, kNoon + 24h);
    EXPECT_EQ(tomorrow.today.wins + tomorrow.today.draws + tomorrow.today.losses, 0);
    // The PGN files of the games on the list, and only those.
    EXPECT_EQ(board.pgn_path("game1024"), "/pgn/game1024.pgn");
    EXPECT_EQ(board.pgn_path("game1000"), std::nullopt);  // dropped from the list
    EXPECT_EQ(board.pgn_path("../../etc/passwd"), std::nullopt);
    EXPECT_EQ(board.pgn_path(""), std::nullopt);
}

TEST(StatusBoard, MetricsPartsOfTheSnapshot) {
    using namespace std::chrono_literals;
    Metrics metrics;
    StatusBoard board;
    board.set_online_enabled({true, false, true, false});
    const auto now = Metrics::Clock::now();
    const auto ns = [](Metrics::Clock::time_point t) {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
    };
    metrics.online[2].paused = true;
    metrics.online[2].paused_until_ns = ns(now + 90s);
    metrics.online[2].pauses = 2;
    metrics.online[0].paused = true;
    metrics.online[0].paused_until_ns = ns(now - 1s);  // the pause is over
    metrics.online[0].hits = 7;
    metrics.bot_games_paused_until_ns = ns(now + 1h);
    metrics.event_stream_connected = true;
    metrics.record_event_stream_activity(now - 4s);

    const StatusSnapshot s = board.snapshot(metrics, kNoon, now);
    EXPECT_TRUE(s.online[0].enabled);
    EXPECT_FALSE(s.online[1].enabled);
    EXPECT_EQ(s.online[0].paused_until, std::nullopt);
    EXPECT_EQ(s.online[0].hits, 7u);
    ASSERT_TRUE(s.online[2].paused_until);
    EXPECT_EQ(std::chrono::duration_cast<std::chrono::seconds>(*s.online[2].paused_until - kNoon),
              90s);
    EXPECT_EQ(s.online[2].pauses, 2u);
    EXPECT_STREQ(s.online[3].name, "chessdb");
    ASSERT_TRUE(s.bot_games_paused_until);
    EXPECT_EQ(std::chrono::duration_cast<std::chrono::minutes>(*s.bot_games_paused_until - kNoon),
              60min);
    EXPECT_TRUE(s.event_stream_connected);
    EXPECT_EQ(s.last_event_age, 4s);
    ASSERT_TRUE(s.resident_bytes);
    EXPECT_GT(*s.resident_bytes, 1u << 20);
}

TEST(StatusBoard, ASnapshotIsACopy) {
    Metrics metrics;
    StatusBoard board;
    StatusBoard::GameEntry entry(&board, "game0001");
    entry.publish(game("game0001", 5));
    const StatusSnapshot before = board.snapshot(metrics, kNoon);
    entry.publish(game("game0001", 6));
    SlotsStatus slots;
    slots.limit = 9;
    board.publish_slots(slots);
    EXPECT_EQ(before.games.at(0).plies, 5);
    EXPECT_EQ(before.slots.limit, 0);
    EXPECT_EQ(board.snapshot(metrics, kNoon).games.at(0).plies, 6);
}

// The lock design: a page is rendered from its own copy, so a game publishing its move never
// waits for a page being rendered or sent. Here a reader stops between its snapshot and its
// render until the game has published: with a lock held across the two, that publish could not
// happen before the reader gives up.
TEST(StatusBoard, AGamePublishesWhileAPageIsBeingRendered) {
    using namespace std::chrono_literals;
    Metrics metrics;
    StatusBoard board;
    StatusBoard::GameEntry entry(&board, "game0001");
    entry.publish(game("game0001", 1));
    std::promise<void> snapshot_taken, move_published;
    auto reader = std::async(std::launch::async, [&] {
        const StatusSnapshot s = board.snapshot(metrics);
        snapshot_taken.set_value();
        const bool published_meanwhile =
            move_published.get_future().wait_for(30s) == std::future_status::ready;
        return published_meanwhile && render_status_page(s).find("data-game") != std::string::npos;
    });
    snapshot_taken.get_future().wait();
    entry.publish(game("game0001", 2));
    move_published.set_value();
    EXPECT_TRUE(reader.get());
    EXPECT_EQ(board.snapshot(metrics).games.at(0).plies, 2);
}

// Under load: 8 threads take and render pages without pause while a game publishes 2000 moves;
// every move lands (a bounded wait), and the slowest publish is reported (not asserted: timing).
TEST(StatusBoard, PagesBeingRenderedNeverHoldUpAGamePublishingItsMoves) {
    using namespace std::chrono_literals;
    Metrics metrics;
    StatusBoard board;
    std::vector<std::unique_ptr<StatusBoard::GameEntry>> entries;
    for (int i = 0; i < 8; ++i) {
        const std::string id = "game000" + std::to_string(i);
        entries.push_back(std::make_unique<StatusBoard::GameEntry>(&board, id));
        entries.back()->publish(game(id, 0));
    }
    std::atomic<bool> published{false};
    std::atomic<int> renders{0};
    std::vector<std::jthread> readers;
    for (int r = 0; r < 8; ++r) {
        readers.emplace_back([&] {
            std::vector<StatusSnapshot> held;
            while (!published) {
                held.push_back(board.snapshot(metrics));
                const std::string page = render_status_page(held.back());
                if (!page.empty()) ++renders;
                if (held.size() > 50) held.erase(held.begin());
            }
        });
    }
    auto publisher = std::async(std::launch::async, [&] {
        std::chrono::nanoseconds slowest{0};
        for (int ply = 1; ply <= 2000; ++ply) {
            const auto started = std::chrono::steady_clock::now();
            entries[static_cast<std::size_t>(ply % 8)]->publish(
                game("game000" + std::to_string(ply % 8), ply));
            slowest = std::max(slowest, std::chrono::steady_clock::now() - started);
        }
        return slowest;
    });
    ASSERT_EQ(publisher.wait_for(60s), std::future_status::ready);
    published = true;
    readers.clear();
    const auto slowest = publisher.get();
    EXPECT_GT(renders.load(), 0);
    const StatusSnapshot s = board.snapshot(metrics);
    ASSERT_EQ(s.games.size(), 8u);
    EXPECT_EQ(s.games[0].plies, 2000);  // ply 2000 went to game0000
    std::cout << "2000 publishes while 8 threads rendered " << renders.load()
              << " pages: slowest publish "
              << std::chrono::duration_cast<std::chrono::microseconds>(slowest).count() << " us\n";
}

}  // namespace
}  // namespace service::test
