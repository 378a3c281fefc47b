// Matchmaker: when idle, pick an online bot within the rating window at a random configured time
// control and variant, challenge it, and learn from how it answers.
#include "service/challenges/matchmaking.hpp"
#include "common/text.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace service {

namespace {

// What Lichess rates a player at before any game in a perf.
constexpr int kDefaultRating = 1500;

bool matches(const std::string& field, const std::string& value) {
    return field.empty() || field == value;
}

double seconds_of(std::chrono::milliseconds d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

Refusal refusal_for(std::string_view reason_key, std::string bot, std::string speed,
                    std::string variant, std::string mode) {
    const std::string key = common::lowercase(reason_key);
    Refusal r{std::move(bot), std::move(speed), std::move(variant), std::move(mode), {}};
    if (key == "toofast" || key == "tooslow" || key == "timecontrol") {
        r.variant.clear();
        r.mode.clear();
    } else if (key == "rated" || key == "casual") {
        r.speed.clear();
        r.variant.clear();
    } else if (key == "standard" || key == "variant") {
        r.speed.clear();
        r.mode.clear();
    } else if (key == "nobot" || key == "onlybot") {
        r.speed.clear();
        r.variant.clear();
        r.mode.clear();
    }
    // generic, later and keys this code does not know: just what was declined.
    return r;
}

Matchmaker::Matchmaker(const config::MatchmakingConfig& config, GameSlots& slots, std::string my_id,
                       MatchmakingTimes times, Clock now, std::uint64_t seed)
    : config_(config),
      slots_(slots),
      my_id_(common::lowercase(my_id)),
      times_(times),
      now_(std::move(now)),
      rng_(seed),
      idle_since_(now_()) {
    // The validator has rejected malformed and UltraBullet time controls already.
    for (const auto& text : config_.time_controls) {
        const auto clock = config::parse_time_control(text);
        if (!clock || config::speed_of(*clock) == "ultraBullet") continue;
        for (const auto& variant : config_.variants) {
            const std::string speed(config::speed_of(*clock));
            choices_.push_back({*clock, speed, variant, variant == "standard" ? speed : variant});
        }
    }
}

std::chrono::milliseconds Matchmaker::idle_timeout() const {
    return times_.idle.value_or(std::chrono::minutes(config_.challenge_timeout_min));
}

std::optional<std::string> Matchmaker::pending_challenge() const {
    if (!pending_) return std::nullopt;
    return pending_->id;
}

std::optional<std::chrono::milliseconds> Matchmaker::paused_for() const {
    const auto now = now_();
    if (paused_until_ <= now) return std::nullopt;
    return std::chrono::ceil<std::chrono::milliseconds>(paused_until_ - now);
}

void Matchmaker::pause_bot_games(std::chrono::milliseconds wait) {
    paused_until_ = std::max(paused_until_, now_() + wait);
}

Matchmaker::Requests Matchmaker::tick(std::optional<std::chrono::milliseconds> creation_paused) {
    if (!config_.enabled || stopped_ || choices_.empty() || asking_) return {};
    const auto now = now_();
    if (pending_) {
        if (now - pending_->sent >= times_.answer_timeout) {
            const Pending p = *pending_;
            remember(refusal_for("generic", p.bot, p.choice.speed, p.choice.variant, mode()),
                     times_.unanswered_memory);
            return cancel_pending("unanswered");
        }
        return {};
    }
    const SlotSnapshot slots = slots_.snapshot();
    // Idle means: no game (unless we may challenge during games) and no accepted challenge
    // waiting for its game. A game that ends starts the idle time afresh.
    const bool busy = slots.reserved > 0 || (slots.active > 0 && !config_.allow_during_games);
    if (busy || slots.active < last_active_) idle_since_ = now;
    if (slots.active < last_active_) ratings_.forget();  // the game changed our ratings
    last_active_ = slots.active;
    if (busy || slots.free_for_bots() <= 0) return {};  // games_reserved_for_humans counts too
    if (now - idle_since_ < idle_timeout() || now < next_attempt_ || now < paused_until_) return {};
    if (creation_paused) {
        next_attempt_ = now + *creation_paused;
        return {};
    }
    return challenge_someone(now);
}

Matchmaker::Requests Matchmaker::challenge_someone(std::chrono::steady_clock::time_point now) {
    next_attempt_ = now + times_.between_challenges;
    asking_ = true;
    if (ratings_.stale(now, times_.rating_refresh)) return {match::ReadAccount{}};
    return {match::ListBots{}};
}

Matchmaker::Requests Matchmaker::on(const match::AccountRead& answer) {
    asking_ = false;
    if (stopped_) return {};
    if (!answer.account) {
        spdlog::warn("matchmaking: could not read our own ratings: {}", answer.error);
        if (!ratings_.known()) return {};  // stale ratings are still good enough
    } else {
        ratings_.read(answer.account->perfs, now_());
    }
    asking_ = true;
    return {match::ListBots{}};
}

Matchmaker::Requests Matchmaker::on(const match::BotsListed& answer) {
    asking_ = false;
    if (stopped_) return {};
    if (!answer.bots) {
        spdlog::warn("matchmaking: could not list online bots: {}", answer.error);
        return {};
    }
    const auto now = now_();
    const std::vector<lichess::User>& bots = *answer.bots;
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < choices_.size(); ++i) order.push_back(i);
    std::shuffle(order.begin(), order.end(), rng_);
    for (const std::size_t c : order) {
        const Choice& choice = choices_[c];
        std::vector<const lichess::User*> candidates;
        for (const auto& bot : bots)
            if (fits(bot, choice, now)) candidates.push_back(&bot);
        if (candidates.empty()) continue;
        const lichess::User& bot =
            *candidates[std::uniform_int_distribution<std::size_t>(0, candidates.size() - 1)(rng_)];
        match::CreateChallenge create;
        create.bot_id = common::lowercase(bot.id);
        create.username = bot.username;
        create.request.clock_limit_s = choice.clock.base_s;
        create.request.clock_increment_s = choice.clock.increment_s;
        create.request.rated = config_.rated;
        create.request.variant = choice.variant;
        create.choice = c;
        create.what = std::to_string(choice.clock.base_s) + "+" +
                      std::to_string(choice.clock.increment_s) + " " + choice.variant + " " +
                      mode();
        asking_ = true;
        return {std::move(create)};
    }
    // Said once at info level: an idle bot with nobody to play would repeat it every minute.
    spdlog::log(said_nobody_fits_ ? spdlog::level::debug : spdlog::level::info,
                "matchmaking: no online bot fits the rating window, time controls and variants "
                "(of {} online); trying again every {:g} s",
                bots.size(), seconds_of(times_.between_challenges));
    said_nobody_fits_ = true;
    return {};
}

Matchmaker::Requests Matchmaker::on(const match::ChallengeCreated& answer) {
    asking_ = false;
    const match::CreateChallenge& create = answer.create;
    if (!answer.challenge) {
        const lichess::ApiError error = answer.error.value_or(lichess::ApiError{});
        spdlog::info("matchmaking: challenging {} ({}) failed: {}",
                     common::printable(create.username), create.what, error.describe());
        on_create_failed(error, create.bot_id, create.username, choices_.at(create.choice), now_());
        return {};
    }
    const std::string& id = answer.challenge->id;
    // Our own challenges hold a slot like accepted ones until answered.
    if (stopped_ || !slots_.try_reserve(id, create.bot_id,
                                        times_.answer_timeout + std::chrono::seconds(5), true)) {
        spdlog::warn("matchmaking: no slot left for challenge {}; cancelling it",
                     common::printable(id));
        return {match::CancelChallenge{id, create.username, ""}};
    }
    pending_ = Pending{id, create.bot_id, create.username, choices_.at(create.choice), now_()};
    said_nobody_fits_ = false;
    spdlog::info("matchmaking: challenged {} ({}), challenge {}",
                 common::printable(create.username), create.what, common::printable(id));
    return {};
}

void Matchmaker::on(const match::CancelAnswered& answer) {
    const match::CancelChallenge& c = answer.cancel;
    slots_.release_reservation(c.id);
    if (c.why.empty()) return;
    spdlog::info("matchmaking: challenge {} to {} {}; cancelled{}", common::printable(c.id),
                 common::printable(c.name), c.why,
                 answer.error ? " (" + answer.error->describe() + ")" : "");
}

bool Matchmaker::refused(std::string_view bot, const Choice& choice,
                         std::chrono::steady_clock::time_point now) const {
    const std::string m = mode();
    return std::any_of(refusals_.begin(), refusals_.end(), [&](const Refusal& r) {
        return r.until > now && r.bot == bot && matches(r.speed, choice.speed) &&
               matches(r.variant, choice.variant) && matches(r.mode, m);
    });
}

bool Matchmaker::fits(const lichess::User& bot, const Choice& choice,
                      std::chrono::steady_clock::time_point now) const {
    const std::string id = common::lowercase(bot.id);
    if (id == my_id_ || (bot.title && *bot.title != "BOT")) return false;
    const bool blocked = std::any_of(
        config_.block_list.begin(), config_.block_list.end(), [&](const std::string& name) {
            return common::lowercase(name) == id ||
                   common::lowercase(name) == common::lowercase(bot.username);
        });
    if (blocked || slots_.games_with(id) > 0 || refused(id, choice, now)) return false;
    if (online_blocked_ && (online_blocked_(id) || online_blocked_(bot.username))) return false;
    const auto perf = bot.perfs.find(choice.perf);
    if (perf == bot.perfs.end()) return false;  // never played this: no rating to judge by
    const int rating = perf->second.rating;
    if (rating < config_.opponent_min_rating || rating > config_.opponent_max_rating) return false;
    if (config_.opponent_rating_difference > 0) {
        const int my_rating = ratings_.in(choice.perf).value_or(kDefaultRating);
        if (std::abs(rating - my_rating) > config_.opponent_rating_difference) return false;
    }
    return true;
}

void Matchmaker::on_create_failed(const lichess::ApiError& error, const std::string& id,
                                  const std::string& username, const Choice& choice,
                                  std::chrono::steady_clock::time_point now) {
    if (const auto limit = lichess::bot_game_limit(error)) {
        const std::chrono::milliseconds wait =
            limit->wait.value_or(error.retry_after.value_or(times_.decline_memory));
        if (limit->ours) {
            paused_until_ = now + wait;
            spdlog::warn(
                "matchmaking: we played our bot games for today; pausing matchmaking "
                "for {:g} s",
                seconds_of(wait));
        } else {
            remember({id, "", "", "", {}}, wait);
            spdlog::info(
                "matchmaking: {} played its bot games for today; not challenging it "
                "for {:g} s",
                common::printable(username), seconds_of(wait));
        }
        return;
    }
    if (error.kind == lichess::ApiError::Kind::RateLimited) {
        if (error.retry_after) next_attempt_ = std::max(next_attempt_, now + *error.retry_after);
        return;
    }
    // Any other refusal (the bot takes no challenges, a 4xx about this request): like a decline.
    if (error.kind == lichess::ApiError::Kind::Http && error.status >= 400 && error.status < 500)
        remember(refusal_for("generic", id, choice.speed, choice.variant, mode()),
                 times_.decline_memory);
}

void Matchmaker::remember(Refusal refusal, std::chrono::milliseconds how_long) {
    const auto now = now_();
    std::erase_if(refusals_, [&](const Refusal& r) { return r.until <= now; });
    refusal.until = now + how_long;
    refusals_.push_back(std::move(refusal));
    if (saved_) saved_(refusals_);
}

void Matchmaker::restore(std::vector<Refusal> refusals) {
    const auto now = now_();
    std::erase_if(refusals, [&](const Refusal& r) { return r.until <= now || r.bot.empty(); });
    for (auto& r : refusals) {
        r.bot = common::lowercase(r.bot);
        refusals_.push_back(std::move(r));
    }
}

Matchmaker::Requests Matchmaker::cancel_pending(std::string why) {
    if (!pending_) return {};
    const Pending p = std::move(*pending_);
    pending_.reset();
    // Its slot is given back with the answer (CancelAnswered).
    return {match::CancelChallenge{p.id, p.name, std::move(why)}};
}

void Matchmaker::on_declined(const lichess::ChallengeInfo& c) {
    if (!pending_ || c.id != pending_->id) return;
    const Pending p = std::move(*pending_);
    pending_.reset();
    slots_.release_reservation(p.id);
    const std::string key = c.decline_reason_key.value_or("generic");
    Refusal refusal = refusal_for(key, p.bot, p.choice.speed, p.choice.variant, mode());
    spdlog::info(
        "matchmaking: {} declined challenge {} ({}); not asking it again for {}{}{} "
        "for {} h",
        common::printable(p.name), common::printable(p.id), common::printable(key),
        refusal.speed.empty() ? "any speed" : refusal.speed,
        refusal.variant.empty() ? "" : " " + refusal.variant,
        refusal.mode.empty() ? "" : " " + refusal.mode,
        std::chrono::duration_cast<std::chrono::hours>(times_.decline_memory).count());
    remember(std::move(refusal), times_.decline_memory);
}

void Matchmaker::on_canceled(std::string_view challenge_id) {
    if (!pending_ || challenge_id != pending_->id) return;
    slots_.release_reservation(pending_->id);
    pending_.reset();
}

void Matchmaker::on_game_start(std::string_view game_id) {
    if (!pending_ || game_id != pending_->id) return;
    spdlog::info("matchmaking: {} accepted challenge {}", common::printable(pending_->name),
                 common::printable(pending_->id));
    pending_.reset();  // the reservation became the game in GameSlots
}

Matchmaker::Requests Matchmaker::stop() {
    stopped_ = true;
    return cancel_pending("left open at shutdown");
}

}  // namespace service
