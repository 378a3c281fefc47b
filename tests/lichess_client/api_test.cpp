// Api against a loopback server: headers, form bodies, error values, 429 pauses, 5xx retries,
// moves never queued behind slow chat or challenge calls, and the token never reaching a log line.
#include "lichess_client/api.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "lichess_client/http_client.hpp"
#include "test_data.hpp"
#include "tests/support/log_capture.hpp"
#include "tests/support/test_server.hpp"
#include "tests/support/time_scale.hpp"

namespace lichess {
namespace {

constexpr const char* kToken = "lip_SuperSecretToken_0123456789abcdef";
constexpr const char* kOk = R"({"ok":true})";
constexpr const char* kHtml502 =
    "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>nginx</body></html>";

ApiOptions fast_options(const std::string& base_url) {
    using namespace std::chrono_literals;
    ApiOptions o;
    o.http.base_url = base_url;
    o.http.token = kToken;
    o.http.username = "OutpostBot";
    o.http.connect_timeout = 2s;
    o.http.request_timeout = 5s;
    o.retry.max_attempts = 4;
    o.retry.backoff = BackoffConfig{10ms, 40ms, 2.0, 0.5};
    o.move_retry = o.retry;
    o.rate_limit.min_pause = 200ms;
    o.jitter_seed = 7;
    return o;
}

TEST(ApiHttp, AuthorizationUserAgentAndAccount) {
    test_support::TestServer server([](test_support::Connection& c) {
        c.respond(200, R"({"id":"outpostbot","username":"OutpostBot","title":"BOT","perfs":{}})");
    });
    Api api(fast_options(server.base_url()));
    auto account = api.account();
    ASSERT_TRUE(account.ok()) << account.error().describe();
    EXPECT_TRUE(account->is_bot());
    const auto reqs = server.requests();
    ASSERT_EQ(reqs.size(), 1u);
    EXPECT_EQ(reqs[0].method, "GET");
    EXPECT_EQ(reqs[0].target, "/api/account");
    EXPECT_EQ(reqs[0].header("authorization"), std::string("Bearer ") + kToken);
    EXPECT_EQ(reqs[0].header("user-agent"),
              std::string("outpost/") + OUTPOST_VERSION + " user:OutpostBot");
}

// A server that echoes the token, or only its body after "lip_", shows neither in what the
// client hands on (error excerpts, log lines).
TEST(ApiHttp, RedactionHidesTheTokenAndItsBodyWithoutThePrefix) {
    HttpConfig config;
    config.base_url = "http://127.0.0.1:9";
    config.token = "lip_RedactMeBody0123";
    const HttpClient http(config);
    EXPECT_EQ(http.redact("a lip_RedactMeBody0123 b RedactMeBody0123 c"),
              "a <redacted> b <redacted> c");
    EXPECT_EQ(http.redact("lip_ alone and RedactMe"), "lip_ alone and RedactMe");
}

TEST(ApiHttp, UsernameCanBeSetAfterStartup) {
    test_support::TestServer server(
        [](test_support::Connection& c) { c.respond(200, R"({"ok":true})"); });
    ApiOptions o = fast_options(server.base_url());
    o.http.username.clear();
    Api api(o);
    ASSERT_TRUE(api.abort("game1234").ok());
    api.set_username("Outpost\r\nX-Evil: 1");  // sanitised: no header injection
    ASSERT_TRUE(api.abort("game1234").ok());
    const auto reqs = server.requests();
    ASSERT_EQ(reqs.size(), 2u);
    EXPECT_EQ(reqs[0].header("user-agent"), std::string("outpost/") + OUTPOST_VERSION);
    EXPECT_EQ(reqs[1].header("user-agent"),
              std::string("outpost/") + OUTPOST_VERSION + " user:OutpostX-Evil1");
    EXPECT_EQ(reqs[1].header("x-evil"), "");
}

TEST(ApiHttp, FormBodiesAndPaths) {
    test_support::TestServer server([](test_support::Connection& c) {
        if (c.request().target.starts_with("/api/challenge/someone")) {
            c.respond(200,
                      R"({"id":"uGK4MHaQ","url":"u","status":"created",)"
                      R"("challenger":{"id":"outpostbot","name":"OutpostBot"},)"
                      R"("destUser":{"id":"someone","name":"Someone"},)"
                      R"("variant":{"key":"standard","name":"Standard"},"rated":true,)"
                      R"("speed":"blitz","timeControl":{"type":"clock","limit":180,"increment":2},)"
                      R"("color":"white","perf":{"icon":"","name":"Blitz"},"direction":"out"})");
            return;
        }
        c.respond(200, kOk);
    });
    Api api(fast_options(server.base_url()));
    ASSERT_TRUE(api.decline_challenge("abc12345", DeclineReason::TooFast).ok());
    ASSERT_TRUE(api.chat("game1234", ChatRoom::Spectator, "good luck & have fun").ok());
    ASSERT_TRUE(api.post_move("game1234", "e7e8q", true).ok());
    ASSERT_TRUE(api.post_move("game1234", "e1h1").ok());
    ASSERT_TRUE(api.accept_challenge("abc12345").ok());
    ASSERT_TRUE(api.cancel_challenge("abc12345").ok());
    ASSERT_TRUE(api.handle_draw("game1234", false).ok());
    ASSERT_TRUE(api.handle_takeback("game1234", true).ok());
    ASSERT_TRUE(api.abort("game1234").ok());
    ASSERT_TRUE(api.resign("game1234").ok());
    ASSERT_TRUE(api.claim_victory("game1234").ok());
    ASSERT_TRUE(api.claim_draw("game1234").ok());
    ASSERT_TRUE(api.upgrade_to_bot().ok());
    ChallengeRequest req;
    req.clock_limit_s = 180;
    req.clock_increment_s = 2;
    req.rated = true;
    req.color = "white";
    auto created = api.create_challenge("someone", req);
    ASSERT_TRUE(created.ok()) << created.error().describe();
    EXPECT_EQ(created->time_control.limit_s, 180);
    ASSERT_TRUE(api.handle_draw("game1234", true).ok());
    ASSERT_TRUE(api.handle_takeback("game1234", false).ok());

    const auto r = server.requests();
    ASSERT_EQ(r.size(), 16u);
    EXPECT_EQ(r[0].target, "/api/challenge/abc12345/decline");
    EXPECT_EQ(r[0].method, "POST");
    EXPECT_EQ(r[0].body, "reason=tooFast");
    EXPECT_EQ(r[0].header("content-type"), "application/x-www-form-urlencoded");
    EXPECT_EQ(r[1].target, "/api/bot/game/game1234/chat");
    EXPECT_EQ(r[1].body, "room=spectator&text=good%20luck%20%26%20have%20fun");
    EXPECT_EQ(r[2].target, "/api/bot/game/game1234/move/e7e8q?offeringDraw=true");
    EXPECT_EQ(r[3].target, "/api/bot/game/game1234/move/e1h1");
    EXPECT_EQ(r[4].target, "/api/challenge/abc12345/accept");
    EXPECT_EQ(r[5].target, "/api/challenge/abc12345/cancel");
    EXPECT_EQ(r[6].target, "/api/bot/game/game1234/draw/no");
    EXPECT_EQ(r[7].target, "/api/bot/game/game1234/takeback/yes");
    EXPECT_EQ(r[8].target, "/api/bot/game/game1234/abort");
    EXPECT_EQ(r[9].target, "/api/bot/game/game1234/resign");
    EXPECT_EQ(r[10].target, "/api/bot/game/game1234/claim-victory");
    EXPECT_EQ(r[11].target, "/api/bot/game/game1234/claim-draw");
    EXPECT_EQ(r[12].target, "/api/bot/account/upgrade");
    EXPECT_EQ(r[13].target, "/api/challenge/someone");
    EXPECT_EQ(r[13].body,
              "clock.limit=180&clock.increment=2&rated=true&color=white&variant=standard");
    EXPECT_EQ(r[14].target, "/api/bot/game/game1234/draw/yes");
    EXPECT_EQ(r[14].method, "POST");
    EXPECT_EQ(r[15].target, "/api/bot/game/game1234/takeback/no");
    EXPECT_EQ(r[15].method, "POST");
}

TEST(ApiHttp, TokenTestRequiresBotPlay) {
    std::atomic<bool> with_bot_play{true};
    test_support::TestServer server([&](test_support::Connection& c) {
        const std::string scopes = with_bot_play ? "challenge:read,bot:play" : "board:play";
        c.respond(200, std::string(R"({")") + c.request().body +
                           R"(":{"userId":"outpostbot","scopes":")" + scopes +
                           R"(","expires":null}})");
    });
    Api api(fast_options(server.base_url()));
    auto ok = api.token_test();
    ASSERT_TRUE(ok.ok()) << ok.error().describe();
    EXPECT_EQ(ok->user_id, "outpostbot");
    with_bot_play = false;
    auto missing = api.token_test();
    ASSERT_FALSE(missing.ok());
    EXPECT_EQ(missing.error().kind, ApiError::Kind::Config);
    EXPECT_NE(missing.error().message.find("bot:play"), std::string::npos);
    const auto r = server.requests();
    EXPECT_EQ(r[0].body, kToken);
    EXPECT_EQ(r[0].header("content-type"), "text/plain");
    EXPECT_EQ(r[0].header("authorization"), "");
}

TEST(ApiHttp, PlayingBotsOnlineAndUserStatus) {
    test_support::TestServer server([](test_support::Connection& c) {
        const auto& t = c.request().target;
        if (t.starts_with("/api/account/playing")) {
            c.respond(
                200, R"({"nowPlaying":[{"gameId":"g1","fullId":"g1xxxx","color":"black",)"
                     R"("isMyTurn":true,"secondsLeft":60,"opponent":{"id":"o","username":"O"}}]})");
        } else if (t.starts_with("/api/bot/online")) {
            c.respond(200,
                      "{\"id\":\"b1\",\"username\":\"B1\",\"title\":\"BOT\"}\n\n{\"id\":\"b2\"}\n",
                      "application/x-ndjson");
        } else {
            c.respond(200, R"([{"id":"a","name":"A","online":true},{"id":"b","name":"B"}])");
        }
    });
    Api api(fast_options(server.base_url()));
    auto playing = api.playing(5);
    ASSERT_TRUE(playing.ok()) << playing.error().describe();
    ASSERT_EQ(playing->now_playing.size(), 1u);
    EXPECT_EQ(playing->now_playing[0].game_id, "g1");
    EXPECT_EQ(playing->now_playing[0].color, Color::Black);
    auto bots = api.bots_online(2);
    ASSERT_TRUE(bots.ok());
    ASSERT_EQ(bots->size(), 2u);
    EXPECT_EQ((*bots)[0].title, "BOT");
    auto status = api.user_status({"a", "b"});
    ASSERT_TRUE(status.ok());
    ASSERT_EQ(status->size(), 2u);
    EXPECT_TRUE((*status)[0].online);
    EXPECT_FALSE((*status)[1].online);
    const auto r = server.requests();
    EXPECT_EQ(r[0].target, "/api/account/playing?nb=5");
    EXPECT_EQ(r[1].target, "/api/bot/online?nb=2");
    EXPECT_EQ(r[2].target, "/api/users/status?ids=a%2Cb");
}

TEST(ApiHttp, RateLimitWithoutBodyPausesTheFamilyOnly) {
    using namespace std::chrono_literals;
    test_support::LogCapture logs;
    std::atomic<bool> limited{true};
    test_support::TestServer server([&](test_support::Connection& c) {
        if (limited && c.request().target.starts_with("/api/challenge")) {
            c.respond(429, "<html><body>Too many requests</body></html>", "text/html");
        } else {
            c.respond(200, kOk);
        }
    });
    Api api(fast_options(server.base_url()));
    const auto t0 = std::chrono::steady_clock::now();
    auto first = api.accept_challenge("c1");
    ASSERT_FALSE(first.ok());
    EXPECT_EQ(first.error().kind, ApiError::Kind::RateLimited);
    EXPECT_EQ(first.error().status, 429);
    ASSERT_TRUE(first.error().retry_after.has_value());
    EXPECT_GE(*first.error().retry_after, 200ms);
    EXPECT_NE(first.error().excerpt.find("Too many requests"), std::string::npos);
    // During the pause: answered locally, the server sees nothing, other families go on.
    for (int i = 0; i < 3; ++i) {
        auto again = api.decline_challenge("c2");
        ASSERT_FALSE(again.ok());
        EXPECT_EQ(again.error().kind, ApiError::Kind::RateLimited);
    }
    EXPECT_TRUE(api.paused_for(Family::Challenge).has_value());
    EXPECT_FALSE(api.paused_for(Family::Move).has_value());
    EXPECT_TRUE(api.post_move("g1", "e2e4").ok());
    EXPECT_EQ(server.count("/api/challenge"), 1u);
    EXPECT_EQ(logs.count("rate limited (429)"), 1u);  // logged once, not per attempt

    limited = false;
    while (api.paused_for(Family::Challenge)) std::this_thread::sleep_for(20ms);
    EXPECT_GE(std::chrono::steady_clock::now() - t0, 200ms);
    EXPECT_TRUE(api.accept_challenge("c1").ok());
    EXPECT_EQ(server.count("/api/challenge"), 2u);
    EXPECT_EQ(api.error_count(), 0u);  // 429s are rate_limit_count()'s, not errors
}

TEST(ApiHttp, MovePostIsNeverQueuedBehindSlowChatOrChallengeCalls) {
    using namespace std::chrono_literals;
    // The server holds a chat post and a challenge accept for a second each; a move posted
    // while both are in flight on other threads must not wait for either (own rate-limiter
    // family, no lock shared with them in Api or the handle pool). The test server serves
    // each connection on its own thread.
    constexpr auto kSlow = 1000ms;
    test_support::TestServer server([&](test_support::Connection& c) {
        const auto& t = c.request().target;
        if (t.ends_with("/chat") || t.starts_with("/api/challenge/")) c.sleep(kSlow);
        c.respond(200, kOk);
    });
    Api api(fast_options(server.base_url()));
    std::atomic<bool> chat_done{false};
    std::atomic<bool> accept_done{false};
    std::thread chat([&] {
        EXPECT_TRUE(api.chat("game1234", ChatRoom::Player, "good luck").ok());
        chat_done = true;
    });
    std::thread accept([&] {
        EXPECT_TRUE(api.accept_challenge("abc12345").ok());
        accept_done = true;
    });
    // Both slow calls have reached the server (it records a request before handling it).
    const auto wait_deadline = std::chrono::steady_clock::now() + 5s;
    while ((server.count("/api/bot/game/game1234/chat") == 0 ||
            server.count("/api/challenge/abc12345/accept") == 0) &&
           std::chrono::steady_clock::now() < wait_deadline) {
        std::this_thread::sleep_for(2ms);
    }
    const bool both_in_flight = server.count("/api/bot/game/game1234/chat") == 1 &&
                                server.count("/api/challenge/abc12345/accept") == 1;
    const auto move = api.post_move("game1234", "e2e4");
    const bool chat_finished = chat_done;
    const bool accept_finished = accept_done;
    chat.join();
    accept.join();
    ASSERT_TRUE(both_in_flight);
    ASSERT_TRUE(move.ok()) << move.error().describe();
    EXPECT_FALSE(chat_finished) << "the move came back after the slow chat call";
    EXPECT_FALSE(accept_finished) << "the move came back after the slow challenge accept";
    EXPECT_EQ(server.count("/api/bot/game/game1234/move/e2e4"), 1u);
    EXPECT_TRUE(chat_done);
    EXPECT_TRUE(accept_done);
}

TEST(ApiHttp, RateLimitJsonBodyHonoursSeconds) {
    using namespace std::chrono_literals;
    test_support::TestServer server([](test_support::Connection& c) {
        if (!c.request().target.starts_with("/api/challenge/otherbot")) {
            c.respond(200, kOk);
            return;
        }
        c.respond(
            429,
            R"({"error":"You played 100 games against other bots today, please wait )"
            R"(before challenging another bot.","ratelimit":{"key":"bot.vsBot.day","seconds":86398}})");
    });
    Api api(fast_options(server.base_url()));
    ChallengeRequest req;
    req.clock_limit_s = 60;
    auto r = api.create_challenge("otherbot", req);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ApiError::Kind::RateLimited);
    EXPECT_NE(r.error().message.find("100 games"), std::string::npos);
    ASSERT_TRUE(r.error().retry_after.has_value());
    EXPECT_GE(*r.error().retry_after, 86398s);
    EXPECT_EQ(r.error().rate_limit_key, "bot.vsBot.day");
    EXPECT_EQ(r.error().rate_limit_wait, std::optional<Millis>(86398s));
    const auto limit = bot_game_limit(r.error());
    ASSERT_TRUE(limit.has_value());
    EXPECT_TRUE(limit->ours);
    EXPECT_EQ(limit->wait, std::optional<Millis>(86398s));
    // A quota, not a request rate: the client pauses no family (the Matchmaker stops its bot
    // challenges and the Bot declines bots), and counts it with the 429s.
    EXPECT_FALSE(api.paused_for(Family::ChallengeCreate).has_value());
    EXPECT_EQ(api.rate_limiter().rate_limit_count(), 1u);
    // A day without bot games must not stop answering the challenges we receive.
    EXPECT_FALSE(api.paused_for(Family::Challenge).has_value());
    EXPECT_TRUE(api.accept_challenge("c1").ok());
    EXPECT_TRUE(api.cancel_challenge("c2").ok());
    // Nothing answered locally: the server says again what it says.
    auto again = api.create_challenge("otherbot", req);
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().kind, ApiError::Kind::RateLimited);
    EXPECT_EQ(server.count("/api/challenge/otherbot"), 2u);
}

TEST(ApiHttp, HugeRateLimitSecondsAreCappedAndMessagesEscaped) {
    using namespace std::chrono_literals;
    // seconds * 1000 must not overflow (UBSan): any wait is capped at a day. A control
    // character in the server's error text is escaped in describe(), which goes to the log.
    for (const char* seconds : {"9223372036854775807", "1e300", "18446744073709551615"}) {
        test_support::TestServer server([&](test_support::Connection& c) {
            c.respond(429, std::string(R"({"error":"slow\u001b[2J down\nforged line",)") +
                               R"("ratelimit":{"key":"x","seconds":)" + seconds + "}}");
        });
        Api api(fast_options(server.base_url()));
        ChallengeRequest req;
        req.clock_limit_s = 60;
        auto r = api.create_challenge("otherbot", req);
        ASSERT_FALSE(r.ok()) << seconds;
        EXPECT_EQ(r.error().rate_limit_wait, std::optional<Millis>(24h)) << seconds;
        EXPECT_EQ(r.error().retry_after, std::optional<Millis>(1h)) << seconds;  // the family's cap
        const std::string text = r.error().describe();
        EXPECT_EQ(text.find('\x1b'), std::string::npos) << text;
        EXPECT_EQ(text.find('\n'), std::string::npos) << text;
        EXPECT_NE(text.find("slow\\x1b[2J down\\nforged line"), std::string::npos) << text;
    }
}

TEST(ApiHttp, AnHourLongHintOnAMoveCostsAtMostThreeSecondsAndNeverBlocksTheNextPost) {
    using namespace std::chrono_literals;
    // A JSON 429 asking for an hour on one game's move: the move family is paused for 3 s at
    // most, and the pause is advisory: a game whose clock cannot wait posts again at once.
    std::atomic<int> moves{0};
    test_support::TestServer server([&](test_support::Connection& c) {
        if (c.request().target.find("/move/") != std::string::npos && moves++ == 0) {
            c.respond(429,
                      R"({"error":"Too many requests","ratelimit":{"key":"x","seconds":3600}})");
            return;
        }
        c.respond(200, kOk);
    });
    Api api(fast_options(server.base_url()));
    const auto t0 = RateLimiter::Clock::now();
    auto first = api.post_move("game0001", "e2e4");
    ASSERT_FALSE(first.ok());
    EXPECT_EQ(first.error().kind, ApiError::Kind::RateLimited);
    EXPECT_EQ(first.error().rate_limit_wait, std::optional<Millis>(3600s));
    EXPECT_EQ(first.error().retry_after, std::optional<Millis>(3s));
    const auto until = api.paused_until(Family::Move);
    ASSERT_TRUE(until.has_value());
    EXPECT_LE(*until, RateLimiter::Clock::now() + 3s);
    EXPECT_GE(*until, t0 + 3s);
    // During the pause another game's move (or this one again) still reaches the server.
    EXPECT_TRUE(api.post_move("game0002", "d2d4").ok());
    EXPECT_TRUE(api.post_move("game0001", "e2e4").ok());
    EXPECT_EQ(moves.load(), 3);
}

TEST(ApiHttp, RetryAfterIsHonouredWithinTheFamilyCap) {
    using namespace std::chrono_literals;
    // Retry-After (no JSON body) on the event stream and on the account: a week is cut to the
    // family's cap, a short one is kept above the minimum.
    test_support::TestServer server([](test_support::Connection& c) {
        const bool stream = c.request().target == "/api/stream/event";
        c.send_raw(std::string("HTTP/1.1 429 Too Many Requests\r\nRetry-After: ") +
                   (stream ? "604800" : "2") +
                   "\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n"
                   "Connection: close\r\n\r\nslow");
    });
    Api api(fast_options(server.base_url()));
    const StreamResult r = api.stream_events({}, 2s, [](std::string_view) {});
    ASSERT_TRUE(r.error.has_value());
    EXPECT_EQ(r.error->kind, ApiError::Kind::RateLimited);
    EXPECT_EQ(r.error->retry_after, std::optional<Millis>(180s));
    EXPECT_LE(*api.paused_for(Family::EventStream), 180s);
    auto account = api.account();
    ASSERT_FALSE(account.ok());
    EXPECT_EQ(account.error().retry_after, std::optional<Millis>(2s));
    EXPECT_GT(*api.paused_for(Family::Account), 1s);
}

TEST(ApiHttp, OpponentOutOfBotGamesIsA400WithoutAPause) {
    test_support::TestServer server([](test_support::Connection& c) {
        c.respond(400, R"({"error":"Tired played 100 games against other bots today, please wait )"
                       R"(until 2030-01-01T00:00:00Z to challenge them."})");
    });
    Api api(fast_options(server.base_url()));
    ChallengeRequest req;
    req.clock_limit_s = 180;
    req.clock_increment_s = 2;
    auto r = api.create_challenge("tired", req);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ApiError::Kind::Http);
    EXPECT_EQ(r.error().status, 400);
    const auto limit = bot_game_limit(r.error());
    ASSERT_TRUE(limit.has_value());
    EXPECT_FALSE(limit->ours);
    EXPECT_FALSE(limit->wait.has_value());
    EXPECT_FALSE(api.paused_for(Family::ChallengeCreate).has_value());
    EXPECT_EQ(api.rate_limiter().rate_limit_count(), 0u);
    EXPECT_EQ(server.count("/api/challenge/tired"), 1u);  // a 400 is final: no retry
}

TEST(BotGameLimit, RecognisesOnlyTheDailyBotLimit) {
    using namespace std::chrono_literals;
    ApiError plain429{ApiError::Kind::RateLimited, 429, "HTTP 429", {}, 60s};
    EXPECT_FALSE(bot_game_limit(plain429).has_value());
    ApiError bad_clock{ApiError::Kind::Http, 400, "clock: invalid clock.limit", {}, {}};
    EXPECT_FALSE(bot_game_limit(bad_clock).has_value());
    ApiError by_key{ApiError::Kind::RateLimited, 429, "", {}, 60s, "bot.vsBot.day", 3s};
    ASSERT_TRUE(bot_game_limit(by_key).has_value());
    EXPECT_TRUE(bot_game_limit(by_key)->ours);
    EXPECT_EQ(bot_game_limit(by_key)->wait, std::optional<Millis>(3s));
    // The same text on a 400 that speaks of us (a server that answers our limit with 400).
    ApiError ours400{ApiError::Kind::Http,
                     400,
                     "You played 100 games against other bots today, please wait.",
                     {},
                     {}};
    ASSERT_TRUE(bot_game_limit(ours400).has_value());
    EXPECT_TRUE(bot_game_limit(ours400)->ours);
    ApiError network{ApiError::Kind::Network, 0, "games against other bots today", {}, {}};
    EXPECT_FALSE(bot_game_limit(network).has_value());
}

TEST(ApiHttp, CreateChallengeFormsAndReply) {
    test_support::TestServer server([](test_support::Connection& c) {
        if (c.request().target == "/api/challenge/gone/cancel") {
            c.respond(404, R"({"error":"Not found."})");
            return;
        }
        c.respond(200, test::read_example("challenges-createChallenge.json"));
    });
    Api api(fast_options(server.base_url()));
    ChallengeRequest corr;
    corr.days = 3;
    corr.variant = "chess960";
    auto a = api.create_challenge("Mary", corr);
    ASSERT_TRUE(a.ok()) << a.error().describe();
    EXPECT_EQ(a->id, "uGK4MHaQ");
    EXPECT_EQ(a->direction, std::optional<std::string>("out"));
    ASSERT_TRUE(a->dest_user.has_value());
    EXPECT_EQ(a->dest_user->id, "mary");
    auto b = api.create_challenge("Mary", ChallengeRequest{});  // unlimited: neither clock nor days
    ASSERT_TRUE(b.ok()) << b.error().describe();
    ChallengeRequest from_fen;
    from_fen.clock_limit_s = 300;
    from_fen.variant = "fromPosition";
    from_fen.fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    auto c = api.create_challenge("Mary", from_fen);
    ASSERT_TRUE(c.ok()) << c.error().describe();
    auto gone = api.cancel_challenge("gone");
    ASSERT_FALSE(gone.ok());
    EXPECT_EQ(gone.error().status, 404);
    EXPECT_EQ(gone.error().message, "Not found.");

    const auto r = server.requests();
    ASSERT_EQ(r.size(), 4u);
    EXPECT_EQ(r[0].target, "/api/challenge/Mary");
    EXPECT_EQ(r[0].body, "days=3&rated=false&color=random&variant=chess960");
    EXPECT_EQ(r[0].header("content-type"), "application/x-www-form-urlencoded");
    EXPECT_EQ(r[1].body, "rated=false&color=random&variant=standard");
    // The FEN goes last, percent-encoded ('/' as %2F, ' ' as %20), with no increment given as 0.
    EXPECT_EQ(r[2].target, "/api/challenge/Mary");
    EXPECT_EQ(r[2].body,
              "clock.limit=300&clock.increment=0&rated=false&color=random&variant=fromPosition"
              "&fen=r1bqkbnr%2Fpppp1ppp%2F2n5%2F4p3%2F4P3%2F5N2%2FPPPP1PPP%2FRNBQKB1R"
              "%20w%20KQkq%20-%202%203");
    EXPECT_EQ(r[3].target, "/api/challenge/gone/cancel");
    EXPECT_EQ(r[3].method, "POST");
}

TEST(ApiHttp, BotsOnlineReadsPerfRatingsOfTheSpecExample) {
    test_support::TestServer server([](test_support::Connection& c) {
        c.respond(200, test::read_example("bot-getOnlineBots.json") + "\n\n",
                  "application/x-ndjson");
    });
    Api api(fast_options(server.base_url()));
    auto bots = api.bots_online(512);
    ASSERT_TRUE(bots.ok()) << bots.error().describe();
    ASSERT_EQ(bots->size(), 1u);
    const User& u = bots->front();
    EXPECT_EQ(u.id, "bernstein-2ply");
    EXPECT_EQ(u.title, std::optional<std::string>("BOT"));
    ASSERT_TRUE(u.perfs.contains("blitz"));
    EXPECT_EQ(u.perfs.at("blitz").rating, 1121);
    EXPECT_EQ(u.perfs.at("blitz").games, 12688);
    EXPECT_FALSE(u.perfs.at("blitz").provisional);
    EXPECT_TRUE(u.perfs.at("correspondence").provisional);
    EXPECT_EQ(server.requests().at(0).target, "/api/bot/online?nb=512");
    EXPECT_EQ(api.bots_online(100000).ok(), true);  // clamped to the API's maximum
    EXPECT_EQ(server.requests().at(1).target, "/api/bot/online?nb=512");
}

TEST(ApiHttp, BadGatewayBurstThenSuccess) {
    std::atomic<int> calls{0};
    test_support::TestServer server([&](test_support::Connection& c) {
        if (++calls <= 2) {
            c.respond(502, kHtml502, "text/html");
        } else {
            c.respond(200, kOk);
        }
    });
    Api api(fast_options(server.base_url()));
    auto r = api.resign("game1234");
    EXPECT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(server.count("/api/bot/game/game1234/resign"), 3u);
    EXPECT_EQ(api.error_count(), 2u);  // each failed attempt, though the call succeeded
}

TEST(ApiHttp, HtmlErrorPageIsAnErrorValueWithExcerpt) {
    test_support::TestServer server(
        [](test_support::Connection& c) { c.respond(502, kHtml502, "text/html"); });
    Api api(fast_options(server.base_url()));
    auto r = api.account();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ApiError::Kind::Http);
    EXPECT_EQ(r.error().status, 502);
    EXPECT_NE(r.error().excerpt.find("502 Bad Gateway"), std::string::npos);
    EXPECT_EQ(r.error().excerpt.find('\n'), std::string::npos);
    EXPECT_EQ(server.count("/api/account"), 4u);  // max_attempts
}

TEST(ApiHttp, NonJsonSuccessBodyIsAParseError) {
    test_support::TestServer server([](test_support::Connection& c) {
        c.respond(200, "<html>maintenance</html>", "text/html");
    });
    Api api(fast_options(server.base_url()));
    auto r = api.account();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ApiError::Kind::Parse);
    EXPECT_EQ(api.error_count(), 0u);  // the request itself went through
}

TEST(ApiHttp, MoveRejectedWith400IsFinal) {
    test_support::TestServer server([](test_support::Connection& c) {
        c.respond(400, R"({"error":"Not your turn, or game already over"})");
    });
    Api api(fast_options(server.base_url()));
    auto r = api.post_move("game1234", "e2e4");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ApiError::Kind::Http);
    EXPECT_EQ(r.error().status, 400);
    EXPECT_EQ(r.error().message, "Not your turn, or game already over");
    EXPECT_EQ(server.count("/api/bot/game/game1234/move"), 1u);
    EXPECT_EQ(api.error_count(), 1u);
}

TEST(ApiHttp, MoveRetriesNetworkErrorsOnlyWhileGameIsOn) {
    test_support::TestServer server(
        [](test_support::Connection& c) { c.drop(); });  // no reply at all
    Api api(fast_options(server.base_url()));
    auto over = api.post_move("game1234", "e2e4", std::nullopt, [] { return false; });
    ASSERT_FALSE(over.ok());
    EXPECT_EQ(over.error().kind, ApiError::Kind::Network);
    EXPECT_EQ(server.count("/api/bot/game/game1234/move"), 1u);
    auto on = api.post_move("game1234", "e2e4", std::nullopt, [] { return true; });
    ASSERT_FALSE(on.ok());
    EXPECT_EQ(server.count("/api/bot/game/game1234/move"), 5u);  // 1 + max_attempts
    EXPECT_EQ(api.error_count(), 5u);                            // one per dropped request
}

TEST(ApiHttp, AHeldMovePostIsGivenUpAfterTheMoveTimeoutAndSentAgain) {
    using namespace std::chrono_literals;
    // The server holds the first move request until the test is done; the client gives it up
    // after its move timeout (300 ms here, 2 s by default) and the second try is answered at once.
    std::atomic<int> seen{0};
    std::atomic<bool> release{false}, held_answered{false};
    test_support::TestServer server([&](test_support::Connection& c) {
        if (seen++ == 0) {
            c.hold_until(release, 10s);
            held_answered = true;
        }
        c.respond(200, kOk);
    });
    ApiOptions o = fast_options(server.base_url());
    o.move_timeout = 300ms;
    Api api(o);
    const auto start = std::chrono::steady_clock::now();
    auto r = api.post_move("game1234", "e2e4", std::nullopt, [] { return true; });
    const auto took = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(server.count("/api/bot/game/game1234/move/e2e4"), 2u);
    EXPECT_FALSE(held_answered.load()) << "the held request was waited out";
    EXPECT_LT(took, 300ms + test_time::scaled(2200ms));
    release = true;
}

TEST(ApiHttp, MovesOfDifferentGamesNeverWaitForEachOther) {
    using namespace std::chrono_literals;
    // Game A's move is held 2 s by the server; game B's move, posted meanwhile from another
    // thread, comes back while A's is still held (no family lock, no shared handle).
    test_support::TestServer server([](test_support::Connection& c) {
        if (c.request().target.find("/gameAAAA/") != std::string::npos) c.sleep(2000ms);
        c.respond(200, kOk);
    });
    ApiOptions o = fast_options(server.base_url());
    o.move_timeout = 5s;
    Api api(o);
    std::atomic<bool> a_done{false};
    std::thread a([&] {
        EXPECT_TRUE(api.post_move("gameAAAA", "e2e4").ok());
        a_done = true;
    });
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (server.count("/api/bot/game/gameAAAA/move") == 0 &&
           std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(2ms);
    const auto b = api.post_move("gameBBBB", "d2d4");
    const bool a_finished_first = a_done;
    a.join();
    ASSERT_TRUE(b.ok()) << b.error().describe();
    EXPECT_FALSE(a_finished_first) << "game B's move waited for game A's";
}

TEST(ApiHttp, ConnectionRefusedIsANetworkError) {
    unsigned short port = 0;
    {
        test_support::TestServer s([](test_support::Connection& c) { c.drop(); });
        port = s.port();
    }  // closed: nothing listens there now
    Api api(fast_options("http://127.0.0.1:" + std::to_string(port)));
    auto r = api.account();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ApiError::Kind::Network);
}

TEST(ApiHttp, ShutdownCancelsARetryingCall) {
    using namespace std::chrono_literals;
    test_support::TestServer server(
        [](test_support::Connection& c) { c.respond(503, "down", "text/plain"); });
    ApiOptions o = fast_options(server.base_url());
    o.retry.max_attempts = 100;
    o.retry.backoff = BackoffConfig{test_time::scaled(5000ms), test_time::scaled(5000ms), 2.0, 0.0};
    Api api(o);
    std::thread stopper([&] {
        while (server.count("/api/account") == 0) std::this_thread::sleep_for(5ms);
        api.shutdown();
    });
    const auto t0 = std::chrono::steady_clock::now();
    auto r = api.account();
    stopper.join();
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().kind, ApiError::Kind::Cancelled);
    // well before the backoff's 5 s (scaled with it)
    EXPECT_LT(std::chrono::steady_clock::now() - t0, test_time::scaled(4000ms));
    EXPECT_EQ(api.account().error().kind, ApiError::Kind::Cancelled);
}

TEST(ApiConfig, PlainHttpOnlyForLoopback) {
    EXPECT_FALSE(check_base_url("https://lichess.org"));
    EXPECT_FALSE(check_base_url("http://127.0.0.1:8080"));
    EXPECT_FALSE(check_base_url("http://127.45.6.7"));
    EXPECT_FALSE(check_base_url("http://localhost:9000/"));
    EXPECT_FALSE(check_base_url("http://[::1]:8080"));
    EXPECT_TRUE(check_base_url("http://lichess.org"));
    EXPECT_TRUE(check_base_url("http://10.0.0.1:8080"));
    EXPECT_TRUE(check_base_url("http://128.0.0.1"));
    EXPECT_TRUE(check_base_url("http://127.0.0.1.evil.example"));
    EXPECT_TRUE(check_base_url("http://127.0.0.1@evil.example"));
    EXPECT_TRUE(check_base_url("http://[::2]:80"));
    EXPECT_TRUE(check_base_url("ftp://127.0.0.1"));
    EXPECT_TRUE(check_base_url("lichess.org"));
    const auto msg = check_base_url("http://lichess.org");
    ASSERT_TRUE(msg);
    EXPECT_NE(msg->find("loopback"), std::string::npos);

    ApiOptions o;
    o.http.base_url = "http://lichess.org";
    EXPECT_THROW(Api{o}, std::invalid_argument);
}

TEST(ApiConfig, BadTokenIsRejectedWithoutEchoingIt) {
    ApiOptions o;
    o.http.token = "lip_abc\r\nX-Evil: 1";
    try {
        Api api(o);
        FAIL() << "expected invalid_argument";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()).find("lip_abc"), std::string::npos);
    }
}

TEST(ApiLogging, TokenNeverAppearsInLogsOrErrors) {
    using namespace std::chrono_literals;
    test_support::LogCapture logs;
    test_support::TestServer server([](test_support::Connection& c) {
        const auto& t = c.request().target;
        if (t == "/api/account") {
            // A hostile or buggy server echoing the token back must not leak it into errors.
            c.respond(401, std::string(R"({"error":"No such token: )") + kToken + "\"}");
        } else if (t == "/api/token/test") {
            c.respond(500, std::string("<html>oops ") + kToken + "</html>", "text/html");
        } else if (t.starts_with("/api/bot/game/stream")) {
            c.begin_stream();
            c.send_chunk("\n");
            c.send_chunk("{\"type\":\"bogus\",\"token\":\"" + std::string(kToken) + "\"}\n");
            c.end_stream();
        } else {
            c.respond(502, kHtml502, "text/html");
        }
    });
    Api api(fast_options(server.base_url()));
    std::vector<ApiError> errors;
    if (auto r = api.account(); !r.ok()) errors.push_back(r.error());
    if (auto r = api.token_test(); !r.ok()) errors.push_back(r.error());
    if (auto r = api.post_move("g", "e2e4"); !r.ok()) errors.push_back(r.error());
    (void)api.stream_game("g", {}, 2s, [](std::string_view) {});
    ASSERT_EQ(errors.size(), 3u);
    for (const auto& e : errors) {
        EXPECT_EQ(e.describe().find(kToken), std::string::npos) << e.describe();
    }
    const auto lines = logs.lines();
    EXPECT_FALSE(lines.empty());  // trace logging was on and something was logged
    for (const auto& line : lines) {
        EXPECT_EQ(line.find(kToken), std::string::npos) << line;
        EXPECT_EQ(line.find("SuperSecret"), std::string::npos) << line;
    }
    // The header was still sent.
    EXPECT_EQ(server.requests().front().header("authorization"), std::string("Bearer ") + kToken);
}

// A request the server holds is given up after its try's deadline and sent again: a decline lila
// holds for seconds costs a fraction of one.
TEST(ApiHttp, AHeldDeclineIsGivenUpAfterItsDeadlineAndSentAgain) {
    using namespace std::chrono_literals;
    std::atomic<int> seen{0};
    std::atomic<bool> release{false}, held_answered{false};
    test_support::TestServer server([&](test_support::Connection& c) {
        if (++seen == 1) {  // the first try: held until the test is done
            c.hold_until(release, 10s);
            held_answered = true;
        }
        c.respond(200, kOk);
    });
    ApiOptions o = fast_options(server.base_url());
    o.request_try_timeout = 300ms;
    Api api(o);
    const auto start = std::chrono::steady_clock::now();
    const auto r = api.decline_challenge("abc12345", DeclineReason::Later);
    const auto took = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(r.ok()) << r.error().describe();
    EXPECT_EQ(server.count("/api/challenge/abc12345/decline"), 2u);
    EXPECT_FALSE(held_answered.load()) << "the held try was waited out";
    EXPECT_LT(took, 300ms + test_time::scaled(1700ms));
    release = true;
}

// One request at a time per family, but a request the server holds makes the next of its family
// wait half a second at most: an accept never waits for a held decline.
TEST(ApiHttp, AHeldRequestHoldsTheNextOfItsFamilyHalfASecondAtMost) {
    using namespace std::chrono_literals;
    std::atomic<bool> release{false}, decline_answered{false};
    test_support::TestServer server([&](test_support::Connection& c) {
        if (c.request().target.ends_with("/decline")) {
            c.hold_until(release, 10s);
            decline_answered = true;
        }
        c.respond(200, kOk);
    });
    ApiOptions o = fast_options(server.base_url());
    o.request_try_timeout = 10s;
    Api api(o);
    std::thread decline([&] { (void)api.decline_challenge("decl0001", DeclineReason::Generic); });
    const auto wait_deadline = std::chrono::steady_clock::now() + 5s;
    while (server.count("/api/challenge/decl0001/decline") == 0 &&
           std::chrono::steady_clock::now() < wait_deadline)
        std::this_thread::sleep_for(2ms);
    const auto start = std::chrono::steady_clock::now();
    const auto accepted = api.accept_challenge("acc00001");
    const auto took = std::chrono::steady_clock::now() - start;
    const bool decline_was_answered = decline_answered;
    release = true;
    decline.join();
    ASSERT_TRUE(accepted.ok()) << accepted.error().describe();
    EXPECT_FALSE(decline_was_answered) << "the accept waited for the held decline";
    EXPECT_GE(took, 400ms);  // it did wait for its turn a while
    EXPECT_LT(took, 500ms + test_time::scaled(1000ms));
}

// The three arena requests: lila's JsonView read, a join's form (team, password, pairMeAsap),
// a withdrawal; lila's refusal as an error value with its text.
TEST(ApiHttp, ArenaReadJoinAndWithdraw) {
    test_support::TestServer server([](test_support::Connection& c) {
        const auto& t = c.request().target;
        if (t == "/api/tournament/arena001")
            c.respond(200, R"({"nbPlayers":12,"duels":[],"id":"arena001","createdBy":"lichess",
                "startsAt":"2025-06-01T12:00:00.000Z","system":"arena","fullName":"Bot Bullet Arena",
                "minutes":30,"perf":{"key":"bullet","name":"Bullet"},"clock":{"limit":60,"increment":0},
                "variant":"standard","rated":true,"berserkable":true,"isStarted":true,
                "secondsToFinish":1200,"botsAllowed":true,
                "me":{"rank":3,"withdraw":true,"gameId":"abcd1234","pauseDelay":20}})");
        else if (t == "/api/tournament/nobots01")
            c.respond(200, R"({"id":"nobots01","fullName":"Humans","minutes":45,"secondsToStart":90,
                "clock":{"limit":180,"increment":2},"variant":"chess960","rated":false})");
        else if (t == "/api/tournament/paused01/join")
            c.respond(400, R"({"error":"Your pause is not over yet"})");
        else
            c.respond(200, kOk);
    });
    Api api(fast_options(server.base_url()));
    const auto arena = api.tournament("arena001");
    ASSERT_TRUE(arena.ok()) << arena.error().describe();
    EXPECT_EQ(arena->full_name, "Bot Bullet Arena");
    EXPECT_EQ(arena->starts_at_ms, std::optional<std::int64_t>(1748779200000));
    EXPECT_EQ(arena->minutes, 30);
    EXPECT_TRUE(arena->is_started);
    EXPECT_EQ(arena->seconds_to_finish, std::optional(1200));
    EXPECT_EQ(arena->clock_limit_s, 60);
    EXPECT_TRUE(arena->bots_allowed);
    ASSERT_TRUE(arena->me.has_value());
    EXPECT_TRUE(arena->me->withdraw);
    EXPECT_EQ(arena->me->pause_delay_s, std::optional(20));
    EXPECT_EQ(arena->me->game_id, std::optional<std::string>("abcd1234"));
    // lila writes botsAllowed only when true, and `me` only for a player.
    const auto humans = api.tournament("nobots01");
    ASSERT_TRUE(humans.ok()) << humans.error().describe();
    EXPECT_FALSE(humans->bots_allowed);
    EXPECT_FALSE(humans->is_started);
    EXPECT_EQ(humans->seconds_to_start, std::optional(90));
    EXPECT_EQ(humans->variant, "chess960");
    EXPECT_FALSE(humans->me.has_value());

    ASSERT_TRUE(api.join_tournament("arena001", TournamentJoin{"my-team", "s3cret", true}).ok());
    ASSERT_TRUE(api.join_tournament("arena002", TournamentJoin{}).ok());
    ASSERT_TRUE(api.withdraw_tournament("arena001").ok());
    const auto refused = api.join_tournament("paused01", TournamentJoin{});
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.error().status, 400);
    EXPECT_EQ(refused.error().message, "Your pause is not over yet");
    const auto reqs = server.requests();
    ASSERT_GE(reqs.size(), 5u);
    EXPECT_EQ(reqs[2].method, "POST");
    EXPECT_EQ(reqs[2].target, "/api/tournament/arena001/join");
    EXPECT_EQ(reqs[2].body, "team=my-team&password=s3cret&pairMeAsap=true");
    EXPECT_EQ(reqs[3].body, "");
    EXPECT_EQ(reqs[4].target, "/api/tournament/arena001/withdraw");
    EXPECT_EQ(reqs[4].header("authorization"), std::string("Bearer ") + kToken);
}

// A 429 on a join pauses the Tournament family; the withdrawal at shutdown still goes (lila
// limits joins, not withdrawals), while another join waits for the pause.
TEST(ApiHttp, AWithdrawalGoesThroughTheTournamentFamilysPause) {
    test_support::TestServer server([](test_support::Connection& c) {
        if (c.request().target == "/api/tournament/arena001/join")
            c.respond(429, R"({"error":"Too many requests"})");
        else
            c.respond(200, kOk);
    });
    Api api(fast_options(server.base_url()));
    const auto joined = api.join_tournament("arena001", TournamentJoin{});
    ASSERT_FALSE(joined.ok());
    EXPECT_EQ(joined.error().kind, ApiError::Kind::RateLimited);
    ASSERT_TRUE(api.paused_for(Family::Tournament).has_value());
    const auto again = api.join_tournament("arena001", TournamentJoin{});
    ASSERT_FALSE(again.ok());
    EXPECT_EQ(again.error().kind, ApiError::Kind::RateLimited);
    const auto withdrawn = api.withdraw_tournament("arena001");
    ASSERT_TRUE(withdrawn.ok()) << withdrawn.error().describe();
    EXPECT_EQ(server.count("/api/tournament/arena001/join"), 1u);
    EXPECT_EQ(server.count("/api/tournament/arena001/withdraw"), 1u);
}

TEST(IsoInstant, ReadsLilasDates) {
    EXPECT_EQ(parse_iso_instant("1970-01-01T00:00:00.000Z"), std::optional<std::int64_t>(0));
    EXPECT_EQ(parse_iso_instant("2025-06-01T12:00:00Z"),
              std::optional<std::int64_t>(1748779200000));
    EXPECT_EQ(parse_iso_instant("2024-02-29T23:59:59.5Z"),
              std::optional<std::int64_t>(1709251199500));
    EXPECT_EQ(parse_iso_instant("2025-13-01T00:00:00Z"), std::nullopt);
    EXPECT_EQ(parse_iso_instant("yesterday"), std::nullopt);
    EXPECT_EQ(parse_iso_instant("2025-06-01T12:00:00+02:00"), std::nullopt);
}

}  // namespace
}  // namespace lichess
