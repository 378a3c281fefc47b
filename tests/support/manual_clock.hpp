// ManualClock: a steady clock that a test moves by hand, for the code that takes its time from a
// function (GameSlots, Matchmaker, the challenge desk).
#pragma once

#include <chrono>
#include <functional>

namespace test_support {

struct ManualClock {
    std::chrono::steady_clock::time_point t{};

    void advance(std::chrono::milliseconds d) { t += d; }
    [[nodiscard]] std::chrono::steady_clock::time_point now() const { return t; }
    // The clock as the code under test asks it; the ManualClock must outlive what holds it.
    [[nodiscard]] std::function<std::chrono::steady_clock::time_point()> fn() {
        return [this] { return t; };
    }
};

}  // namespace test_support
