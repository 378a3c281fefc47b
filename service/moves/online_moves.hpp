// OnlineMoves: knowledge beyond the search (online_moves.*) — the Lichess opening explorer,
// cloud evaluations, online endgame tablebases and the chessdb cloud book — asked before a
// search within a deadline taken from the move's time, each answer checked legal in our
// position. A miss, an error, a 429 or a slow answer leaves the move to the search.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "engine/position.hpp"
#include "engine/search.hpp"
#include "lichess_client/online_sources.hpp"
#include "service/game/move_source.hpp"
#include "service/moves/online_choice.hpp"
#include "service/ops/metrics.hpp"

namespace service {

// ---- asking --------------------------------------------------------------------------------

// What the session knows when it asks.
struct OnlineAsk {
    std::int64_t our_ms = 0;  // our clock
    bool real_time = true;    // false: correspondence/unlimited (counts as max_time)
    int fullmove = 1;
    std::string variant = "standard";  // Lichess key
    // The most the lookup may take, all sources together (OnlineMoves::deadline_for).
    std::chrono::milliseconds deadline{0};
};

// A game's own count of lookups that found nothing (max_out_of_book_moves).
struct OnlineGameState {
    int misses_in_a_row = 0;
};

// The session's view, faked in tests.
class OnlineMoveFinder {
  public:
    virtual ~OnlineMoveFinder() = default;
    [[nodiscard]] virtual std::optional<OnlineChoice> find(const engine::Position& position,
                                                           const OnlineAsk& ask,
                                                           OnlineGameState& game) = 0;
};

class OnlineMoves final : public OnlineMoveFinder {
  public:
    // A source failing this many times in a row (network, 5xx, bad body) is paused.
    static constexpr int kFailuresBeforePause = 3;
    static constexpr std::chrono::seconds kFirstPause{60};
    static constexpr std::chrono::seconds kLongestPause{900};

    OnlineMoves(config::OnlineMovesConfig config, std::unique_ptr<lichess::OnlineSources> client,
                Metrics& metrics, std::uint64_t seed = std::random_device{}());
    // The daemon's: the sources of config.online_moves with their own connections (a slow one
    // never holds up the Bot API), the token for the explorer; null when no source is enabled.
    [[nodiscard]] static std::unique_ptr<OnlineMoves> from_config(const config::Config& config,
                                                                  const std::string& username,
                                                                  Metrics& metrics);
    [[nodiscard]] bool any_enabled() const;
    std::optional<OnlineChoice> find(const engine::Position& position, const OnlineAsk& ask,
                                     OnlineGameState& game) override;
    void shutdown();

  private:
    using Clock = std::chrono::steady_clock;
    struct SourceState {
        int failures = 0;
        Clock::time_point paused_until{};
        std::chrono::seconds next_pause = kFirstPause;
    };

    // table: the online tablebase's table for the game (standard, atomic, antichess).
    std::optional<OnlineChoice> ask_tablebase(const engine::Position& position,
                                              Clock::time_point deadline, const char* table);
    std::optional<OnlineChoice> ask_chessdb(const engine::Position& position,
                                            Clock::time_point deadline);
    // variant: the game's Lichess key, sent as the service's `variant`.
    std::optional<OnlineChoice> ask_cloud(const engine::Position& position,
                                          const std::string& variant, Clock::time_point deadline);
    std::optional<OnlineChoice> ask_explorer(const engine::Position& position,
                                             const std::string& variant,
                                             Clock::time_point deadline);
    // Whether `source` may be asked now: enabled, our clock in its range, not paused (ours or
    // the client's 429 pause), time left before the deadline.
    bool may_ask(lichess::OnlineSource source, const config::OnlineSourceConfig& ask_config,
                 const OnlineAsk& ask, Clock::time_point deadline);
    // Sends a request (again after a passing failure, at most max_retries times, while the
    // deadline allows); records the metrics; pauses a source that keeps failing.
    template <class Reply, class Request>
    std::optional<Reply> request(lichess::OnlineSource source, Clock::time_point deadline,
                                 const Request& send);

    const config::OnlineMovesConfig config_;
    std::unique_ptr<lichess::OnlineSources> client_;
    Metrics& metrics_;
    std::mutex mutex_;  // guards rng_ and sources_
    OnlineRng rng_;
    std::array<SourceState, kOnlineSourceCount> sources_{};
};

}  // namespace service
