// The staged move picker, driven directly: every legal move comes out exactly once and nothing
// else, whatever TT move, killers and countermove it is handed; the TT move first, then the
// captures that win or trade, the killers and the countermove, the quiet moves best history
// first, and the losing captures last; skip_quiets drops only quiet moves; the quiescence
// picker gives the noisy moves (every evasion in check); and the cheap legality test never
// passes a move the generator would not make.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/evaluate.hpp"
#include "engine/fen.hpp"
#include "engine/movegen.hpp"
#include "engine/movepick.hpp"
#include "engine/perft.hpp"
#include "engine/position.hpp"
#include "engine/see.hpp"

namespace engine {
namespace {

// The positions of the standard perft suite and every position one move after them: about
// 4,000 boards with castling, en passant, promotions, pins and checks.
std::vector<Board> suite_boards() {
    std::ifstream in(std::string(OUTPOST_TEST_DATA) + "/perft/standard.epd");
    std::vector<Board> boards;
    std::string line;
    while (std::getline(in, line)) {
        const auto root = parse_fen(line.substr(0, line.find(';')));
        if (!root) continue;
        boards.push_back(*root);
        for (const Move m : legal_moves(*root)) {
            Board child = *root;
            child.make_move(m);
            boards.push_back(child);
        }
    }
    return boards;
}

const std::vector<Board>& boards() {
    static const std::vector<Board> all = suite_boards();
    return all;
}

// Every legal move of every board, as move codes: candidates for a TT move or a killer that
// came from another position (most are not legal here, some are).
std::vector<Move> foreign_moves() {
    std::vector<Move> moves;
    for (std::size_t i = 0; i < boards().size(); i += 7)
        for (const Move m : legal_moves(boards()[i])) moves.push_back(m);
    return moves;
}

bool is_noisy(const Board& b, Move m) { return b.is_capture(m) || b.is_promotion(m); }

// A zeroed history and continuation rows, as at the start of a search.
struct Tables {
    std::unique_ptr<History> history = std::make_unique<History>();
    PieceToHistory zero_row{};
    const PieceToHistory* cont[2] = {&zero_row, &zero_row};
    Tables() { history->clear(); }
};

std::vector<Move> drain(MovePicker<Variant::STANDARD>& picker, bool skip_quiets = false) {
    std::vector<Move> out;
    for (Move m = picker.next(skip_quiets); m; m = picker.next(skip_quiets)) out.push_back(m);
    return out;
}

std::string names(const Board& b, const std::vector<Move>& moves) {
    std::string s;
    for (const Move m : moves) s += move_to_uci(b, m) + " ";
    return s;
}

TEST(MovePicker, EveryLegalMoveComesOnceWhateverItIsHanded) {
    Tables t;
    const std::vector<Move> foreign = foreign_moves();
    ASSERT_GT(boards().size(), 1500u);
    std::size_t k = 0;
    int legal_hints = 0;
    for (const Board& b : boards()) {
        const auto legal = legal_moves(b);
        // Hints from elsewhere; every third board gets legal ones of its own.
        auto hint = [&](std::size_t salt) {
            if ((k + salt) % 3 == 0 && !legal.empty())
                return legal.moves[(k + salt) % legal.size()];
            return foreign[(k * 31 + salt * 17) % foreign.size()];
        };
        const Move tt = hint(0), killers[2] = {hint(1), hint(2)}, counter = hint(3);
        ++k;
        for (const Move m : {tt, killers[0], killers[1], counter}) legal_hints += legal.contains(m);

        MovePicker<Variant::STANDARD> picker(b, tt, *t.history, killers, counter, t.cont);
        std::vector<Move> got = drain(picker);
        std::vector<Move> want(legal.begin(), legal.end());
        const std::string fen = to_fen(b);
        ASSERT_EQ(got.size(), want.size()) << fen << "\n got: " << names(b, got);
        auto by_code = [](Move x, Move y) { return x.raw() < y.raw(); };
        std::sort(got.begin(), got.end(), by_code);
        std::sort(want.begin(), want.end(), by_code);
        ASSERT_EQ(got, want) << fen;
    }
    EXPECT_GT(legal_hints, 1000);  // the legal-hint paths were taken, not only the foreign ones
}

TEST(MovePicker, TheTtMoveComesFirstWhenLegalAndNeverWhenNot) {
    Tables t;
    const std::vector<Move> foreign = foreign_moves();
    const Move none[2] = {Move::none(), Move::none()};
    std::size_t k = 0;
    for (const Board& b : boards()) {
        const auto legal = legal_moves(b);
        if (legal.empty()) continue;
        const Move own = legal.moves[k % legal.size()];
        MovePicker<Variant::STANDARD> first(b, own, *t.history, none, Move::none(), t.cont);
        ASSERT_EQ(first.next(), own) << to_fen(b);

        const Move other = foreign[k++ % foreign.size()];
        MovePicker<Variant::STANDARD> picker(b, other, *t.history, none, Move::none(), t.cont);
        const std::vector<Move> got = drain(picker);
        if (!legal.contains(other)) {
            EXPECT_EQ(std::count(got.begin(), got.end(), other), 0) << to_fen(b);
        }
    }
}

// The order after the TT move: noisy moves that do not lose, then the quiet moves (killers
// and countermove first, in that order), then the noisy moves that lose material or
// underpromote.
TEST(MovePicker, GoodCapturesThenKillersThenQuietsThenLosingCaptures) {
    Tables t;
    int boards_with_bad_captures = 0, killers_seen = 0;
    for (const Board& b : boards()) {
        const auto legal = legal_moves(b);
        std::vector<Move> quiets;
        for (const Move m : legal)
            if (!is_noisy(b, m)) quiets.push_back(m);
        if (quiets.size() < 3) continue;
        const Move killers[2] = {quiets[quiets.size() - 1], quiets[quiets.size() / 2]};
        const Move counter = quiets[0];
        MovePicker<Variant::STANDARD> picker(b, Move::none(), *t.history, killers, counter, t.cont);
        const std::vector<Move> got = drain(picker);
        const std::string fen = to_fen(b) + "\n order: " + names(b, got);

        // noisy* quiet* noisy*
        std::size_t i = 0;
        while (i < got.size() && is_noisy(b, got[i])) {
            EXPECT_TRUE(see_ge(b, got[i], -PIECE_VALUE[QUEEN])) << fen;
            ++i;
        }
        const std::size_t first_quiet = i;
        while (i < got.size() && !is_noisy(b, got[i])) ++i;
        ASSERT_EQ(i - first_quiet, quiets.size()) << fen;
        if (i < got.size()) ++boards_with_bad_captures;
        for (; i < got.size(); ++i) {
            ASSERT_TRUE(is_noisy(b, got[i])) << fen;
            const bool underpromotion = b.is_promotion(got[i]) && b.promotion_type(got[i]) != QUEEN;
            EXPECT_TRUE(underpromotion || !see_ge(b, got[i], 0)) << move_to_uci(b, got[i]) << fen;
        }
        // The killers and the countermove lead the quiet moves.
        ASSERT_GE(quiets.size(), 3u);
        EXPECT_EQ(got[first_quiet], killers[0]) << fen;
        EXPECT_EQ(got[first_quiet + 1], killers[1]) << fen;
        EXPECT_EQ(got[first_quiet + 2], counter) << fen;
        ++killers_seen;
    }
    EXPECT_GT(boards_with_bad_captures, 100);
    EXPECT_GT(killers_seen, 1000);
}

// A quiet move with a high butterfly history comes before every other plain quiet move.
TEST(MovePicker, QuietMovesComeBestHistoryFirst) {
    Tables t;
    const Move none[2] = {Move::none(), Move::none()};
    int checked = 0;
    for (std::size_t n = 0; n < boards().size(); n += 5) {
        const Board& b = boards()[n];
        std::vector<Move> quiets;
        for (const Move m : legal_moves(b))
            if (!is_noisy(b, m)) quiets.push_back(m);
        if (quiets.size() < 2) continue;
        const Move favourite = quiets[n % quiets.size()];
        t.history->clear();
        t.history->butterfly[b.side][favourite.from() * 64 + favourite.to()] = 5000;
        MovePicker<Variant::STANDARD> picker(b, Move::none(), *t.history, none, Move::none(),
                                             t.cont);
        const std::vector<Move> got = drain(picker);
        const auto first_quiet =
            std::find_if(got.begin(), got.end(), [&](Move m) { return !is_noisy(b, m); });
        ASSERT_NE(first_quiet, got.end());
        EXPECT_EQ(*first_quiet, favourite) << to_fen(b) << "\n order: " << names(b, got);
        ++checked;
    }
    t.history->clear();
    EXPECT_GT(checked, 250);
}

// skip_quiets from the first quiet move on: no quiet move comes after it, and every noisy move
// still comes (the losing captures after the skipped quiets).
TEST(MovePicker, SkippingQuietsKeepsEveryNoisyMove) {
    Tables t;
    const Move none[2] = {Move::none(), Move::none()};
    for (const Board& b : boards()) {
        const auto legal = legal_moves(b);
        std::vector<Move> noisy;
        for (const Move m : legal)
            if (is_noisy(b, m)) noisy.push_back(m);
        MovePicker<Variant::STANDARD> picker(b, Move::none(), *t.history, none, Move::none(),
                                             t.cont);
        std::vector<Move> got_noisy;
        int quiets = 0;
        bool skipping = false;
        for (Move m = picker.next(); m; m = picker.next(skipping)) {
            if (is_noisy(b, m)) {
                got_noisy.push_back(m);
            } else {
                ASSERT_FALSE(skipping) << to_fen(b) << ": a quiet move after skip_quiets";
                ++quiets;
                skipping = true;  // from here on, ask to skip
            }
        }
        EXPECT_LE(quiets, 1);
        auto by_code = [](Move x, Move y) { return x.raw() < y.raw(); };
        std::sort(got_noisy.begin(), got_noisy.end(), by_code);
        std::sort(noisy.begin(), noisy.end(), by_code);
        ASSERT_EQ(got_noisy, noisy) << to_fen(b);
    }
}

// Quiescence: the captures and promotions once each (not in check), every legal move in check;
// a quiet TT move is not used out of check.
TEST(MovePicker, QuiescenceGivesTheNoisyMovesOrEveryEvasion) {
    Tables t;
    int in_check = 0;
    for (const Board& b : boards()) {
        const auto legal = legal_moves(b);
        std::vector<Move> want;
        Move quiet_tt = Move::none();
        for (const Move m : legal) {
            if (b.in_check() || is_noisy(b, m)) want.push_back(m);
            if (!is_noisy(b, m)) quiet_tt = m;
        }
        in_check += b.in_check();
        MovePicker<Variant::STANDARD> picker(b, quiet_tt, *t.history);
        std::vector<Move> got = drain(picker);
        auto by_code = [](Move x, Move y) { return x.raw() < y.raw(); };
        std::sort(got.begin(), got.end(), by_code);
        std::sort(want.begin(), want.end(), by_code);
        ASSERT_EQ(got, want) << to_fen(b);
    }
    EXPECT_GT(in_check, 50);
}

// The cheap test the picker runs on TT moves and killers: true exactly for the moves the
// generator makes, over every board's own moves and thousands from other boards.
TEST(MovePicker, PlausibleLegalityIsExactlyTheGeneratorsMoves) {
    const std::vector<Move> foreign = foreign_moves();
    int legal_seen = 0, illegal_seen = 0;
    std::size_t k = 0;
    for (const Board& b : boards()) {
        const auto legal = legal_moves(b);
        for (const Move m : legal) ASSERT_TRUE(is_plausible_legal(b, m)) << move_to_uci(b, m);
        legal_seen += legal.size();
        for (int j = 0; j < 40; ++j) {
            const Move m = foreign[k++ % foreign.size()];
            const bool is = legal.contains(m);
            ASSERT_EQ(is_plausible_legal(b, m), is) << to_fen(b) << " " << move_to_uci(b, m);
            illegal_seen += !is;
        }
        EXPECT_FALSE(is_plausible_legal(b, Move::none()));
        EXPECT_FALSE(is_plausible_legal(b, Move::null()));
    }
    EXPECT_GT(legal_seen, 20000);
    EXPECT_GT(illegal_seen, 50000);
}

}  // namespace
}  // namespace engine
