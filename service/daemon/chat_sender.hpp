// ChatSender: posts chat lines from its own thread, paced, so chat never delays a move and
// can never cause a 429 that pauses anything else.
#pragma once

#include <chrono>
#include <string>
#include <thread>

#include "lichess_client/api.hpp"
#include "service/daemon/blocking_queue.hpp"

namespace service {

class ChatSender {
  public:
    // At most one line per `spacing`; lines beyond `max_queue` waiting are dropped. A line that
    // holds `token` (config::holds_token) is never sent: it is dropped with an error log that
    // does not quote it.
    explicit ChatSender(lichess::Api& api, std::string token = {},
                        std::chrono::milliseconds spacing = std::chrono::milliseconds(1200),
                        std::size_t max_queue = 50);
    ~ChatSender();
    ChatSender(const ChatSender&) = delete;
    ChatSender& operator=(const ChatSender&) = delete;

    void send(const std::string& game_id, lichess::ChatRoom room, std::string text);

  private:
    struct Line {
        std::string game_id;
        lichess::ChatRoom room;
        std::string text;
    };
    void run(std::stop_token stop);

    lichess::Api& api_;
    std::string token_;
    std::chrono::milliseconds spacing_;
    std::size_t max_queue_;
    BlockingQueue<Line> queue_;
    std::jthread thread_;
};

}  // namespace service
