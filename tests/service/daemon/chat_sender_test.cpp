// ChatSender: lines are posted in order, paced; a line that holds the API token is never sent,
// and the log that says so does not quote it.
#include "service/daemon/chat_sender.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>

#include "tests/support/log_capture.hpp"
#include "tests/support/test_server.hpp"

namespace service {
namespace {

constexpr const char* kToken = "lip_ChatSenderSecret_0123456789";

lichess::ApiOptions options(const std::string& base_url) {
    using namespace std::chrono_literals;
    lichess::ApiOptions o;
    o.http.base_url = base_url;
    o.http.token = kToken;
    o.http.connect_timeout = 2s;
    o.http.request_timeout = 5s;
    return o;
}

TEST(ChatSender, ALineHoldingTheTokenIsNeverSent) {
    using namespace std::chrono_literals;
    test_support::LogCapture logs;
    test_support::TestServer server(
        [](test_support::Connection& c) { c.respond(200, R"({"ok":true})"); });
    lichess::Api api(options(server.base_url()));
    {
        ChatSender chat(api, kToken, 10ms);
        chat.send("game0001", lichess::ChatRoom::Player, "good luck");
        chat.send("game0001", lichess::ChatRoom::Player,
                  std::string("my token is ") + kToken + ", enjoy");
        chat.send("game0001", lichess::ChatRoom::Spectator, "have fun");
        for (int i = 0; i < 500 && server.count("/api/bot/game/game0001/chat") < 2; ++i)
            std::this_thread::sleep_for(10ms);
        std::this_thread::sleep_for(100ms);  // a third post, if there were one, would be here
    }
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_NE(requests[0].body.find("good%20luck"), std::string::npos) << requests[0].body;
    EXPECT_NE(requests[1].body.find("have%20fun"), std::string::npos) << requests[1].body;
    for (const auto& r : requests) EXPECT_EQ(r.body.find("ChatSenderSecret"), std::string::npos);
    EXPECT_EQ(logs.count("a line for game game0001 was not sent: it holds the API token"), 1u)
        << logs.text();
    EXPECT_FALSE(logs.contains("ChatSenderSecret")) << logs.text();
}

}  // namespace
}  // namespace service
