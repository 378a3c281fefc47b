// Tactical sanity: mate-in-1 and mate-in-2 problems and Win At Chess at a fixed node budget.
// Under AddressSanitizer (about 10x slower) the samples and budgets shrink so the suite
// stays fast; the full thresholds are checked in the Release build.
#include <gtest/gtest.h>

#include <iostream>
#include <sstream>

#include "engine/position.hpp"
#include "engine/san.hpp"
#include "engine/search.hpp"
#include "test_util.hpp"

namespace {

using namespace engine;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool SANITIZED = true;
#else
constexpr bool SANITIZED = false;
#endif

struct Problem {
    std::string fen;
    std::vector<std::string> best;  // SAN or hyphenated long algebraic, as in the file
    std::string id;
};

// "<4 FEN fields> bm X Y; id "Z"; ..." -> FEN + bm list + id.
Problem parse_epd(const std::string& line) {
    std::istringstream in(line);
    Problem p;
    std::string field;
    for (int i = 0; i < 4 && in >> field; ++i) p.fen += (i ? " " : "") + field;
    std::string rest;
    std::getline(in, rest);
    std::istringstream ops(rest);
    for (std::string op; std::getline(ops, op, ';');) {
        std::istringstream words(op);
        std::string key;
        words >> key;
        if (key == "bm")
            for (std::string m; words >> m;) p.best.push_back(m);
        else if (key == "id")
            std::getline(words >> std::ws, p.id);
    }
    return p;
}

// Hyphenated long algebraic ("Bh8-f6+", "e7xf8N+") to a legal move.
Move parse_long_algebraic(const Board& b, std::string text) {
    std::string squares;
    char promo = 0;
    for (char c : text) {
        if (c >= 'a' && c <= 'h')
            squares += c;
        else if (c >= '1' && c <= '8')
            squares += c;
        else if (squares.size() == 4 && (c == 'N' || c == 'B' || c == 'R' || c == 'Q'))
            promo = c;
    }
    if (squares.size() != 4) return Move::none();
    std::string uci = squares;
    if (promo) uci += char(std::tolower(promo));
    auto m = parse_uci_move(b, uci);
    return m ? *m : Move::none();
}

SearchResult search_nodes(Engine& eng, const Position& pos, std::uint64_t nodes) {
    SearchLimits limits;
    limits.nodes = nodes;
    std::atomic<bool> stop{false};
    return eng.search(pos, limits, stop);
}

TEST(Tactics, AllMateInOneSolved) {
    const auto lines = test_util::read_lines("tactics/mate_in_1.epd");
    ASSERT_EQ(lines.size(), 64u);
    Engine eng({.hash_mb = 16, .threads = 1});
    int solved = 0;
    for (const auto& line : lines) {
        const Problem p = parse_epd(line);
        auto pos = Position::from_fen(p.fen);
        ASSERT_TRUE(pos) << p.fen;
        eng.new_game();
        ASSERT_FALSE(p.best.empty());
        ASSERT_TRUE(parse_long_algebraic(pos->board(), p.best[0])) << p.best[0];
        const SearchResult r = search_nodes(eng, *pos, 20000);
        Board after = pos->board();
        after.make_move(r.best);
        const bool mates = after.in_check() && count_legal_moves(after) == 0;
        const bool ok = mates && r.score.is_mate && r.score.value == 1;
        EXPECT_TRUE(ok) << p.fen << " got " << pos->to_uci(r.best) << " score " << r.score.value;
        solved += ok;
    }
    EXPECT_EQ(solved, 64);
}

TEST(Tactics, MateInTwoSample) {
    const auto lines = test_util::read_lines("tactics/mate_in_2.epd");
    ASSERT_GE(lines.size(), 800u);
    // A fixed sample: every 8th problem (110 of 880, 100 counted) at 1M nodes, >= 95 solved
    // (the embedded net solves all 100) - or the first 30 of them at 200k nodes under ASan,
    // >= 90%: that run is for the sanitizers, and at a fifth of the budget the nets of this
    // shape find 28 to 30 of them (two quiet mating moves can be reduced too far to be seen at
    // that budget; at 1M nodes they are found).
    const std::size_t sample = SANITIZED ? 30 : 100;
    const std::uint64_t budget = SANITIZED ? 200000 : 1000000;
    Engine eng({.hash_mb = 16, .threads = 1});
    std::size_t solved = 0, tried = 0;
    for (std::size_t i = 0; i < lines.size() && tried < sample; i += 8, ++tried) {
        const Problem p = parse_epd(lines[i]);
        auto pos = Position::from_fen(p.fen);
        ASSERT_TRUE(pos) << p.fen;
        eng.new_game();
        const SearchResult r = search_nodes(eng, *pos, budget);
        const bool ok = r.score.is_mate && r.score.value == 2;
        if (!ok)
            std::cout << "mate-in-2 miss: " << p.fen << " got " << pos->to_uci(r.best)
                      << (r.score.is_mate ? " mate " : " cp ") << r.score.value << "\n";
        solved += ok;
    }
    std::cout << "mate in 2: " << solved << "/" << tried << "\n";
    EXPECT_GE(solved * 100, tried * (SANITIZED ? 90 : 95));
}

TEST(Tactics, WinAtChess) {
    const auto lines = test_util::read_lines("tactics/wac.epd");
    ASSERT_EQ(lines.size(), 300u);
    // Release: all 300 at 400k nodes each (about 115M nodes, roughly a minute at ~2 Mnps)
    // must give >= 270. ASan: every 3rd at 200k nodes, >= 80% (the same code path under the
    // sanitizers; the real threshold is the Release one).
    const std::size_t step = SANITIZED ? 3 : 1;
    const std::uint64_t budget = SANITIZED ? 200000 : 400000;
    Engine eng({.hash_mb = 16, .threads = 1});
    std::size_t solved = 0, tried = 0;
    for (std::size_t i = 0; i < lines.size(); i += step, ++tried) {
        const Problem p = parse_epd(lines[i]);
        auto pos = Position::from_fen(p.fen);
        ASSERT_TRUE(pos) << p.fen;
        std::vector<Move> answers;
        for (const auto& text : p.best) {
            auto m = parse_san(pos->board(), text);
            ASSERT_TRUE(m) << p.id << ": " << text;
            answers.push_back(*m);
        }
        eng.new_game();
        const SearchResult r = search_nodes(eng, *pos, budget);
        const bool ok = std::find(answers.begin(), answers.end(), r.best) != answers.end();
        if (!ok)
            std::cout << "WAC miss: " << p.id << " got " << move_to_san(pos->board(), r.best)
                      << "\n";
        solved += ok;
    }
    std::cout << "WAC: " << solved << "/" << tried << " at " << budget << " nodes\n";
    if (SANITIZED)
        EXPECT_GE(solved * 100, tried * 80);
    else
        EXPECT_GE(solved, 270u);
}

}  // namespace
