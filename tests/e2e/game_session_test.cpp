// GameSession is a shell around GameRules: every call of a game goes through the RequestRunner to
// its GameApi, so a test can fake it. Here the fake forwards to the real client, records each call
// and fails the first move post; the session posts the same move again after
// GameTimings::move_retry and plays the game (streamed from the emulator) to its end.
#include <gtest/gtest.h>

#include <mutex>

#include "bot_fixture.hpp"
#include "config/config.hpp"
#include "service/daemon/chat_sender.hpp"
#include "service/daemon/engine_pool.hpp"
#include "service/daemon/game_session.hpp"

namespace e2e {
namespace {

class RecordingGameApi final : public service::GameApi {
  public:
    explicit RecordingGameApi(lichess::Api& api) : real_(api) {}

    lichess::Result<lichess::Ok> post_move(std::string_view id, std::string_view uci,
                                           bool offer_draw,
                                           const std::function<bool()>& still_on) override {
        {
            std::lock_guard lock(mutex_);
            calls_.push_back("move " + std::string(uci));
            if (failures_left_ > 0) {
                --failures_left_;
                lichess::ApiError e;
                e.kind = lichess::ApiError::Kind::Network;
                e.message = "injected by the test";
                return e;
            }
        }
        return real_.post_move(id, uci, offer_draw ? std::optional(true) : std::nullopt, still_on);
    }
    lichess::Result<lichess::Ok> abort(std::string_view id) override {
        record("abort");
        return real_.abort(id);
    }
    lichess::Result<lichess::Ok> resign(std::string_view id) override {
        record("resign");
        return real_.resign(id);
    }
    lichess::Result<lichess::Ok> accept_draw(std::string_view id) override {
        record("draw yes");
        return real_.handle_draw(id, true);
    }
    lichess::Result<lichess::Ok> answer_takeback(std::string_view id, bool accept) override {
        record(accept ? "takeback yes" : "takeback no");
        return real_.handle_takeback(id, accept);
    }
    lichess::Result<lichess::Ok> claim_victory(std::string_view id) override {
        record("claim");
        return real_.claim_victory(id);
    }

    std::vector<std::string> calls() const {
        std::lock_guard lock(mutex_);
        return calls_;
    }

  private:
    void record(std::string call) {
        std::lock_guard lock(mutex_);
        calls_.push_back(std::move(call));
    }

    lichess::Api& real_;
    mutable std::mutex mutex_;
    std::vector<std::string> calls_;
    int failures_left_ = 1;
};

TEST(GameSessionShell, EveryRequestGoesThroughItsGameApiAndAFailedPostIsSentAgain) {
    using namespace std::chrono_literals;
    // The opponent resigns at ply 7; it plays a quiet line, not random moves, which can walk into
    // mate before that (1.e4 f6 2.d4 g5 3.Qh5#) and end the game with no resignation.
    emu::EmulatorFixture fx(R"(name: shell
seed: 15
keepalive_ms: 500
account: {username: ShellBot, token: lip_shelltoken}
games:
  - {id: shell001, bot_color: white, clock: {limit: 60, increment: 0},
     opponent: {kind: line, moves: "e7e5 b8c6 g8f6 f8e7 e8g8 d7d6 h7h6 c8e6 d8d7 a7a6 f8e8 a8d8",
                think_ms: 20, resign_at_ply: 6}}
)");
    config::Config config;
    config.url = fx.base_url();
    config.token = fx.token();
    config.greeting.hello = config.greeting.goodbye = "";
    config.greeting.hello_spectators = config.greeting.goodbye_spectators = "";
    lichess::ApiOptions options;
    options.http.base_url = config.url;
    options.http.token = config.token;
    lichess::Api api(options);
    RecordingGameApi game_api(api);
    service::EnginePool engines(1, {.hash_mb = 8, .threads = 1});
    service::ChatSender chat(api);
    service::Metrics metrics;
    service::RequestRunner requests(
        api, game_api, chat, metrics, [](service::LichessAnswer) {}, 1);
    service::GameTimings timings;
    timings.move_retry = 100ms;
    service::GameSession session(service::SessionContext{.api = api,
                                                         .requests = requests,
                                                         .config = config,
                                                         .my_id = "shellbot",
                                                         .my_name = "ShellBot",
                                                         .engines = engines,
                                                         .books = nullptr,
                                                         .online = nullptr,
                                                         .metrics = metrics,
                                                         .stream_options = {},
                                                         .timings = timings,
                                                         .slots = {}},
                                 "shell001");
    const auto g = fx.wait_game_over("shell001", 60s);
    ASSERT_TRUE(g.over) << describe(game(fx, "shell001"));
    EXPECT_EQ(g.status, "resign") << describe(g);
    ASSERT_TRUE(fx.wait_until([&] { return session.finished(); }, 10s));
    EXPECT_TRUE(session.game_over());

    const auto calls = game_api.calls();
    ASSERT_GE(calls.size(), 4u);
    // The first post failed and the same move was sent again; then one post per move.
    EXPECT_EQ(calls[0], calls[1]);
    EXPECT_EQ(calls[0], "move " + g.moves.front().uci);
    const int bot_moves_played = bot_moves(g);
    EXPECT_EQ(int(calls.size()), bot_moves_played + 1) << ::testing::PrintToString(calls);
    EXPECT_EQ(requests_to(fx, "/move/"), bot_moves_played) << "no move sent around the GameApi";
    EXPECT_EQ(metrics.moves_played.load(), std::uint64_t(bot_moves_played));
}

}  // namespace
}  // namespace e2e
