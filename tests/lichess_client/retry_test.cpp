// Backoff growth, cap and jitter bounds; which errors are retryable; 429 pauses per family.
#include "lichess_client/retry.hpp"
#include "lichess_client/rate_limiter.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace lichess {
namespace {

TEST(Backoff, GrowsExponentiallyWithinJitterAndCap) {
    Backoff b(BackoffConfig{Millis{1000}, Millis{60000}, 2.0, 0.5}, 42);
    for (int round = 0; round < 20; ++round) {
        for (int attempt = 0; attempt < 12; ++attempt) {
            const double full = std::min(60000.0, 1000.0 * (1 << attempt));
            const auto d = b.delay(attempt).count();
            EXPECT_GE(d, static_cast<long>(full * 0.5) - 1) << attempt;
            EXPECT_LE(d, static_cast<long>(full)) << attempt;
        }
    }
    EXPECT_LE(b.delay(1000).count(), 60000);
}

TEST(Backoff, NoJitterIsExact) {
    Backoff b(BackoffConfig{Millis{100}, Millis{1000}, 2.0, 0.0}, 1);
    EXPECT_EQ(b.delay(0), Millis{100});
    EXPECT_EQ(b.delay(3), Millis{800});
    EXPECT_EQ(b.delay(4), Millis{1000});
}

TEST(Retry, OnlyNetworkAnd5xxRetry) {
    EXPECT_TRUE(is_retryable({ApiError::Kind::Network, 0, "", "", {}}));
    EXPECT_TRUE(is_retryable({ApiError::Kind::Http, 502, "", "", {}}));
    EXPECT_TRUE(is_retryable({ApiError::Kind::Http, 500, "", "", {}}));
    EXPECT_FALSE(is_retryable({ApiError::Kind::Http, 400, "", "", {}}));
    EXPECT_FALSE(is_retryable({ApiError::Kind::Http, 404, "", "", {}}));
    EXPECT_FALSE(is_retryable({ApiError::Kind::RateLimited, 429, "", "", {}}));
    EXPECT_FALSE(is_retryable({ApiError::Kind::Parse, 200, "", "", {}}));
}

TEST(RateLimiter, DefaultMinimumPauseIsOneMinute) {
    EXPECT_EQ(RateLimitConfig{}.min_pause, Millis{60000});
}

TEST(RateLimiter, MovesPauseOnlyBrieflySoNoGameIsLostOnTime) {
    RateLimiter rl;
    EXPECT_EQ(rl.on_rate_limited(Family::Move, std::nullopt), Millis{1000});
    EXPECT_LE(rl.paused_for(Family::Move)->count(), 1000);
    EXPECT_EQ(rl.on_rate_limited(Family::GameAction, std::nullopt), Millis{1000});
    EXPECT_EQ(rl.on_rate_limited(Family::GameStream, std::nullopt), Millis{1000});  // game path
    EXPECT_EQ(rl.on_rate_limited(Family::Move, Millis{2500}), Millis{2500});
}

TEST(RateLimiter, PausesOnlyTheFamilyAndHonoursHintsUpToItsCap) {
    RateLimiter rl(RateLimitConfig{Millis{5000}});
    EXPECT_FALSE(rl.is_paused(Family::Challenge));
    EXPECT_EQ(rl.on_rate_limited(Family::Challenge, std::nullopt), Millis{5000});
    EXPECT_TRUE(rl.is_paused(Family::Challenge));
    EXPECT_FALSE(rl.is_paused(Family::Move));
    EXPECT_GE(rl.paused_for(Family::Challenge)->count(), 4000);
    EXPECT_EQ(rl.on_rate_limited(Family::Account, Millis{86398000}), Millis{600000});
    EXPECT_GE(rl.paused_for(Family::Account)->count(), 599000);
    // A hint shorter than the minimum never shortens the pause.
    EXPECT_EQ(rl.on_rate_limited(Family::Chat, Millis{10}), Millis{5000});
    EXPECT_EQ(rl.rate_limit_count(), 3u);
}

// Each family's pause: without a hint, with a hint inside its cap, and with an hour's hint
// (`ratelimit.seconds: 3600`, Retry-After: 3600), which no family honours in full.
TEST(RateLimiter, EveryFamilyHasItsMinimumAndItsCap) {
    struct Row {
        Family family;
        Millis without_hint;
        Millis cap;
        bool per_game;
    };
    const std::vector<Row> rows = {
        {Family::Move, Millis{1000}, Millis{3000}, true},
        {Family::GameAction, Millis{1000}, Millis{3000}, true},
        {Family::GameStream, Millis{1000}, Millis{3000}, false},
        {Family::EventStream, Millis{60000}, Millis{180000}, false},
        {Family::Chat, Millis{60000}, Millis{300000}, false},
        {Family::Challenge, Millis{60000}, Millis{300000}, false},
        {Family::Account, Millis{60000}, Millis{600000}, false},
        {Family::ChallengeCreate, Millis{60000}, Millis{3600000}, false},
        {Family::Tournament, Millis{60000}, Millis{300000}, false},
    };
    ASSERT_EQ(rows.size(), kFamilyCount);
    for (const Row& row : rows) {
        const char* name = to_string(row.family);
        EXPECT_EQ(default_max_pause(row.family), row.cap) << name;
        EXPECT_EQ(is_per_game(row.family), row.per_game) << name;
        EXPECT_EQ(RateLimiter().on_rate_limited(row.family, std::nullopt), row.without_hint)
            << name;
        const Millis inside = (row.without_hint + row.cap) / 2;
        EXPECT_EQ(RateLimiter().on_rate_limited(row.family, inside), inside) << name;
        RateLimiter rl;
        const auto before = RateLimiter::Clock::now();
        EXPECT_EQ(rl.on_rate_limited(row.family, Millis{3'600'000}), row.cap) << name;
        EXPECT_EQ(rl.on_rate_limited(row.family, Millis{86'400'000}), row.cap) << name;
        const auto until = rl.paused_until(row.family);
        ASSERT_TRUE(until.has_value()) << name;
        EXPECT_GE(*until, before + row.cap) << name;
        EXPECT_LE(*until, RateLimiter::Clock::now() + row.cap) << name;
        EXPECT_LE(*rl.paused_for(row.family), row.cap) << name;
    }
}

TEST(RateLimiter, ACapBelowTheMinimumStillWins) {
    RateLimitConfig config;
    config.max_pause[static_cast<std::size_t>(Family::Chat)] = Millis{20};
    RateLimiter rl(config);
    EXPECT_EQ(rl.on_rate_limited(Family::Chat, std::nullopt), Millis{20});
    EXPECT_EQ(rl.max_pause(Family::Chat), Millis{20});
    EXPECT_FALSE(rl.paused_until(Family::Move).has_value());
}

}  // namespace
}  // namespace lichess
