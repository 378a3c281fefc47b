// Backoff and retry policy: capped exponential delays with jitter, and which failures retry.
#pragma once

#include <chrono>
#include <cstdint>
#include <mutex>
#include <random>

#include "lichess_client/api_error.hpp"

namespace lichess {

using Millis = std::chrono::milliseconds;

struct BackoffConfig {
    Millis initial{1000};
    Millis max{60000};
    double multiplier = 2.0;
    // The delay is drawn from [d * (1 - jitter), d]: spreads reconnects of many clients.
    double jitter = 0.5;
};

// Delay for the n-th consecutive failure (n = 0 is the first). Thread-safe.
class Backoff {
  public:
    explicit Backoff(BackoffConfig config = {}, std::uint64_t seed = std::random_device{}())
        : config_(config), rng_(seed) {}

    [[nodiscard]] Millis delay(int attempt);
    [[nodiscard]] const BackoffConfig& config() const { return config_; }

  private:
    BackoffConfig config_;
    std::mutex mutex_;
    std::mt19937_64 rng_;
};

struct RetryPolicy {
    int max_attempts = 5;  // total tries for one call, including the first
    BackoffConfig backoff{Millis{500}, Millis{8000}, 2.0, 0.5};
};

// Network errors and 5xx are transient; 4xx (including 429, which pauses instead), parse and
// config errors are final.
[[nodiscard]] bool is_retryable(const ApiError& e);

}  // namespace lichess
