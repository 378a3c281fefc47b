// Backoff growth, cap and jitter bounds; which errors are retryable; 429 pauses per family.
#include "lichess_client/retry.hpp"
#include "lichess_client/rate_limiter.hpp"

#include <gtest/gtest.h>

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
    EXPECT_EQ(rl.on_rate_limited(Family::GameAction, std::nullopt), Millis{60000});
    EXPECT_EQ(rl.on_rate_limited(Family::GameStream, std::nullopt), Millis{1000});  // move path
    EXPECT_EQ(rl.on_rate_limited(Family::Move, Millis{5000}), Millis{5000});
}

TEST(RateLimiter, PausesOnlyTheFamilyAndHonoursHints) {
    RateLimiter rl(RateLimitConfig{Millis{5000}});
    EXPECT_FALSE(rl.is_paused(Family::Challenge));
    EXPECT_EQ(rl.on_rate_limited(Family::Challenge, std::nullopt), Millis{5000});
    EXPECT_TRUE(rl.is_paused(Family::Challenge));
    EXPECT_FALSE(rl.is_paused(Family::Move));
    EXPECT_GE(rl.paused_for(Family::Challenge)->count(), 4000);
    EXPECT_EQ(rl.on_rate_limited(Family::Account, Millis{86398000}), Millis{86398000});
    EXPECT_GE(rl.paused_for(Family::Account)->count(), 86000000);
    // A hint shorter than the minimum never shortens the pause.
    EXPECT_EQ(rl.on_rate_limited(Family::Chat, Millis{10}), Millis{5000});
    EXPECT_EQ(rl.rate_limit_count(), 3u);
}

}  // namespace
}  // namespace lichess
