// ChatSender: a paced background poster for chat lines.
#include "service/daemon/chat_sender.hpp"

#include <spdlog/spdlog.h>

#include "common/text.hpp"
#include "config/token_guard.hpp"

namespace service {

ChatSender::ChatSender(lichess::Api& api, std::string token, std::chrono::milliseconds spacing,
                       std::size_t max_queue)
    : api_(api),
      token_(std::move(token)),
      spacing_(spacing),
      max_queue_(max_queue),
      thread_([this](std::stop_token st) { run(st); }) {}

ChatSender::~ChatSender() {
    queue_.close();
    thread_.request_stop();
}

void ChatSender::send(const std::string& game_id, lichess::ChatRoom room, std::string text) {
    if (text.empty()) return;
    if (config::holds_token(text, token_)) {
        // Greetings are checked at start-up; this is the last door for any other text.
        spdlog::error("chat: a line for game {} was not sent: it holds the API token",
                      common::printable(game_id));
        return;
    }
    if (queue_.size() >= max_queue_) {
        spdlog::debug("chat: queue full, dropping a line for game {}", common::printable(game_id));
        return;
    }
    queue_.push(Line{game_id, room, std::move(text)});
}

void ChatSender::run(std::stop_token stop) {
    while (!stop.stop_requested()) {
        auto line = queue_.pop_for(std::chrono::milliseconds(200));
        if (!line) {
            if (queue_.closed()) return;
            continue;
        }
        auto r = api_.chat(line->game_id, line->room, line->text);
        if (!r)
            spdlog::debug("chat: game {}: {}", common::printable(line->game_id),
                          r.error().describe());
        // Pace the next line; waking early on shutdown.
        if (!api_.sleep_for(spacing_, stop)) return;
    }
}

}  // namespace service
