// ChatCommands: parsing, the reply texts and the per-game spam guard.
#include "service/daemon/chat_commands.hpp"
#include "common/text.hpp"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "service/game/chat_text.hpp"

namespace service {

namespace {

// "950", "12k", "1.2M": chat has no room for long numbers.
std::string compact(std::uint64_t n) {
    char buf[32];
    if (n >= 1'000'000)
        std::snprintf(buf, sizeof buf, "%.1fM", double(n) / 1e6);
    else if (n >= 10'000)
        std::snprintf(buf, sizeof buf, "%lluk", static_cast<unsigned long long>(n / 1000));
    else
        std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(n));
    return buf;
}

// "+0.35", "-1.20", "#3", "#-2", from White's side.
std::string white_score(const engine::Score& ours, engine::Color us) {
    const int v = us == engine::WHITE ? ours.value : -ours.value;
    if (ours.is_mate) return "#" + std::to_string(v);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%c%d.%02d", v < 0 ? '-' : '+', std::abs(v) / 100,
                  std::abs(v) % 100);
    return buf;
}

// SAN of the pv from the searched position (any variant: drops as "N@f3"), up to the first
// move that is not legal there.
std::vector<std::string> pv_san(engine::Position position, const std::vector<engine::Move>& pv) {
    std::vector<std::string> out;
    for (const engine::Move m : pv) {
        if (!position.legal_moves().contains(m)) break;
        out.push_back(position.san(m));
        position.play(m);
    }
    return out;
}

constexpr const char* kHelp =
    "Commands: !help, !name, !eval (spectator room), !wait (before the first moves), !queue, "
    "!level";

}  // namespace

std::optional<ChatCommand> parse_chat_command(std::string_view text) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
        text.remove_prefix(1);
    if (text.empty() || text.front() != '!') return std::nullopt;
    text.remove_prefix(1);
    std::size_t end = 0;
    while (end < text.size() && std::isalpha(static_cast<unsigned char>(text[end]))) ++end;
    const std::string word = common::lowercase(text.substr(0, end));
    if (word == "help") return ChatCommand::Help;
    if (word == "name") return ChatCommand::Name;
    if (word == "eval") return ChatCommand::Eval;
    if (word == "wait") return ChatCommand::Wait;
    if (word == "queue") return ChatCommand::Queue;
    if (word == "level") return ChatCommand::Level;
    return std::nullopt;
}

std::string eval_text(const LastSearch& search) {
    const engine::SearchInfo& info = search.info;
    std::string head = "Eval " + white_score(info.score, search.position.side_to_move()) +
                       " (White's view), depth " + std::to_string(info.depth) + ", " +
                       compact(info.nodes) + " nodes, " + compact(info.nps) + " nps";
    const auto pv = pv_san(search.position, info.pv);
    if (pv.empty()) return fit_chat(head);
    std::string line = head + ", pv:";
    for (const auto& san : pv) {
        if (line.size() + 1 + san.size() > kChatLimit) break;  // SAN is ASCII: bytes = chars
        line += ' ' + san;
    }
    return fit_chat(line.back() == ':' ? head : line);
}

std::string level_reply(const GameLevel& level) {
    return "I play this game at " + level_text(level.elo) + " (" + level.why + ").";
}

ChatCommands::ChatCommands(std::string my_id, std::string my_name, ChatCommandSettings settings)
    : my_id_(common::lowercase(my_id)), my_name_(std::move(my_name)), settings_(settings) {}

std::optional<ChatReply> ChatCommands::answer(const lichess::ChatLine& line, const ChatFacts& facts,
                                              Clock::time_point now) {
    if (common::lowercase(line.username) == my_id_)
        return std::nullopt;  // our own lines come back too
    const auto command = parse_chat_command(line.text);
    if (!command) return std::nullopt;
    lichess::ChatRoom room;
    if (line.room == "player")
        room = lichess::ChatRoom::Player;
    else if (line.room == "spectator")
        room = lichess::ChatRoom::Spectator;
    else
        return std::nullopt;

    const auto key = std::make_pair(*command, room);
    const auto last = last_reply_.find(key);
    if (last != last_reply_.end() && now - last->second < settings_.reply_interval)
        return std::nullopt;
    last_reply_[key] = now;

    ChatReply reply;
    reply.room = room;
    reply.text = fit_chat(reply_text(*command, room, facts, reply));
    return reply;
}

std::string ChatCommands::reply_text(ChatCommand command, lichess::ChatRoom room,
                                     const ChatFacts& facts, ChatReply& reply) {
    switch (command) {
        case ChatCommand::Help:
            return kHelp;
        case ChatCommand::Name:
            return my_name_ + " plays with Outpost " + outpost_version() +
                   ", a chess engine of its own written in C++.";
        case ChatCommand::Eval:
            if (room == lichess::ChatRoom::Player)
                return "!eval is for spectators: ask in the spectator room.";
            if (!facts.last_search) return "No evaluation yet: I have not searched a move.";
            return eval_text(*facts.last_search);
        case ChatCommand::Wait:
            if (!facts.first_moves_pending) return "!wait only works before the first moves.";
            if (waited_) return "I have already waited longer once in this game.";
            waited_ = true;
            reply.extend_abort_timer = settings_.wait_extension;
            return "OK, I will wait " + std::to_string(settings_.wait_extension.count()) +
                   " seconds longer for the first move.";
        case ChatCommand::Level:
            if (!facts.level) return "My level for this game is not chosen yet.";
            return level_reply(*facts.level);
        case ChatCommand::Queue: {
            if (!facts.slots) return "I cannot see my game queue right now.";
            const SlotSnapshot& s = *facts.slots;
            std::string text = "Playing " + std::to_string(s.active) + " of " +
                               std::to_string(s.limit) + (s.limit == 1 ? " game" : " games");
            if (s.reserved > 0)
                text += "; " + std::to_string(s.reserved) +
                        (s.reserved == 1 ? " challenge" : " challenges") +
                        " accepted, waiting to start";
            if (s.queued.empty())
                return text + (s.reserved == 0 ? "; no challenges waiting." : ".");
            // Names in the order they will be accepted, cut to fit a chat line.
            text += "; in the queue: ";
            for (std::size_t i = 0; i < s.queued.size(); ++i) {
                const std::string item = (i ? ", " : "") + s.queued[i];
                if (text.size() + item.size() + 12 > 140) {
                    text += " and " + std::to_string(s.queued.size() - i) + " more";
                    break;
                }
                text += item;
            }
            return text + ".";
        }
    }
    return {};
}

}  // namespace service
