// Helpers for tests that need a Polyglot book: entries made from UCI move text, the bytes of a
// book (sorted by key, as readers need), and writing one into a file.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/polyglot.hpp"
#include "engine/position.hpp"

namespace test_util {

// The entry that gives `uci` (legal in `position`) with this weight.
inline engine::polyglot::Entry book_entry(const engine::Position& position, std::string_view uci,
                                          std::uint16_t weight, std::uint32_t learn = 0) {
    const auto m = position.parse_uci(uci);
    if (!m) throw std::invalid_argument("book_entry: " + m.error());
    return {.key = engine::polyglot::key(position.board()),
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

}  // namespace test_util
