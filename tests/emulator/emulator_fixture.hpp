// Test helper: runs the emulator in-process on a free loopback port with a scenario given as
// YAML/JSON text, exposes its URL, token and live recording, and stops it when destroyed.
#pragma once

#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>

#include "emulator.hpp"

namespace emu {

class EmulatorFixture {
  public:
    explicit EmulatorFixture(const std::string& scenario_text) : emulator_(parse(scenario_text)) {
        emulator_.start(0);
    }
    explicit EmulatorFixture(Scenario scenario) : emulator_(std::move(scenario)) {
        emulator_.start(0);
    }
    // On a given port (a server that comes back where it was).
    EmulatorFixture(const std::string& scenario_text, int port) : emulator_(parse(scenario_text)) {
        emulator_.start(port);
    }
    ~EmulatorFixture() { emulator_.stop(); }
    EmulatorFixture(const EmulatorFixture&) = delete;
    EmulatorFixture& operator=(const EmulatorFixture&) = delete;

    int port() const { return emulator_.port(); }
    std::string base_url() const { return emulator_.base_url(); }
    const std::string& token() const { return emulator_.token(); }
    Emulator& emulator() { return emulator_; }
    Emulator* operator->() { return &emulator_; }

    // Polls `predicate` every 10 ms until it holds or `timeout` passes; returns its last value.
    bool wait_until(const std::function<bool()>& predicate,
                    std::chrono::milliseconds timeout = std::chrono::seconds(10)) const {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        for (;;) {
            if (predicate()) return true;
            if (std::chrono::steady_clock::now() >= deadline) return false;
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }

    // Waits until the game exists and is over; returns its record (status "" if it never ended).
    GameView wait_game_over(const std::string& id,
                            std::chrono::milliseconds timeout = std::chrono::seconds(20)) {
        GameView last;
        wait_until(
            [&] {
                for (auto& g : emulator_.games())
                    if (g.id == id) {
                        last = g;
                        return g.over;
                    }
                return false;
            },
            timeout);
        if (!last.over) last.status.clear();
        return last;
    }

  private:
    static Scenario parse(const std::string& text) {
        auto r = parse_scenario(text);
        if (!r.scenario) throw std::runtime_error("scenario: " + r.error);
        return std::move(*r.scenario);
    }
    Emulator emulator_;
};

}  // namespace emu
