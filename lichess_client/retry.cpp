// Backoff delays and the retryable-error rule.
#include "lichess_client/retry.hpp"

#include <algorithm>
#include <cmath>

namespace lichess {

Millis Backoff::delay(int attempt) {
    const double base = static_cast<double>(config_.initial.count());
    const double cap = static_cast<double>(config_.max.count());
    const double exp = std::min(std::max(attempt, 0), 62);
    const double full = std::min(cap, base * std::pow(config_.multiplier, exp));
    const double jitter = std::clamp(config_.jitter, 0.0, 1.0);
    double factor = 1.0;
    {
        std::lock_guard lock(mutex_);
        factor = std::uniform_real_distribution<double>(1.0 - jitter, 1.0)(rng_);
    }
    return Millis{static_cast<std::int64_t>(full * factor)};
}

bool is_retryable(const ApiError& e) {
    switch (e.kind) {
        case ApiError::Kind::Network:
            return true;
        case ApiError::Kind::Http:
            return e.status >= 500;
        default:
            return false;
    }
}

}  // namespace lichess
