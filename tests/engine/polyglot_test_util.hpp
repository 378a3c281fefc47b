// Helpers for tests that need a Polyglot book: entries made from UCI move text, the bytes of a
// book (sorted by key, as readers need), and a temporary folder to write book files into.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/polyglot.hpp"
#include "engine/position.hpp"
#include "tests/support/temp_dir.hpp"

namespace test_util {

// The position of a FEN the test knows to be good (throws when it is not).
inline engine::Position position(std::string_view fen, bool chess960 = false) {
    auto p = engine::Position::from_fen(fen, chess960);
    if (!p) throw std::invalid_argument("position: " + p.error());
    return *p;
}

// The entry that gives `uci` (legal in `position`, of any variant) with this weight.
inline engine::polyglot::Entry book_entry(const engine::Position& position, std::string_view uci,
                                          std::uint16_t weight, std::uint32_t learn = 0) {
    const auto m = position.parse_uci(uci);
    if (!m) throw std::invalid_argument("book_entry: " + m.error());
    return {.key = position.visit([](const auto& board) { return engine::polyglot::key(board); }),
            .move = engine::polyglot::encode_move(*m),
            .weight = weight,
            .learn = learn};
}

// One entry per move of a line played from `start`, all with the same weight.
inline std::vector<engine::polyglot::Entry> book_line(engine::Position start,
                                                      const std::vector<std::string>& line,
                                                      std::uint16_t weight) {
    std::vector<engine::polyglot::Entry> entries;
    for (const std::string& uci : line) {
        entries.push_back(book_entry(start, uci, weight));
        (void)start.play_uci(uci);
    }
    return entries;
}

// The .bin file bytes: entries sorted by key (a stable sort keeps the order of one key's moves).
inline std::string book_bytes(std::vector<engine::polyglot::Entry> entries) {
    std::stable_sort(entries.begin(), entries.end(),
                     [](const auto& a, const auto& b) { return a.key < b.key; });
    return engine::polyglot::to_bytes(entries);
}

inline void write_bytes(const std::filesystem::path& file, const std::string& bytes) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << bytes;
    if (!out) throw std::runtime_error("cannot write " + file.string());
}

// A fresh temporary folder for book files (and whatever else a test writes), removed when
// destroyed. `name` starts the folder's name (a random suffix makes it unique).
class BookDir {
  public:
    explicit BookDir(const std::string& name) : dir_("outpost-" + name + "-") {}

    const std::filesystem::path& path() const { return dir_.path(); }
    // Writes a book of these entries (sorted here) and returns its path.
    std::string book(const std::string& file, std::vector<engine::polyglot::Entry> entries) const {
        return raw(file, book_bytes(std::move(entries)));
    }
    // Writes these bytes as they are and returns the path.
    std::string raw(const std::string& file, const std::string& bytes) const {
        write_bytes(path() / file, bytes);
        return (path() / file).string();
    }

  private:
    outpost::testing::TempDir dir_;
};

}  // namespace test_util
