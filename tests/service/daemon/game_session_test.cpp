// GameSession (game_session.hpp) on its own: its game stream is a loopback server that sends the
// lines a test scripts, its calls go through a RequestRunner to a recording GameApi, and its moves
// come from a scripted OnlineMoveFinder (so no search runs). The tests check the move flow and what
// the session asks with (position, clock), the abort and leave paths, a takeback answer, the end of
// a game (metrics, PGN) and stop().
#include "service/daemon/game_session.hpp"

#include <gtest/gtest.h>

#include <condition_variable>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include <spdlog/spdlog.h>

#include "engine/fen.hpp"
#include "tests/service/daemon/recording_game_api.hpp"
#include "tests/support/test_server.hpp"

namespace service {
namespace {

constexpr const char* kSessionToken = "lip_GameSessionTest_0123456789";
constexpr const char* kGameId = "sess0001";

// The game's lines as lila writes them; we are "outpostbot".
std::string full_line(bool we_are_white, const std::string& moves, std::int64_t wtime = 60000,
                      std::int64_t btime = 60000) {
    const std::string us = R"({"id":"outpostbot","name":"OutpostBot","title":"BOT","rating":2000})";
    const std::string them = R"({"id":"rival","name":"Rival","rating":1900})";
    return std::string(R"({"type":"gameFull","id":")") + kGameId +
           R"(","variant":{"key":"standard","name":"Standard"},"speed":"blitz",)"
           R"("perf":{"name":"Blitz"},"rated":false,"createdAt":1,"white":)" +
           (we_are_white ? us : them) + R"(,"black":)" + (we_are_white ? them : us) +
           R"(,"initialFen":"startpos","clock":{"initial":60000,"increment":0},)"
           R"("state":{"type":"gameState","moves":")" +
           moves + R"(","wtime":)" + std::to_string(wtime) + R"(,"btime":)" +
           std::to_string(btime) + R"(,"winc":0,"binc":0,"status":"started"}})" + "\n";
}

std::string state_line(const std::string& moves, std::int64_t wtime, std::int64_t btime,
                       const std::string& status = "started", const std::string& extra = "") {
    return R"({"type":"gameState","moves":")" + moves + R"(","wtime":)" + std::to_string(wtime) +
           R"(,"btime":)" + std::to_string(btime) + R"(,"winc":0,"binc":0,"status":")" + status +
           "\"" + extra + "}\n";
}

// The loopback Lichess of one game: its stream sends what the test pushes, in order, until the
// test ends it or the server stops; a chat post is answered ok and recorded.
class ScriptedGameServer {
  public:
    ScriptedGameServer()
        : server_([this](test_support::Connection& c) {
              if (!c.request().target.starts_with("/api/bot/game/stream/")) {
                  c.respond(200, R"({"ok":true})");
                  return;
              }
              c.begin_stream();
              for (;;) {
                  std::unique_lock lock(mutex_);
                  changed_.wait_for(lock, std::chrono::milliseconds(50),
                                    [&] { return !lines_.empty() || ended_; });
                  if (!lines_.empty()) {
                      const std::string line = std::move(lines_.front());
                      lines_.pop_front();
                      lock.unlock();
                      if (!c.send_chunk(line)) return;
                      continue;
                  }
                  if (ended_) {
                      lock.unlock();
                      c.end_stream();
                      return;
                  }
                  lock.unlock();
                  if (!c.send_chunk("\n")) return;  // lila's keep-alive
              }
          }) {}
    ~ScriptedGameServer() { end(); }

    void push(std::string line) {
        std::lock_guard lock(mutex_);
        lines_.push_back(std::move(line));
        changed_.notify_all();
    }
    void end() {
        std::lock_guard lock(mutex_);
        ended_ = true;
        changed_.notify_all();
    }
    std::string base_url() const { return server_.base_url(); }
    std::size_t count(std::string_view prefix) const { return server_.count(prefix); }
    std::vector<test_support::Request> requests() const { return server_.requests(); }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::string> lines_;
    bool ended_ = false;
    test_support::TestServer server_;
};

// Our moves, one per position asked, in order; records what each lookup was asked with.
class ScriptedMoves final : public OnlineMoveFinder {
  public:
    explicit ScriptedMoves(std::vector<std::string> moves) : moves_(std::move(moves)) {}
    std::optional<OnlineChoice> find(const engine::Position& position, const OnlineAsk& ask,
                                     OnlineGameState&) override {
        std::lock_guard lock(mutex_);
        fens_.push_back(position.fen());
        asks_.push_back(ask);
        if (next_ >= moves_.size()) return std::nullopt;
        return OnlineChoice{.source = MoveSource::Cloud,
                            .uci = moves_[next_++],
                            .score = std::nullopt,
                            .note = "scripted",
                            .search_among = {}};
    }
    std::vector<std::string> fens() const {
        std::lock_guard lock(mutex_);
        return fens_;
    }
    std::vector<OnlineAsk> asks() const {
        std::lock_guard lock(mutex_);
        return asks_;
    }

  private:
    mutable std::mutex mutex_;
    std::vector<std::string> moves_;
    std::size_t next_ = 0;
    std::vector<std::string> fens_;
    std::vector<OnlineAsk> asks_;
};

// A session's daemon around it: the client at the scripted server, one engine, no greetings.
struct SessionRig {
    explicit SessionRig(ScriptedGameServer& server, std::vector<std::string> our_moves = {})
        : api(options(server.base_url())),
          chat(api, kSessionToken, std::chrono::milliseconds(1)),
          moves(our_moves) {
        // The default logger is made here, on the test's thread, before any session thread
        // logs: made by the first logging thread inside Debian's libspdlog (built without TSan),
        // the ThreadSanitizer build cannot see the next thread wait for it, and reports a race.
        spdlog::default_logger_raw();
        config.url = server.base_url();
        config.token = kSessionToken;
        config.greeting.hello = config.greeting.goodbye = "";
        config.greeting.hello_spectators = config.greeting.goodbye_spectators = "";
        timings.poll = std::chrono::milliseconds(20);
        timings.move_retry = std::chrono::milliseconds(20);
    }
    static lichess::ApiOptions options(const std::string& url) {
        lichess::ApiOptions o;
        o.http.base_url = url;
        o.http.token = kSessionToken;
        return o;
    }
    std::unique_ptr<GameSession> start() {
        return std::make_unique<GameSession>(SessionContext{.api = api,
                                                            .requests = requests,
                                                            .config = config,
                                                            .my_id = "outpostbot",
                                                            .my_name = "OutpostBot",
                                                            .engines = engines,
                                                            .books = nullptr,
                                                            .online = &moves,
                                                            .metrics = metrics,
                                                            .stream_options = {},
                                                            .timings = timings,
                                                            .slots = nullptr,
                                                            .status = nullptr},
                                             kGameId);
    }
    // Polls `done` (the session's own flags) until it holds; false after a generous wait.
    static bool wait_for(const std::function<bool()>& done) {
        for (int i = 0; i < 3000; ++i) {
            if (done()) return true;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
        return done();
    }

    config::Config config;
    GameTimings timings;
    lichess::Api api;
    test_support::RecordingGameApi game_api;
    EnginePool engines{1, {.hash_mb = 1, .threads = 1}};
    ChatSender chat;
    ScriptedMoves moves;
    Metrics metrics;
    RequestRunner requests{api, game_api, chat, metrics, [](LichessAnswer) {}, 1};
};

std::string fen_of_moves(const std::string& moves) {
    auto pos = *engine::Position::from_fen(engine::START_FEN, false);
    std::istringstream in(moves);
    for (std::string uci; in >> uci;)
        if (!pos.play_uci(uci).ok()) throw std::runtime_error("bad test move " + uci);
    return pos.fen();
}

TEST(GameSession, EachMoveIsAskedInTheServersPositionWithOurClockAndPostedOnce) {
    ScriptedGameServer server;
    SessionRig rig(server, {"e2e4", "g1f3"});
    // The server's part: each post comes back in a state with the opponent's reply.
    rig.game_api.on_move = [&](const std::string& uci) {
        if (uci == "e2e4") {
            server.push(state_line("e2e4", 59000, 60000));
            server.push(state_line("e2e4 e7e5", 59000, 57000));
        } else {
            server.push(state_line("e2e4 e7e5 g1f3", 41000, 57000));
            server.push(
                state_line("e2e4 e7e5 g1f3", 41000, 57000, "resign", R"(,"winner":"white")"));
        }
    };
    server.push(full_line(true, ""));
    auto session = rig.start();
    ASSERT_TRUE(SessionRig::wait_for([&] { return session->finished(); }));
    EXPECT_TRUE(session->game_over());
    EXPECT_EQ(rig.game_api.calls(), (std::vector<std::string>{"move e2e4", "move g1f3"}));
    // The lookups: the start, then the position after 1. e4 e5, each with our (white's) clock.
    ASSERT_EQ(rig.moves.fens().size(), 2u);
    EXPECT_EQ(rig.moves.fens()[0], fen_of_moves(""));
    EXPECT_EQ(rig.moves.fens()[1], fen_of_moves("e2e4 e7e5"));
    const auto asks = rig.moves.asks();
    EXPECT_EQ(asks[0].our_ms, 60000);
    EXPECT_EQ(asks[1].our_ms, 59000);
    EXPECT_EQ(asks[0].fullmove, 1);
    EXPECT_EQ(asks[1].fullmove, 2);
    EXPECT_EQ(asks[1].variant, "standard");
    EXPECT_TRUE(asks[1].real_time);
    EXPECT_EQ(rig.metrics.moves_played.load(), 2u);
    EXPECT_EQ(rig.metrics.games_finished_count(GameResult::Win), 1u);
    EXPECT_EQ(rig.metrics.games_finished_count(GameResult::Loss), 0u);
}

TEST(GameSession, AsBlackItWaitsForTheOpponentsMoveAndAFailedPostIsSentAgain) {
    ScriptedGameServer server;
    SessionRig rig(server, {"c7c5"});
    rig.game_api.failing_posts_ = 1;
    rig.game_api.on_move = [&](const std::string& uci) {
        server.push(state_line("e2e4 " + uci, 58000, 60000));
        server.push(state_line("e2e4 " + uci, 58000, 60000, "mate", R"(,"winner":"black")"));
    };
    server.push(full_line(false, ""));
    auto session = rig.start();
    // Nothing is asked before white moves (the abort timer has 30 s).
    server.push(state_line("e2e4", 58000, 60000));
    ASSERT_TRUE(SessionRig::wait_for([&] { return session->finished(); }));
    EXPECT_TRUE(session->game_over());
    EXPECT_EQ(rig.game_api.calls(), (std::vector<std::string>{"move c7c5", "move c7c5"}));
    EXPECT_EQ(rig.moves.fens(), (std::vector<std::string>{fen_of_moves("e2e4")}));
    EXPECT_EQ(rig.moves.asks().at(0).our_ms, 60000);  // black's clock
    EXPECT_EQ(rig.metrics.moves_played.load(), 1u);
    EXPECT_EQ(rig.metrics.games_finished_count(GameResult::Win), 1u);
}

TEST(GameSession, AnOpponentWhoNeverMovesIsAbortedAndTheGameEndsAborted) {
    ScriptedGameServer server;
    SessionRig rig(server);
    rig.config.abort_time = 0;  // abort at the first tick of the opponent's turn
    rig.game_api.on_move = [](const std::string&) {};
    server.push(full_line(false, ""));
    auto session = rig.start();
    ASSERT_TRUE(rig.game_api.wait_calls(1));
    server.push(state_line("", 60000, 60000, "aborted"));
    ASSERT_TRUE(SessionRig::wait_for([&] { return session->finished(); }));
    EXPECT_TRUE(session->game_over());
    EXPECT_EQ(rig.game_api.calls(), (std::vector<std::string>{"abort"}));
    EXPECT_TRUE(rig.moves.fens().empty());
    EXPECT_EQ(rig.metrics.games_finished_count(GameResult::Aborted), 1u);
}

TEST(GameSession, AMoveListThatDoesNotReplayLeavesTheGameAbortingThenResigning) {
    ScriptedGameServer server;
    SessionRig rig(server);
    rig.game_api.abort_fails_ = true;
    server.push(full_line(true, "e2e5"));  // one ply, and no legal one
    auto session = rig.start();
    ASSERT_TRUE(SessionRig::wait_for([&] { return session->finished(); }));
    EXPECT_TRUE(session->game_over());  // left
    // Abort first (under two plies), and resign when lila refused the abort.
    EXPECT_EQ(rig.game_api.calls(), (std::vector<std::string>{"abort", "resign"}));
    EXPECT_TRUE(rig.moves.fens().empty());
}

TEST(GameSession, ATakebackIsDeclinedWhenTheConfigGrantsNone) {
    ScriptedGameServer server;
    SessionRig rig(server, {"e2e4", "g1f3"});
    rig.config.max_takebacks_accepted = 0;
    // Black asks to take back 1... e5 on its own turn, after our second move.
    rig.game_api.on_move = [&](const std::string& uci) {
        if (uci == "e2e4") {
            server.push(state_line("e2e4", 59000, 60000));
            server.push(state_line("e2e4 e7e5", 59000, 58000));
        } else {
            server.push(state_line("e2e4 e7e5 g1f3", 58000, 58000));
            server.push(
                state_line("e2e4 e7e5 g1f3", 58000, 58000, "started", R"(,"btakeback":true)"));
        }
    };
    server.push(full_line(true, ""));
    auto session = rig.start();
    ASSERT_TRUE(rig.game_api.wait_calls(3));
    server.push(state_line("e2e4 e7e5 g1f3", 58000, 58000, "resign", R"(,"winner":"black")"));
    ASSERT_TRUE(SessionRig::wait_for([&] { return session->finished(); }));
    EXPECT_EQ(rig.game_api.calls(),
              (std::vector<std::string>{"move e2e4", "move g1f3", "takeback no"}));
    EXPECT_EQ(rig.metrics.games_finished_count(GameResult::Loss), 1u);
}

TEST(GameSession, AFinishedGameIsWrittenAsPgnWithItsMoves) {
    ScriptedGameServer server;
    SessionRig rig(server, {"e2e4"});
    const auto dir = std::filesystem::path(::testing::TempDir()) / "game_session_pgn";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    rig.config.pgn_directory = dir.string();
    rig.game_api.on_move = [&](const std::string&) {
        server.push(state_line("e2e4", 59000, 60000));
        server.push(state_line("e2e4", 59000, 60000, "resign", R"(,"winner":"white")"));
    };
    server.push(full_line(true, ""));
    auto session = rig.start();
    ASSERT_TRUE(SessionRig::wait_for([&] { return session->finished(); }));
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        files.push_back(entry.path());
    ASSERT_EQ(files.size(), 1u);
    std::ifstream in(files[0]);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_NE(text.str().find("[White \"OutpostBot\"]"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("[Result \"1-0\"]"), std::string::npos) << text.str();
    EXPECT_NE(text.str().find("1. e4"), std::string::npos) << text.str();
    std::filesystem::remove_all(dir);
}

TEST(GameSession, StopEndsTheSessionWithoutTouchingTheGame) {
    ScriptedGameServer server;
    SessionRig rig(server);
    server.push(full_line(false, ""));  // the opponent's turn; the abort timer has 30 s
    auto session = rig.start();
    // The session has read the game once the stream's gameFull came: wait for the request.
    ASSERT_TRUE(SessionRig::wait_for([&] { return server.count("/api/bot/game/stream/") > 0; }));
    session->stop();
    ASSERT_TRUE(SessionRig::wait_for([&] { return session->finished(); }));
    EXPECT_FALSE(session->game_over());
    session.reset();  // joins both threads
    EXPECT_TRUE(rig.game_api.calls().empty());
    EXPECT_EQ(rig.metrics.games_finished_count(GameResult::Aborted), 0u);
}

TEST(GameSession, TheGreetingIsSaidInThePlayersRoom) {
    ScriptedGameServer server;
    SessionRig rig(server);
    rig.config.greeting.hello = "Good luck, {opponent}!";
    server.push(full_line(false, ""));
    auto session = rig.start();
    ASSERT_TRUE(
        SessionRig::wait_for([&] { return server.count("/api/bot/game/sess0001/chat") > 0; }));
    session->stop();
    bool said = false;
    for (const auto& r : server.requests())
        if (r.target == "/api/bot/game/sess0001/chat") {
            EXPECT_EQ(r.method, "POST");
            EXPECT_NE(r.body.find("room=player"), std::string::npos) << r.body;
            EXPECT_NE(r.body.find("Rival"), std::string::npos) << r.body;
            said = true;
        }
    EXPECT_TRUE(said);
}

}  // namespace
}  // namespace service
