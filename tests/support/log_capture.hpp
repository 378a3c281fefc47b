// LogCapture: while it lives, the default spdlog logger keeps every message (trace level up) in
// memory for the test to check; the previous default logger comes back when it is destroyed.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace spdlog {
class logger;
}

namespace test_support {

class LogCapture {
  public:
    // Replaces the default logger; create it before the code under test starts logging and let
    // it outlive every thread that logs.
    LogCapture();
    ~LogCapture();
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;

    // Every message so far, one formatted line each ("<level> <message>\n").
    [[nodiscard]] std::vector<std::string> lines() const;
    // Every message so far as one text.
    [[nodiscard]] std::string text() const;
    [[nodiscard]] bool contains(std::string_view part) const;
    // How many messages contain `needle`.
    [[nodiscard]] std::size_t count(std::string_view needle) const;

    struct Sink;

  private:
    std::shared_ptr<spdlog::logger> previous_;
    std::shared_ptr<Sink> sink_;
};

}  // namespace test_support
