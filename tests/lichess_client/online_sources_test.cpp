// OnlineSources: the four parsers on the specs' examples and broken bodies, and the client
// against a loopback server: paths and queries, the token (never over plain http), deadlines,
// 429 pauses (Retry-After, JSON hint, default), 5xx, malformed bodies, one request at a time,
// the player NDJSON stream, and shutdown.
#include "lichess_client/online_sources.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <sstream>
#include <thread>

#include "test_data.hpp"
#include "tests/support/log_capture.hpp"
#include "tests/support/test_server.hpp"
#include "tests/support/time_scale.hpp"

namespace lichess {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kToken = "lip_SuperSecretToken_0123456789abcdef";
constexpr const char* kStartFen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
constexpr const char* kStartFenEncoded =
    "rnbqkbnr%2Fpppppppp%2F8%2F8%2F8%2F8%2FPPPPPPPP%2FRNBQKBNR%20w%20KQkq%20-%200%201";
constexpr const char* kTablebaseFen = "4k3/6KP/8/8/8/8/7p/8 w - - 0 1";

// A data file as is (the chessdb text form keeps its trailing NUL byte).
std::string read_data(const std::string& relative) {
    const std::string path = std::string(OUTPOST_TEST_DATA) + "/" + relative;
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("missing test data file " + path);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

long long ms_since(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

HttpConfig http_config() {
    using namespace std::chrono_literals;
    HttpConfig c;
    c.username = "OutpostBot";
    c.connect_timeout = 2s;
    c.request_timeout = 10s;
    return c;
}

OnlineUrls all_at(const std::string& url) { return OnlineUrls{url, url, url, url}; }

// ---- parsers ----

TEST(OnlineParsers, ExplorerMastersExample) {
    auto r = parse_explorer(test::read_example("openingExplorer-masters.json"));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->white, 1927);
    EXPECT_EQ(r->draws, 5215);
    EXPECT_EQ(r->black, 1469);
    EXPECT_EQ(r->opening, "D10 Slav Defense: Exchange Variation");
    ASSERT_EQ(r->moves.size(), 2u);
    EXPECT_EQ(r->moves[0].uci, "c6d5");
    EXPECT_EQ(r->moves[0].san, "cxd5");
    EXPECT_EQ(r->moves[0].white, 1927);
    EXPECT_EQ(r->moves[0].draws, 5215);
    EXPECT_EQ(r->moves[0].black, 1468);
    EXPECT_EQ(r->moves[0].average_rating, 2412);
    EXPECT_EQ(r->moves[1].uci, "g8f6");
    EXPECT_FALSE(r->queue_position.has_value());
}

TEST(OnlineParsers, ExplorerLichessExample) {
    auto r = parse_explorer(test::read_example("openingExplorer-lichess.json"));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->white, 5061745);
    ASSERT_EQ(r->moves.size(), 12u);
    EXPECT_EQ(r->moves[0].uci, "c6d5");
    EXPECT_EQ(r->moves[0].white, 4517660);
    EXPECT_EQ(r->moves[4].san, "Qa5+");
    EXPECT_EQ(r->moves[11].uci, "b8d7");
}

TEST(OnlineParsers, ExplorerPlayerExample) {
    auto r = parse_explorer(test::read_example("openingExplorer-player.json"));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->white, 366);
    EXPECT_EQ(r->queue_position, 178);
    EXPECT_EQ(r->opening, "D00 Queen's Pawn Game");
    ASSERT_EQ(r->moves.size(), 6u);
    EXPECT_EQ(r->moves[0].uci, "c2c4");
    EXPECT_EQ(r->moves[0].average_rating, 1695);  // averageOpponentRating
    EXPECT_EQ(r->moves[0].performance, 1744);
}

TEST(OnlineParsers, ExplorerEmptyPosition) {
    auto r = parse_explorer(
        R"({"white":0,"draws":0,"black":0,"moves":[],"topGames":[],"opening":null})");
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_TRUE(r->moves.empty());
    EXPECT_TRUE(r->opening.empty());
}

TEST(OnlineParsers, ExplorerBrokenBodiesAreParseErrors) {
    for (const char* body : {
             "",
             "not json",
             "[1,2]",
             R"({"white":1,"draws":2,"black":3})",                           // no moves
             R"({"draws":2,"black":3,"moves":[]})",                          // no white
             R"({"white":"1","draws":2,"black":3,"moves":[]})",              // white a string
             R"({"white":1,"draws":2,"black":3,"moves":{}})",                // moves an object
             R"({"white":1,"draws":2,"black":3,"moves":[{"san":"e4"}]})",    // move without uci
             R"({"white":1,"draws":2,"black":3,"moves":[{"uci":"e2e4"}]})",  // without counts
             R"({"white":1,"draws":2,"black":3,"moves":[7]})",
         }) {
        auto r = parse_explorer(body);
        ASSERT_FALSE(r.ok()) << body;
        EXPECT_EQ(r.error().kind, ApiError::Kind::Parse) << body;
        EXPECT_NE(r.error().message.find("explorer"), std::string::npos) << body;
    }
    auto r = parse_explorer("<html>502</html>");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().excerpt, "<html>502</html>");
}

TEST(OnlineParsers, CloudEvalSchemaExample) {
    auto r = parse_cloud_eval(test::read_example("schema-CloudEval.json"));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->depth, 29);
    EXPECT_EQ(r->knodes, 106325);
    ASSERT_EQ(r->pvs.size(), 3u);
    ASSERT_EQ(r->pvs[0].moves.size(), 10u);
    EXPECT_EQ(r->pvs[0].moves[0], "d1e2");
    EXPECT_EQ(r->pvs[0].moves[9], "c6a5");
    EXPECT_EQ(r->pvs[0].cp, 41);
    EXPECT_FALSE(r->pvs[0].mate.has_value());
    EXPECT_EQ(r->pvs[2].cp, 37);
}

TEST(OnlineParsers, CloudEvalMateAndBrokenBodies) {
    auto mate =
        parse_cloud_eval(R"({"fen":"x","depth":40,"knodes":5,"pvs":[{"moves":"h5f7","mate":1}]})");
    ASSERT_TRUE(mate.ok()) << mate.error().describe();
    EXPECT_EQ(mate->pvs[0].mate, 1);
    EXPECT_FALSE(mate->pvs[0].cp.has_value());
    EXPECT_EQ(mate->pvs[0].moves, std::vector<std::string>{"h5f7"});
    for (const char* body : {
             R"({"error":"No cloud evaluation available for that position"})",
             R"({"knodes":1,"pvs":[]})",
             R"({"depth":1,"knodes":1})",
             R"({"depth":1,"knodes":1,"pvs":[{"moves":"e2e4"}]})",  // neither cp nor mate
             R"({"depth":1,"knodes":1,"pvs":[{"cp":3}]})",          // no moves
             R"({"depth":1,"knodes":1,"pvs":[{"moves":["e2e4"],"cp":3}]})",
             "{",
         }) {
        auto r = parse_cloud_eval(body);
        ASSERT_FALSE(r.ok()) << body;
        EXPECT_EQ(r.error().kind, ApiError::Kind::Parse) << body;
    }
}

TEST(OnlineParsers, CloudEvalExtremeNumbersAreClamped) {
    auto r = parse_cloud_eval(
        R"({"depth":1e300,"knodes":-5,"pvs":[{"moves":"  e2e4   e7e5 ","cp":99999999999}]})");
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->depth, std::numeric_limits<int>::max());
    EXPECT_EQ(r->knodes, 0);
    EXPECT_EQ(r->pvs[0].cp, std::numeric_limits<int>::max());
    EXPECT_EQ(r->pvs[0].moves, (std::vector<std::string>{"e2e4", "e7e5"}));
}

TEST(OnlineParsers, TablebaseExample) {
    auto r = parse_tablebase(test::read_example("tablebase-lookupStandard.json"));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->category, TablebaseCategory::Win);
    EXPECT_EQ(r->dtz, 1);
    EXPECT_EQ(r->dtm, 17);
    EXPECT_FALSE(r->checkmate);
    ASSERT_EQ(r->moves.size(), 9u);
    EXPECT_EQ(r->moves[0].uci, "h7h8q");
    EXPECT_EQ(r->moves[0].san, "h8=Q+");
    EXPECT_EQ(r->moves[0].category, TablebaseCategory::Loss);  // for the opponent
    EXPECT_EQ(r->moves[0].dtz, -2);
    EXPECT_EQ(r->moves[0].dtm, -16);
    EXPECT_TRUE(r->moves[0].zeroing);
    EXPECT_EQ(r->moves[2].uci, "g7g8");
    EXPECT_EQ(r->moves[2].category, TablebaseCategory::Draw);
    EXPECT_FALSE(r->moves[2].zeroing);
    EXPECT_EQ(r->moves[3].category, TablebaseCategory::Win);
}

TEST(OnlineParsers, TablebaseSchemaExampleAndNulls) {
    auto r = parse_tablebase(test::read_example("schema-TablebaseJson.json"));
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->category, TablebaseCategory::Win);
    ASSERT_EQ(r->moves.size(), 1u);
    auto nulls = parse_tablebase(
        R"({"category":"maybe-win","dtz":null,"dtm":null,"moves":[{"uci":"a1a2","san":"Ra2",)"
        R"("category":"something-new","dtz":null}]})");
    ASSERT_TRUE(nulls.ok()) << nulls.error().describe();
    EXPECT_EQ(nulls->category, TablebaseCategory::MaybeWin);
    EXPECT_FALSE(nulls->dtz.has_value());
    EXPECT_EQ(nulls->moves[0].category, TablebaseCategory::Unknown);
    for (const char* body : {
             R"({"moves":[]})",
             R"({"category":"win"})",
             R"({"category":"win","moves":[{"uci":"a1a2","category":"win"}]})",  // no san
             R"({"category":"win","moves":[{"uci":"a1a2","san":"Ra2"}]})",       // no category
             R"({"category":3,"moves":[]})",
         }) {
        auto bad = parse_tablebase(body);
        ASSERT_FALSE(bad.ok()) << body;
        EXPECT_EQ(bad.error().kind, ApiError::Kind::Parse) << body;
    }
}

TEST(OnlineParsers, TablebaseCategoryNames) {
    for (int i = 0; i <= static_cast<int>(TablebaseCategory::Unknown); ++i) {
        const auto c = static_cast<TablebaseCategory>(i);
        EXPECT_EQ(parse_tablebase_category(to_string(c)), c) << to_string(c);
    }
    EXPECT_STREQ(to_string(TablebaseCategory::SyzygyLoss), "syzygy-loss");
    EXPECT_STREQ(to_string(TablebaseCategory::BlessedLoss), "blessed-loss");
    EXPECT_EQ(parse_tablebase_category("WIN"), TablebaseCategory::Unknown);
}

void expect_chessdb_startpos(const ChessdbReply& r) {
    EXPECT_EQ(r.status, "ok");
    ASSERT_EQ(r.moves.size(), 6u);
    EXPECT_EQ(r.moves[0].uci, "e2e4");
    EXPECT_EQ(r.moves[0].score, 34);
    EXPECT_EQ(r.moves[0].rank, 2);
    EXPECT_EQ(r.moves[0].note, "! (33-07)");
    ASSERT_TRUE(r.moves[0].winrate.has_value());
    EXPECT_DOUBLE_EQ(*r.moves[0].winrate, 52.57);
    EXPECT_EQ(r.moves[4].score, -40);
    EXPECT_EQ(r.moves[4].rank, 0);
    EXPECT_EQ(r.moves[5].uci, "g2g4");
    EXPECT_FALSE(r.moves[5].score.has_value());  // "??"
    EXPECT_FALSE(r.moves[5].winrate.has_value());
    EXPECT_EQ(r.moves[5].note, "? (?\?-?\?)");  // no trigraphs
}

TEST(OnlineParsers, ChessdbJsonAndTextForms) {
    auto json = parse_chessdb(read_data("chessdb/queryall-startpos.json"));
    ASSERT_TRUE(json.ok()) << json.error().describe();
    expect_chessdb_startpos(*json);
    EXPECT_EQ(json->moves[2].san, "Nf3");
    const std::string text_body = read_data("chessdb/queryall-startpos.txt");
    ASSERT_EQ(text_body.back(), '\0');
    auto text = parse_chessdb(text_body);
    ASSERT_TRUE(text.ok()) << text.error().describe();
    expect_chessdb_startpos(*text);
}

TEST(OnlineParsers, ChessdbStatuses) {
    for (const std::string status :
         {"unknown", "invalid board", "checkmate", "stalemate", "rate limit exceeded"}) {
        auto text = parse_chessdb(status + std::string(1, '\0'));
        ASSERT_TRUE(text.ok()) << status;
        EXPECT_EQ(text->status, status);
        EXPECT_TRUE(text->moves.empty());
        auto json = parse_chessdb(R"({"status":")" + status + R"("})");
        ASSERT_TRUE(json.ok()) << status;
        EXPECT_EQ(json->status, status);
    }
    const std::vector<std::string> broken{std::string(),
                                          std::string(1, '\0'),
                                          "<html>oops</html>",
                                          "{",
                                          R"({"moves":[]})",
                                          R"({"status":""})",
                                          R"({"status":"ok"})",
                                          R"({"status":"ok","moves":[{"san":"e4"}]})",
                                          "move:,score:1",
                                          "move:e2e4|score:3",
                                          "Unknown"};
    for (const std::string& body : broken) {
        auto r = parse_chessdb(body);
        ASSERT_FALSE(r.ok()) << body;
        EXPECT_EQ(r.error().kind, ApiError::Kind::Parse) << body;
    }
}

// ---- the client ----

TEST(OnlineSources, PathsQueriesAndReplies) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        const std::string& t = c.request().target;
        if (t.starts_with("/masters"))
            return c.respond(200, test::read_example("openingExplorer-masters.json"));
        if (t.starts_with("/lichess"))
            return c.respond(200, test::read_example("openingExplorer-lichess.json"));
        if (t.starts_with("/api/cloud-eval"))
            return c.respond(200, test::read_example("schema-CloudEval.json"));
        if (t.starts_with("/standard"))
            return c.respond(200, test::read_example("tablebase-lookupStandard.json"));
        if (t.starts_with("/cdb.php"))
            return c.respond(200, read_data("chessdb/queryall-startpos.json"));
        c.respond(404, R"({"error":"Not found"})");
    });
    OnlineSources online(http_config(), all_at(server.base_url()));
    ExplorerQuery masters;
    masters.source = "masters";
    masters.moves = 5;
    auto m = online.explorer(kStartFen, masters, 2s);
    ASSERT_TRUE(m.ok()) << m.error().describe();
    EXPECT_EQ(m->moves.size(), 2u);
    ExplorerQuery lichess;
    lichess.speeds = {"blitz", "rapid"};
    lichess.ratings = {2000, 2200};
    auto l = online.explorer(kStartFen, lichess, 2s);
    ASSERT_TRUE(l.ok()) << l.error().describe();
    EXPECT_EQ(l->moves.size(), 12u);
    auto c = online.cloud_eval(kStartFen, 3, 2s);
    ASSERT_TRUE(c.ok()) << c.error().describe();
    EXPECT_EQ(c->pvs.size(), 3u);
    auto t = online.tablebase(kTablebaseFen, 2s);
    ASSERT_TRUE(t.ok()) << t.error().describe();
    EXPECT_EQ(t->moves.size(), 9u);
    auto d = online.chessdb(kStartFen, 2s);
    ASSERT_TRUE(d.ok()) << d.error().describe();
    EXPECT_EQ(d->moves.size(), 6u);

    const auto reqs = server.requests();
    ASSERT_EQ(reqs.size(), 5u);
    const std::string fen = kStartFenEncoded;
    EXPECT_EQ(reqs[0].target, "/masters?fen=" + fen + "&moves=5&topGames=0");
    EXPECT_EQ(reqs[1].target, "/lichess?variant=standard&fen=" + fen +
                                  "&moves=12&topGames=0&recentGames=0&speeds=blitz%2Crapid"
                                  "&ratings=2000%2C2200");
    EXPECT_EQ(reqs[2].target, "/api/cloud-eval?fen=" + fen + "&multiPv=3");
    EXPECT_EQ(reqs[3].target,
              "/standard?fen=4k3%2F6KP%2F8%2F8%2F8%2F8%2F7p%2F8%20w%20-%20-%200%201");
    EXPECT_EQ(reqs[4].target, "/cdb.php?action=queryall&board=" + fen + "&json=1");
    for (const auto& r : reqs) {
        EXPECT_EQ(r.method, "GET");
        EXPECT_EQ(r.header("user-agent"),
                  std::string("outpost/") + OUTPOST_VERSION + " user:OutpostBot");
        EXPECT_EQ(r.header("authorization"), "");
    }
}

TEST(OnlineSources, TokenOnlyToLichessServicesAndOnlyOverHttps) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        c.respond(200, R"({"white":0,"draws":0,"black":0,"moves":[]})");
    });
    // Plain http (loopback): the token never travels, not even to the explorer.
    OnlineSources plain(http_config(), all_at(server.base_url()), kToken);
    for (int i = 0; i < 4; ++i) EXPECT_FALSE(plain.sends_token(static_cast<OnlineSource>(i)));
    auto r = plain.explorer(kStartFen, ExplorerQuery{}, 2s);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    (void)plain.tablebase(kStartFen, 2s);
    (void)plain.chessdb(kStartFen, 2s);
    (void)plain.cloud_eval(kStartFen, 1, 2s);
    ASSERT_EQ(server.requests().size(), 4u);
    for (const auto& req : server.requests()) {
        EXPECT_EQ(req.header("authorization"), "") << req.target;
        EXPECT_EQ(req.target.find(kToken), std::string::npos);
    }
    // The public services over https: Lichess's own three carry it (the explorer needs it, the
    // cloud eval and the tablebase allow more with it), chessdb never.
    OnlineSources https(http_config(), OnlineUrls{}, kToken);
    EXPECT_TRUE(https.sends_token(OnlineSource::Explorer));
    EXPECT_TRUE(https.sends_token(OnlineSource::CloudEval));
    EXPECT_TRUE(https.sends_token(OnlineSource::Tablebase));
    EXPECT_FALSE(https.sends_token(OnlineSource::Chessdb));
    // The tablebase the Python bridges ask, and a private Lichess whose Bot API runs elsewhere.
    OnlineUrls elsewhere{.explorer = "https://explorer.example.net",
                         .cloud_eval = "https://chess.example.org",
                         .tablebase = "https://tablebase.lichess.ovh",
                         .chessdb = "https://lichess.org"};
    lichess::HttpConfig own = http_config();
    own.base_url = "https://chess.example.org";
    OnlineSources other_hosts(own, elsewhere, kToken);
    EXPECT_FALSE(other_hosts.sends_token(OnlineSource::Explorer)) << "not a Lichess host";
    EXPECT_TRUE(other_hosts.sends_token(OnlineSource::CloudEval)) << "the Bot API's own host";
    EXPECT_TRUE(other_hosts.sends_token(OnlineSource::Tablebase));
    EXPECT_FALSE(other_hosts.sends_token(OnlineSource::Chessdb)) << "chessdb, wherever it is";
    OnlineSources no_token(http_config(), OnlineUrls{});
    EXPECT_FALSE(no_token.sends_token(OnlineSource::Explorer));
}

TEST(OnlineSources, BadUrlOrTokenIsAStartUpErrorNamingTheSource) {
    OnlineUrls urls;
    urls.chessdb = "http://www.chessdb.cn";
    try {
        OnlineSources bad(http_config(), urls);
        FAIL() << "plain http to a public host was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("chessdb"), std::string::npos) << e.what();
    }
    EXPECT_THROW(OnlineSources(http_config(), OnlineUrls{}, "bad token!"), std::invalid_argument);
}

TEST(OnlineSources, SlowReplyIsANetworkErrorWithinTheDeadline) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        c.sleep(4s);
        c.respond(200, test::read_example("tablebase-lookupStandard.json"));
    });
    OnlineSources online(http_config(), all_at(server.base_url()));
    const auto start = Clock::now();
    auto r = online.tablebase(kTablebaseFen, 300ms);
    const auto took = ms_since(start);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ApiError::Kind::Network);
    EXPECT_NE(r.error().message.find("no answer within 300 ms"), std::string::npos)
        << r.error().message;
    EXPECT_GE(took, 290);
    EXPECT_LT(took, 300 + test_time::scaled_ms(400)) << "the deadline was not kept";
    EXPECT_FALSE(online.paused_for(OnlineSource::Tablebase).has_value());
}

TEST(OnlineSources, NoTimeIsRefusedWithoutARequest) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) { c.respond(200, "{}"); });
    OnlineSources online(http_config(), all_at(server.base_url()));
    auto r = online.cloud_eval(kStartFen, 1, 0ms);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ApiError::Kind::Config);
    ExplorerQuery player;
    player.source = "player";
    player.player = "someone";  // no color
    auto p = online.explorer(kStartFen, player, 1s);
    ASSERT_FALSE(p.ok());
    EXPECT_EQ(p.error().kind, ApiError::Kind::Config);
    ExplorerQuery unknown;
    unknown.source = "grandmasters";
    EXPECT_EQ(online.explorer(kStartFen, unknown, 1s).error().kind, ApiError::Kind::Config);
    EXPECT_EQ(server.requests().size(), 0u);
}

TEST(OnlineSources, TooManyRequestsPausesOnlyThatSourceForRetryAfter) {
    using namespace std::chrono_literals;
    std::atomic<bool> limited{true};
    test_support::TestServer server([&](test_support::Connection& c) {
        if (c.request().target.starts_with("/standard") && limited.exchange(false)) {
            c.send_raw(
                "HTTP/1.1 429 Too Many Requests\r\nRetry-After: 1\r\nContent-Type: text/html\r\n"
                "Content-Length: 13\r\nConnection: close\r\n\r\n<html></html>");
            return;
        }
        if (c.request().target.starts_with("/standard"))
            return c.respond(200, test::read_example("tablebase-lookupStandard.json"));
        c.respond(200, read_data("chessdb/queryall-startpos.json"));
    });
    test_support::LogCapture logs;
    OnlineSources online(http_config(), all_at(server.base_url()));
    const auto asked = Clock::now();
    auto r = online.tablebase(kTablebaseFen, 2s);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ApiError::Kind::RateLimited);
    EXPECT_EQ(r.error().status, 429);
    EXPECT_EQ(r.error().retry_after, 1000ms);
    const auto paused = online.paused_for(OnlineSource::Tablebase);
    ASSERT_TRUE(paused.has_value());
    // The pause is Retry-After's second from the 429, which came after the request was sent:
    // what is left of it and the time since then add up to at least the second (less two
    // roundings down to whole milliseconds), however slow the build.
    EXPECT_GE(*paused + std::chrono::milliseconds(ms_since(asked)), 998ms);
    EXPECT_LE(*paused, 1000ms);
    EXPECT_FALSE(online.paused_for(OnlineSource::Chessdb).has_value());
    EXPECT_TRUE(logs.contains("online tablebase: rate limited (429)"));

    // Paused: answered at once, without a request; the other sources still ask.
    const auto start = Clock::now();
    auto again = online.tablebase(kTablebaseFen, 2s);
    EXPECT_LT(ms_since(start), test_time::scaled_ms(200));
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().kind, ApiError::Kind::RateLimited);
    ASSERT_TRUE(again.error().retry_after.has_value());
    EXPECT_TRUE(online.chessdb(kStartFen, 2s).ok());
    EXPECT_EQ(server.count("/standard"), 1u);

    while (online.paused_for(OnlineSource::Tablebase)) std::this_thread::sleep_for(20ms);
    auto after = online.tablebase(kTablebaseFen, 2s);
    ASSERT_TRUE(after.ok()) << after.error().describe();
    EXPECT_EQ(server.count("/standard"), 2u);
    EXPECT_EQ(logs.count("rate limited (429)"), 1u);
}

TEST(OnlineSources, TooManyRequestsWithoutRetryAfterUsesTheBodyHintOrTheDefault) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        if (c.request().target.starts_with("/api/cloud-eval"))
            return c.respond(
                429, R"({"error":"Too many requests","ratelimit":{"key":"x","seconds":3}})");
        c.respond(429, R"({"error":"Too many requests. Try again later."})");
    });
    OnlineSources online(http_config(), all_at(server.base_url()), {}, 1500ms);
    auto hinted = online.cloud_eval(kStartFen, 1, 2s);
    ASSERT_FALSE(hinted.ok());
    EXPECT_EQ(hinted.error().retry_after, 3000ms);
    EXPECT_EQ(hinted.error().message, "Too many requests");
    auto plain = online.explorer(kStartFen, ExplorerQuery{}, 2s);
    ASSERT_FALSE(plain.ok());
    EXPECT_EQ(plain.error().kind, ApiError::Kind::RateLimited);
    EXPECT_EQ(plain.error().retry_after, 1500ms);
    EXPECT_GT(*online.paused_for(OnlineSource::CloudEval), 2000ms);
    EXPECT_GT(*online.paused_for(OnlineSource::Explorer), 1000ms);

    // Lichess's rule by default: a full minute.
    OnlineSources lichess_rule(http_config(), all_at(server.base_url()));
    auto r = lichess_rule.tablebase(kTablebaseFen, 2s);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().retry_after, 60000ms);
    EXPECT_GT(*lichess_rule.paused_for(OnlineSource::Tablebase), 59000ms);
}

TEST(OnlineSources, ChessdbRateLimitStatusCountsAsA429) {
    using namespace std::chrono_literals;
    test_support::TestServer server(
        [](test_support::Connection& c) { c.respond(200, R"({"status":"rate limit exceeded"})"); });
    OnlineSources online(http_config(), all_at(server.base_url()), {}, 1200ms);
    auto r = online.chessdb(kStartFen, 2s);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ApiError::Kind::RateLimited);
    EXPECT_TRUE(online.paused_for(OnlineSource::Chessdb).has_value());
    EXPECT_EQ(online.chessdb(kStartFen, 2s).error().kind, ApiError::Kind::RateLimited);
    EXPECT_EQ(server.count("/cdb.php"), 1u);
}

TEST(OnlineSources, ServerErrorsAndMalformedBodies) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        const std::string& t = c.request().target;
        if (t.starts_with("/standard"))
            return c.respond(502, "<html><head><title>502 Bad Gateway</title></head></html>",
                             "text/html");
        if (t.starts_with("/api/cloud-eval"))
            return c.respond(404, R"({"error":"No cloud evaluation available for that position"})");
        if (t.starts_with("/cdb.php"))
            return c.respond(200, "<html>maintenance</html>", "text/html");
        c.respond(200, R"({"white":1,"draws":2,"black":3,"moves":[{"uci":"e2e4","white":)");
    });
    OnlineSources online(http_config(), all_at(server.base_url()));
    auto tb = online.tablebase(kTablebaseFen, 2s);
    ASSERT_FALSE(tb.ok());
    EXPECT_EQ(tb.error().kind, ApiError::Kind::Http);
    EXPECT_EQ(tb.error().status, 502);
    EXPECT_NE(tb.error().excerpt.find("502 Bad Gateway"), std::string::npos);
    auto cloud = online.cloud_eval(kStartFen, 1, 2s);
    ASSERT_FALSE(cloud.ok());
    EXPECT_EQ(cloud.error().kind, ApiError::Kind::Http);
    EXPECT_EQ(cloud.error().status, 404);
    EXPECT_EQ(cloud.error().message, "No cloud evaluation available for that position");
    auto cdb = online.chessdb(kStartFen, 2s);
    ASSERT_FALSE(cdb.ok());
    EXPECT_EQ(cdb.error().kind, ApiError::Kind::Parse);
    auto ex = online.explorer(kStartFen, ExplorerQuery{}, 2s);
    ASSERT_FALSE(ex.ok());
    EXPECT_EQ(ex.error().kind, ApiError::Kind::Parse);
    EXPECT_FALSE(ex.error().excerpt.empty());
    for (int i = 0; i < 4; ++i)
        EXPECT_FALSE(online.paused_for(static_cast<OnlineSource>(i)).has_value());
}

TEST(OnlineSources, OneRequestAtATimePerSourceButSourcesInParallel) {
    using namespace std::chrono_literals;
    // The tablebase's answer is held until the test has asked the others (at most 10 s).
    std::atomic<bool> release{false};
    test_support::TestServer server([&](test_support::Connection& c) {
        if (c.request().target.starts_with("/standard")) c.hold_until(release, 10s);
        if (c.request().target.starts_with("/standard"))
            return c.respond(200, test::read_example("tablebase-lookupStandard.json"));
        c.respond(200, read_data("chessdb/queryall-startpos.json"));
    });
    OnlineSources online(http_config(), all_at(server.base_url()));
    std::atomic<bool> slow_done{false};
    std::thread slow([&] {
        EXPECT_TRUE(online.tablebase(kTablebaseFen, 15s).ok());
        slow_done = true;
    });
    while (server.count("/standard") == 0) std::this_thread::sleep_for(5ms);
    // Another source is not held up by the slow one: answered while that one is still held.
    EXPECT_TRUE(online.chessdb(kStartFen, 1s).ok());
    EXPECT_FALSE(slow_done.load());
    // The same source waits for its slot, and gives up at its own deadline.
    const auto start = Clock::now();
    auto second = online.tablebase(kTablebaseFen, 200ms);
    const auto took = ms_since(start);
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.error().kind, ApiError::Kind::Network);
    EXPECT_GE(took, 190);
    EXPECT_LT(took, 200 + test_time::scaled_ms(400));
    EXPECT_FALSE(slow_done.load());
    release = true;
    slow.join();
    EXPECT_EQ(server.count("/standard"), 1u);
}

TEST(OnlineSources, PlayerStreamGivesTheLastLineBeforeTheDeadline) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        const std::string& t = c.request().target;
        EXPECT_TRUE(t.starts_with("/player?player=OutpostBot&color=white&variant=standard&fen="))
            << t;
        c.begin_stream();
        c.send_chunk(R"({"white":1,"draws":0,"black":0,"moves":[],"queuePosition":3})"
                     "\n");
        c.sleep(100ms);
        c.send_chunk("\n");  // keep-alive
        c.send_chunk(R"({"white":2,"draws":0,"black":0,"moves":[{"uci":"e2e4","san":"e4",)"
                     R"("white":2,"draws":0,"black":0}],"queuePosition":0})"
                     "\n");
        if (t.find("recentGames=0&speeds=blitz") != std::string::npos) {
            c.end_stream();  // indexing done
            return;
        }
        c.send_chunk(R"({"white":9,"draws")");  // half a line, then the server thinks
        c.sleep(3s);
        c.end_stream();
    });
    OnlineSources online(http_config(), all_at(server.base_url()));
    ExplorerQuery q;
    q.source = "player";
    q.player = "OutpostBot";
    q.color = "white";
    const auto start = Clock::now();
    auto r = online.explorer(kStartFen, q, 500ms);
    const auto took = ms_since(start);
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(r->white, 2);
    ASSERT_EQ(r->moves.size(), 1u);
    EXPECT_EQ(r->moves[0].uci, "e2e4");
    EXPECT_EQ(r->queue_position, 0);
    EXPECT_LT(took, 500 + test_time::scaled_ms(400));

    q.speeds = {"blitz"};
    auto done = online.explorer(kStartFen, q, 2s);
    ASSERT_TRUE(done.ok()) << done.error().describe();
    EXPECT_EQ(done->white, 2);
}

TEST(OnlineSources, PlayerStreamWithoutALineIsANetworkError) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        c.begin_stream();
        c.sleep(3s);
        c.end_stream();
    });
    OnlineSources online(http_config(), all_at(server.base_url()));
    ExplorerQuery q;
    q.source = "player";
    q.player = "OutpostBot";
    q.color = "black";
    const auto start = Clock::now();
    auto r = online.explorer(kStartFen, q, 300ms);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ApiError::Kind::Network);
    EXPECT_LT(ms_since(start), 300 + test_time::scaled_ms(400));
}

TEST(OnlineSources, ShutdownCancelsARequestInFlight) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        c.sleep(5s);
        c.respond(200, "{}");
    });
    OnlineSources online(http_config(), all_at(server.base_url()));
    std::atomic<long long> took{-1};
    std::optional<ApiError::Kind> kind;
    std::thread caller([&] {
        const auto start = Clock::now();
        auto r = online.tablebase(kTablebaseFen, 8s);
        took = ms_since(start);
        if (!r.ok()) kind = r.error().kind;
    });
    while (server.count("/standard") == 0) std::this_thread::sleep_for(5ms);
    std::this_thread::sleep_for(100ms);
    const auto stop = Clock::now();
    online.shutdown();
    caller.join();
    EXPECT_EQ(kind, ApiError::Kind::Cancelled);
    EXPECT_LT(ms_since(stop), 1000 + test_time::scaled_ms(600))
        << "curl's progress tick is about a second";
    EXPECT_LT(took.load(), 1000 + test_time::scaled_ms(1500));
    auto later = online.cloud_eval(kStartFen, 1, 1s);
    ASSERT_FALSE(later.ok());
    EXPECT_EQ(later.error().kind, ApiError::Kind::Cancelled);
    EXPECT_EQ(server.count("/api/cloud-eval"), 0u);
}

TEST(OnlineSources, SourceNames) {
    EXPECT_STREQ(to_string(OnlineSource::Explorer), "explorer");
    EXPECT_STREQ(to_string(OnlineSource::CloudEval), "cloud");
    EXPECT_STREQ(to_string(OnlineSource::Tablebase), "tablebase");
    EXPECT_STREQ(to_string(OnlineSource::Chessdb), "chessdb");
}

}  // namespace
}  // namespace lichess
