// Matchmaker: challenges an online bot when the daemon has been idle long enough (matchmaking.*),
// cancels challenges nobody answers, learns from declines and respects the daily bot limit. It
// calls no Lichess itself: each round is a chain of requests (match::Request: our ratings, the
// online bots, the challenge) that it returns, and whose answers the Bot's RequestRunner brings
// back, one at a time.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "config/config.hpp"
#include "config/time_control.hpp"
#include "lichess_client/api.hpp"
#include "service/challenges/game_slots.hpp"
#include "service/challenges/our_ratings.hpp"

namespace service {

namespace match {

// ---- what the matchmaker asks for ------------------------------------------------------------
struct ReadAccount {};  // GET /api/account for our ratings; the answer is AccountRead
// GET /api/bot/online; the answer is BotsListed. lila lists every online bot without `nb` and
// the first nb with it (OnlineApiUsers): 512, as lichess-bot and BotLi ask, so that a narrow
// rating window still finds someone.
struct ListBots {
    int nb = 512;
};
// POST /api/challenge/{username}; the answer is ChallengeCreated.
struct CreateChallenge {
    std::string bot_id;  // lowercase
    std::string username;
    lichess::ChallengeRequest request;
    std::size_t choice = 0;  // which time control and variant (the matchmaker's own index)
    std::string what;        // "180+2 standard casual", for log lines
};
// POST /api/challenge/{id}/cancel; the answer is CancelAnswered. `why` (when not empty) is
// logged with the answer.
struct CancelChallenge {
    std::string id;
    std::string name;  // whom it challenged
    std::string why;
};
using Request = std::variant<ReadAccount, ListBots, CreateChallenge, CancelChallenge>;

// ---- the answers ----------------------------------------------------------------------------
struct AccountRead {
    std::optional<lichess::Account> account;  // none: the request failed
    std::string error;
};
struct BotsListed {
    std::optional<std::vector<lichess::User>> bots;  // none: the request failed
    std::string error;
};
struct ChallengeCreated {
    CreateChallenge create;
    std::optional<lichess::ChallengeInfo> challenge;  // none: the request failed
    std::optional<lichess::ApiError> error;
};
struct CancelAnswered {
    CancelChallenge cancel;
    std::optional<lichess::ApiError> error;  // none: cancelled
};

}  // namespace match

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
    using Requests = std::vector<match::Request>;

    Matchmaker(
        const config::MatchmakingConfig& config, GameSlots& slots, std::string my_id,
        MatchmakingTimes times = {}, Clock now = [] { return std::chrono::steady_clock::now(); },
        std::uint64_t seed = std::random_device{}());

    // Every tick of the event loop: cancels a challenge left unanswered, or starts a round when
    // one is due (none while a round's request is on its way). `creation_paused`: time left on
    // the client's pause of challenge creation after a 429, if any.
    [[nodiscard]] Requests tick(std::optional<std::chrono::milliseconds> creation_paused);
    // The answers to a round's requests; each may ask the round's next one.
    [[nodiscard]] Requests on(const match::AccountRead& answer);
    [[nodiscard]] Requests on(const match::BotsListed& answer);
    [[nodiscard]] Requests on(const match::ChallengeCreated& answer);
    void on(const match::CancelAnswered& answer);
    // Events about challenges and games; ids that are not our pending challenge are ignored.
    void on_declined(const lichess::ChallengeInfo& challenge);
    void on_canceled(std::string_view challenge_id);
    void on_game_start(std::string_view game_id);
    // Shutting down: cancels a pending challenge and sends no more.
    [[nodiscard]] Requests stop();

    // The challenge we wait on, if any.
    [[nodiscard]] std::optional<std::string> pending_challenge() const;
    // Time left on a pause after our daily bot-vs-bot limit; none when not paused.
    [[nodiscard]] std::optional<std::chrono::milliseconds> paused_for() const;
    // The daily bot-vs-bot limit was met elsewhere (accepting a bot's challenge): no challenge
    // to a bot is sent for `wait`.
    void pause_bot_games(std::chrono::milliseconds wait);

    // challenge.online_block_list: a bot whose id or name it holds is never challenged.
    void set_online_block_list(std::function<bool(std::string_view name)> blocked) {
        online_blocked_ = std::move(blocked);
    }
    // The declines remembered before a restart (DeclinedBotsFile); expired ones are dropped.
    void restore(std::vector<Refusal> refusals);
    // Called with every refusal still remembered after each one it learns (to save them).
    void on_remember(std::function<void(const std::vector<Refusal>&)> saved) {
        saved_ = std::move(saved);
    }
    [[nodiscard]] const std::vector<Refusal>& refusals() const { return refusals_; }

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
    [[nodiscard]] Requests challenge_someone(std::chrono::steady_clock::time_point now);
    [[nodiscard]] bool fits(const lichess::User& bot, const Choice& choice,
                            std::chrono::steady_clock::time_point now) const;
    [[nodiscard]] bool refused(std::string_view bot, const Choice& choice,
                               std::chrono::steady_clock::time_point now) const;
    void on_create_failed(const lichess::ApiError& error, const std::string& bot_id,
                          const std::string& username, const Choice& choice,
                          std::chrono::steady_clock::time_point now);
    [[nodiscard]] Requests cancel_pending(std::string why);
    void remember(Refusal refusal, std::chrono::milliseconds how_long);

    const config::MatchmakingConfig& config_;
    GameSlots& slots_;
    const std::string my_id_;
    const MatchmakingTimes times_;
    const Clock now_;
    std::mt19937_64 rng_;
    std::vector<Choice> choices_;  // every configured time control x variant

    bool stopped_ = false;
    bool asking_ = false;            // a round's request is on its way
    bool said_nobody_fits_ = false;  // said once until someone fits again
    std::chrono::steady_clock::time_point idle_since_;
    std::chrono::steady_clock::time_point next_attempt_{};
    std::chrono::steady_clock::time_point paused_until_{};  // our daily bot-vs-bot limit
    int last_active_ = 0;
    std::optional<Pending> pending_;
    std::vector<Refusal> refusals_;
    OurRatings ratings_;  // per perf ("blitz", "chess960"), read every rating_refresh
    std::function<bool(std::string_view)> online_blocked_;
    std::function<void(const std::vector<Refusal>&)> saved_;
};

}  // namespace service
