// ChallengePolicy: decides, as a pure function, whether an incoming challenge is accepted,
// declined (with the exact Lichess reason) or ignored.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "config/config.hpp"
#include "lichess_client/api.hpp"
#include "lichess_client/events.hpp"
#include "service/challenges/game_slots.hpp"

namespace service {

// Queue: acceptable, but no slot (or no slot a bot may take) is free now: the Bot keeps it in
// its ChallengeQueue (Lichess keeps it pending) or, with the queue full, declines it `later`.
enum class Verdict { Accept, Decline, Ignore, Queue };
[[nodiscard]] const char* to_string(Verdict v);

struct Decision {
    Verdict verdict = Verdict::Accept;
    lichess::DeclineReason reason = lichess::DeclineReason::Generic;  // meaningful for Decline
    std::string explanation;  // for the log: names the rule and the values involved

    [[nodiscard]] bool accepted() const { return verdict == Verdict::Accept; }
};

// What the policy needs besides the challenge and the config, gathered by the Bot.
struct ChallengeFacts {
    std::optional<int> our_rating;  // ours in the challenge's perf (for rating_difference)
    int recent_bot_challenges =
        0;                        // this bot's challenges accepted within recent_bot_challenge_age
    bool online_blocked = false;  // the challenger is on a list of challenge.online_block_list
};

// The rules, checked in this order; the first that fails decides (later ones are not looked
// at). Identity first so a blocked user learns nothing specific; capacity last so a challenge
// we would never take gets its real reason instead of an invitation to come back `later`.
//
//  0. our own challenge (challenger is us, or direction "out")  -> Ignore
//  1. challenger on block_list or an online_block_list          -> Generic
//  2. allow_list not empty and challenger not on it             -> Generic
//  3. variant not one of Lichess's ten, or not in `variants`;
//     a start FEN that does not parse under its variant (a
//     fromPosition FEN with Chess960 castling letters also
//     needs "chess960")                                         -> Variant
//  4. a BOT while accept_bot is false                           -> NoBot
//     a human while only_bot is true                            -> OnlyBot
//  5. rated while "rated" is not in modes                       -> Casual  ("casual only")
//     casual while "casual" is not in modes                     -> Rated   ("rated only")
//  6. speed not in time_controls: faster than every allowed
//     speed -> TooFast, slower than every one -> TooSlow,
//     between allowed ones (or unknown) -> TimeControl
//  7. clock: base < min_base -> TooFast, base > max_base -> TooSlow,
//     increment outside [min_increment, max_increment] -> TimeControl
//     a BOT's bullet without increment while
//     bullet_requires_increment is on                           -> TimeControl
//     correspondence: days outside [min_days, max_days]          -> TimeControl
//     unlimited: only with "correspondence" in time_controls,
//     else TooSlow (an unlimited game holds its slot until it ends)
//  8. challenger rating outside [min_rating, max_rating], which
//     rating_difference (when above 0 and our rating in that
//     perf is known) narrows to our rating +- it, as
//     lichess-bot's code does (unrated challengers pass)        -> Generic
//  9. a BOT with max_recent_bot_challenges already accepted
//     within recent_bot_challenge_age (both above 0)            -> Later
// 10. max_simultaneous_games_per_user reached (active games,
//     reservations and queued challenges of this user)          -> Later
// 11. real-time only (correspondence and unlimited games take
//     no slot, see is_correspondence): concurrency 0, or a BOT
//     while games_reserved_for_humans leaves bots no slot       -> Later
//     no free slot, or a BOT and every bot slot is taken        -> Queue
//
// DeclineReason::Standard ("I only play standard chess") is never sent: any unwanted variant
// gets Variant, which Lichess words as "not this variant right now".
// Users are compared case-insensitively. An Accept is advice: the Bot must still win
// GameSlots::try_reserve (the authority) and decline `later` when it loses.
// Correspondence or unlimited: Lichess files both under the speed "correspondence". Such games
// are played by the CorrespondenceDesk, outside challenge.concurrency (as lichess-bot does): a
// game that waits days for the opponent must not keep real-time challenges out.
[[nodiscard]] bool is_correspondence(const lichess::ChallengeInfo& challenge);
// The same for a game (gameStart, the ongoing games): the CorrespondenceDesk plays it.
[[nodiscard]] bool is_correspondence(const lichess::GameEventInfo& game);

[[nodiscard]] Decision judge_challenge(const lichess::ChallengeInfo& challenge,
                                       const config::ChallengeConfig& config,
                                       std::string_view our_user_id, const SlotSnapshot& slots,
                                       const ChallengeFacts& facts = {});

// The Lichess perf key of a challenge ("blitz", "chess960", "correspondence"): where our rating
// for rating_difference is looked up in /api/account's perfs.
[[nodiscard]] std::string perf_key(const lichess::ChallengeInfo& challenge);

// The same with the config and our id bound, for the Bot to hold.
class ChallengePolicy {
  public:
    ChallengePolicy(config::ChallengeConfig config, std::string our_user_id)
        : config_(std::move(config)), our_id_(std::move(our_user_id)) {}

    [[nodiscard]] Decision judge(const lichess::ChallengeInfo& challenge, const SlotSnapshot& slots,
                                 const ChallengeFacts& facts = {}) const {
        return judge_challenge(challenge, config_, our_id_, slots, facts);
    }
    [[nodiscard]] const config::ChallengeConfig& config() const { return config_; }

  private:
    config::ChallengeConfig config_;
    std::string our_id_;
};

}  // namespace service
