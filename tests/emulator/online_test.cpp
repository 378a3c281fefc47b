// The online sources' server on its own port: the scenario's `online` key, the built-in
// positions (every move legal), each endpoint's answers and parameters as the specs, lila,
// lila-openingexplorer and cdb.php have them, a token refused over plain http, and the faults
// (latency, 429 with Retry-After, 5xx, malformed bodies) per source.
#include <gtest/gtest.h>

#include <chrono>

#include "emulator_fixture.hpp"
#include "engine/position.hpp"
#include "test_helpers.hpp"

namespace emu {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kStart =
    "rnbqkbnr%2Fpppppppp%2F8%2F8%2F8%2F8%2FPPPPPPPP%2FRNBQKBNR%20w%20KQkq%20-%200%201";
constexpr const char* kAfterE4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

std::string enc(std::string fen) {
    std::string out;
    for (char c : fen) out += c == ' ' ? std::string("%20") : c == '/' ? "%2F" : std::string(1, c);
    return out;
}

emu_test::HttpResult online_get(EmulatorFixture& emu, const std::string& target) {
    return emu_test::HttpClient(emu->online_port(), "").get(target);
}

long long ms_since(Clock::time_point t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count();
}

// Every move of `ucis` is legal in `fen` (each from that position).
void expect_legal(const std::string& fen, const std::vector<std::string>& ucis) {
    auto pos = engine::Position::from_fen(fen);
    ASSERT_TRUE(pos.ok()) << fen;
    for (const auto& uci : ucis) {
        auto copy = *pos;
        EXPECT_TRUE(copy.play_uci(uci).ok()) << uci << " in " << fen;
    }
}

// A line of moves played one after the other from `fen`.
void expect_legal_line(const std::string& fen, const std::string& line) {
    auto pos = engine::Position::from_fen(fen);
    ASSERT_TRUE(pos.ok()) << fen;
    std::istringstream in(line);
    for (std::string uci; in >> uci;) ASSERT_TRUE(pos->play_uci(uci).ok()) << uci << " of " << line;
}

std::vector<std::string> ucis_of(const nlohmann::json& moves) {
    std::vector<std::string> out;
    for (const auto& m : moves) out.push_back(m.at("uci").get<std::string>());
    return out;
}

// ---- scenario ----

TEST(OnlineScenario, ParsesPositionsAndFaults) {
    auto r = parse_scenario(R"(
online:
  builtin: false
  explorer: [{fen: "8/8/8/8/8/8/8/K1k5 w - - 0 1", db: masters, body: '{"white":1,"draws":0,"black":0,"moves":[]}'}]
  cloud_eval: [{fen: "8/8/8/8/8/8/8/K1k5 w - -", status: 404, body: '{"error":"x"}'}]
  tablebase: [{fen: "8/8/8/8/8/8/8/K1k5 w - - 0 1", body: '{"category":"draw","moves":[]}'}]
  chessdb: [{fen: "8/8/8/8/8/8/8/K1k5 w - - 0 1", body: '{"status":"unknown"}'}]
faults:
  - {kind: http_429, target: tablebase, retry_after_s: 7}
  - {kind: malformed, target: chessdb, body: html}
  - {kind: delay, target: explorer, delay_ms: 50, count: -1}
)");
    ASSERT_TRUE(r.scenario) << r.error;
    const auto& o = r.scenario->online;
    EXPECT_FALSE(o.builtin);
    ASSERT_EQ(o.explorer.size(), 1u);
    EXPECT_EQ(o.explorer[0].db, "masters");
    EXPECT_EQ(o.cloud_eval.at(0).status, 404);
    EXPECT_EQ(r.scenario->faults.at(0).retry_after_s, 7);
    EXPECT_EQ(r.scenario->faults.at(1).kind, FaultSpec::Kind::MALFORMED);
    EXPECT_TRUE(r.scenario->faults.at(1).html);
}

TEST(OnlineScenario, ErrorsNameTheKey) {
    const std::vector<std::pair<std::string, std::string>> cases{
        {"online: {cloud_eval: [{fen: 'not a fen', body: '{}'}]}", "online.cloud_eval[0].fen"},
        {"online: {tablebase: [{fen: '8/8/8/8/8/8/8/K1k5 w - -', body: 'nope'}]}",
         "online.tablebase[0].body"},
        {"online: {explorer: [{fen: '8/8/8/8/8/8/8/K1k5 w - -', db: gm, body: '{}'}]}",
         "online.explorer[0].db"},
        {"online: {chessdb: [{fen: '8/8/8/8/8/8/8/K1k5 w - -', db: any, body: '{}'}]}",
         "online.chessdb[0].db"},
        {"online: {speed: 3}", "online.speed"},
        {"faults: [{kind: malformed, target: move}]", "faults[0].target"},
        {"faults: [{kind: malformed, target: chessdb, body: json}]", "faults[0].body"},
        {"faults: [{kind: delay, target: explorers}]", "faults[0].target"},
    };
    for (const auto& [text, key] : cases) {
        auto r = parse_scenario(text);
        EXPECT_FALSE(r.scenario) << text;
        EXPECT_NE(r.error.find(key), std::string::npos) << r.error;
    }
}

// ---- endpoints ----

TEST(OnlineServer, OwnPortAndTheBuiltinPositionsAreLegal) {
    EmulatorFixture emu("");
    EXPECT_GT(emu->online_port(), 0);
    EXPECT_NE(emu->online_port(), emu.port());
    EXPECT_EQ(emu->online_url(), "http://127.0.0.1:" + std::to_string(emu->online_port()));
    // The Bot API is not served there, nor the online sources on the Bot API's port.
    EXPECT_EQ(online_get(emu, "/api/account").status, 404);
    EXPECT_EQ(emu_test::HttpClient(emu.port(), emu.token()).get("/standard?fen=x").status, 404);

    const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const std::vector<std::pair<std::string, std::string>> explorer{
        {"masters", start},
        {"lichess", start},
        {"masters", kAfterE4},
        {"lichess", "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"},
        {"masters", "rnbqkbnr/pp2pppp/2p5/3P4/8/8/PP2PPPP/RNBQKBNR b KQkq - 0 3"},
        {"lichess", "rnbqkbnr/pp2pppp/2p5/3P4/8/8/PP2PPPP/RNBQKBNR b KQkq - 0 3"}};
    for (const auto& [db, fen] : explorer) {
        const auto r = online_get(emu, "/" + db + "?fen=" + enc(fen));
        ASSERT_EQ(r.status, 200) << db << " " << fen;
        const auto j = emu_test::parse_json(r.body);
        ASSERT_FALSE(j["moves"].empty()) << db << " " << fen;
        expect_legal(fen, ucis_of(j["moves"]));
    }
    for (const std::string& fen :
         {start, std::string(kAfterE4),
          std::string("rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1"),
          std::string("r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 3 3"),
          std::string("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")}) {
        const auto r = online_get(emu, "/api/cloud-eval?fen=" + enc(fen) + "&multiPv=5");
        ASSERT_EQ(r.status, 200) << fen;
        const auto j = emu_test::parse_json(r.body);
        for (const auto& pv : j["pvs"]) expect_legal_line(fen, pv["moves"].get<std::string>());
    }
    const std::string tb = "4k3/6KP/8/8/8/8/7p/8 w - - 0 1";
    const auto t = emu_test::parse_json(online_get(emu, "/standard?fen=" + enc(tb)).body);
    ASSERT_EQ(t["moves"].size(), 9u);
    expect_legal(tb, ucis_of(t["moves"]));
    for (const std::string& fen : {start, std::string(kAfterE4)}) {
        const auto c = emu_test::parse_json(
            online_get(emu, "/cdb.php?action=queryall&board=" + enc(fen) + "&json=1").body);
        ASSERT_EQ(c["status"], "ok");
        expect_legal(fen, ucis_of(c["moves"]));
    }
}

TEST(OnlineServer, ExplorerAsTheSpecSays) {
    EmulatorFixture emu("");
    // The spec's example, with its parameters applied: moves, topGames.
    const std::string slav = enc("rnbqkbnr/pp2pppp/2p5/3P4/8/8/PP2PPPP/RNBQKBNR b KQkq - 0 3");
    auto m = emu_test::parse_json(online_get(emu, "/masters?fen=" + slav).body);
    EXPECT_EQ(m["white"], 1927);
    EXPECT_EQ(m["moves"].size(), 2u);
    EXPECT_EQ(m["topGames"].size(), 15u);
    EXPECT_EQ(m["opening"]["eco"], "D10");
    m = emu_test::parse_json(online_get(emu, "/masters?fen=" + slav + "&moves=1&topGames=0").body);
    EXPECT_EQ(m["moves"].size(), 1u);
    EXPECT_TRUE(m["topGames"].empty());
    auto l = emu_test::parse_json(
        online_get(emu, "/lichess?variant=standard&fen=" + slav + "&topGames=0&recentGames=0")
            .body);
    EXPECT_EQ(l["moves"].size(), 12u);  // spec: 12 moves by default
    EXPECT_TRUE(l["recentGames"].empty());
    // No fen: the start position (lila-openingexplorer's default).
    auto start = emu_test::parse_json(online_get(emu, "/lichess").body);
    EXPECT_EQ(start["moves"][0]["uci"], "e2e4");
    // An unknown position: no games.
    auto none = online_get(emu, "/masters?fen=" + enc("8/8/8/8/8/8/8/K1k5 w - - 0 1"));
    EXPECT_EQ(none.status, 200);
    EXPECT_EQ(emu_test::parse_json(none.body)["moves"].size(), 0u);
    EXPECT_EQ(emu_test::parse_json(none.body)["white"], 0);
    EXPECT_EQ(online_get(emu, "/lichess?fen=garbage").status, 400);
    // The player database: player and color required; NDJSON.
    EXPECT_EQ(online_get(emu, "/player?fen=" + slav).status, 400);
    EXPECT_EQ(online_get(emu, "/player?player=revoof&color=red").status, 400);
    const auto p = online_get(emu, "/player?player=revoof&color=white&fen=" +
                                       enc("rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w "
                                           "KQkq - 0 2") +
                                       "&recentGames=0");
    EXPECT_EQ(p.status, 200);
    EXPECT_EQ(p.content_type, "application/x-ndjson");
    ASSERT_EQ(p.body.back(), '\n');
    EXPECT_EQ(p.body.find('\n'), p.body.size() - 1);  // one line
    const auto pj = emu_test::parse_json(p.body);
    EXPECT_EQ(pj["queuePosition"], 178);
    EXPECT_EQ(pj["moves"][0]["averageOpponentRating"], 1695);
    EXPECT_TRUE(pj["recentGames"].empty());
}

TEST(OnlineServer, CloudEvalAsLila) {
    EmulatorFixture emu("");
    auto one =
        emu_test::parse_json(online_get(emu, std::string("/api/cloud-eval?fen=") + kStart).body);
    EXPECT_EQ(one["pvs"].size(), 1u);  // multiPv defaults to 1
    auto three = emu_test::parse_json(
        online_get(emu, std::string("/api/cloud-eval?fen=") + kStart + "&multiPv=3").body);
    EXPECT_EQ(three["pvs"].size(), 3u);
    EXPECT_GT(three["depth"].get<int>(), 0);
    auto mate = emu_test::parse_json(
        online_get(emu, "/api/cloud-eval?fen=" + enc("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"))
            .body);
    EXPECT_EQ(mate["pvs"][0]["mate"], 1);
    const auto missing =
        online_get(emu, "/api/cloud-eval?fen=" + enc("8/8/8/8/8/8/8/K1k5 w - - 0 1"));
    EXPECT_EQ(missing.status, 404);
    EXPECT_EQ(emu_test::parse_json(missing.body)["error"],
              "No cloud evaluation available for that position");
    const auto no_fen = online_get(emu, "/api/cloud-eval");
    EXPECT_EQ(no_fen.status, 404);
    EXPECT_EQ(emu_test::parse_json(no_fen.body)["error"], "Missing FEN");
}

TEST(OnlineServer, TablebaseAsTheSpecSays) {
    EmulatorFixture emu("");
    // spec: "Underscores allowed".
    const auto r = online_get(emu, "/standard?fen=4k3/6KP/8/8/8/8/7p/8_w_-_-_0_1");
    ASSERT_EQ(r.status, 200);
    const auto j = emu_test::parse_json(r.body);
    EXPECT_EQ(j["category"], "win");
    EXPECT_EQ(j["dtm"], 17);
    EXPECT_EQ(j["moves"][0]["uci"], "h7h8q");
    const auto unknown = emu_test::parse_json(
        online_get(emu, "/standard?fen=" + enc("8/8/8/8/8/8/8/K1k5 w - - 0 1")).body);
    EXPECT_EQ(unknown["category"], "unknown");
    EXPECT_TRUE(unknown["moves"].empty());
    EXPECT_EQ(online_get(emu, "/standard?fen=K7_w").status, 400);
    EXPECT_EQ(online_get(emu, "/standard").status, 400);
}

TEST(OnlineServer, ChessdbAsCdbPhp) {
    EmulatorFixture emu("");
    const std::string q = std::string("/cdb.php?action=queryall&board=") + kStart;
    const auto j = emu_test::parse_json(online_get(emu, q + "&json=1").body);
    EXPECT_EQ(j["status"], "ok");
    EXPECT_EQ(j["moves"][0]["uci"], "e2e4");
    EXPECT_EQ(j["moves"][0]["winrate"], "52.57");
    const auto text = online_get(emu, q);
    ASSERT_FALSE(text.body.empty());
    EXPECT_EQ(text.body.back(), '\0');
    EXPECT_EQ(text.body.rfind("move:e2e4,score:34,rank:2,note:! (33-07),winrate:52.57|", 0), 0u)
        << text.body;
    EXPECT_NE(text.body.find("|move:g2g4,score:??,rank:0,note:? (?\?-?\?)"), std::string::npos);
    const std::string empty_board = enc("8/8/8/8/8/8/8/K1k5 w - - 0 1");
    EXPECT_EQ(online_get(emu, "/cdb.php?action=queryall&board=" + empty_board).body,
              std::string("unknown") + '\0');
    EXPECT_EQ(emu_test::parse_json(
                  online_get(emu, "/cdb.php?action=queryall&json=1&board=xx").body)["status"],
              "invalid board");
    EXPECT_EQ(online_get(emu, "/cdb.php?action=querybest&board=" + empty_board).status, 400);
}

TEST(OnlineServer, ATokenOverPlainHttpIsRefused) {
    EmulatorFixture emu("");
    const auto r = emu_test::HttpClient(emu->online_port(), "lip_secret")
                       .get("/standard?fen=" + enc("4k3/6KP/8/8/8/8/7p/8 w - - 0 1"));
    EXPECT_EQ(r.status, 400);
    EXPECT_NE(r.body.find("no Authorization expected"), std::string::npos);
    const auto reqs = emu->requests();
    ASSERT_EQ(reqs.size(), 1u);
    EXPECT_EQ(reqs[0].family, "tablebase");
    EXPECT_EQ(reqs[0].status, 400);
}

TEST(OnlineServer, ScenarioPositionsReplaceTheBuiltinOnes) {
    EmulatorFixture emu(R"(
online:
  cloud_eval:
    - {fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", body: '{"fen":"x","depth":7,"knodes":1,"pvs":[{"moves":"g2g4","cp":-90}]}'}
  explorer:
    - {fen: "8/8/8/8/8/8/8/K1k5 w - - 0 1", db: lichess, body: '{"white":5,"draws":0,"black":0,"moves":[{"uci":"a1a2","san":"Ka2","white":5,"draws":0,"black":0}]}'}
  tablebase:
    - {fen: "8/8/8/8/8/8/8/K1k5 w - - 0 1", status: 503, body: '{"error":"busy"}'}
)");
    const auto c =
        emu_test::parse_json(online_get(emu, std::string("/api/cloud-eval?fen=") + kStart).body);
    EXPECT_EQ(c["depth"], 7);
    const std::string kk = enc("8/8/8/8/8/8/8/K1k5 w - - 12 40");  // counters do not matter
    EXPECT_EQ(emu_test::parse_json(online_get(emu, "/lichess?fen=" + kk).body)["white"], 5);
    EXPECT_EQ(emu_test::parse_json(online_get(emu, "/masters?fen=" + kk).body)["white"],
              0);  // lichess only
    EXPECT_EQ(online_get(emu, "/standard?fen=" + kk).status, 503);
    // The other built-in positions stay.
    EXPECT_EQ(online_get(emu, std::string("/api/cloud-eval?fen=") + enc(kAfterE4)).status, 200);

    EmulatorFixture bare("online: {builtin: false}");
    EXPECT_EQ(online_get(bare, std::string("/api/cloud-eval?fen=") + kStart).status, 404);
}

// ---- faults ----

TEST(OnlineFaults, LatencyPerSource) {
    EmulatorFixture emu("faults: [{kind: delay, target: explorer, delay_ms: 300, count: -1}]\n");
    for (int i = 0; i < 2; ++i) {
        const auto t0 = Clock::now();
        EXPECT_EQ(online_get(emu, "/masters").status, 200);
        EXPECT_GE(ms_since(t0), 290);
    }
    const auto t0 = Clock::now();
    EXPECT_EQ(online_get(emu, std::string("/api/cloud-eval?fen=") + kStart).status, 200);
    EXPECT_LT(ms_since(t0), 250);
}

TEST(OnlineFaults, TooManyRequestsWithRetryAfter) {
    EmulatorFixture emu(R"(
faults:
  - {kind: http_429, target: tablebase, retry_after_s: 7}
  - {kind: http_429, target: cloud_eval}
  - {kind: http_429, target: chessdb}
)");
    const auto tb = online_get(emu, "/standard?fen=" + enc("4k3/6KP/8/8/8/8/7p/8 w - - 0 1"));
    EXPECT_EQ(tb.status, 429);
    EXPECT_EQ(tb.retry_after, "7");
    EXPECT_EQ(emu_test::parse_json(tb.body)["error"], "Too many requests. Try again later.");
    const auto cloud = online_get(emu, std::string("/api/cloud-eval?fen=") + kStart);
    EXPECT_EQ(cloud.status, 429);
    EXPECT_EQ(cloud.retry_after, "");
    // cdb.php's limit: a 200 whose status says so.
    const auto cdb =
        online_get(emu, std::string("/cdb.php?action=queryall&json=1&board=") + kStart);
    EXPECT_EQ(cdb.status, 200);
    EXPECT_EQ(emu_test::parse_json(cdb.body)["status"], "rate limit exceeded");
    // count 1 each: the next requests are answered.
    EXPECT_EQ(online_get(emu, std::string("/api/cloud-eval?fen=") + kStart).status, 200);
    int fired = 0;
    for (const auto& f : emu->faults_fired()) fired += f.kind == "http_429";
    EXPECT_EQ(fired, 3);
}

TEST(OnlineFaults, ServerErrorsAndMalformedBodies) {
    EmulatorFixture emu(R"(
faults:
  - {kind: http_5xx, target: tablebase, status: 502, count: 2}
  - {kind: malformed, target: explorer}
  - {kind: malformed, target: cloud_eval, body: html}
  - {kind: http_5xx, target: any, status: 503, count: -1}
)");
    const std::string tb = "/standard?fen=" + enc("4k3/6KP/8/8/8/8/7p/8 w - - 0 1");
    for (int i = 0; i < 2; ++i) {
        const auto r = online_get(emu, tb);
        EXPECT_EQ(r.status, 502);
        EXPECT_NE(r.body.find("502 Bad Gateway"), std::string::npos);
    }
    EXPECT_EQ(online_get(emu, tb).status, 200);  // target any is the Bot API only
    const auto ex = online_get(emu, "/masters");
    EXPECT_EQ(ex.status, 200);
    EXPECT_TRUE(emu_test::parse_json(ex.body).is_discarded() ||
                !emu_test::parse_json(ex.body).is_object())
        << ex.body;
    EXPECT_TRUE(emu_test::parse_json(online_get(emu, "/masters").body).is_object());  // count 1
    const auto html = online_get(emu, std::string("/api/cloud-eval?fen=") + kStart);
    EXPECT_EQ(html.status, 200);
    EXPECT_NE(html.content_type.find("text/html"), std::string::npos);
    EXPECT_EQ(emu_test::HttpClient(emu.port(), emu.token()).get("/api/account").status, 503);

    const auto reqs = emu->requests();
    std::map<std::string, int> families;
    for (const auto& r : reqs) ++families[r.family];
    EXPECT_EQ(families["tablebase"], 3);
    EXPECT_EQ(families["explorer"], 2);
    EXPECT_EQ(families["cloud_eval"], 1);
    EXPECT_EQ(reqs.front().fault, "http_5xx");
}

}  // namespace
}  // namespace emu
