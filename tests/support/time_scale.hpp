// The one factor of the tests' wall-clock bounds. A sanitizer build runs the code several times
// slower than the release build (the presets set OUTPOST_TEST_TIME_SCALE: 4 under ASan + UBSan,
// 8 under ThreadSanitizer; tests/CMakeLists.txt passes it to every suite), so a bound "this
// happens within N ms" holds there only scaled. A bound "this does not happen before N ms" (a
// pause kept, a deadline not cut short) is the opposite kind and stays unscaled.
#pragma once

#include <chrono>
#include <cstdint>

#ifndef OUTPOST_TEST_TIME_SCALE
#define OUTPOST_TEST_TIME_SCALE 1
#endif

namespace test_time {

inline constexpr int kScale = OUTPOST_TEST_TIME_SCALE;
static_assert(kScale >= 1, "OUTPOST_TEST_TIME_SCALE must be a whole number of at least 1");

// An upper bound on how long something may take, stretched for this build.
template <class Rep, class Period>
[[nodiscard]] constexpr std::chrono::duration<Rep, Period> scaled(
    std::chrono::duration<Rep, Period> bound) {
    return bound * kScale;
}
[[nodiscard]] constexpr std::int64_t scaled_ms(std::int64_t bound_ms) { return bound_ms * kScale; }

}  // namespace test_time
