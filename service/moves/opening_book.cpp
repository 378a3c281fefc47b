// OpeningBook: reading Polyglot files and choosing book moves.
#include "service/moves/opening_book.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>

#include "common/bounded_file.hpp"
#include "common/errno_text.hpp"

namespace service {

namespace {

std::string in_quotes(std::string_view s) { return "'" + std::string(s) + "'"; }

common::Result<BookSelection> selection_of(const std::string& name) {
    if (name == "best_move") return BookSelection::BestMove;
    if (name == "weighted_random") return BookSelection::WeightedRandom;
    if (name == "uniform_random") return BookSelection::UniformRandom;
    return common::Error{"engine.book.selection " + in_quotes(name) +
                         " is not best_move, weighted_random or uniform_random"};
}

// `cache`: the files already read, by the path config gives, so a book listed twice is read
// once.
common::Result<OpeningBook> load_variant(
    const config::BookConfig& config, std::string_view variant,
    std::map<std::string, std::shared_ptr<const engine::polyglot::Book>>& cache) {
    const auto selection = selection_of(config.selection);
    if (!selection) return selection.error();
    std::vector<OpeningBook::Source> sources;
    const auto files = config.files.find(std::string(variant));
    if (config.enabled && files != config.files.end()) {
        for (const std::string& file : files->second) {
            auto cached = cache.find(file);
            if (cached == cache.end()) {
                auto book = read_book_file(file);
                if (!book) return book.error();
                cached = cache.emplace(file, *book).first;
            }
            sources.push_back({.file = file, .book = cached->second});
        }
    }
    return OpeningBook(std::move(sources), *selection, config.min_weight, config.max_depth);
}

// The book's legal moves with at least min_weight, one per move (weights of repeated entries
// summed), in file order.
std::vector<BookChoice> candidates(const engine::polyglot::Book& book,
                                   const engine::Position& position, int min_weight) {
    std::vector<BookChoice> out;
    // Any variant: the Polyglot key of the variant's board (its pieces; pockets are not in it).
    const auto found = position.visit([&](const auto& board) { return book.moves(board); });
    for (const auto& m : found) {
        auto same = std::find_if(out.begin(), out.end(),
                                 [&](const BookChoice& c) { return c.move == m.move; });
        if (same != out.end())
            same->weight += m.weight;
        else
            out.push_back(
                {.move = m.move, .uci = position.to_uci(m.move), .weight = m.weight, .file = {}});
    }
    std::erase_if(out, [&](const BookChoice& c) { return c.weight < min_weight; });
    return out;
}

}  // namespace

common::Result<std::shared_ptr<const engine::polyglot::Book>> read_book_file(
    const std::string& path) {
    // Checked before a byte is read: a FIFO cannot hang the start, nor /dev/zero or a file of
    // gigabytes fill memory (check-config asks the same, config/validate.cpp).
    auto bytes = common::read_bounded_file(path, config::kMaxBookFileBytes);
    if (!bytes)
        return common::Error{"cannot read the book file " + in_quotes(path) + ": " +
                             bytes.error().message};
    auto book = engine::polyglot::Book::parse(*bytes);
    if (!book)
        return common::Error{"the book file " + in_quotes(path) +
                             " is not a usable Polyglot book: " + book.error()};
    return std::shared_ptr<const engine::polyglot::Book>(
        std::make_shared<const engine::polyglot::Book>(std::move(*book)));
}

OpeningBook::OpeningBook(std::vector<Source> sources, BookSelection selection, int min_weight,
                         int max_depth)
    : sources_(std::move(sources)),
      selection_(selection),
      min_weight_(min_weight),
      max_depth_(max_depth) {}

common::Result<OpeningBook> OpeningBook::load(const config::BookConfig& config,
                                              std::string_view variant) {
    std::map<std::string, std::shared_ptr<const engine::polyglot::Book>> cache;
    return load_variant(config, variant, cache);
}

std::optional<BookChoice> OpeningBook::choose(const engine::Position& position, int fullmove,
                                              BookRng& rng) const {
    if (fullmove > max_depth_) return std::nullopt;
    for (const Source& source : sources_) {
        std::vector<BookChoice> moves = candidates(*source.book, position, min_weight_);
        if (moves.empty()) continue;
        std::size_t pick = 0;
        std::uint64_t total = 0;
        for (const auto& m : moves) total += std::uint64_t(m.weight);
        if (selection_ == BookSelection::BestMove) {
            // The first of the heaviest, so equal weights keep the book's order.
            for (std::size_t i = 1; i < moves.size(); ++i)
                if (moves[i].weight > moves[pick].weight) pick = i;
        } else if (selection_ == BookSelection::WeightedRandom && total > 0) {
            std::uint64_t r = std::uniform_int_distribution<std::uint64_t>(0, total - 1)(rng);
            while (r >= std::uint64_t(moves[pick].weight)) r -= std::uint64_t(moves[pick++].weight);
        } else {
            // uniform_random, or weighted_random when every weight is 0 (min_weight 0)
            pick = std::uniform_int_distribution<std::size_t>(0, moves.size() - 1)(rng);
        }
        BookChoice choice = std::move(moves[pick]);
        choice.file = source.file;
        return choice;
    }
    return std::nullopt;
}

common::Result<OpeningBooks> OpeningBooks::load(const config::BookConfig& config) {
    OpeningBooks books;
    if (!config.enabled) return books;
    std::map<std::string, std::shared_ptr<const engine::polyglot::Book>> cache;
    for (const auto& [variant, files] : config.files) {
        if (files.empty()) continue;
        auto book = load_variant(config, variant, cache);
        if (!book) return book.error();
        books.books_.emplace(variant, std::move(*book));
    }
    return books;
}

const OpeningBook* OpeningBooks::for_variant(const std::string& variant) const {
    const auto it = books_.find(variant);
    return it == books_.end() || it->second.empty() ? nullptr : &it->second;
}

OpeningBooks open_books(const config::BookConfig& config) {
    auto books = OpeningBooks::load(config);
    if (!books) throw std::runtime_error("engine.book: " + books.error().message);
    for (const auto& [variant, book] : books->by_variant())
        for (const auto& source : book.sources())
            spdlog::info("opening book for {}: {} ({} entries)", variant, source.file,
                         source.book->size());
    return std::move(*books);
}

}  // namespace service
