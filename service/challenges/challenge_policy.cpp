// ChallengePolicy: the rules of challenge_policy.hpp, in the order listed there.
#include "service/challenges/challenge_policy.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <optional>

#include "common/text.hpp"
#include "engine/position.hpp"
#include "engine/variant_table.hpp"

namespace service {

namespace {

bool contains(const std::vector<std::string>& list, std::string_view s) {
    return std::any_of(list.begin(), list.end(),
                       [&](const std::string& e) { return common::iequals(e, s); });
}

// Lichess speeds from fastest to slowest; the index orders them.
constexpr std::array<std::string_view, 6> kSpeeds = {"ultraBullet", "bullet",    "blitz",
                                                     "rapid",       "classical", "correspondence"};

std::optional<int> speed_rank(std::string_view speed) {
    for (std::size_t i = 0; i < kSpeeds.size(); ++i)
        if (common::iequals(kSpeeds[i], speed)) return int(i);
    return std::nullopt;
}

Decision decline(lichess::DeclineReason reason, std::string why) {
    return {Verdict::Decline, reason, std::move(why)};
}

std::string user_text(const lichess::ChallengeUser& u) { return u.name.empty() ? u.id : u.name; }

// Rule 3. Every Lichess key names a game the engine plays (engine::from_lichess_key, exact as
// lila's keys are); a key Lichess may add later does not. A start FEN must read under the game's
// own variant as lila reads it (engine::FenRules::Lichess) and be a position still to play
// (scalachess Position.playable: not already over), and a fromPosition FEN with a Chess960
// setup (castling letters other than KQkq on the e/a/h files) needs "chess960" as well.
std::optional<Decision> check_variant(const lichess::ChallengeInfo& c,
                                      const config::ChallengeConfig& cfg) {
    const std::string& key = c.variant.key;
    const engine::GameType* type = engine::find_game_type(key);
    if (!type)
        return decline(lichess::DeclineReason::Variant,
                       "variant " + common::printable(key) + " is not one Outpost plays");
    if (!contains(cfg.variants, key))
        return decline(lichess::DeclineReason::Variant,
                       "variant " + key + " is not in challenge.variants");
    if (c.initial_fen && *c.initial_fen != "startpos") {
        const auto start = engine::Position::from_fen(*c.initial_fen, type->variant, type->chess960,
                                                      engine::FenRules::Lichess);
        if (!start)
            return decline(lichess::DeclineReason::Variant,
                           "unreadable start FEN \"" + common::printable(*c.initial_fen) +
                               "\" for " + key + ": " + start.error());
        if (const engine::GameResult over = start->result();
            over.status != engine::PositionStatus::ONGOING)
            return decline(lichess::DeclineReason::Variant,
                           "start FEN \"" + common::printable(*c.initial_fen) +
                               "\" is a game already over (" + std::string(over.reason) + ")");
        const std::string_view chess960 = engine::CHESS960_GAME_TYPE.key;
        if (type->needs_fen && start->chess960() && !contains(cfg.variants, chess960))
            return decline(lichess::DeclineReason::Variant,
                           "start FEN has Chess960 castling and chess960 is not in "
                           "challenge.variants");
    }
    return std::nullopt;
}

// Rules 6 and 7.
std::optional<Decision> check_time(const lichess::ChallengeInfo& c,
                                   const config::ChallengeConfig& cfg) {
    if (!contains(cfg.time_controls, c.speed)) {
        const auto rank = speed_rank(c.speed);
        int fastest = int(kSpeeds.size()), slowest = -1;
        for (const auto& allowed : cfg.time_controls) {
            if (const auto r = speed_rank(allowed)) {
                fastest = std::min(fastest, *r);
                slowest = std::max(slowest, *r);
            }
        }
        const std::string what = "speed " + c.speed + " is not in challenge.time_controls";
        if (rank && slowest >= 0 && *rank < fastest)
            return decline(lichess::DeclineReason::TooFast, what + " (faster than all allowed)");
        if (rank && slowest >= 0 && *rank > slowest)
            return decline(lichess::DeclineReason::TooSlow, what + " (slower than all allowed)");
        return decline(lichess::DeclineReason::TimeControl, what);
    }

    const lichess::TimeControl& tc = c.time_control;
    switch (tc.type) {
        case lichess::TimeControl::Type::Clock: {
            const int base = tc.limit_s.value_or(0);
            const int inc = tc.increment_s.value_or(0);
            if (base < cfg.min_base)
                return decline(lichess::DeclineReason::TooFast,
                               "base " + std::to_string(base) + " s is below challenge.min_base " +
                                   std::to_string(cfg.min_base));
            if (base > cfg.max_base)
                return decline(lichess::DeclineReason::TooSlow,
                               "base " + std::to_string(base) + " s is above challenge.max_base " +
                                   std::to_string(cfg.max_base));
            // lichess-bot's bullet_requires_increment: bots only, a minimum increment of 1 s.
            if (inc == 0 && cfg.bullet_requires_increment && c.challenger.is_bot() &&
                common::iequals(c.speed, "bullet"))
                return decline(lichess::DeclineReason::TimeControl,
                               "bullet without increment from a BOT and "
                               "challenge.bullet_requires_increment is on");
            if (inc < cfg.min_increment || inc > cfg.max_increment)
                return decline(lichess::DeclineReason::TimeControl,
                               "increment " + std::to_string(inc) + " s is outside [" +
                                   std::to_string(cfg.min_increment) + ", " +
                                   std::to_string(cfg.max_increment) + "]");
            return std::nullopt;
        }
        case lichess::TimeControl::Type::Correspondence: {
            const int days = tc.days_per_turn.value_or(0);
            if (days < cfg.min_days || days > cfg.max_days)
                return decline(lichess::DeclineReason::TimeControl,
                               std::to_string(days) + " days per move is outside [" +
                                   std::to_string(cfg.min_days) + ", " +
                                   std::to_string(cfg.max_days) + "]");
            return std::nullopt;
        }
        case lichess::TimeControl::Type::Unlimited:
            // Lichess files unlimited games under the correspondence speed, but check the type
            // itself too in case a speed field disagrees.
            if (!contains(cfg.time_controls, "correspondence"))
                return decline(lichess::DeclineReason::TooSlow,
                               "unlimited time needs correspondence in challenge.time_controls");
            return std::nullopt;
    }
    return std::nullopt;
}

// Rule 8: the rating window, narrowed by rating_difference around our own rating.
std::optional<Decision> check_rating(const lichess::ChallengeInfo& c,
                                     const config::ChallengeConfig& cfg,
                                     const ChallengeFacts& facts) {
    if (!c.challenger.rating) return std::nullopt;
    const int rating = *c.challenger.rating;
    int low = cfg.min_rating, high = cfg.max_rating;
    std::string why = "challenge.min_rating/max_rating";
    if (cfg.rating_difference > 0 && facts.our_rating) {
        low = std::max(low, *facts.our_rating - cfg.rating_difference);
        high = std::min(high, *facts.our_rating + cfg.rating_difference);
        why = "challenge.rating_difference " + std::to_string(cfg.rating_difference) +
              " from our " + std::to_string(*facts.our_rating);
    }
    if (rating >= low && rating <= high) return std::nullopt;
    return decline(lichess::DeclineReason::Generic,
                   "rating " + std::to_string(rating) + " is outside [" + std::to_string(low) +
                       ", " + std::to_string(high) + "] (" + why + ")");
}

}  // namespace

std::string perf_key(const lichess::ChallengeInfo& c) {
    // Chess960 and the seven variants are rated in a perf of their own.
    const engine::GameType* type = engine::find_game_type(c.variant.key);
    if (type && !type->perf.empty()) return std::string(type->perf);
    const std::string key = common::lowercase(c.speed.empty() ? c.perf_name : c.speed);
    return key == "ultrabullet" ? "ultraBullet" : key;
}

bool is_correspondence(const lichess::ChallengeInfo& c) {
    return c.time_control.type != lichess::TimeControl::Type::Clock ||
           common::iequals(c.speed, "correspondence");
}

bool is_correspondence(const lichess::GameEventInfo& game) {
    return (game.speed && *game.speed == "correspondence") ||
           (game.perf && *game.perf == "correspondence");
}

const char* to_string(Verdict v) {
    switch (v) {
        case Verdict::Accept:
            return "accept";
        case Verdict::Decline:
            return "decline";
        case Verdict::Ignore:
            return "ignore";
        case Verdict::Queue:
            return "queue";
    }
    return "?";
}

Decision judge_challenge(const lichess::ChallengeInfo& c, const config::ChallengeConfig& cfg,
                         std::string_view our_user_id, const SlotSnapshot& slots,
                         const ChallengeFacts& facts) {
    const lichess::ChallengeUser& who = c.challenger;

    // 0. Our own outgoing challenge shows up on the event stream too.
    if ((c.direction && *c.direction == "out") ||
        (!our_user_id.empty() && common::iequals(who.id, our_user_id)))
        return {Verdict::Ignore, lichess::DeclineReason::Generic, "our own challenge"};

    // 1-2. Who may play us at all.
    if (contains(cfg.block_list, who.id) || contains(cfg.block_list, who.name))
        return decline(lichess::DeclineReason::Generic,
                       user_text(who) + " is on challenge.block_list");
    if (facts.online_blocked)
        return decline(lichess::DeclineReason::Generic,
                       user_text(who) + " is on a list of challenge.online_block_list");
    if (!cfg.allow_list.empty() && !contains(cfg.allow_list, who.id) &&
        !contains(cfg.allow_list, who.name))
        return decline(lichess::DeclineReason::Generic,
                       user_text(who) + " is not on challenge.allow_list");

    // 3.
    if (auto d = check_variant(c, cfg)) return *d;

    // 4.
    if (who.is_bot() && !cfg.accept_bot)
        return decline(lichess::DeclineReason::NoBot,
                       "challenger is a BOT and challenge.accept_bot is off");
    if (!who.is_bot() && cfg.only_bot)
        return decline(lichess::DeclineReason::OnlyBot,
                       "challenger is human and challenge.only_bot is on");

    // 5. Lichess's reason names what we do play: `casual` = "I only play casual games".
    if (c.rated && !contains(cfg.modes, "rated"))
        return decline(lichess::DeclineReason::Casual, "rated games are not in challenge.modes");
    if (!c.rated && !contains(cfg.modes, "casual"))
        return decline(lichess::DeclineReason::Rated, "casual games are not in challenge.modes");

    // 6-7.
    if (auto d = check_time(c, cfg)) return *d;

    // 8.
    if (auto d = check_rating(c, cfg, facts)) return *d;

    // 9. lichess-bot's is_supported_recent.
    if (who.is_bot() && cfg.recent_bot_challenge_age > 0 && cfg.max_recent_bot_challenges > 0 &&
        facts.recent_bot_challenges >= cfg.max_recent_bot_challenges)
        return decline(lichess::DeclineReason::Later,
                       std::to_string(facts.recent_bot_challenges) + " challenges from " +
                           user_text(who) + " in the last " +
                           std::to_string(cfg.recent_bot_challenge_age) +
                           " s (challenge.max_recent_bot_challenges " +
                           std::to_string(cfg.max_recent_bot_challenges) + ")");

    // 10-11.
    const int with_user = slots.games_with(who.id);
    if (cfg.max_simultaneous_games_per_user > 0 && with_user >= cfg.max_simultaneous_games_per_user)
        return decline(lichess::DeclineReason::Later,
                       "already " + std::to_string(with_user) + " games with " + user_text(who) +
                           " (challenge.max_simultaneous_games_per_user " +
                           std::to_string(cfg.max_simultaneous_games_per_user) + ")");
    if (!is_correspondence(c)) {
        const std::string counts = std::to_string(slots.active) + " playing, " +
                                   std::to_string(slots.reserved) + " reserved, concurrency " +
                                   std::to_string(slots.limit);
        if (slots.limit <= 0)
            return decline(lichess::DeclineReason::Later, "no slot at all (" + counts + ")");
        const int bot_limit = slots.bot_limit < 0 ? slots.limit : slots.bot_limit;
        if (who.is_bot() && bot_limit <= 0)
            return decline(lichess::DeclineReason::Later,
                           "challenge.games_reserved_for_humans leaves no slot for bots");
        if (slots.free() <= 0)
            return {Verdict::Queue, lichess::DeclineReason::Later, "no free slot (" + counts + ")"};
        if (who.is_bot() && slots.free_for_bots() <= 0)
            return {Verdict::Queue, lichess::DeclineReason::Later,
                    "every slot a bot may take is busy (" + std::to_string(slots.bot_games) +
                        " bot games of " + std::to_string(bot_limit) + ")"};
    }

    return {Verdict::Accept, lichess::DeclineReason::Generic,
            "accepted " + c.variant.key + " " + c.speed + (c.rated ? " rated" : " casual") +
                " from " + user_text(who)};
}

}  // namespace service
