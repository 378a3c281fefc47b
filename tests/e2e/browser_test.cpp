// The status page in a real browser: the real `outpost run` against the emulator with two games
// running, a finished one, a challenger waiting and an online source paused; Debian's headless
// chromium loads the page. The DOM it builds (after the page's script ran, which the CSP must
// allow) shows each board's pieces where the game's position has them, the names, both clocks,
// the queue and the sources; its screenshot is what docs/status-page.png shows. Chromium is a
// test dependency (deploy/install-deps.sh): when it is missing the test fails and says so, it
// does not skip.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "bot_fixture.hpp"
#include "child_process.hpp"
#include "engine/position.hpp"
#include "lichess_client/http_client.hpp"
#include "tests/engine/polyglot_test_util.hpp"
#include "tests/support/status_page_markup.hpp"

namespace e2e {
namespace {

// Debian's chromium, found on PATH as a shell would; empty when it is not installed.
std::string find_chromium() {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/bin";
    for (std::size_t at = 0; at <= dirs.size();) {
        const std::size_t end = std::min(dirs.find(':', at), dirs.size());
        const std::filesystem::path candidate =
            std::filesystem::path(dirs.substr(at, end - at)) / "chromium";
        if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
        at = end + 1;
    }
    return {};
}

// Chromium headless as root in a container: no sandbox (it needs user namespaces), no GPU, its
// shared memory in /tmp (a container's /dev/shm may be 64 MB), and nothing that would reach past
// loopback (QUIC, component updates, sync, background requests).
std::vector<std::string> chromium_args(const std::filesystem::path& profile) {
    return {"--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--user-data-dir=" + profile.string()};
}

// The pieces of the game's position now, as the emulator has it: square -> FEN letter.
std::map<std::string, char> position_of(const emu::GameView& g) {
    engine::Position pos;
    for (const auto& m : g.moves) EXPECT_TRUE(pos.play_uci(m.uci)) << m.uci;
    std::map<std::string, char> out;
    const engine::Board& b = pos.board();
    for (int sq = 0; sq < 64; ++sq) {
        const engine::Piece p = b.piece_on(engine::Square(sq));
        if (p == engine::NO_PIECE) continue;
        const char upper = "PNBRQK"[engine::type_of(p)];
        out[std::string{char('a' + sq % 8), char('1' + sq / 8)}] =
            engine::color_of(p) == engine::WHITE ? upper : char(upper - 'A' + 'a');
    }
    return out;
}

// Pieces as "a1:R b1:N ...", for a message.
std::string pieces_text(const std::map<std::string, char>& pieces) {
    std::string out;
    for (const auto& [square, piece] : pieces) out += square + ':' + piece + ' ';
    return out;
}

// The clocks of an article, top (the opponent) then bottom (us), in milliseconds as shown.
std::vector<std::int64_t> shown_clocks(const std::string& article) {
    std::vector<std::int64_t> out;
    static const std::regex clock(
        R"re(class="clock[^"]*" data-ms="\d+">(\d+):(\d\d)(?:\.(\d))?<)re");
    for (std::sregex_iterator it(article.begin(), article.end(), clock), end; it != end; ++it) {
        out.push_back((std::stoll((*it)[1]) * 60 + std::stoll((*it)[2])) * 1000 +
                      ((*it)[3].matched ? std::stoll((*it)[3]) * 100 : 0));
    }
    return out;
}

// A game that has settled: the bot moved last and nothing has changed for 2 s (the opponent has
// played its line and stalls; it answers a move within 400 ms while it still plays).
class Settled {
  public:
    bool operator()(const emu::GameView& g) {
        const auto now = std::chrono::steady_clock::now();
        if (g.moves.size() != plies_) {
            plies_ = g.moves.size();
            since_ = now;
        }
        return !g.over && plies_ >= 5 && g.moves.back().by_bot &&
               now - since_ >= std::chrono::seconds(2);
    }

  private:
    std::size_t plies_ = 0;
    std::chrono::steady_clock::time_point since_{};
};

// The last pause of the chessdb source as the daemon logs it ("online source chessdb paused for
// 60 s ..."), noted when first seen: it began at that moment or a little before.
struct ChessdbPause {
    bool seen = false;
    std::size_t count = 0;
    std::chrono::steady_clock::time_point noted{};
    std::chrono::seconds length{0};

    void look(const std::string& log_path) {
        static const std::regex line(R"(online source chessdb paused for (\d+) s)");
        const std::string text = read_file(log_path);
        std::size_t n = 0;
        std::smatch m;
        std::chrono::seconds last{0};
        for (auto it = text.cbegin(); std::regex_search(it, text.cend(), m, line);
             it = m[0].second) {
            ++n;
            last = std::chrono::seconds(std::stoi(m[1]));
        }
        if (n > count) {
            count = n;
            seen = true;
            noted = std::chrono::steady_clock::now();
            length = last;
        }
    }
    // How much of the pause is surely left at `at` (negative: surely over by then).
    [[nodiscard]] std::chrono::milliseconds left(std::chrono::steady_clock::time_point at) const {
        return std::chrono::duration_cast<std::chrono::milliseconds>(noted + length - at);
    }
};

TEST(E2eBrowser, ChromiumShowsTheGamesTheQueueAndTheClocks) {
    using namespace std::chrono_literals;
    const std::string chromium = find_chromium();
    ASSERT_FALSE(chromium.empty())
        << "chromium is not installed (a test dependency: bash deploy/install-deps.sh, or "
           "apt-get install chromium)";

    test_util::BookDir dir("browser");
    // The online sources answer from the emulator's positions, but for chessdb, which fails
    // (503) until it is paused.
    auto fx = std::make_unique<emu::EmulatorFixture>(
        "name: browser\nseed: 31\nkeepalive_ms: 500\naccount: {username: OutpostBot, rating: "
        "2043}\nfaults: [{kind: http_5xx, target: chessdb, status: 503, count: -1}]\n");
    std::string config = config_text(*fx, settings("{concurrency: 2}"));
    const std::string off = "health: {listen: \"\"}";
    config.replace(config.find(off), off.size(), "health: {listen: \"127.0.0.1:0\"}");
    config += "pgn_directory: " + (dir.path() / "pgn").string() + "\nonline_moves:\n";
    for (const char* source :
         {"lichess_opening_explorer", "lichess_cloud_analysis", "online_egtb", "chessdb_book"}) {
        config += std::string("  ") + source + ": {enabled: true, min_time: 0, url: \"" +
                  fx->emulator().online_url() + "\"}\n";
    }
    const std::string config_path = (dir.path() / "config.yml").string();
    std::ofstream(config_path) << config;
    std::filesystem::permissions(
        config_path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    const std::string log = (dir.path() / "outpost.log").string();
    ChildProcess bot(OUTPOST_EXE, {"run", "--config", config_path}, log, log);
    ASSERT_TRUE(bot.started());

    const std::regex address(R"(status page: (http://127\.0\.0\.1:\d+/))");
    std::smatch found;
    std::string text;
    ASSERT_TRUE(wait_for(
        [&] {
            text = read_file(log);
            return std::regex_search(text, found, address);
        },
        30s))
        << text;
    const std::string url = found[1];
    ASSERT_TRUE(wait_event_stream(*fx));

    // A bullet game the opponent resigns (the finished list) and a blitz game that stops after
    // the opponent's opening (a board); once the bullet game is over, a second such game takes its
    // slot, and then a challenger waits for one (the queue). One after the other: a challenge that
    // came while a game was ending could take the freed slot before one already queued.
    send_challenges(*fx, R"(
challenges:
  - id: brws0001
    at_ms: 0
    challenger: {name: QuickQuinn, rating: 1654}
    clock: {limit: 30, increment: 0}
    color: black
    opponent: {kind: random, think_ms: 30, resign_at_ply: 5}
  - id: brws0002
    at_ms: 0
    challenger: {name: Magnolia, title: FM, rating: 2210}
    clock: {limit: 180, increment: 2}
    color: black
    opponent: {kind: line, moves: [e7e5, b8c6, g8f6], then: staller, think_ms: 400}
)");
    ChessdbPause pause;  // looked for in the log all the while
    ASSERT_TRUE(fx->wait_until(
        [&] {
            pause.look(log);
            return game(*fx, "brws0001").over;
        },
        90s))
        << describe(game(*fx, "brws0001"));
    send_challenges(*fx, R"(
challenges:
  - id: brws0003
    at_ms: 0
    challenger: {name: ZugzwangZoe, title: BOT, rating: 1987}
    clock: {limit: 300, increment: 3}
    color: white
    opponent: {kind: line, moves: [d2d4, c2c4, b1c3], then: staller, think_ms: 400}
)");
    ASSERT_TRUE(fx->wait_until(
        [&] {
            pause.look(log);
            return !game(*fx, "brws0003").moves.empty();
        },
        60s))
        << describe(game(*fx, "brws0003"));
    send_challenges(*fx, R"(
challenges:
  - id: brws0004
    at_ms: 0
    challenger: {name: PatientPete, rating: 1820}
    clock: {limit: 180, increment: 0}
    opponent: {kind: random, think_ms: 30}
)");
    Settled second, third;
    ASSERT_TRUE(fx->wait_until(
        [&] {
            pause.look(log);
            // Both asked each round: each keeps its own time of the last change.
            const bool a = second(game(*fx, "brws0002"));
            const bool b = third(game(*fx, "brws0003"));
            return a && b;
        },
        120s))
        << describe(game(*fx, "brws0002")) << "\n"
        << describe(game(*fx, "brws0003"));
    // The page shows a position once the bot has read its state: wait for the last one.
    lichess::HttpConfig hc;
    hc.base_url = url.substr(0, url.size() - 1);
    hc.request_timeout = 5s;
    lichess::HttpClient http(hc);
    std::string why_not;  // what the last look found amiss
    const auto current = [&] {
        pause.look(log);
        auto page = http.perform({lichess::Method::Get, "/", {}, {}, false, "text/html"});
        if (!page || page->status != 200) {
            why_not = page ? "GET / answered " + std::to_string(page->status)
                           : "GET / failed: " + page.error().describe();
            return false;
        }
        for (const char* id : {"brws0002", "brws0003"}) {
            const emu::GameView g = game(*fx, id);
            const auto drawn =
                test_support::drawn_pieces(test_support::game_article(page->body, id));
            if (drawn != position_of(g)) {
                why_not = std::string(id) + ": the page draws " + pieces_text(drawn) +
                          ", the game has " + pieces_text(position_of(g)) + "; " + describe(g);
                return false;
            }
        }
        why_not = "PatientPete is not in the queue:\n" + page->body;
        return page->body.find("<li>PatientPete</li>") != std::string::npos;
    };
    ASSERT_TRUE(fx->wait_until(current, 60s))
        << why_not << "\nthe end of the bot's log:\n"
        << [&] {
               const std::string text = read_file(log);
               return text.substr(text.size() - std::min<std::size_t>(text.size(), 6000));
           }();

    // The browser: its DOM, then its screenshot.
    const auto started = std::chrono::steady_clock::now();
    const std::string dom_path = (dir.path() / "dom.html").string();
    const std::string chromium_log = (dir.path() / "chromium.log").string();
    {
        auto args = chromium_args(dir.path() / "profile-dom");
        args.insert(args.end(), {"--dump-dom", url});
        ChildProcess browser(chromium, args, dom_path, chromium_log);
        const auto status = browser.wait(90s);
        ASSERT_TRUE(status && WIFEXITED(*status) && WEXITSTATUS(*status) == 0)
            << read_file(chromium_log);
    }
    const std::string screenshot = std::string(OUTPOST_BUILD_DIR) + "/status-page.png";
    std::filesystem::remove(screenshot);
    {
        auto args = chromium_args(dir.path() / "profile-shot");
        args.insert(args.end(), {"--screenshot=" + screenshot, "--window-size=1280,960", url});
        ChildProcess browser(chromium, args, (dir.path() / "shot.out").string(), chromium_log);
        const auto status = browser.wait(90s);
        ASSERT_TRUE(status && WIFEXITED(*status) && WEXITSTATUS(*status) == 0)
            << read_file(chromium_log);
    }
    const auto dom_taken = started;
    const auto browser_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::steady_clock::now() - started)
                                .count();
    const std::string dom = read_file(dom_path);
    ASSERT_FALSE(dom.empty()) << read_file(chromium_log);

    // The page's script ran: the CSP let it (it marks the document).
    EXPECT_NE(dom.find(R"(<html lang="en" class="js">)"), std::string::npos) << dom.substr(0, 300);

    // Each board: the pieces where the emulator's game has them; our side at the bottom.
    for (const char* id : {"brws0002", "brws0003"}) {
        SCOPED_TRACE(id);
        const emu::GameView g = game(*fx, id);
        const std::string article = test_support::game_article(dom, id);
        ASSERT_FALSE(article.empty()) << dom;
        EXPECT_EQ(test_support::drawn_pieces(article), position_of(g));
        const bool we_are_white = g.bot_color == "white";
        // Our king (on its first rank, castled or not) is drawn on the bottom row.
        const std::regex our_king(std::string(R"(href="#)") + (we_are_white ? "w" : "b") +
                                  R"(K" x="\d" y="7")");
        EXPECT_TRUE(std::regex_search(article, our_king)) << article;
        // The opponent's name on top, ours below.
        const std::string opponent = std::string(id) == "brws0002" ? "Magnolia" : "ZugzwangZoe";
        const auto top = article.find(opponent);
        const auto bottom = article.find("OutpostBot");
        EXPECT_NE(top, std::string::npos);
        EXPECT_LT(top, bottom);
        // The clocks: ours as the server had it after our last move (it does not run now), the
        // opponent's running since then (the page is a few seconds old at most).
        const auto clocks = shown_clocks(article);
        ASSERT_EQ(clocks.size(), 2u) << article;
        const emu::MoveRecord& last = g.moves.back();
        const std::int64_t ours = we_are_white ? last.wtime : last.btime;
        const std::int64_t theirs = we_are_white ? last.btime : last.wtime;
        EXPECT_NEAR(static_cast<double>(clocks[1]), static_cast<double>(ours), 1500.0);
        EXPECT_LE(clocks[0], theirs + 1000);
        EXPECT_GE(clocks[0], theirs - 60'000);
    }
    // The queue, the finished game, today's tally.
    const auto queue = dom.find(R"(id="queue")");
    ASSERT_NE(queue, std::string::npos);
    EXPECT_NE(dom.find("<li>PatientPete</li>", queue), std::string::npos);
    EXPECT_NE(dom.find("2<span class=\"mute\">/2</span>", queue), std::string::npos);
    const auto finished = dom.find(R"(id="finished")");
    ASSERT_NE(finished, std::string::npos);
    EXPECT_NE(dom.find("QuickQuinn", finished), std::string::npos);
    EXPECT_NE(dom.find(R"(href="/pgn/brws0001")", finished), std::string::npos);
    EXPECT_NE(dom.find(R"(<span class="pill ok" id="lichess">Lichess connected</span>)"),
              std::string::npos);
    // The online sources: chessdb paused after its failures (while its last pause, as the log
    // says it, surely lasts), the others answering.
    const auto online = dom.find(R"(id="online")");
    ASSERT_NE(online, std::string::npos);
    ASSERT_TRUE(pause.seen) << "chessdb was never paused:\n" << read_file(log);
    const auto paused_for = pause.left(dom_taken);
    if (paused_for > 5s) {
        EXPECT_NE(dom.find(R"(<td>chessdb</td><td><span class="pill warn" title="until )", online),
                  std::string::npos)
            << dom.substr(online, 1500);
    } else if (paused_for < -5s) {
        EXPECT_NE(dom.find(R"(<td>chessdb</td><td><span class="pill ok">answering)", online),
                  std::string::npos)
            << dom.substr(online, 1500);
    }
    EXPECT_NE(dom.find(R"(<td>explorer</td><td><span class="pill ok">answering</span>)", online),
              std::string::npos);

    // The screenshot: a PNG of the page while the games run.
    const std::string png = read_file(screenshot);
    ASSERT_GT(png.size(), 20'000u);
    EXPECT_EQ(png.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
    std::cout << "chessdb's pause had " << paused_for.count() << " ms left at the DOM\n";
    std::cout << "chromium: DOM and screenshot in " << browser_ms << " ms; screenshot "
              << screenshot << " (" << png.size() << " bytes)\n";

    // The PGN link of the finished game serves its file.
    auto pgn = http.perform({lichess::Method::Get, "/pgn/brws0001", {}, {}, false, "text/plain"});
    ASSERT_TRUE(pgn) << pgn.error().describe();
    EXPECT_EQ(pgn->status, 200);
    EXPECT_NE(pgn->body.find("QuickQuinn"), std::string::npos) << pgn->body;
}

}  // namespace
}  // namespace e2e
