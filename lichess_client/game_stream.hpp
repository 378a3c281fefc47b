// GameStream: one game's /api/bot/game/stream/{id} connection, delivered as typed lines.
#pragma once

#include <functional>
#include <optional>
#include <stop_token>
#include <string>

#include "lichess_client/api.hpp"
#include "lichess_client/events.hpp"
#include "lichess_client/stream_runner.hpp"

namespace lichess {

struct GameStreamEnd {
    enum class Reason {
        GameOver,  // a final status was seen and the server closed the stream
        Stopped,   // stop token or Api::shutdown()
        Error,     // 4xx that reconnecting cannot fix (404 unknown game, 400 not a bot game)
    };
    Reason reason = Reason::Stopped;
    std::optional<ApiError> error;
};

// Usage, on a game session's thread:
//   lichess::GameStream gs(api, game_id, [&](const lichess::GameEvent& e) { session.on(e); });
//   GameStreamEnd end = gs.run(stop_token);
// Every (re)connect starts with a gameFull carrying the full state, so the session must rebuild
// its position from it rather than trust what it had. A gameFull or gameState that cannot be
// read, or a line that is no usable JSON, arrives as a GameUnreadable (logged at error level
// here, with the game and the field): the session must end the game rather than wait.
class GameStream {
  public:
    using Handler = std::function<void(const GameEvent&)>;

    GameStream(Api& api, std::string game_id, Handler on_event, StreamOptions options = {});

    // Blocks until the game is over (and the server closed the stream), `stop`, or a fatal
    // error; reconnects on drops and silence. The handler runs on this thread.
    GameStreamEnd run(std::stop_token stop);

    [[nodiscard]] const StreamStats& stats() const { return stats_; }
    [[nodiscard]] const std::string& game_id() const { return game_id_; }

  private:
    // A redacted, printable excerpt of a line for a log message.
    [[nodiscard]] std::string shown(std::string_view line) const;
    // Logs a GameUnreadable at error level, naming the game and the field, and delivers it.
    void on_unreadable(const GameUnreadable& event, std::string_view line);

    Api& api_;
    std::string game_id_;
    Handler on_event_;
    StreamOptions options_;
    StreamStats stats_;
};

}  // namespace lichess
