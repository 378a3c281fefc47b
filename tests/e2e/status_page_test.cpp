// The status page of the whole daemon against the emulator: names from the server with markup,
// quotes, ampersands, control characters and 10 kB of text are shown escaped (and clipped) in every
// part of the page that shows them; and pages fetched without pause while a game is played hold
// up none of its moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "bot_fixture.hpp"
#include "lichess_client/http_client.hpp"
#include "service/ops/health_server.hpp"
#include "service/ops/status_page.hpp"
#include "tests/support/status_page_markup.hpp"

namespace e2e {
namespace {

// The health endpoint with the daemon's status board, on a free loopback port.
std::unique_ptr<service::HealthServer> serve_page(BotRunner& bot) {
    service::HealthServer::Options options;
    options.listen = "127.0.0.1:0";
    options.health = [&bot] { return bot.bot().health_problem(); };
    options.status = &bot.bot().status();
    auto started = service::HealthServer::start(options, bot.metrics());
    EXPECT_EQ(started.error, "");
    return std::move(started.server);
}

lichess::Result<lichess::HttpResponse> get(std::uint16_t port, const std::string& target) {
    using namespace std::chrono_literals;
    lichess::HttpConfig hc;
    hc.base_url = "http://127.0.0.1:" + std::to_string(port);
    hc.request_timeout = 5s;
    lichess::HttpClient http(hc);
    return http.perform({lichess::Method::Get, target, {}, {}, false, "text/html"});
}

TEST(E2eStatusPage, NamesFromTheServerAreEscapedWhereverThePageShowsThem) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: status-hostile\nseed: 21\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{concurrency: 2}"));
    auto server = serve_page(bot);
    ASSERT_TRUE(server);
    ASSERT_TRUE(wait_event_stream(fx));

    // Two games (a script tag; 10 kB of name), a finished one (quotes, an ampersand, control
    // characters, a right-to-left override) and a queued challenger (10 kB of '<').
    const std::string script = "<script>alert(1)</script>";
    const std::string long_name(10 * 1024, 'N');
    const std::string angles(10 * 1024, '<');
    send_challenges(fx, R"(
challenges:
  - id: host0001
    at_ms: 0
    challenger: {name: ")" + script +
                            R"(", title: "<b>GM</b>", rating: 1500}
    clock: {limit: 300, increment: 0}
    color: black
    opponent: {kind: staller, stall_from_ply: 2, think_ms: 30}
  - id: host0002
    at_ms: 0
    challenger: {name: "q\"uo'te&amp;\x01\x1b[31m\u202Eevil", rating: 1400}
    clock: {limit: 300, increment: 0}
    color: white
    opponent: {kind: random, think_ms: 30, resign_at_ply: 3}
  - id: host0003
    at_ms: 300
    challenger: {name: ")" + long_name +
                            R"(", rating: 1300}
    clock: {limit: 300, increment: 0}
    opponent: {kind: staller, stall_from_ply: 2, think_ms: 30}
  - id: host0004
    at_ms: 600
    challenger: {name: ")" + angles +
                            R"(", rating: 1200}
    clock: {limit: 300, increment: 0}
    opponent: {kind: staller, stall_from_ply: 2, think_ms: 30}
)");
    service::StatusBoard& board = bot.bot().status();
    const bool settled = fx.wait_until(
        [&] {
            const service::StatusSnapshot s = board.snapshot(bot.metrics());
            return s.games.size() == 2 && s.games[0].id == "host0001" &&
                   s.games[1].id == "host0003" && s.finished.size() == 1 &&
                   s.slots.queued.size() == 1;
        },
        90s);
    const service::StatusSnapshot s = board.snapshot(bot.metrics());
    ASSERT_TRUE(settled) << s.games.size() << " games, " << s.finished.size() << " finished, "
                         << s.slots.queued.size() << " queued; " << describe(game(fx, "host0002"));

    const auto reply = get(server->port(), "/");
    ASSERT_TRUE(reply) << reply.error().describe();
    ASSERT_EQ(reply->status, 200);
    const std::string& page = reply->body;
    EXPECT_EQ(test_support::foreign_markup(page, service::kStatusPageScript),
              std::vector<std::string>{});
    EXPECT_EQ(page.find(script), std::string::npos);
    EXPECT_EQ(page.find("<b>GM"), std::string::npos);
    // Each name as text: in the game in progress, the finished list, the queue.
    const std::string game1 = test_support::game_article(page, "host0001");
    EXPECT_NE(game1.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos) << game1;
    // A title is clipped at 8 characters.
    EXPECT_NE(game1.find("<span class=\"title\">&lt;b&gt;GM&lt;/b…</span>"), std::string::npos);
    const std::string game3 = test_support::game_article(page, "host0003");
    EXPECT_NE(game3.find(std::string(30, 'N') + "…</span>"), std::string::npos) << game3;
    EXPECT_EQ(game3.find(std::string(31, 'N')), std::string::npos);
    EXPECT_NE(page.find("q&quot;uo&#39;te&amp;amp;\uFFFD\uFFFD[31m\uFFFDevil"), std::string::npos);
    std::string queued;
    for (int i = 0; i < 30; ++i) queued += "&lt;";
    EXPECT_NE(page.find("<li>" + queued + "…</li>"), std::string::npos);
    for (const char c : {'\x01', '\x1b', '\0'}) EXPECT_EQ(page.find(c), std::string::npos);
    EXPECT_EQ(page.find("\xe2\x80\xae"), std::string::npos);
    EXPECT_LT(page.size(), 50'000u);
    std::cout << "status page with 2 games, 1 finished, 1 queued and 10 kB names: " << page.size()
              << " bytes\n";
    EXPECT_EQ(bot.stop(), 0);
}

// One 30+0 game against a random mover while `clients` clients fetch the page again as soon as
// they have it; the game must end legally and not on our clock, and the clock left at each of our
// moves is measured. Returns the pages served and the daemon's move reaction times (gameState in
// to move out, the search excluded).
struct LoadRun {
    int pages = 0;
    int bot_moves = 0;
    service::DurationHistogram::Snapshot reaction;
};

LoadRun game_under_load(int clients, int seed) {
    using namespace std::chrono_literals;
    emu::EmulatorFixture fx("name: status-load\nseed: " + std::to_string(seed) +
                            "\nkeepalive_ms: 500\n");
    BotRunner bot(fx, settings("{concurrency: 1}"));
    auto server = serve_page(bot);
    EXPECT_TRUE(server);
    EXPECT_TRUE(wait_event_stream(fx));
    if (!server) return {};
    std::atomic<bool> done{false};
    std::atomic<int> pages{0};
    std::vector<std::jthread> fetching;
    for (int i = 0; i < clients; ++i) {
        fetching.emplace_back([&] {
            while (!done) {
                const auto reply = get(server->port(), "/");
                if (reply && reply->status == 200) ++pages;
            }
        });
    }
    send_challenges(fx, R"(
challenges:
  - id: load0001
    at_ms: 0
    challenger: {name: Randy, rating: 1500}
    clock: {limit: 30, increment: 0}
    color: black
    opponent: {kind: random, think_ms: 30, resign_at_ply: 40}
)");
    const auto g = fx.wait_game_over("load0001", 120s);
    done = true;
    fetching.clear();
    EXPECT_TRUE(g.over) << describe(game(fx, "load0001"));
    EXPECT_TRUE(legal_end(g)) << describe(g);
    EXPECT_FALSE(bot_forfeited_on_time(g)) << describe(g);
    EXPECT_EQ(rejected_moves(fx, "load0001"), 0);
    EXPECT_EQ(bot.stop(), 0);
    // The clock left at each of our moves (outpost_move_clock_left_seconds): one value per move
    // the server took, each within the game's 30 s and not all nothing.
    const service::DurationHistogram::Snapshot left = bot.metrics().move_clock_left.snapshot();
    EXPECT_EQ(left.count, static_cast<std::uint64_t>(bot_moves(g)));
    const auto within_30s = std::find(left.bounds_ms.begin(), left.bounds_ms.end(), 30'000.0);
    EXPECT_EQ(left.cumulative.at(static_cast<std::size_t>(within_30s - left.bounds_ms.begin())),
              left.count);
    EXPECT_GT(left.sum.count(), 0);
    return {pages.load(), bot_moves(g), bot.metrics().move_reaction_latency.snapshot()};
}

TEST(E2eStatusPage, PagesFetchedWithoutPauseHoldUpNoMove) {
    const LoadRun quiet = game_under_load(0, 22);
    const LoadRun loaded = game_under_load(16, 22);
    EXPECT_EQ(quiet.pages, 0);
    EXPECT_GT(loaded.pages, 0);
    // Measured, not asserted (timings on a shared machine): what 16 clients fetching the page
    // without pause cost the moves, against the same game with none.
    for (const auto& [what, run] : {std::pair{"no page fetched", quiet}, {"16 clients", loaded}}) {
        const auto& r = run.reaction;
        std::cout << what << ": " << run.pages << " pages, " << run.bot_moves
                  << " bot moves; reaction mean "
                  << (r.count ? r.sum.count() / std::int64_t(r.count) : 0) << " us, within 5 ms "
                  << r.cumulative.at(2) << " of " << r.count << ", within 20 ms "
                  << r.cumulative.at(4) << "\n";
    }
}

}  // namespace
}  // namespace e2e
