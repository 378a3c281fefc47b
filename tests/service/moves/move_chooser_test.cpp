// choose_move as a table: each row is one rule of where a move comes from, played against fake
// sources that record what they were asked. No engine search, no network, no clock.
#include "service/moves/move_chooser.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "engine/fen.hpp"

namespace service {
namespace {

engine::Position start() { return *engine::Position::from_fen(engine::START_FEN, false); }

// Sources that answer as a row says, and write down each question (in order) as a word.
struct FakeSources final : MoveSources {
    std::optional<std::string> book;            // a book move (uci)
    bool online_on = false;                     // online_moves.* enabled
    std::optional<OnlineChoice> online;         // what the online sources answer
    std::chrono::milliseconds online_takes{0};  // how long they take to answer
    std::optional<std::string> pondered;        // the ponder search's best move on a hit
    std::string best = "e2e4";                  // the search's best move; "": none
    bool local = false;                         // the local tables cover the position
    engine::RootTables root_tables = engine::RootTables::None;  // what chose the root's moves
    bool over_at_start = false;                                 // the game ended before the Think
    bool over_in_search = false;                                // ... while the search ran
    mutable std::chrono::steady_clock::time_point t{};
    std::vector<std::string> asked;
    engine::SearchLimits searched_with{};
    bool over = false;

    std::optional<BookChoice> book_move(const game::Think&) override {
        asked.push_back("book");
        if (!book) return std::nullopt;
        return BookChoice{
            .move = *start().parse_uci(*book), .uci = *book, .weight = 7, .file = "test.bin"};
    }
    bool local_tables_cover(const engine::Position&) override {
        asked.push_back(local ? "local tables: yes" : "local tables: no");
        return local;
    }
    bool online_enabled() const override { return online_on; }
    std::optional<OnlineChoice> online_move(const engine::Position&,
                                            const OnlineAsk& ask) override {
        asked.push_back("online within " + std::to_string(ask.deadline.count()) + "ms");
        t += online_takes;
        return online;
    }
    std::optional<engine::SearchResult> finish_ponder(bool hit) override {
        asked.push_back(hit ? "ponder hit" : "ponder stop");
        if (!hit || !pondered) return std::nullopt;
        engine::SearchResult r;
        const auto square = [](std::string_view s) {
            return engine::make_square(s[0] - 'a', s[1] - '1');
        };
        r.best = engine::Move(square(pondered->substr(0, 2)), square(pondered->substr(2, 2)));
        return r;
    }
    engine::SearchResult search(const engine::Position& position,
                                const engine::SearchLimits& limits) override {
        using namespace std::chrono_literals;
        asked.push_back("search");
        searched_with = limits;
        t += 50ms;
        over = over_in_search;
        engine::SearchResult r;
        if (!best.empty()) r.best = *position.parse_uci(best);
        r.root_tables = root_tables;
        return r;
    }
    bool final_state_seen() const override { return over || over_at_start; }
    std::chrono::steady_clock::time_point now() const override { return t; }
};

OnlineChoice online_move(MoveSource source, std::string uci, std::vector<std::string> among = {}) {
    OnlineChoice c;
    c.source = source;
    c.uci = std::move(uci);
    c.note = "from the test";
    c.search_among = std::move(among);
    return c;
}

// The Think of White's first move with 60 s on the clock and a 1 s movetime.
game::Think think(bool ponder_hit = false) {
    MoveClock clock;
    clock.our_ms = 60000;
    clock.their_ms = 60000;
    MovePlan plan;
    plan.limits.movetime = 1000;
    plan.limits.wtime = 60000;
    return game::Think{.position = start(),
                       .variant = "standard",
                       .clock = clock,
                       .plan = plan,
                       .fullmove = 1,
                       .ponder_hit = ponder_hit};
}

// "book e2e4", "explorer d2d4", "search e2e4 (ponder hit)", "none".
std::string summary(const GameInput& input) {
    if (!std::holds_alternative<game::MoveChosen>(input)) return "none";
    const auto& m = std::get<game::MoveChosen>(input);
    if (m.source == MoveSource::Syzygy && m.search && m.uci != start().to_uci(m.search->best))
        return "syzygy move " + m.uci + " is not the search's";
    if (m.source == MoveSource::Search)
        return "search " + start().to_uci(m.search->best) + (m.ponder_hit ? " (ponder hit)" : "");
    return std::string(to_string(m.source)) + " " + m.uci;
}

std::string joined(const std::vector<std::string>& words) {
    std::string s;
    for (const auto& w : words) s += (s.empty() ? "" : ", ") + w;
    return s;
}

struct ChooserRow {
    const char* name;
    std::function<void(FakeSources&)> setup;
    bool ponder_hit = false;
    std::string chosen;  // summary() of the answer
    std::string asked;   // the questions, in order
};

std::ostream& operator<<(std::ostream& os, const ChooserRow& r) { return os << r.name; }

const std::vector<ChooserRow> kChooserRows = {
    {"TheBookAnswersFirstAndEndsThePonderSearch",
     [](FakeSources& s) {
         s.book = "d2d4";
         s.online_on = true;
         s.online = online_move(MoveSource::Explorer, "e2e4");
     },
     false, "book d2d4", "book, ponder stop"},
    {"WithoutABookMoveTheOnlineSourcesAreAsked",
     [](FakeSources& s) {
         s.online_on = true;
         s.online = online_move(MoveSource::Explorer, "c2c4");
     },
     false, "explorer c2c4", "book, local tables: no, online within 2000ms, ponder stop"},
    {"NoOnlineAnswerLeavesTheMoveToTheSearch", [](FakeSources& s) { s.online_on = true; }, false,
     "search e2e4", "book, local tables: no, online within 2000ms, ponder stop, search"},
    {"NoOnlineSourceEnabledAsksNone", [](FakeSources&) {}, false, "search e2e4",
     "book, local tables: no, ponder stop, search"},
    {"APonderHitGoesOnWithThePonderSearch",
     [](FakeSources& s) {
         s.online_on = true;
         s.pondered = "g1f3";
     },
     true, "search g1f3 (ponder hit)", "book, local tables: no, ponder hit"},
    {"APonderHitWithAnIllegalMoveSearchesAfresh", [](FakeSources& s) { s.pondered = "e7e5"; }, true,
     "search e2e4", "book, local tables: no, ponder hit, search"},
    {"ATablebaseSuggestionKeepsTheSearchsMoveWhenItKeepsTheResult",
     [](FakeSources& s) {
         s.online_on = true;
         s.online = online_move(MoveSource::Tablebase, "d2d4", {"d2d4", "e2e4"});
     },
     false, "search e2e4", "book, local tables: no, online within 2000ms, ponder stop, search"},
    {"ATablebaseSuggestionReplacesASearchedMoveThatSpoilsTheResult",
     [](FakeSources& s) {
         s.online_on = true;
         s.online = online_move(MoveSource::Tablebase, "d2d4", {"d2d4", "c2c4"});
     },
     false, "tablebase d2d4", "book, local tables: no, online within 2000ms, ponder stop, search"},
    {"LocalTablesComeBeforeTheOnlineSourcesAndNameTheMove",
     [](FakeSources& s) {
         s.local = true;
         s.online_on = true;
         s.online = online_move(MoveSource::Tablebase, "d2d4", {"d2d4"});
         s.root_tables = engine::RootTables::Syzygy;
     },
     false, "syzygy e2e4", "book, local tables: yes, ponder stop, search"},
    {"GaviotaTablesKeepTheNetworkOutAndTheMoveIsASearchedOne",
     [](FakeSources& s) {
         s.local = true;
         s.online_on = true;
         s.root_tables = engine::RootTables::Gaviota;
     },
     false, "search e2e4", "book, local tables: yes, ponder stop, search"},
    {"AGameOverBeforeTheThinkAsksNothing", [](FakeSources& s) { s.over_at_start = true; }, false,
     "none", ""},
    {"AGameOverDuringTheSearchPlaysNothing", [](FakeSources& s) { s.over_in_search = true; }, false,
     "none", "book, local tables: no, ponder stop, search"},
    {"ASearchThatFoundNothingPlaysNothing", [](FakeSources& s) { s.best = ""; }, false, "none",
     "book, local tables: no, ponder stop, search"},
};

class ChooserTable : public ::testing::TestWithParam<ChooserRow> {};

TEST_P(ChooserTable, Row) {
    const ChooserRow& row = GetParam();
    FakeSources sources;
    row.setup(sources);
    const GameInput answer = choose_move(think(row.ponder_hit), sources);
    EXPECT_EQ(summary(answer), row.chosen);
    EXPECT_EQ(joined(sources.asked), row.asked);
}

INSTANTIATE_TEST_SUITE_P(MoveChooser, ChooserTable, ::testing::ValuesIn(kChooserRows),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(MoveChooser, TheSearchDoesWithoutTheTimeTheOnlineLookupTook) {
    using namespace std::chrono_literals;
    FakeSources sources;
    sources.online_on = true;
    sources.online_takes = 300ms;
    const GameInput answer = choose_move(think(), sources);
    EXPECT_EQ(summary(answer), "search e2e4");
    EXPECT_EQ(sources.searched_with.movetime, 700);
    EXPECT_EQ(sources.searched_with.wtime, 59700);
    EXPECT_EQ(sources.searched_with.btime, engine::SearchLimits{}.btime);  // unset stays unset
    // The move's think time runs from the Think: the lookup and the search.
    EXPECT_EQ(std::get<game::MoveChosen>(answer).think_ms, 350);
}

TEST(MoveChooser, ABookMoveSaysWhereItCameFrom) {
    FakeSources sources;
    sources.book = "e2e4";
    const auto answer = std::get<game::MoveChosen>(choose_move(think(), sources));
    EXPECT_EQ(answer.note, "weight 7 from test.bin");
    EXPECT_FALSE(answer.search.has_value());
}

TEST(MoveChooser, ATableMoveThatReplacesTheSearchsKeepsTheTablesScoreAndSaysSo) {
    FakeSources sources;
    sources.online_on = true;
    sources.online = online_move(MoveSource::Tablebase, "d2d4", {"d2d4"});
    sources.online->score = engine::Score{true, 5};
    const auto answer = std::get<game::MoveChosen>(choose_move(think(), sources));
    EXPECT_EQ(answer.uci, "d2d4");
    ASSERT_TRUE(answer.score.has_value());
    EXPECT_TRUE(answer.score->is_mate);
    EXPECT_EQ(answer.note, "from the test, not the search's move");
}

struct LookupRow {
    std::int64_t movetime, wtime, btime;
    engine::Color us;
    std::int64_t spent;
    std::int64_t movetime_after, wtime_after, btime_after;
};

TEST(MoveChooser, TakeLookupTimeTable) {
    const LookupRow rows[] = {
        // A movetime and our clock shrink by what the lookup took.
        {1000, 60000, 60000, engine::WHITE, 300, 700, 59700, 60000},
        {1000, 60000, 50000, engine::BLACK, 300, 700, 60000, 49700},
        // Never below 10 ms of movetime nor 1 ms of clock.
        {100, 200, 0, engine::WHITE, 500, 10, 1, 0},
        // Limits that are not set stay unset.
        {0, 0, 0, engine::WHITE, 300, 0, 0, 0},
    };
    for (const auto& r : rows) {
        engine::SearchLimits limits;
        limits.movetime = r.movetime;
        limits.wtime = r.wtime;
        limits.btime = r.btime;
        take_lookup_time(limits, r.us, r.spent);
        EXPECT_EQ(limits.movetime, r.movetime_after);
        EXPECT_EQ(limits.wtime, r.wtime_after);
        EXPECT_EQ(limits.btime, r.btime_after);
    }
}

}  // namespace
}  // namespace service
