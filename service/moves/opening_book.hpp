// Opening books for the daemon: the Polyglot files of `engine.book`, read once at start-up, and
// the choice of a book move for a position by the configured selection, min_weight and max_depth.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "common/result.hpp"
#include "config/config.hpp"
#include "engine/polyglot.hpp"
#include "engine/position.hpp"

namespace service {

// The random source of book choices: seeded by the caller, so tests are deterministic.
using BookRng = std::mt19937_64;

enum class BookSelection { BestMove, WeightedRandom, UniformRandom };

struct BookChoice {
    engine::Move move;
    std::string uci;   // as the position prints it (standard castling as e1g1)
    int weight = 0;    // summed over the book's entries for this move
    std::string file;  // the book it came from
};

// Reads and parses one .bin file; the error names the file and what is wrong with it.
[[nodiscard]] common::Result<std::shared_ptr<const engine::polyglot::Book>> read_book_file(
    const std::string& path);

class OpeningBook {
  public:
    struct Source {
        std::string file;
        std::shared_ptr<const engine::polyglot::Book> book;
    };
    OpeningBook(std::vector<Source> sources, BookSelection selection, int min_weight,
                int max_depth);

    // The books config lists for a Lichess variant key ("standard", "chess960",
    // "fromPosition"), each file read now; none listed gives an empty OpeningBook.
    [[nodiscard]] static common::Result<OpeningBook> load(const config::BookConfig& config,
                                                          std::string_view variant);

    // A book move for the position, or nullopt: past max_depth, out of book, or no move of at
    // least min_weight. `fullmove` is the game's move number, 1 for each side's first move.
    // The books are tried in their listed order; the first with a move decides.
    [[nodiscard]] std::optional<BookChoice> choose(const engine::Position& position, int fullmove,
                                                   BookRng& rng) const;

    [[nodiscard]] bool empty() const { return sources_.empty(); }
    [[nodiscard]] const std::vector<Source>& sources() const { return sources_; }

  private:
    std::vector<Source> sources_;
    BookSelection selection_;
    int min_weight_;
    int max_depth_;
};

// The books of every variant `engine.book` lists; a file listed for several variants is read
// once and shared. Empty when books are disabled.
class OpeningBooks {
  public:
    OpeningBooks() = default;
    [[nodiscard]] static common::Result<OpeningBooks> load(const config::BookConfig& config);

    // The book for a Lichess variant key; nullptr when that variant has none.
    [[nodiscard]] const OpeningBook* for_variant(const std::string& variant) const;
    [[nodiscard]] const std::map<std::string, OpeningBook>& by_variant() const { return books_; }

  private:
    std::map<std::string, OpeningBook> books_;
};

// OpeningBooks::load at start-up: each book read is logged; a book that cannot be read or
// parsed throws std::runtime_error naming the file, so the daemon does not start with it.
[[nodiscard]] OpeningBooks open_books(const config::BookConfig& config);

}  // namespace service
