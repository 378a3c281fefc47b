// GameRules's transition table, walked: every row taken by a game played here, each step landing
// in the stage its row names, and no event whose stage has no row for it moving a game on.
#include "service/game/game_stage.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "service/game/game_rules.hpp"
#include "tests/service/game/game_inputs.hpp"

namespace service {
// Not anonymous: the usings below stay in this file's own namespace in a unity batch.
namespace game_stage_test {

using namespace game_inputs;
using namespace std::chrono_literals;

struct StageStep {
    GameInput event;
    std::chrono::milliseconds at;
    Stage expect;
};

struct Walk {
    const char* name;
    std::vector<StageStep> steps;
    std::function<void(GameSettings&)> settings = nullptr;
};

void resign_at_once(GameSettings& s) {
    s.draw_or_resign.resign_enabled = true;
    s.draw_or_resign.resign_moves = 1;
}
void one_takeback(GameSettings& s) { s.max_takebacks_accepted = 1; }
GameInput kfen20(bool we_white, const std::string& moves = "") {
    return game::FullReceived{full_game(we_white, moves, kFen20)};
}
GameInput takeback_asked(const std::string& moves, bool by_black = true) {
    return with(state(moves),
                [by_black](auto& s) { (by_black ? s.btakeback : s.wtakeback) = true; });
}
// A search that found no move.
GameInput no_best() { return game::MoveChosen{.think_ms = 5, .search = engine::SearchResult{}}; }

using enum Stage;

const std::vector<Walk> kWalks = {
    {"OurMovePostedRetriedAndTaken",
     {{full(true), 0ms, Thinking},
      {searched("", "e2e4"), 100ms, Posting},
      {post_failed(false, 1000ms), 200ms, RetryWait},
      {tick(), 1200ms, Posting},
      {posted(), 1300ms, Moved},
      {moved("e2e4"), 1400ms, TheirTurn},
      {moved("e2e4 e7e5"), 2000ms, Thinking},
      {game::NoMoveChosen{}, 2100ms, Stalled},
      {ended("e2e4 e7e5", lichess::GameStatus::Resign, lichess::Color::White), 3000ms, Over}}},
    {"AMoveRefusedForGoodStallsUntilTheNextState",
     {{full(true), 0ms, Thinking},
      {searched("", "e2e4"), 100ms, Posting},
      {post_failed(true), 200ms, Stalled},
      {moved("e2e4"), 300ms, TheirTurn}}},
    {"ASearchWithoutAMoveStalls", {{full(true), 0ms, Thinking}, {no_best(), 100ms, Stalled}}},
    {"AGoneOpponentIsClaimed",
     {{full(false), 0ms, TheirTurn},
      {gone(0), 10ms, TheirTurn},
      {tick(), 310ms, Claiming},
      {claimed(true), 320ms, TheirTurn}}},
    {"AResignationTakenWaitsForTheEnd",
     {{kfen20(true), 0ms, Thinking},
      {searched("", "e1d1", -2000, "", kFen20), 100ms, Resigning},
      {game::ResignAnswered{Outcome{}}, 150ms, Resigned},
      {ended("", lichess::GameStatus::Resign, lichess::Color::Black), 200ms, Over}},
     resign_at_once},
    {"AResignationRefusedPlaysTheMove",
     {{kfen20(true), 0ms, Thinking},
      {online(MoveSource::Tablebase, "e1d1", engine::Score{true, -20}), 100ms, Resigning},
      {game::ResignAnswered{failed(false)}, 150ms, Posting}},
     resign_at_once},
    {"ATakebackDeclinedOnOurNewTurnThinks",
     {{full(false), 0ms, TheirTurn},
      {takeback_asked("e2e4", false), 100ms, AnsweringTakeback},
      {game::TakebackAnswered{false, Outcome{}}, 150ms, Thinking}}},
    {"ATakebackGrantedWaitsForTheShorterList",
     {{full(true), 0ms, Thinking},
      {searched("", "e2e4"), 100ms, Posting},
      {posted(), 150ms, Moved},
      {moved("e2e4"), 200ms, TheirTurn},
      {takeback_asked("e2e4 e7e5"), 300ms, AnsweringTakeback},
      {game::TakebackAnswered{true, Outcome{}}, 350ms, Stalled},
      {moved("e2e4"), 400ms, TheirTurn}},
     one_takeback},
    {"ATakebackAskedOnTheirTurnLeavesItTheirs",
     {{full(false), 0ms, TheirTurn},
      {takeback_asked("", false), 100ms, AnsweringTakeback},
      {game::TakebackAnswered{false, Outcome{}}, 150ms, TheirTurn}}},
    {"ATakebackAnsweredWhileOurMoveWaitsForItsRetry",
     {{full(true), 0ms, Thinking},
      {searched("", "e2e4"), 100ms, Posting},
      {post_failed(false, 10s), 150ms, RetryWait},
      {takeback_asked(""), 200ms, AnsweringTakeback},
      {game::TakebackAnswered{false, Outcome{}}, 250ms, RetryWait}},
     one_takeback},
    {"ATakebackAnsweredInAPositionOverByOurRulesLeaves",
     // White's king is home in this racing-kings start: nothing to search after the answer.
     {{game::FullReceived{[] {
           auto f = variant_game("racingKings", false, "", "K7/8/8/8/8/8/k7/8 b - - 0 1");
           f.state.wtakeback = true;
           return f;
       }()},
       0ms, AnsweringTakeback},
      {game::TakebackAnswered{false, Outcome{}}, 100ms, Left}}},
    {"AGameFullOfAnEndedGameIsOver",
     {{game::FullReceived{[] {
           auto f = full_game(true, "e2e4");
           f.state = state("e2e4", lichess::GameStatus::Resign);
           f.state.winner = lichess::Color::White;
           return f;
       }()},
       0ms, Over}}},
    {"AGameFullForAnotherGameLeaves",
     {{game::FullReceived{[] {
           auto f = full_game(true, "");
           f.id = "othergme";
           return f;
       }()},
       0ms, Left}}},
    {"AReconnectToAnEndedGameIsOver",
     {{full(true), 0ms, Thinking},
      {searched("", "e2e4"), 100ms, Posting},
      {posted(), 150ms, Moved},
      {game::FullReceived{[] {
           auto f = full_game(true, "e2e4 e7e5");
           f.state = state("e2e4 e7e5", lichess::GameStatus::Mate);
           return f;
       }()},
       300ms, Over}}},
    {"AReconnectWithALongerListThinksOrWaits",
     {{full(false), 0ms, TheirTurn},
      {full(false, "e2e4"), 100ms, Thinking},
      {full(false, "e2e4 e7e5 g1f3"), 200ms, Thinking}}},
    {"AReconnectAfterOurMoveShowsTheirTurn",
     {{full(true), 0ms, Thinking},
      {searched("", "e2e4"), 100ms, Posting},
      {posted(), 150ms, Moved},
      {full(true, "e2e4"), 300ms, TheirTurn}}},
    {"AReconnectBringsATakebackRequest",
     {{full(true), 0ms, Thinking},
      {searched("", "e2e4"), 100ms, Posting},
      {posted(), 150ms, Moved},
      {game::FullReceived{[] {
           auto f = full_game(true, "e2e4 e7e5");
           f.state.btakeback = true;
           return f;
       }()},
       300ms, AnsweringTakeback}},
     one_takeback},
    {"AReconnectWithAnIllegalListLeaves",
     {{full(false), 0ms, TheirTurn}, {full(false, "e2e4 e7e5 e1e3"), 100ms, Left}}},
    {"AnIllegalMoveListLeaves", {{full(false), 0ms, TheirTurn}, {moved("e2e5"), 100ms, Left}}},
    {"AnUnreadableLineLeaves",
     {{full(true), 0ms, Thinking}, {unreadable("gameState", "wtime"), 10ms, Left}}},
    {"AnUnreadableFirstLineLeaves", {{unreadable("gameFull", "clock"), 0ms, Left}}},
    {"ACorrespondenceSessionParksOnTheirTurn",
     {{full(false), 0ms, TheirTurn}, {tick(), 15s, Parked}},
     [](GameSettings& s) { s.parking = parking(15s); }},
    {"ACorrespondenceSessionParksWhenOurMoveWasRefused",
     {{full(true), 0ms, Thinking},
      {searched("", "e2e4"), 100ms, Posting},
      {post_failed(true), 200ms, Stalled},
      {tick(), 300ms, Stalled},
      {tick(), 15s, Parked}},
     [](GameSettings& s) { s.parking = parking(15s); }},
};

std::size_t row_index(const Transition* t) { return std::size_t(t - transitions().data()); }

TEST(GameStages, EveryRowOfTheTableIsTakenAndLandsWhereItSays) {
    std::set<std::size_t> taken;
    for (const Walk& walk : kWalks) {
        GameSettings s = base_settings();
        if (walk.settings) walk.settings(s);
        GameRules game(s);
        for (std::size_t i = 0; i < walk.steps.size(); ++i) {
            const StageStep& step = walk.steps[i];
            const Stage from = game.stage();
            (void)game.on(step.event, t0 + step.at);
            const std::string where = std::string(walk.name) + " step " + std::to_string(i + 1);
            EXPECT_EQ(to_string(game.stage()), std::string(to_string(step.expect))) << where;
            if (const Transition* t = game.last_transition()) {
                taken.insert(row_index(t));
                EXPECT_TRUE(t->from.contains(from)) << where;
                EXPECT_EQ(t->event, Event(step.event.index())) << where;
                EXPECT_EQ(t->to, game.stage()) << where;
            } else {
                EXPECT_EQ(game.stage(), from) << where << ": no row, yet the stage changed";
            }
        }
    }
    for (std::size_t i = 0; i < transitions().size(); ++i) {
        const Transition& t = transitions()[i];
        EXPECT_TRUE(taken.contains(i))
            << "row " << i + 1 << " (" << to_string(t.event) << ", " << to_string(t.guard) << " -> "
            << to_string(t.to) << ") is taken by no walk";
    }
}

TEST(GameStages, NoTwoRowsShareAStageAnEventAndAGuard) {
    const auto rows = transitions();
    for (std::size_t i = 0; i < rows.size(); ++i)
        for (std::size_t j = i + 1; j < rows.size(); ++j) {
            if (rows[i].event != rows[j].event || rows[i].guard != rows[j].guard) continue;
            for (int s = 0; s < kStageCount; ++s)
                EXPECT_FALSE(rows[i].from.contains(Stage(s)) && rows[j].from.contains(Stage(s)))
                    << "rows " << i + 1 << " and " << j + 1 << " in " << to_string(Stage(s));
        }
}

TEST(GameStages, NoRowLeavesAFinalStage) {
    for (const Transition& t : transitions())
        for (Stage s : {Over, Left, Parked}) EXPECT_FALSE(t.from.contains(s)) << to_string(s);
}

// How to bring a game to each stage (its settings and events), and a sample of each event.
struct Reach {
    Stage stage;
    std::vector<std::pair<GameInput, std::chrono::milliseconds>> events;
    std::function<void(GameSettings&)> settings = nullptr;
};

const std::vector<Reach> kReach = {
    {AwaitingGame, {}},
    {TheirTurn, {{full(false), 0ms}}},
    {Thinking, {{full(true), 0ms}}},
    {Posting, {{full(true), 0ms}, {searched("", "e2e4"), 10ms}}},
    {RetryWait, {{full(true), 0ms}, {searched("", "e2e4"), 10ms}, {post_failed(false, 1h), 20ms}}},
    {Moved, {{full(true), 0ms}, {searched("", "e2e4"), 10ms}, {posted(), 20ms}}},
    {Stalled, {{full(true), 0ms}, {game::NoMoveChosen{}, 10ms}}},
    {Resigning,
     {{kfen20(true), 0ms}, {searched("", "e1d1", -2000, "", kFen20), 10ms}},
     resign_at_once},
    {Resigned,
     {{kfen20(true), 0ms},
      {searched("", "e1d1", -2000, "", kFen20), 10ms},
      {game::ResignAnswered{Outcome{}}, 20ms}},
     resign_at_once},
    {AnsweringTakeback, {{full(false), 0ms}, {takeback_asked("", false), 10ms}}},
    {Claiming, {{full(false), 0ms}, {gone(0), 10ms}, {tick(), 400ms}}},
    {Over, {{full(true), 0ms}, {ended("", lichess::GameStatus::Aborted), 10ms}}},
    {Left, {{unreadable("gameFull", "id"), 0ms}}},
    {Parked,
     {{full(false), 0ms}, {game::Tick{.others_waiting = true}, 10ms}},
     [](GameSettings& s) { s.parking = parking(1h); }},
};

// Samples of each event, the harmless and the tempting (a far tick, refusals and answers).
std::vector<GameInput> samples(Event e) {
    switch (e) {
        case Event::Full:
            return {full(true), full(false, "e2e4")};
        case Event::State:
            return {moved(""), moved("e2e4"), ended("", lichess::GameStatus::Mate)};
        case Event::OpponentGone:
            return {gone(0), back()};
        case Event::Unreadable:
            return {unreadable("gameState", "wtime")};
        case Event::AbortTimerExtended:
            return {game::AbortTimerExtended{60s}};
        case Event::Tick:
            return {tick(), game::Tick{.others_waiting = true}};
        case Event::MoveChosen:
            return {searched("", "e2e4"), book("e2e4"), no_best()};
        case Event::NoMoveChosen:
            return {game::NoMoveChosen{}};
        case Event::MovePosted:
            return {posted(), post_failed(false), post_failed(true)};
        case Event::ResignAnswered:
            return {game::ResignAnswered{Outcome{}}, game::ResignAnswered{failed(false)}};
        case Event::TakebackAnswered:
            return {game::TakebackAnswered{true, Outcome{}},
                    game::TakebackAnswered{false, Outcome{}}};
        case Event::ClaimAnswered:
            return {claimed(true), claimed(false)};
    }
    return {};
}

TEST(GameStages, AnEventWithNoRowFromItsStageChangesNoStage) {
    int tried = 0;
    for (const Reach& reach : kReach) {
        for (int e = 0; e < kEventCount; ++e) {
            const Event event = Event(e);
            if (has_transition(reach.stage, event)) continue;
            for (const GameInput& sample : samples(event)) {
                ASSERT_EQ(Event(sample.index()), event);
                GameSettings s = base_settings();
                if (reach.settings) reach.settings(s);
                GameRules game(s);
                for (const auto& [input, at] : reach.events) (void)game.on(input, t0 + at);
                ASSERT_EQ(game.stage(), reach.stage) << "reaching " << to_string(reach.stage);
                (void)game.on(sample, t0 + 2h);
                EXPECT_EQ(to_string(game.stage()), std::string(to_string(reach.stage)))
                    << to_string(event) << " in " << to_string(reach.stage);
                EXPECT_EQ(game.last_transition(), nullptr);
                ++tried;
            }
        }
    }
    EXPECT_GT(tried, 100);  // most pairs have no row: each was tried
}

TEST(GameStages, EveryStageIsReachedByTheTests) {
    std::set<Stage> reached;
    for (const Reach& r : kReach) reached.insert(r.stage);
    EXPECT_EQ(int(reached.size()), kStageCount);
}

TEST(GameStages, ThePhaseIsTheStagesSummary) {
    EXPECT_EQ(phase_of(AwaitingGame), Phase::AwaitingGame);
    for (Stage s : {TheirTurn, Thinking, Posting, RetryWait, Moved, Stalled, Resigning, Resigned,
                    AnsweringTakeback, Claiming})
        EXPECT_EQ(phase_of(s), Phase::Playing) << to_string(s);
    EXPECT_EQ(phase_of(Over), Phase::Over);
    EXPECT_EQ(phase_of(Left), Phase::Left);
    EXPECT_EQ(phase_of(Parked), Phase::Parked);
}

}  // namespace game_stage_test
}  // namespace service
