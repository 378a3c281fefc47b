// OnlineMoves (online_moves.hpp) with the real client against a loopback server that answers
// as each source is told: which sources a position, a variant and a clock ask, in which order,
// what a miss, an HTTP error, a 429, garbage, an illegal answer or a slow answer lead to, and
// that a source failing again and again is paused.
#include "service/moves/online_moves.hpp"

#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "engine/fen.hpp"
#include "tests/lichess_client/test_data.hpp"
#include "tests/support/test_server.hpp"

namespace service {
namespace {

constexpr const char* kTablebaseFen = "4k3/6KP/8/8/8/8/7p/8 w - - 0 1";  // the spec's example

// Bodies shaped like the services' replies for the start position.
const char* const kExplorerStart =
    R"({"white":400,"draws":300,"black":200,"moves":[{"uci":"d2d4","san":"d4","averageRating":2400,)"
    R"("white":300,"draws":200,"black":100}],"opening":null})";
const char* const kExplorerIllegal =
    R"({"white":400,"draws":300,"black":200,"moves":[{"uci":"e2e5","san":"e5","averageRating":2400,)"
    R"("white":300,"draws":200,"black":100}],"opening":null})";
const char* const kExplorerEmpty = R"({"white":0,"draws":0,"black":0,"moves":[],"opening":null})";
const char* const kCloudStart =
    R"({"fen":"x","knodes":1000,"depth":40,"pvs":[{"moves":"g1f3 d7d5","cp":20}]})";
const char* const kChessdbUnknown = R"({"status":"unknown"})";

// One reply a source gives (every time it is asked).
struct SourceReply {
    int status = 200;
    std::string body;
    std::string raw;  // a whole HTTP reply instead (a 429 with Retry-After)
    std::chrono::milliseconds delay{0};
};
SourceReply answer(std::string body, int status = 200) {
    SourceReply r;
    r.status = status;
    r.body = std::move(body);
    return r;
}
SourceReply raw_reply(std::string raw) {
    SourceReply r;
    r.raw = std::move(raw);
    return r;
}
SourceReply slow_answer(std::string body, std::chrono::milliseconds delay) {
    SourceReply r = answer(std::move(body));
    r.delay = delay;
    return r;
}

// The loopback server of the four sources: routes by path, answers with the source's Reply
// (404 for a source with none) and keeps the order in which the sources were asked.
class ScriptedSources {
  public:
    ScriptedSources()
        : server_([this](test_support::Connection& c) {
              const std::string& target = c.request().target;
              const std::string name = source_of(target);
              SourceReply reply;
              {
                  std::lock_guard lock(mutex_);
                  asked_.push_back(name);
                  auto it = replies_.find(name);
                  if (it == replies_.end()) {
                      reply.status = 404;
                      reply.body = R"({"error":"none"})";
                  } else {
                      reply = it->second;
                  }
              }
              if (reply.delay.count() > 0) c.sleep(reply.delay);
              if (!reply.raw.empty())
                  c.send_raw(reply.raw);
              else
                  c.respond(reply.status, reply.body);
          }) {}

    void set(const std::string& source, SourceReply reply) {
        std::lock_guard lock(mutex_);
        replies_[source] = std::move(reply);
    }
    // The sources asked so far, in order: explorer, cloud, tablebase, chessdb.
    std::vector<std::string> asked() const {
        std::lock_guard lock(mutex_);
        return asked_;
    }
    std::vector<test_support::Request> requests() const { return server_.requests(); }
    std::string url() const { return server_.base_url(); }

  private:
    static std::string source_of(const std::string& target) {
        if (target.starts_with("/cdb.php")) return "chessdb";
        if (target.starts_with("/api/cloud-eval")) return "cloud";
        if (target.starts_with("/masters") || target.starts_with("/lichess") ||
            target.starts_with("/player"))
            return "explorer";
        return "tablebase";
    }

    mutable std::mutex mutex_;
    std::map<std::string, SourceReply> replies_;
    std::vector<std::string> asked_;
    test_support::TestServer server_;
};

// Every source at the server, none enabled yet, and no clock range to stop them.
config::OnlineMovesConfig sources_at(const std::string& url) {
    config::OnlineMovesConfig c;
    for (config::OnlineSourceConfig* ask :
         {&c.lichess_opening_explorer.ask, &c.lichess_cloud_analysis.ask, &c.online_egtb.ask,
          &c.chessdb_book.ask}) {
        ask->url = url;
        ask->min_time = 0;
    }
    c.lichess_cloud_analysis.min_depth = 20;
    c.lichess_opening_explorer.min_games = 10;
    return c;
}

config::OnlineMovesConfig all_enabled(const std::string& url) {
    config::OnlineMovesConfig c = sources_at(url);
    c.lichess_opening_explorer.ask.enabled = c.lichess_cloud_analysis.ask.enabled =
        c.online_egtb.ask.enabled = c.chessdb_book.ask.enabled = true;
    return c;
}

std::unique_ptr<OnlineMoves> online_moves(const config::OnlineMovesConfig& config,
                                          Metrics& metrics) {
    lichess::HttpConfig http;
    http.username = "OutpostBot";
    http.connect_timeout = std::chrono::seconds(2);
    http.request_timeout = std::chrono::seconds(10);
    const lichess::OnlineUrls urls{
        .explorer = config.lichess_opening_explorer.ask.url,
        .cloud_eval = config.lichess_cloud_analysis.ask.url,
        .tablebase = config.online_egtb.ask.url,
        .chessdb = config.chessdb_book.ask.url,
    };
    return std::make_unique<OnlineMoves>(
        config, std::make_unique<lichess::OnlineSources>(http, urls), metrics, 7);
}

engine::Position at_fen(const std::string& fen = std::string(engine::START_FEN),
                        engine::Variant variant = engine::Variant::STANDARD) {
    auto p = engine::Position::from_fen(fen, variant);
    if (!p.ok()) throw std::runtime_error("bad test FEN " + fen);
    return *p;
}

OnlineAsk ask_for(const std::string& variant = "standard") {
    return OnlineAsk{.our_ms = 60'000,
                     .real_time = true,
                     .fullmove = 1,
                     .variant = variant,
                     .deadline = std::chrono::milliseconds(3000)};
}

const OnlineSourceMetrics& counts(const Metrics& m, lichess::OnlineSource s) {
    return m.online[static_cast<std::size_t>(s)];
}

using Asked = std::vector<std::string>;

// Each test's sources, their config (none enabled until the test says) and one game's count.
class OnlineLookup : public ::testing::Test {
  protected:
    void enable_all() { config = all_enabled(sources.url()); }
    std::unique_ptr<OnlineMoves> start() { return online_moves(config, metrics); }

    ScriptedSources sources;
    Metrics metrics;
    config::OnlineMovesConfig config = sources_at(sources.url());
    OnlineGameState game;
};

TEST_F(OnlineLookup, InTheOpeningChessdbThenCloudThenTheExplorerAreAskedUntilOneAnswers) {
    sources.set("chessdb", answer(kChessdbUnknown));  // a miss
    // cloud: none set, so 404, lila's "no evaluation": a miss, not an error
    sources.set("explorer", answer(kExplorerStart));
    enable_all();
    auto om = start();
    game.misses_in_a_row = 3;

    const auto c = om->find(at_fen(), ask_for(), game);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->uci, "d2d4");
    EXPECT_EQ(c->source, MoveSource::Explorer);
    // The tablebase is not asked with 32 pieces on the board.
    EXPECT_EQ(sources.asked(), (Asked{"chessdb", "cloud", "explorer"}));
    EXPECT_EQ(game.misses_in_a_row, 0);  // a hit starts the count again
    EXPECT_EQ(counts(metrics, lichess::OnlineSource::Chessdb).misses.load(), 1u);
    EXPECT_EQ(counts(metrics, lichess::OnlineSource::CloudEval).misses.load(), 1u);
    EXPECT_EQ(counts(metrics, lichess::OnlineSource::CloudEval).errors.load(), 0u);
    EXPECT_EQ(counts(metrics, lichess::OnlineSource::Explorer).hits.load(), 1u);
    // The masters database (the default source) with the position asked.
    const auto requests = sources.requests();
    ASSERT_EQ(requests.size(), 3u);
    EXPECT_TRUE(requests[2].target.starts_with("/masters?fen=rnbqkbnr%2Fpppppppp"))
        << requests[2].target;
}

TEST_F(OnlineLookup, TheFirstSourceThatAnswersEndsTheLookup) {
    sources.set("chessdb", answer(kChessdbUnknown));
    sources.set("cloud", answer(kCloudStart));
    sources.set("explorer", answer(kExplorerStart));
    enable_all();
    auto om = start();
    const auto c = om->find(at_fen(), ask_for(), game);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->uci, "g1f3");
    EXPECT_EQ(c->source, MoveSource::Cloud);
    EXPECT_EQ(sources.asked(), (Asked{"chessdb", "cloud"}));
}

TEST_F(OnlineLookup, AnEndgameAsksTheTablebaseFirstAndNothingElseOnAHit) {
    sources.set("tablebase", answer(lichess::test::read_example("tablebase-lookupStandard.json")));
    sources.set("cloud", answer(kCloudStart));
    enable_all();
    auto om = start();
    game.misses_in_a_row = 2;
    const auto c = om->find(at_fen(kTablebaseFen), ask_for(), game);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->source, MoveSource::Tablebase);
    EXPECT_EQ(c->uci, "h7h8q");  // the table's winning move with the shortest way to mate
    EXPECT_EQ(sources.asked(), (Asked{"tablebase"}));
    EXPECT_TRUE(sources.requests().at(0).target.starts_with("/standard?fen=4k3%2F6KP"));
    EXPECT_EQ(game.misses_in_a_row, 2);  // a table's answer is not the book's
    EXPECT_EQ(counts(metrics, lichess::OnlineSource::Tablebase).hits.load(), 1u);
}

TEST_F(OnlineLookup, ATableIsNotAskedWithCastlingRightsOrMorePiecesThanItsLimit) {
    config.online_egtb.ask.enabled = true;
    config.online_egtb.max_pieces = 3;
    auto om = start();
    EXPECT_FALSE(om->find(at_fen(kTablebaseFen), ask_for(), game));  // 4 pieces, the limit 3
    EXPECT_FALSE(om->find(at_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), ask_for(), game));  // castling
    EXPECT_TRUE(sources.asked().empty());
    EXPECT_EQ(game.misses_in_a_row, 0);  // nothing was asked: no miss
}

TEST_F(OnlineLookup, OnlyTheSourcesThatHaveTheGamesVariantAreAsked) {
    enable_all();
    auto om = start();
    // Horde: cloud eval has it (sent as `variant`), the masters database and chessdb do not, and
    // the online tablebase has no horde tables.
    const auto horde =
        at_fen("rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
               engine::Variant::HORDE);
    EXPECT_FALSE(om->find(horde, ask_for("horde"), game));
    EXPECT_EQ(sources.asked(), (Asked{"cloud"}));
    EXPECT_NE(sources.requests().at(0).target.find("&variant=horde"), std::string::npos);
    // chess960 asks only a tablebase, and a key that is no Lichess variant asks nothing.
    EXPECT_FALSE(om->find(at_fen(), ask_for("chess960"), game));
    EXPECT_FALSE(om->find(at_fen(), ask_for("giveaway"), game));
    EXPECT_EQ(sources.asked().size(), 1u);
}

TEST_F(OnlineLookup, NoSourceIsAskedOutsideItsClockRangeOrWithoutTimeToWait) {
    sources.set("cloud", answer(kCloudStart));
    config.lichess_cloud_analysis.ask.enabled = true;
    config.lichess_cloud_analysis.ask.min_time = 30;
    config.lichess_cloud_analysis.ask.max_time = 600;
    auto om = start();
    OnlineAsk short_clock = ask_for();
    short_clock.our_ms = 29'000;
    EXPECT_FALSE(om->find(at_fen(), short_clock, game));
    OnlineAsk long_clock = ask_for();
    long_clock.our_ms = 601'000;
    EXPECT_FALSE(om->find(at_fen(), long_clock, game));
    OnlineAsk no_deadline = ask_for();
    no_deadline.deadline = std::chrono::milliseconds(0);
    EXPECT_FALSE(om->find(at_fen(), no_deadline, game));
    EXPECT_TRUE(sources.asked().empty());
    // A correspondence game counts as max_time: inside the range.
    OnlineAsk correspondence = ask_for();
    correspondence.real_time = false;
    correspondence.our_ms = 0;
    EXPECT_TRUE(om->find(at_fen(), correspondence, game));
    EXPECT_EQ(sources.asked(), (Asked{"cloud"}));
}

TEST_F(OnlineLookup, MissesInARowStopTheBookSourcesForTheGame) {
    sources.set("explorer", answer(kExplorerEmpty));
    config.lichess_opening_explorer.ask.enabled = true;
    config.max_out_of_book_moves = 2;
    auto om = start();
    EXPECT_FALSE(om->find(at_fen(), ask_for(), game));
    EXPECT_FALSE(om->find(at_fen(), ask_for(), game));
    EXPECT_EQ(game.misses_in_a_row, 2);
    EXPECT_FALSE(om->find(at_fen(), ask_for(), game));  // not asked a third time
    EXPECT_EQ(sources.asked().size(), 2u);
    // Another game has its own count.
    OnlineGameState other;
    EXPECT_FALSE(om->find(at_fen(), ask_for(), other));
    EXPECT_EQ(sources.asked().size(), 3u);
    // Past max_depth full moves no book source is asked either.
    OnlineAsk late = ask_for();
    late.fullmove = config.max_depth + 1;
    OnlineGameState third;
    EXPECT_FALSE(om->find(at_fen(), late, third));
    EXPECT_EQ(sources.asked().size(), 3u);
}

TEST_F(OnlineLookup, AnIllegalAnswerIsNeverPlayed) {
    sources.set("explorer", answer(kExplorerIllegal));
    config.lichess_opening_explorer.ask.enabled = true;
    auto om = start();
    EXPECT_FALSE(om->find(at_fen(), ask_for(), game));
    EXPECT_EQ(sources.asked(), (Asked{"explorer"}));
    EXPECT_EQ(counts(metrics, lichess::OnlineSource::Explorer).misses.load(), 1u);
    EXPECT_EQ(game.misses_in_a_row, 1);
}

TEST_F(OnlineLookup, ServerErrorsAreRetriedAndASourceThatKeepsFailingIsPaused) {
    sources.set("cloud", answer("<html>503</html>", 503));
    config.lichess_cloud_analysis.ask.enabled = true;
    config.max_retries = 2;
    auto om = start();
    // One lookup: the first try and two retries, the third failure in a row pauses the source.
    EXPECT_FALSE(om->find(at_fen(), ask_for(), game));
    EXPECT_EQ(sources.asked().size(), std::size_t(OnlineMoves::kFailuresBeforePause));
    const auto& m = counts(metrics, lichess::OnlineSource::CloudEval);
    EXPECT_EQ(m.errors.load(), 3u);
    EXPECT_EQ(m.pauses.load(), 1u);
    EXPECT_TRUE(m.paused.load());
    // Paused: the next lookup does not ask it, and says so.
    EXPECT_FALSE(om->find(at_fen(), ask_for(), game));
    EXPECT_EQ(sources.asked().size(), 3u);
    EXPECT_EQ(m.skipped.load(), 1u);
}

TEST_F(OnlineLookup, GarbageIsAFailureAndA4xxIsNotAskedAgain) {
    sources.set("explorer", answer("<html>not json</html>"));
    sources.set("chessdb", answer(R"({"error":"bad"})", 400));
    config.lichess_opening_explorer.ask.enabled = true;
    config.chessdb_book.ask.enabled = true;
    config.max_retries = 1;
    auto om = start();
    EXPECT_FALSE(om->find(at_fen(), ask_for(), game));
    // chessdb's 400 once; the explorer's unreadable body once more on the retry.
    EXPECT_EQ(sources.asked(), (Asked{"chessdb", "explorer", "explorer"}));
    EXPECT_EQ(counts(metrics, lichess::OnlineSource::Chessdb).errors.load(), 1u);
    EXPECT_EQ(counts(metrics, lichess::OnlineSource::Explorer).errors.load(), 2u);
    EXPECT_EQ(counts(metrics, lichess::OnlineSource::Explorer).pauses.load(),
              0u);  // two failures, not three
    EXPECT_EQ(game.misses_in_a_row, 1);
}

TEST_F(OnlineLookup, A429PausesTheSourceWithoutARetry) {
    sources.set("cloud", raw_reply("HTTP/1.1 429 Too Many Requests\r\nRetry-After: 60\r\n"
                                   "Content-Length: 0\r\nConnection: close\r\n\r\n"));
    sources.set("explorer", answer(kExplorerStart));
    config.lichess_cloud_analysis.ask.enabled = true;
    config.lichess_opening_explorer.ask.enabled = true;
    auto om = start();
    auto c = om->find(at_fen(), ask_for(), game);
    ASSERT_TRUE(c);
    EXPECT_EQ(c->source, MoveSource::Explorer);  // the next source answered
    c = om->find(at_fen(), ask_for(), game);
    ASSERT_TRUE(c);
    // cloud once: the second lookup skips it while the server's pause runs.
    EXPECT_EQ(sources.asked(), (Asked{"cloud", "explorer", "explorer"}));
    EXPECT_EQ(counts(metrics, lichess::OnlineSource::CloudEval).skipped.load(), 1u);
}

TEST_F(OnlineLookup, AnAnswerAfterTheDeadlineLeavesTheMoveToTheSearch) {
    // The server answers long after the lookup's deadline (it is cut short when the test ends).
    sources.set("cloud", slow_answer(kCloudStart, std::chrono::seconds(30)));
    config.lichess_cloud_analysis.ask.enabled = true;
    auto om = start();
    OnlineAsk quick = ask_for();
    quick.deadline = std::chrono::milliseconds(300);
    EXPECT_FALSE(om->find(at_fen(), quick, game));
    EXPECT_EQ(sources.asked(), (Asked{"cloud"}));
    EXPECT_EQ(counts(metrics, lichess::OnlineSource::CloudEval).errors.load(), 1u);
    EXPECT_EQ(counts(metrics, lichess::OnlineSource::CloudEval).hits.load(), 0u);
}

}  // namespace
}  // namespace service
