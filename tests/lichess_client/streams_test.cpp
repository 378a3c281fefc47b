// EventStream and GameStream against a loopback server: split and batched lines, drops mid-line,
// silence watchdog, 429 on open, fatal errors, prompt stop.
#include "lichess_client/event_stream.hpp"
#include "lichess_client/game_stream.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "tests/support/log_capture.hpp"
#include "tests/support/test_server.hpp"
#include "tests/support/time_scale.hpp"

namespace lichess {
namespace {

constexpr const char* kStreamToken = "lip_StreamSecretToken_42";

ApiOptions stream_options(const std::string& base_url) {
    using namespace std::chrono_literals;
    ApiOptions o;
    o.http.base_url = base_url;
    o.http.token = kStreamToken;
    o.http.username = "OutpostBot";
    o.http.connect_timeout = 2s;
    o.retry.backoff = BackoffConfig{10ms, 40ms, 2.0, 0.5};
    o.rate_limit.min_pause = 200ms;
    o.jitter_seed = 3;
    return o;
}

StreamOptions fast_stream(Millis silence = Millis(2000)) {
    using namespace std::chrono_literals;
    StreamOptions s;
    s.silence_timeout = silence;
    s.reconnect = BackoffConfig{20ms, 100ms, 2.0, 0.5};
    s.stable_after = 60s;
    s.jitter_seed = 5;
    return s;
}

std::string game_start(const std::string& id) {
    return R"({"type":"gameStart","game":{"gameId":")" + id + R"(","fullId":")" + id +
           R"(xxxx","color":"white","status":{"id":20,"name":"started"}}})";
}
std::string game_finish(const std::string& id) {
    return R"({"type":"gameFinish","game":{"gameId":")" + id + R"(","fullId":")" + id +
           R"(xxxx","color":"white","status":{"id":30,"name":"mate"},"winner":"white"}})";
}
std::string challenge(const std::string& id) {
    return R"({"type":"challenge","challenge":{"id":")" + id +
           R"(","url":"u","status":"created","challenger":{"id":"a","name":"A"},"destUser":null,)"
           R"("variant":{"key":"standard","name":"Standard"},"rated":false,"speed":"blitz",)"
           R"("timeControl":{"type":"clock","limit":300,"increment":3,"show":"5+3"},)"
           R"("color":"random","perf":{"icon":"","name":"Blitz"}}})";
}
std::string game_full(const std::string& moves, const std::string& status = "started") {
    return R"({"type":"gameFull","id":"game1234","variant":{"key":"standard","name":"Standard"},)"
           R"("speed":"blitz","perf":{"name":"Blitz"},"rated":false,"createdAt":1,)"
           R"("white":{"id":"me","name":"Me","title":"BOT"},"black":{"id":"you","name":"You"},)"
           R"("initialFen":"startpos","clock":{"initial":180000,"increment":2000},)"
           R"("state":{"type":"gameState","moves":")" +
           moves + R"(","wtime":180000,"btime":180000,"winc":2000,"binc":2000,"status":")" +
           status + R"("}})";
}
std::string game_state(const std::string& moves, const std::string& status = "started") {
    return R"({"type":"gameState","moves":")" + moves +
           R"(","wtime":170000,"btime":175000,"winc":2000,"binc":2000,"status":")" + status + "\"}";
}

// Collects event descriptions from the stream thread; the test thread waits on counts.
class Collector {
  public:
    void add(std::string s) {
        std::lock_guard lock(mutex_);
        items_.push_back(std::move(s));
        cv_.notify_all();
    }
    bool wait_for(std::size_t n, Millis max = Millis(10000)) {
        std::unique_lock lock(mutex_);
        return cv_.wait_for(lock, max, [&] { return items_.size() >= n; });
    }
    std::vector<std::string> items() const {
        std::lock_guard lock(mutex_);
        return items_;
    }

  private:
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::vector<std::string> items_;
};

std::string describe(const Event& e) {
    return std::visit(
        [](const auto& ev) -> std::string {
            using T = std::decay_t<decltype(ev)>;
            if constexpr (std::is_same_v<T, GameStart> || std::is_same_v<T, GameFinish>) {
                return ev.game.game_id;
            } else if constexpr (std::is_same_v<T, ChallengeUnreadable>) {
                return "unreadable:" + ev.id;
            } else {
                return ev.challenge.id;
            }
        },
        e);
}

std::string describe(const GameEvent& e) {
    if (const auto* u = std::get_if<GameUnreadable>(&e))
        return "unreadable:" + u->game_id + ":" + u->type + ":" + u->field;
    if (const auto* f = std::get_if<GameFull>(&e)) return "full:" + f->state.moves;
    if (const auto* s = std::get_if<GameState>(&e))
        return "state:" + s->moves + ":" + s->status_name;
    if (const auto* c = std::get_if<ChatLine>(&e)) return "chat:" + c->text;
    return "gone";
}

TEST(EventStream, SplitAndBatchedLinesThenReconnectAfterServerClose) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        c.begin_stream();
        if (c.request().connection == 1) {
            const std::string ch = challenge("chal0001");
            c.send_chunk("\n");  // keep-alive
            c.send_chunk(ch.substr(0, 10));
            c.send_chunk(ch.substr(10, 50));
            c.send_chunk(ch.substr(60) + "\n" + game_start("game0001") +
                         "\r\n\n{\"type\":\"new\"}\n");
            c.end_stream();
        } else if (c.request().connection == 2) {
            c.send_chunk(game_finish("game0001"));  // clean end without a final newline
            c.end_stream();
        } else {
            c.send_chunk("\n");
            c.wait_peer_closed(10s);
        }
    });
    Api api(stream_options(server.base_url()));
    Collector got;
    EventStream stream(
        api, [&](const Event& e) { got.add(type_name(e) + std::string(":") + describe(e)); },
        fast_stream());
    std::optional<ApiError> result{ApiError{}};
    std::jthread runner([&](std::stop_token st) { result = stream.run(st); });
    ASSERT_TRUE(got.wait_for(3));
    runner.request_stop();
    runner.join();
    EXPECT_FALSE(result.has_value());
    EXPECT_EQ(got.items(), (std::vector<std::string>{"challenge:chal0001", "gameStart:game0001",
                                                     "gameFinish:game0001"}));
    EXPECT_GE(stream.stats().reconnects.load(), 1u);
    EXPECT_EQ(stream.stats().skipped.load(), 1u);  // the unknown type
    const auto reqs = server.requests();
    EXPECT_EQ(reqs[0].target, "/api/stream/event");
    EXPECT_EQ(reqs[0].header("authorization"), std::string("Bearer ") + kStreamToken);
    EXPECT_EQ(reqs[0].header("accept"), "application/x-ndjson");
}

TEST(GameStream, DroppedMidLineThenResumedWithoutLossOrDuplicates) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        if (c.request().connection == 1) {
            c.begin_stream();
            c.send_chunk(game_full("") + "\n" + game_state("e2e4") + "\n");
            const std::string partial = game_state("e2e4 e7e5");
            // A chunk header promising more bytes than arrive: the connection dies mid-line.
            char header[32];
            std::snprintf(header, sizeof header, "%zx\r\n", partial.size() + 1);
            c.send_raw(header + partial.substr(0, 25));
            c.sleep(50ms);
            c.drop();
        } else {
            c.begin_stream();
            c.send_chunk(game_full("e2e4 e7e5") + "\n\n");
            c.send_chunk(R"({"type":"chatLine","room":"player","username":"you","text":"gg"})"
                         "\n");
            c.send_chunk(game_state("e2e4 e7e5 d1h5", "mate"));  // final line, no newline
            c.end_stream();
        }
    });
    Api api(stream_options(server.base_url()));
    Collector got;
    GameStream stream(
        api, "game1234", [&](const GameEvent& e) { got.add(describe(e)); }, fast_stream());
    const GameStreamEnd end = stream.run({});
    EXPECT_EQ(end.reason, GameStreamEnd::Reason::GameOver);
    EXPECT_EQ(got.items(),
              (std::vector<std::string>{"full:", "state:e2e4:started", "full:e2e4 e7e5", "chat:gg",
                                        "state:e2e4 e7e5 d1h5:mate"}));
    EXPECT_EQ(stream.stats().reconnects.load(), 1u);
    EXPECT_EQ(server.count("/api/bot/game/stream/game1234"), 2u);
}

TEST(EventStream, SilenceClosesAndReconnectsWithinWatchdogTime) {
    using namespace std::chrono_literals;
    std::atomic<bool> first_closed_by_client{false};
    test_support::TestServer server([&](test_support::Connection& c) {
        c.begin_stream();
        if (c.request().connection == 1) {
            c.send_chunk(game_start("game0001") + "\n");
            first_closed_by_client = c.wait_peer_closed(20s);  // silent: no keep-alive at all
        } else {
            c.send_chunk(game_start("game0002") + "\n");
            c.wait_peer_closed(20s);
        }
    });
    Api api(stream_options(server.base_url()));
    Collector got;
    EventStream stream(
        api, [&](const Event& e) { got.add(describe(e)); }, fast_stream(300ms));
    const auto t0 = std::chrono::steady_clock::now();
    std::jthread runner([&](std::stop_token st) { (void)stream.run(st); });
    ASSERT_TRUE(got.wait_for(2, 15000ms));
    const auto elapsed = std::chrono::steady_clock::now() - t0;
    runner.request_stop();
    runner.join();
    EXPECT_EQ(got.items(), (std::vector<std::string>{"game0001", "game0002"}));
    EXPECT_GE(stream.stats().silences.load(), 1u);
    EXPECT_TRUE(first_closed_by_client.load());
    EXPECT_GE(elapsed, 300ms);  // never before the watchdog fires
    // generous: watchdog 0.3 s + backoff <= 0.1 s
    EXPECT_LT(elapsed, test_time::scaled(10s));
}

TEST(EventStream, KeepAlivesKeepASlowStreamOpen) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        c.begin_stream();
        if (c.request().connection == 1) {
            for (int i = 0; i < 20; ++i) {
                c.send_chunk("\n");
                c.sleep(30ms);
            }
            c.send_chunk(game_start("game0001") + "\n");
        }
        c.wait_peer_closed(20s);
    });
    Api api(stream_options(server.base_url()));
    Collector got;
    EventStream stream(
        api, [&](const Event& e) { got.add(describe(e)); }, fast_stream(1500ms));
    std::jthread runner([&](std::stop_token st) { (void)stream.run(st); });
    ASSERT_TRUE(got.wait_for(1));
    runner.request_stop();
    runner.join();
    EXPECT_EQ(stream.stats().silences.load(), 0u);
    EXPECT_EQ(server.count("/api/stream/event"), 1u);
}

TEST(EventStream, StopIsPromptEvenWithTheDefaultWatchdog) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        c.begin_stream();
        c.send_chunk("\n");
        c.wait_peer_closed(30s);
    });
    Api api(stream_options(server.base_url()));
    EventStream stream(api, [](const Event&) {});  // default options: 20 s silence
    std::jthread runner([&](std::stop_token st) { (void)stream.run(st); });
    while (server.count("/api/stream/event") == 0) std::this_thread::sleep_for(5ms);
    std::this_thread::sleep_for(50ms);
    const auto t0 = std::chrono::steady_clock::now();
    runner.request_stop();
    runner.join();
    EXPECT_LT(std::chrono::steady_clock::now() - t0, test_time::scaled(3s));  // held 30 s
}

TEST(EventStream, ApiShutdownStopsTheStream) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        c.begin_stream();
        c.wait_peer_closed(30s);
    });
    Api api(stream_options(server.base_url()));
    EventStream stream(api, [](const Event&) {});
    std::optional<ApiError> result{ApiError{}};
    std::thread runner([&] { result = stream.run({}); });
    while (server.count("/api/stream/event") == 0) std::this_thread::sleep_for(5ms);
    api.shutdown();
    runner.join();
    EXPECT_FALSE(result.has_value());
}

TEST(EventStream, RateLimitedOpenWaitsThePauseThenReconnects) {
    using namespace std::chrono_literals;
    test_support::LogCapture logs;
    test_support::TestServer server([](test_support::Connection& c) {
        if (c.request().connection == 1) {
            c.respond(429, "<html>slow down</html>", "text/html");
            return;
        }
        c.begin_stream();
        c.send_chunk(game_start("game0001") + "\n");
        c.wait_peer_closed(20s);
    });
    Api api(stream_options(server.base_url()));
    Collector got;
    EventStream stream(
        api, [&](const Event& e) { got.add(describe(e)); }, fast_stream());
    const auto t0 = std::chrono::steady_clock::now();
    std::jthread runner([&](std::stop_token st) { (void)stream.run(st); });
    ASSERT_TRUE(got.wait_for(1));
    const auto elapsed = std::chrono::steady_clock::now() - t0;
    runner.request_stop();
    runner.join();
    EXPECT_GE(elapsed, 200ms);  // the configured minimum pause
    EXPECT_EQ(server.count("/api/stream/event"), 2u);
    EXPECT_EQ(logs.count("rate limited (429)"), 1u);
    for (const auto& line : logs.lines())
        EXPECT_EQ(line.find(kStreamToken), std::string::npos) << line;
}

TEST(EventStream, UnauthorizedIsFatal) {
    test_support::TestServer server(
        [](test_support::Connection& c) { c.respond(401, R"({"error":"No such token"})"); });
    Api api(stream_options(server.base_url()));
    EventStream stream(
        api, [](const Event&) {}, fast_stream());
    const auto result = stream.run({});
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(result->status, 401);
    EXPECT_EQ(result->message, "No such token");
    EXPECT_EQ(server.count("/api/stream/event"), 1u);
}

TEST(GameStream, NotFoundIsFinal) {
    test_support::TestServer server(
        [](test_support::Connection& c) { c.respond(404, R"({"error":"Not found."})"); });
    Api api(stream_options(server.base_url()));
    GameStream stream(
        api, "nosuchgm", [](const GameEvent&) {}, fast_stream());
    const auto end = stream.run({});
    EXPECT_EQ(end.reason, GameStreamEnd::Reason::Error);
    ASSERT_TRUE(end.error.has_value());
    EXPECT_EQ(end.error->status, 404);
    EXPECT_EQ(server.count("/api/bot/game/stream/nosuchgm"), 1u);
    EXPECT_EQ(api.error_count(), 1u);
}

TEST(GameStream, ServerErrorsReconnectUntilTheGameEnds) {
    test_support::TestServer server([](test_support::Connection& c) {
        if (c.request().connection <= 2) {
            c.respond(502, "<html>Bad Gateway</html>", "text/html");
            return;
        }
        c.begin_stream();
        c.send_chunk(game_full("e2e4", "resign") + "\n");
        c.end_stream();
    });
    Api api(stream_options(server.base_url()));
    Collector got;
    GameStream stream(
        api, "game1234", [&](const GameEvent& e) { got.add(describe(e)); }, fast_stream());
    const auto end = stream.run({});
    EXPECT_EQ(end.reason, GameStreamEnd::Reason::GameOver);
    EXPECT_EQ(got.items(), std::vector<std::string>{"full:e2e4"});
    EXPECT_EQ(server.count("/api/bot/game/stream/game1234"), 3u);
    EXPECT_EQ(api.error_count(), 2u);  // the two 502s; the clean close is none
}

TEST(GameStream, ConcurrentGamesAndMovesDoNotInterfere) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        const auto& t = c.request().target;
        if (t.starts_with("/api/bot/game/stream/")) {
            c.begin_stream();
            c.send_chunk(game_full("") + "\n");
            c.sleep(100ms);
            c.send_chunk(game_state("e2e4", "resign") + "\n");
            c.end_stream();
        } else {
            c.respond(200, R"({"ok":true})");
        }
    });
    Api api(stream_options(server.base_url()));
    std::atomic<int> over{0};
    std::vector<std::thread> games;
    for (int g = 0; g < 4; ++g) {
        games.emplace_back([&, g] {
            const std::string id = "game000" + std::to_string(g);
            GameStream stream(
                api, id,
                [&](const GameEvent& e) {
                    if (std::holds_alternative<GameFull>(e)) {
                        EXPECT_TRUE(api.post_move(id, "e2e4").ok());
                    }
                },
                fast_stream());
            if (stream.run({}).reason == GameStreamEnd::Reason::GameOver) ++over;
        });
    }
    for (auto& t : games) t.join();
    EXPECT_EQ(over.load(), 4);
    EXPECT_EQ(server.count("/api/bot/game/game000"), 4u);
}

TEST(GameStream, LinesWithTheTokenAreRedactedInLogs) {
    test_support::LogCapture logs;
    test_support::TestServer server([](test_support::Connection& c) {
        c.begin_stream();
        c.send_chunk(std::string(R"({"type":"mystery","echo":")") + kStreamToken + "\"}\n");
        c.send_chunk(std::string(R"({"type":"gameState","moves":")") + kStreamToken + "\"}\n");
        c.send_chunk(game_full("", "aborted") + "\n");
        c.end_stream();
    });
    Api api(stream_options(server.base_url()));
    GameStream stream(
        api, "game1234", [](const GameEvent&) {}, fast_stream());
    EXPECT_EQ(stream.run({}).reason, GameStreamEnd::Reason::GameOver);
    EXPECT_EQ(stream.stats().skipped.load(), 1u);     // the unknown type
    EXPECT_EQ(stream.stats().unreadable.load(), 1u);  // the gameState without clocks
    EXPECT_GE(logs.count("<redacted>"), 2u);
    for (const auto& line : logs.lines()) {
        EXPECT_EQ(line.find("StreamSecret"), std::string::npos) << line;
    }
}

// A gameState with a mistyped clock, and lines that are no usable JSON (nested past the depth
// limit, invalid): each reaches the session as a GameUnreadable, with an error-level log that
// names the game and the field; a chat line with a missing field is only skipped.
TEST(GameStream, UnreadableLinesReachTheSessionAndAreLoggedAsErrors) {
    test_support::LogCapture logs;
    test_support::TestServer server([](test_support::Connection& c) {
        c.begin_stream();
        c.send_chunk(game_full("") + "\n");
        c.send_chunk(R"({"type":"gameState","moves":"e2e4","wtime":"soon","btime":1,)"
                     R"("status":"started"})"
                     "\n");
        c.send_chunk(R"({"type":"gameState","x":)" + std::string(100000, '[') +
                     std::string(100000, ']') + "}\n");
        c.send_chunk("{\"type\":\"gameState\",\x1b[2J\n");
        c.send_chunk(R"({"type":"chatLine","room":"player"})"
                     "\n");
        c.send_chunk(game_state("e2e4 e7e5", "resign"));
        c.end_stream();
    });
    Api api(stream_options(server.base_url()));
    Collector got;
    GameStream stream(
        api, "game1234", [&](const GameEvent& e) { got.add(describe(e)); }, fast_stream());
    EXPECT_EQ(stream.run({}).reason, GameStreamEnd::Reason::GameOver);
    EXPECT_EQ(got.items(),
              (std::vector<std::string>{
                  "full:", "unreadable:game1234:gameState:wtime",
                  "unreadable:game1234::", "unreadable:game1234::", "state:e2e4 e7e5:resign"}));
    EXPECT_EQ(stream.stats().unreadable.load(), 3u);
    EXPECT_EQ(stream.stats().skipped.load(), 1u);
    EXPECT_EQ(logs.count("game game1234: its gameState unreadable (wtime: expected a number"), 1u);
    EXPECT_EQ(logs.count("(nested deeper than 32 levels)"), 1u);
    EXPECT_EQ(logs.count("(invalid JSON at byte"), 1u);
    EXPECT_EQ(logs.count("line skipped"), 1u);
    for (const auto& line : logs.lines()) {
        EXPECT_EQ(line.find('\x1b'), std::string::npos) << line;
        EXPECT_LT(line.size(), 1000u) << "a log line quotes a bounded excerpt";
    }
}

TEST(EventStream, ANestedLineIsSkippedWithAWarningAndTheStreamGoesOn) {
    using namespace std::chrono_literals;
    test_support::LogCapture logs;
    test_support::TestServer server([](test_support::Connection& c) {
        c.begin_stream();
        c.send_chunk(R"({"type":"challenge","challenge":)" + std::string(500000, '[') +
                     std::string(500000, ']') + "}\n");
        c.send_chunk(game_start("game0001") + "\n");
        c.wait_peer_closed(10s);
    });
    Api api(stream_options(server.base_url()));
    Collector got;
    EventStream stream(
        api, [&](const Event& e) { got.add(describe(e)); }, fast_stream());
    std::jthread runner([&](std::stop_token st) { (void)stream.run(st); });
    ASSERT_TRUE(got.wait_for(1));
    runner.request_stop();
    runner.join();
    EXPECT_EQ(got.items(), (std::vector<std::string>{"game0001"}));
    EXPECT_EQ(stream.stats().skipped.load(), 1u);
    EXPECT_EQ(logs.count("event line skipped (nested deeper than 32 levels)"), 1u);
}

}  // namespace
}  // namespace lichess

namespace lichess {
namespace {

TEST(EventStream, HandlerExceptionPropagatesAndReleasesTheConnection) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        c.begin_stream();
        c.send_chunk(game_start("game0001") + "\n");
        c.wait_peer_closed(20s);
    });
    Api api(stream_options(server.base_url()));
    EventStream stream(
        api, [](const Event&) { throw std::runtime_error("bug in handler"); }, fast_stream());
    EXPECT_THROW((void)stream.run({}), std::runtime_error);
}

}  // namespace
}  // namespace lichess
