// Test helper for the end-to-end suite: runs the whole daemon (service::Bot) in-process against
// an in-process emulator, plus checks on the emulator's recording that every scenario shares.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "config/config.hpp"
#include "emulator_fixture.hpp"
#include "lichess_client/api.hpp"
#include "service/daemon/bot.hpp"
#include "service/ops/metrics.hpp"

namespace e2e {

// What a test changes in the daemon's configuration; the rest is fixed for tests (no health
// endpoint, 8 MB hash).
struct BotSettings {
    std::string challenge = "{}";  // the `challenge:` mapping, as YAML flow text
    std::string extra;             // more top-level YAML lines ("abort_time: 5\n")
    std::string engine;            // more `engine:` keys, as YAML flow entries ("ponder: true"); a
                                   // hash_mb here replaces the fixture's 8 MB
    std::chrono::milliseconds silence{2000};
    int shutdown_grace_s = 0;  // none by default: a test's stop() should not wait for games
    service::MatchmakingTimes matchmaking{};  // matchmaking's timings (idle, answer timeout)
    // The client's shortest pause after a 429 (Lichess asks for a minute); none: that minute.
    std::optional<std::chrono::milliseconds> rate_limit_pause{};
};
[[nodiscard]] inline BotSettings settings(std::string challenge, std::string extra = "") {
    BotSettings s;
    s.challenge = std::move(challenge);
    s.extra = std::move(extra);
    return s;
}

// The YAML config text the fixture loads (also written to a file for the child-process test).
[[nodiscard]] std::string config_text(const emu::EmulatorFixture& fx, const BotSettings& s);

// service::Bot::run on its own thread, stopped (gracefully, then at once) when destroyed.
class BotRunner {
  public:
    BotRunner(emu::EmulatorFixture& fx, BotSettings settings = {});
    ~BotRunner();
    BotRunner(const BotRunner&) = delete;
    BotRunner& operator=(const BotRunner&) = delete;

    service::Bot& bot() { return *bot_; }
    service::Metrics& metrics() { return metrics_; }
    const config::Config& config() const { return config_; }
    // Stops the daemon and waits for run() to return (bounded); returns its exit code.
    int stop();

  private:
    config::Config config_;
    std::unique_ptr<lichess::Api> api_;
    service::Metrics metrics_;
    std::unique_ptr<service::Bot> bot_;
    std::stop_source graceful_, abort_;
    std::optional<int> exit_code_;
    std::atomic<bool> returned_{false};
    std::jthread thread_;
};

// ---- driving the emulator

// An opponent's `moves` for `kind: line`, whatever its colour (random included): a quiet
// developing line for each colour, interleaved (the position refuses the other side's moves,
// and they are skipped).
// For tests that need the game to go on for some plies: a random mover walks into a quick mate
// now and then (1.f3 e5 2.g4 Qh4#), and the bot finds it.
inline constexpr const char* kQuietLineEitherColour =
    "e2e4 e7e5 g1f3 b8c6 b1c3 g8f6 f1e2 f8e7 e1g1 e8g8 d2d3 d7d6 h2h3 h7h6 c1e3 c8e6 d1d2 d8d7 "
    "a2a3 a7a6 f1e1 f8e8 a1d1 a8d8";

// Waits (bounded) until the bot's event stream is open on the emulator.
[[nodiscard]] bool wait_event_stream(emu::EmulatorFixture& fx,
                                     std::chrono::milliseconds timeout = std::chrono::seconds(15));
// Parses `scenario_yaml` (a scenario with `challenges:`) and sends its challenges now: each
// at_ms counts from this call. Throws on a bad scenario.
void send_challenges(emu::EmulatorFixture& fx, const std::string& scenario_yaml);

// ---- checks on the emulator's recording

// The game's record, or an empty view when the emulator has no such game.
[[nodiscard]] emu::GameView game(emu::EmulatorFixture& fx, const std::string& id);
// One line for failure messages: status, winner, colours, moves.
[[nodiscard]] std::string describe(const emu::GameView& g);
// Played to a legal end (mate, resign, stalemate, draw, a flag, a claimed win or a variant's own
// end): not aborted,
// and not lost on time by the bot.
[[nodiscard]] bool legal_end(const emu::GameView& g);
// The bot lost on time (or by noStart): what a bot must never do.
[[nodiscard]] bool bot_forfeited_on_time(const emu::GameView& g);
[[nodiscard]] int bot_moves(const emu::GameView& g);
// Move POSTs for `game_id` the emulator answered with 400 (illegal, not our turn, over).
[[nodiscard]] int rejected_moves(emu::EmulatorFixture& fx, const std::string& game_id);
// The requests whose path contains `part` (e.g. "/abort", "/api/account/playing"), and how many.
[[nodiscard]] std::vector<emu::RequestRecord> requests_with(emu::EmulatorFixture& fx,
                                                            const std::string& part);
[[nodiscard]] int requests_to(emu::EmulatorFixture& fx, const std::string& part);
// The challenge's record; empty view when unknown.
[[nodiscard]] emu::ChallengeView challenge(emu::EmulatorFixture& fx, const std::string& id);
[[nodiscard]] bool has_event(const emu::GameView& g, const std::string& prefix);
// How often `part` stands in `text` (log lines, for "logged once" checks).
[[nodiscard]] inline int occurrences(const std::string& text, const std::string& part) {
    int n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

}  // namespace e2e
