// Matchmaker: challenges an online bot when the daemon has been idle long enough (matchmaking.*),
// cancels challenges nobody answers, learns from declines and respects the daily bot limit.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "config/config.hpp"
#include "config/time_control.hpp"
#include "lichess_client/api.hpp"
#include "service/challenges/game_slots.hpp"
#include "service/challenges/our_ratings.hpp"

namespace service {

// The Lichess calls matchmaking makes: lichess::Api in the daemon, a fake in tests.
class MatchmakingApi {
  public:
    virtual ~MatchmakingApi() = default;
    [[nodiscard]] virtual lichess::Result<lichess::Account> account() = 0;
    [[nodiscard]] virtual lichess::Result<std::vector<lichess::User>> bots_online() = 0;
    [[nodiscard]] virtual lichess::Result<lichess::ChallengeInfo> create_challenge(
        std::string_view username, const lichess::ChallengeRequest& request) = 0;
    [[nodiscard]] virtual lichess::Result<lichess::Ok> cancel_challenge(std::string_view id) = 0;
    // Time left on the client's pause of challenge creation after a 429; none when not paused.
    [[nodiscard]] virtual std::optional<std::chrono::milliseconds> creation_paused_for() const = 0;
};

// MatchmakingApi over the real client.
class LichessMatchmakingApi final : public MatchmakingApi {
  public:
    explicit LichessMatchmakingApi(lichess::Api& api) : api_(api) {}
    lichess::Result<lichess::Account> account() override { return api_.account(); }
    // lila lists every online bot without `nb` and the first nb with it (OnlineApiUsers): ask
    // for 512 as lichess-bot and BotLi do, so a narrow rating window still finds someone.
    lichess::Result<std::vector<lichess::User>> bots_online() override {
        return api_.bots_online(512);
    }
    lichess::Result<lichess::ChallengeInfo> create_challenge(
        std::string_view username, const lichess::ChallengeRequest& request) override {
        return api_.create_challenge(username, request);
    }
    lichess::Result<lichess::Ok> cancel_challenge(std::string_view id) override {
        return api_.cancel_challenge(id);
    }
    std::optional<std::chrono::milliseconds> creation_paused_for() const override {
        return api_.paused_for(lichess::Family::ChallengeCreate);
    }

  private:
    lichess::Api& api_;
};

// Timings that are not config keys; tests shorten them.
struct MatchmakingTimes {
    // Idle time before challenging; none: matchmaking.challenge_timeout_min.
    std::optional<std::chrono::milliseconds> idle;
    // A challenge nobody answered within this is cancelled (Lichess drops it after about 20 s).
    std::chrono::milliseconds answer_timeout{25000};
    // Between two challenges, and before trying again when nobody fits or a call failed.
    std::chrono::milliseconds between_challenges{60000};
    // Our own ratings are fetched again after this (and after every game).
    std::chrono::milliseconds rating_refresh{std::chrono::minutes(5)};
    // How long a decline (and an opponent out of bot games) is remembered.
    std::chrono::milliseconds decline_memory{std::chrono::hours(24)};
    // How long the same challenge is not sent again to a bot that left it unanswered.
    std::chrono::milliseconds unanswered_memory{std::chrono::hours(1)};
};

// What a decline rules out for one bot. An empty field matches anything.
struct Refusal {
    std::string bot;  // lowercase id
    std::string speed;
    std::string variant;
    std::string mode;                             // rated | casual
    std::chrono::steady_clock::time_point until;  // set when remembered
};
// The refusal a decline with `reason_key` (lowercase, as events carry it) stands for: the aspect
// the reason names (speed, mode, variant, or the whole bot for noBot), else the exact
// speed/variant/mode that was declined.
[[nodiscard]] Refusal refusal_for(std::string_view reason_key, std::string bot, std::string speed,
                                  std::string variant, std::string mode);

// Single-threaded: the Bot's event loop calls every member.
class Matchmaker {
  public:
    using Clock = std::function<std::chrono::steady_clock::time_point()>;

    Matchmaker(
        const config::MatchmakingConfig& config, MatchmakingApi& api, GameSlots& slots,
        std::string my_id, MatchmakingTimes times = {},
        Clock now = [] { return std::chrono::steady_clock::now(); },
        std::uint64_t seed = std::random_device{}());

    // Every tick of the event loop: cancels a challenge left unanswered, or sends one when due.
    void tick();
    // Events about challenges and games; ids that are not our pending challenge are ignored.
    void on_declined(const lichess::ChallengeInfo& challenge);
    void on_canceled(std::string_view challenge_id);
    void on_game_start(std::string_view game_id);
    // Shutting down: cancels a pending challenge and sends no more.
    void stop();

    // The challenge we wait on, if any.
    [[nodiscard]] std::optional<std::string> pending_challenge() const;
    // Time left on a pause after our daily bot-vs-bot limit; none when not paused.
    [[nodiscard]] std::optional<std::chrono::milliseconds> paused_for() const;
    // The daily bot-vs-bot limit was met elsewhere (accepting a bot's challenge): no challenge
    // to a bot is sent for `wait`.
    void pause_bot_games(std::chrono::milliseconds wait);

  private:
    struct Choice {
        config::ClockSetting clock;
        std::string speed;    // bullet, blitz, ...
        std::string variant;  // standard, chess960
        std::string perf;     // the rating that counts: the speed, or the variant's own
    };
    struct Pending {
        std::string id;
        std::string bot;  // lowercase id
        std::string name;
        Choice choice;
        std::chrono::steady_clock::time_point sent;
    };

    [[nodiscard]] std::chrono::milliseconds idle_timeout() const;
    [[nodiscard]] std::string mode() const { return config_.rated ? "rated" : "casual"; }
    void challenge_someone(std::chrono::steady_clock::time_point now);
    [[nodiscard]] bool refresh_ratings(std::chrono::steady_clock::time_point now);
    [[nodiscard]] bool fits(const lichess::User& bot, const Choice& choice,
                            std::chrono::steady_clock::time_point now) const;
    [[nodiscard]] bool refused(std::string_view bot, const Choice& choice,
                               std::chrono::steady_clock::time_point now) const;
    void on_create_failed(const lichess::ApiError& error, const lichess::User& bot,
                          const Choice& choice, std::chrono::steady_clock::time_point now);
    void cancel_pending(std::string_view why);
    void remember(Refusal refusal, std::chrono::milliseconds how_long);

    const config::MatchmakingConfig& config_;
    MatchmakingApi& api_;
    GameSlots& slots_;
    const std::string my_id_;
    const MatchmakingTimes times_;
    const Clock now_;
    std::mt19937_64 rng_;
    std::vector<Choice> choices_;  // every configured time control x variant

    bool stopped_ = false;
    bool said_nobody_fits_ = false;  // said once until someone fits again
    std::chrono::steady_clock::time_point idle_since_;
    std::chrono::steady_clock::time_point next_attempt_{};
    std::chrono::steady_clock::time_point paused_until_{};  // our daily bot-vs-bot limit
    int last_active_ = 0;
    std::optional<Pending> pending_;
    std::vector<Refusal> refusals_;
    OurRatings ratings_;  // per perf ("blitz", "chess960"), read every rating_refresh
};

}  // namespace service
