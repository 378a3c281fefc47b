// LogCapture: records every spdlog line (trace level up) of the default logger during a test.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lichess::test {

class LogCapture {
  public:
    LogCapture();  // installs the sink and sets trace level; not while other threads log
    ~LogCapture();
    LogCapture(const LogCapture&) = delete;
    LogCapture& operator=(const LogCapture&) = delete;

    [[nodiscard]] std::vector<std::string> lines() const;
    [[nodiscard]] std::size_t count(std::string_view needle) const;

    struct Sink;

  private:
    std::shared_ptr<Sink> sink_;
    int previous_level_ = 0;
};

}  // namespace lichess::test
