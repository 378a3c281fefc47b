// NdjsonStream: turns bytes arriving in arbitrary chunks into complete NDJSON lines.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace lichess {

class NdjsonStream {
  public:
    using LineHandler = std::function<void(std::string_view line)>;

    // Lines longer than this are dropped (with a warning) instead of growing memory forever.
    // The longest real line is a gameFull of a very long game (its move list: about 5 bytes a
    // ply, so 60 KB for the longest game the 50-move rule allows).
    static constexpr std::size_t kDefaultMaxLine = 1024 * 1024;

    explicit NdjsonStream(std::size_t max_line = kDefaultMaxLine) : max_line_(max_line) {}

    // Appends a chunk and calls on_line for every complete, non-empty line (CR stripped).
    // Empty lines are keep-alives: they are counted, never delivered.
    void feed(std::string_view chunk, const LineHandler& on_line);

    // End of a cleanly finished stream: delivers a last line that had no newline.
    void finish(const LineHandler& on_line);

    // Forgets a partial line, e.g. after a dropped connection (the server replays state).
    void reset() {
        buffer_.clear();
        overflow_ = false;
    }

    [[nodiscard]] std::size_t keep_alives() const { return keep_alives_; }
    [[nodiscard]] std::size_t lines() const { return lines_; }
    [[nodiscard]] std::size_t buffered() const { return buffer_.size(); }

  private:
    void emit(std::string_view line, const LineHandler& on_line);

    std::string buffer_;
    std::size_t max_line_;
    bool overflow_ = false;  // the current line exceeded max_line_ and is being skipped
    std::size_t keep_alives_ = 0;
    std::size_t lines_ = 0;
};

}  // namespace lichess
