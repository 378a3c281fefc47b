// The status page's HTML from snapshots: what each part shows (rows of a table of snapshots), that
// every string from outside is escaped wherever it is written (the tags and attributes of a page
// full of hostile names are the page's own), the size for 8 games, and the script's hash in the
// CSP.
#include "service/ops/status_page.hpp"

#include <gtest/gtest.h>
#include <openssl/evp.h>

#include <array>
#include <iostream>
#include <string>
#include <vector>

#include "tests/support/status_page_markup.hpp"

namespace service::test {
namespace {

// 2026-11-27 14:03:27 UTC.
const WallTime kNow = WallTime(std::chrono::sys_days(std::chrono::year(2026) / 11 / 27)) +
                      std::chrono::hours(14) + std::chrono::minutes(3) + std::chrono::seconds(27);

GameStatus sample_game(std::string id, bool we_are_white) {
    using namespace std::chrono_literals;
    GameStatus g;
    g.id = std::move(id);
    g.speed = "blitz";
    g.time_control = "3+2";
    g.rated = true;
    g.we_play_white = we_are_white;
    StatusPlayer us{"OutpostBot", "BOT", 2011, false};
    StatusPlayer them{"Magnus", "GM", 2850, false};
    g.white = we_are_white ? us : them;
    g.black = we_are_white ? them : us;
    g.fen = "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2";
    g.last_move = "g1f3";
    g.plies = 3;
    g.white_ms = 175'000;
    g.black_ms = 178'400;
    g.clocks_at = kNow - 2s;
    g.clock_running = true;
    g.our_last_move = StatusMove{MoveSource::Search, engine::Score{false, 35}, 18, 1'250'000, 2400};
    return g;
}

StatusSnapshot sample_snapshot() {
    using namespace std::chrono_literals;
    StatusSnapshot s;
    s.now = kNow;
    s.account = "OutpostBot";
    s.version = "0.1.0";
    s.site = "https://lichess.org";
    s.uptime = 2h + 14min;
    s.event_stream_connected = true;
    s.last_event_age = 3s;
    s.resident_bytes = 150ULL << 20;
    s.games.push_back(sample_game("abcd1234", true));
    s.slots = SlotsStatus{.limit = 2, .active = 1, .reserved = 0, .queued = {"Alice", "Bob"}};
    s.today = DayResults{.wins = 5, .draws = 2, .losses = 1};
    s.finished.push_back(FinishedGameStatus{.id = "zzzz9999",
                                            .result = GameResult::Win,
                                            .opponent = {"Carol", "", 1720, true},
                                            .we_played_white = false,
                                            .status = "mate",
                                            .speed = "bullet",
                                            .pgn_path = "/var/lib/outpost/pgn/zzzz9999.pgn",
                                            .ended_at = kNow - 20min});
    for (std::size_t i = 0; i < kOnlineSourceCount; ++i) s.online[i].name = kOnlineSourceNames[i];
    return s;
}

bool has(const std::string& page, const std::string& part) {
    return page.find(part) != std::string::npos;
}

TEST(StatusPage, ShowsEachPartOfTheSnapshot) {
    const std::string page = render_status_page(sample_snapshot());
    ASSERT_TRUE(page.starts_with("<!doctype html>"));
    ASSERT_TRUE(page.ends_with("</html>"));
    // The header: account, the connection, /healthz, version, uptime, memory.
    EXPECT_TRUE(has(page, "<h1>OutpostBot</h1>"));
    EXPECT_TRUE(has(page, R"(<span class="pill ok" id="lichess">Lichess connected</span>)"));
    EXPECT_TRUE(has(page, R"(<span class="pill ok" id="healthz">/healthz: ok</span>)"));
    EXPECT_TRUE(has(page,
                    "outpost 0.1.0 · up 2 h 14 min · last byte from Lichess 3 s ago · "
                    "memory 150 MiB"));
    // The game: players (the opponent on top), clocks (ours runs: 178.4 s - 2 s), the board,
    // what our last move was based on, the link.
    EXPECT_TRUE(has(page, R"(<article class="game" data-game="abcd1234">)"));
    EXPECT_TRUE(has(page, R"(<span class="title">GM</span><span class="name">Magnus</span> )"
                          R"(<span class="rating">2850</span>)"));
    EXPECT_TRUE(has(page, R"(<span class="name">OutpostBot</span><span class="you">us</span>)"));
    EXPECT_TRUE(has(page, R"(<span class="clock turn run" data-ms="176400">2:56</span>)"));
    EXPECT_TRUE(has(page, R"(<span class="clock" data-ms="175000">2:55</span>)"));
    EXPECT_TRUE(has(page, R"(data-sq="f3")"));
    EXPECT_TRUE(has(page, "blitz 3+2 · rated · <span class=\"variant\">Standard</span> · move 2"));
    EXPECT_TRUE(has(page, R"(<span class="src search">search</span><b class="score up">+0.35</b>)"
                          R"( · 2.4 s</p><p class="think">depth 18 · 1.25 Mn/s</p>)"));
    EXPECT_TRUE(has(page, R"(<a href="https://lichess.org/abcd1234" rel="noreferrer">)"));
    // The queue and slots, today, the online sources, the arenas.
    EXPECT_TRUE(has(page, "1<span class=\"mute\">/2</span></span> slots in use"));
    EXPECT_TRUE(has(page, "<p>2 waiting:</p><ol><li>Alice</li><li>Bob</li></ol>"));
    EXPECT_TRUE(has(page, R"(<span class="w">5</span> / <span class="d">2</span> / )"
                          R"(<span class="l">1</span>)"));
    EXPECT_TRUE(has(page, "None enabled (online_moves)."));
    EXPECT_TRUE(has(page, R"(<div class="panel" id="arenas"><h2>Arenas</h2>)"
                          R"(<p class="empty">None joined.</p>)"));
    // The last games: result, opponent, how it ended, when, links (the PGN served by the page).
    EXPECT_TRUE(has(page, R"(<span class="res win">win</span>)"));
    EXPECT_TRUE(has(page, R"(<span class="name">Carol</span> <span class="rating">1720?</span>)"));
    EXPECT_TRUE(has(page, "<td>mate</td><td>bullet</td><td>13:43</td>"));
    EXPECT_TRUE(has(page, R"(<a href="https://lichess.org/zzzz9999" rel="noreferrer">game</a>)"));
    EXPECT_TRUE(has(page, R"(<a href="/pgn/zzzz9999">PGN</a>)"));
    EXPECT_FALSE(has(page, "/var/lib/outpost"));  // the link names the game, never the folder
    EXPECT_TRUE(has(page, "Updated 14:03:27 UTC"));
    // Refreshes itself, and without JavaScript a reload (or the noscript refresh) does.
    EXPECT_TRUE(has(page, R"(<noscript><meta http-equiv="refresh" content="10"></noscript>)"));
    EXPECT_TRUE(has(page, "<script>" + std::string(kStatusPageScript) + "</script>"));
}

TEST(StatusPage, TableOfStates) {
    using namespace std::chrono_literals;
    struct Row {
        const char* what;
        void (*change)(StatusSnapshot&);
        std::vector<std::string> shown;
        std::vector<std::string> not_shown;
    };
    const std::vector<Row> rows{
        {"the event stream down and /healthz failing",
         [](StatusSnapshot& s) {
             s.event_stream_connected = false;
             s.health_problem = "no byte on the event stream for 95 s";
         },
         {R"(<span class="pill bad" id="lichess">Lichess not connected</span>)",
          R"(<span class="pill bad" id="healthz">/healthz: no byte on the event stream for 95 s)"},
         {"Lichess connected"}},
        {"no game, no queue, nothing finished",
         [](StatusSnapshot& s) {
             s.games.clear();
             s.slots = {};
             s.finished.clear();
         },
         {"No game in progress.", "No challenge waiting.", "No game finished since the start."},
         {"<article"}},
        {"our clock below ten seconds",
         [](StatusSnapshot& s) { s.games[0].black_ms = 9'300 + 2'000; },
         {R"(<span class="clock turn run low" data-ms="9300">0:09.3</span>)"},
         {}},
        {"the clocks before both first moves do not run",
         [](StatusSnapshot& s) {
             s.games[0].clock_running = false;
             s.games[0].black_ms = 180'000;
         },
         {R"(<span class="clock turn" data-ms="180000">3:00</span>)"},
         {"clock turn run"}},
        {"a correspondence game shows no clocks",
         [](StatusSnapshot& s) {
             s.games[0].real_time = false;
             s.games[0].speed = "correspondence";
             s.games[0].time_control = "3 days";
         },
         {"correspondence 3 days"},
         {R"(class="clock)"}},
        {"a book move, a tablebase move with a mate score",
         [](StatusSnapshot& s) {
             s.games[0].our_last_move = StatusMove{MoveSource::Book, std::nullopt, 0, 0, 0};
             s.games.push_back(sample_game("tb000001", false));
             s.games[1].our_last_move =
                 StatusMove{MoveSource::Tablebase, engine::Score{true, -4}, 0, 0, 0};
         },
         {R"(<span class="src book">book</span></p>)",
          R"(<span class="src tablebase">tablebase</span><b class="score down">#-4</b></p>)"},
         {}},
        {"a crazyhouse game with pockets, as the variant's name says",
         [](StatusSnapshot& s) {
             s.games[0].variant_key = "crazyhouse";
             s.games[0].variant_name = "Crazyhouse";
             s.games[0].fen = "r1bk3r/ppp2ppp/2n5/4Q~3/8/8/PPP2PPP/R1B1KB1R[QNPppb] b KQ - 0 9";
         },
         {R"(<span class="variant">Crazyhouse</span>)", R"(data-pocket="b" data-n="2")"},
         {}},
        {"three-check counts",
         [](StatusSnapshot& s) {
             s.games[0].variant_key = "threeCheck";
             s.games[0].variant_name = "Three-check";
             s.games[0].fen = "rnbqkbnr/ppppp1pp/5p2/7Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2 +1+0";
         },
         {" · checks 1–0"},
         {}},
        {"a queue longer than the panel",
         [](StatusSnapshot& s) { s.slots.queued.assign(14, "Waiting"); },
         {"<p>14 waiting:</p>", "and 4 more"},
         {}},
        {"online sources: one answering, one paused",
         [](StatusSnapshot& s) {
             s.online[0].enabled = true;
             s.online[0].hits = 12;
             s.online[2].enabled = true;
             s.online[2].errors = 3;
             s.online[2].paused_until = kNow + 45s;
             s.online[3].enabled = true;
             s.online[3].paused_until = kNow + 12min - 30s;
         },
         {R"(<tr><td>explorer</td><td><span class="pill ok">answering</span></td><td>12</td>)",
          R"(<tr><td>tablebase</td><td><span class="pill warn" title="until 14:04:12 UTC">)"
          R"(paused, 45 s</span>)",
          R"(<tr><td>chessdb</td><td><span class="pill warn" title="until 14:14:57 UTC">)"
          R"(paused, 12 min</span>)"},
         {"<td>cloud</td>", "None enabled"}},
        {"arenas joined, and the daily bot limit",
         [](StatusSnapshot& s) {
             s.arenas.push_back({"tourn123", "Bot Arena", kNow + 1h});
             s.bot_games_paused_until = kNow + 2h;
         },
         {R"(<a href="https://lichess.org/tournament/tourn123" rel="noreferrer">Bot Arena</a> )"
          R"(<span class="mute">ends 15:03 UTC</span>)",
          "bot games paused until 16:03:27 UTC"},
         {"None joined."}},
        {"an arena whose end lila has not said yet",
         [](StatusSnapshot& s) {
             s.arenas.push_back({"tourn456", "New Arena", std::nullopt});
         },
         {R"(<a href="https://lichess.org/tournament/tourn456" rel="noreferrer">New Arena</a> )"
          R"(<span class="mute">end not known yet</span>)"},
         {"None joined.", R"(<span class="mute">ends )"}},
        {"a game finished yesterday, no PGN kept",
         [](StatusSnapshot& s) {
             s.finished[0].ended_at = kNow - 24h;
             s.finished[0].pgn_path.clear();
             s.finished[0].result = GameResult::Aborted;
         },
         {"<td>2026-11-26 14:03</td>", R"(<span class="res aborted">aborted</span>)"},
         {"/pgn/"}},
    };
    for (const Row& row : rows) {
        SCOPED_TRACE(row.what);
        StatusSnapshot s = sample_snapshot();
        row.change(s);
        const std::string page = render_status_page(s);
        for (const std::string& part : row.shown) EXPECT_TRUE(has(page, part)) << part;
        for (const std::string& part : row.not_shown) EXPECT_FALSE(has(page, part)) << part;
    }
}

// ---- escaping -------------------------------------------------------------------------------

// Strings a server (or a player's name, a tournament's name) could send.
const std::vector<std::string>& hostile_strings() {
    static const std::vector<std::string> strings{
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "' onmouseover='alert(1)",
        "&lt;b&gt; & &amp; &#x3C;",
        std::string("ctl\0\x01\x1b[31m\x7f\r\n\t", 12),
        "\xe2\x80\xae"
        "evil\xc2\x85\xff",
        "</style></script><!--",
        "javascript:alert(1)",
        std::string(10 * 1024, 'N'),
        std::string(10 * 1024, '<'),
    };
    return strings;
}

// Every string field of a snapshot set to `text`.
StatusSnapshot hostile_snapshot(const std::string& text) {
    StatusSnapshot s = sample_snapshot();
    s.account = text;
    s.version = text;
    s.site = text;
    s.health_problem = text;
    GameStatus g = sample_game(text, true);
    g.speed = text;
    g.time_control = text;
    g.variant_key = "threeCheck";
    g.variant_name = text;
    g.white = {text, text, 1500, false};
    g.black = {text, text, std::nullopt, true};
    g.fen = text;
    g.last_move = text;
    s.games = {g, sample_game("ok000001", false)};
    s.games[1].fen = "8/8/8/8/8/8/8/K6k w - - 0 1 +" + text + "+" + text;
    s.games[1].variant_key = "threeCheck";
    s.slots.queued = {text, text};
    s.finished[0].id = text;
    s.finished[0].opponent = {text, text, 1, false};
    s.finished[0].status = text;
    s.finished[0].speed = text;
    s.finished[0].pgn_path = text;
    s.arenas = {{text, text, kNow}};
    return s;
}

TEST(StatusPage, EveryStringFromOutsideIsEscaped) {
    for (const std::string& text : hostile_strings()) {
        SCOPED_TRACE(text.substr(0, 40));
        const std::string page = render_status_page(hostile_snapshot(text));
        EXPECT_EQ(test_support::foreign_markup(page, kStatusPageScript),
                  std::vector<std::string>{});
        EXPECT_FALSE(has(page, "<img"));
        EXPECT_FALSE(has(page, "\xe2\x80\xae"));  // no right-to-left override survives
        EXPECT_FALSE(has(page, std::string(1, '\0')));
        EXPECT_FALSE(has(page, "\x1b"));
        // A 10 kB name costs a line, not the page.
        EXPECT_LT(page.size(), 40'000u);
    }
    // A link never takes its scheme from outside: only an http(s) site is written into an href,
    // and a game id only ever as a %-encoded path segment.
    const std::string page = render_status_page(hostile_snapshot("javascript:alert(1)"));
    EXPECT_FALSE(has(page, "href=\"javascript"));
    EXPECT_TRUE(has(page, R"(href="https://lichess.org/javascript%3Aalert%281%29")"));
}

TEST(StatusPage, EightGamesStayUnderFiftyKilobytes) {
    StatusSnapshot s = sample_snapshot();
    s.games.clear();
    const std::string longest(30, 'W');
    for (int i = 0; i < 8; ++i) {
        GameStatus g = sample_game("game000" + std::to_string(i), i % 2 == 0);
        g.white.name = g.black.name = longest;
        g.variant_key = "crazyhouse";
        g.variant_name = "Crazyhouse";
        g.fen = "r1bk3r/ppp2ppp/2n5/4Q~3/8/8/PPP2PPP/R1B1KB1R[QRBNPqrbnp] b KQ - 0 9";
        s.games.push_back(g);
    }
    s.slots.queued.assign(10, longest);
    s.finished.clear();
    for (int i = 0; i < 20; ++i) {
        FinishedGameStatus f = sample_snapshot().finished[0];
        f.opponent.name = longest;
        s.finished.push_back(f);
    }
    for (std::size_t i = 0; i < kOnlineSourceCount; ++i) s.online[i].enabled = true;
    s.arenas = {{"a1", longest, kNow}, {"a2", longest, kNow}};
    const std::string page = render_status_page(s);
    EXPECT_LT(page.size(), 50'000u);
    std::cout << "status page with 8 crazyhouse games, 10 queued, 20 finished: " << page.size()
              << " bytes\n";
}

std::string base64(const unsigned char* data, std::size_t size) {
    std::string out(4 * ((size + 2) / 3) + 1, '\0');
    const int n =
        EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data, static_cast<int>(size));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

TEST(StatusPage, TheCspAllowsExactlyThePagesScript) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int size = 0;
    ASSERT_EQ(EVP_Digest(kStatusPageScript.data(), kStatusPageScript.size(), digest.data(), &size,
                         EVP_sha256(), nullptr),
              1);
    const std::string hash = "'sha256-" + base64(digest.data(), size) + "'";
    EXPECT_TRUE(std::string(kStatusPageCsp).find("script-src " + hash + ";") != std::string::npos)
        << "kStatusPageCsp must name the script's hash: " << hash;
    EXPECT_TRUE(std::string(kStatusPageCsp).starts_with("default-src 'none'"));
    EXPECT_FALSE(has(std::string(kStatusPageCsp), "unsafe-eval"));
}

}  // namespace
}  // namespace service::test

namespace service::test {
namespace {

TEST(StatusPage, AGamesLevelStandsBesideIt) {
    StatusSnapshot s = sample_snapshot();
    EXPECT_FALSE(has(render_status_page(s), "class=\"level\""));  // full strength: nothing
    s.games[0].level = 1350;
    EXPECT_TRUE(has(render_status_page(s),
                    "blitz 3+2 · rated · <span class=\"variant\">Standard</span> · move 2 · "
                    "<span class=\"level\">level 1350</span></p>"));
}

}  // namespace
}  // namespace service::test
