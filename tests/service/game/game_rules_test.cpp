// GameRules as a table: each row is one rule of a game, played as a list of events at given
// times, with the actions expected after each (logs left out). No thread, no I/O, no clock.
#include "service/game/game_rules.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <ostream>

#include "tests/service/game/game_inputs.hpp"

namespace service {
// Not anonymous: the usings below stay in this file's own namespace in a unity batch.
namespace game_rules_test {

using namespace game_inputs;

// ---- actions, in short ----------------------------------------------------------------------

std::string summary(const GameAction& action) {
    return std::visit(
        [](const auto& a) -> std::string {
            using T = std::decay_t<decltype(a)>;
            if constexpr (std::is_same_v<T, game::Think>)
                return a.ponder_hit ? "think (ponder hit)" : "think";
            else if constexpr (std::is_same_v<T, game::PostMove>)
                return "post " + a.uci + (a.offer_draw ? " +draw" : "");
            else if constexpr (std::is_same_v<T, game::AcceptDraw>)
                return "draw yes";
            else if constexpr (std::is_same_v<T, game::AnswerTakeback>)
                return a.accept ? "takeback yes" : "takeback no";
            else if constexpr (std::is_same_v<T, game::Resign>)
                return "resign";
            else if constexpr (std::is_same_v<T, game::Abort>)
                return "abort";
            else if constexpr (std::is_same_v<T, game::ClaimVictory>)
                return "claim";
            else if constexpr (std::is_same_v<T, game::LeaveGame>)
                return a.abort ? "leave (abort)" : "leave (resign)";
            else if constexpr (std::is_same_v<T, game::Say>)
                return a.room == lichess::ChatRoom::Player ? "say player" : "say spectator";
            else if constexpr (std::is_same_v<T, game::StartPonder>)
                return "ponder";
            else if constexpr (std::is_same_v<T, game::StopPonder>)
                return "ponder stop";
            else if constexpr (std::is_same_v<T, game::MovePlayed>)
                return "played";
            else if constexpr (std::is_same_v<T, game::GameEnded>)
                return std::string("ended ") + to_string(a.result) +
                       (a.lost_on_time ? " on time" : "") + " " + a.record.result;
            else
                return "";  // logs
        },
        action);
}

std::string summary(const std::vector<GameAction>& actions) {
    std::string s;
    for (const auto& a : actions) {
        const std::string one = summary(a);
        if (one.empty()) continue;
        s += (s.empty() ? "" : ", ") + one;
    }
    return s;
}

// ---- the table ------------------------------------------------------------------------------

// A King of the Hill game at move 20 (a row may resign there).
constexpr const char* kHill20 = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 20";

struct Step {
    GameInput event;
    std::chrono::milliseconds at;
    std::string expect;  // summary() of the actions
};

struct RulesRow {
    const char* name;
    std::vector<Step> steps;
    std::function<void(GameSettings&)> settings = nullptr;
    Phase phase_after = Phase::Playing;
};

std::ostream& operator<<(std::ostream& os, const RulesRow& r) { return os << r.name; }

const std::string kHello = "say player, say spectator";
const std::string kBye = "ponder stop, say player, say spectator";
// We play white, moved e2e4 and the server showed it at 1 s: black to move.
std::vector<Step> white_moved() {
    using namespace std::chrono_literals;
    return {{full(true), 0ms, kHello + ", think"},
            {searched("", "e2e4"), 100ms, "post e2e4"},
            {posted(), 150ms, "played"},
            {moved("e2e4"), 1000ms, ""}};
}
// We play black, answered e2e4 with e7e5: white (who has moved) to move.
std::vector<Step> black_moved() {
    using namespace std::chrono_literals;
    return {{full(false, "e2e4"), 0ms, kHello + ", think"},
            {searched("e2e4", "e7e5"), 100ms, "post e7e5"},
            {posted(), 150ms, "played"},
            {moved("e2e4 e7e5"), 1000ms, ""}};
}
std::vector<Step> plus(std::vector<Step> a, std::vector<Step> b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

// The rows' times are chrono literals; the using that brings them in stays in this block.
namespace rules_table {
using namespace std::chrono_literals;
const std::vector<RulesRow> kRulesRows = {
    // First moves, greetings, searching only on a new move list.
    {"WhiteGreetsAndThinksAtOnce", {{full(true), 0ms, kHello + ", think"}}},
    {"BlackGreetsAndWaitsForWhite", {{full(false), 0ms, kHello}, {moved("e2e4"), 500ms, "think"}}},
    {"AStateBeforeGameFullIsIgnored",
     {{moved("e2e4"), 0ms, ""}, {tick(), 1ms, ""}},
     nullptr,
     Phase::AwaitingGame},
    {"ASearchedMoveIsPostedAndCountedWhenTaken", white_moved()},
    {"ABookMoveIsPosted",
     {{full(true), 0ms, kHello + ", think"},
      {book("e2e4"), 5ms, "post e2e4"},
      {posted(), 10ms, "played"}}},
    {"OurOwnMoveShownByTheServerStartsNoSearchTheReplyDoes",
     plus(white_moved(), {{moved("e2e4 e7e5"), 2000ms, "think"}})},
    {"ARestartedSessionMidGameDoesNotGreet", {{full(true, "e2e4 e7e5"), 0ms, "think"}}},
    {"ASessionAfterOnePlyStillGreets", {{full(false, "e2e4"), 0ms, kHello + ", think"}}},
    {"AReconnectWithTheSameListStartsNothing",
     plus(white_moved(), {{full(true, "e2e4"), 3000ms, ""}, {tick(), 3001ms, ""}})},
    {"AReconnectWithALongerListThinks",
     plus(white_moved(), {{full(true, "e2e4 e7e5"), 3000ms, "think"}})},
    {"AMoveChosenAfterTheServerMovedOnIsDropped",
     {{full(true), 0ms, kHello + ", think"},
      {moved("e2e4"), 10ms, ""},  // another client of ours moved
      {searched("", "d2d4"), 20ms, ""}}},
    {"AStoppedSearchPostsNothing",
     {{full(true), 0ms, kHello + ", think"},
      {game::NoMoveChosen{}, 20ms, ""},
      {tick(), 5000ms, ""}}},

    // Online sources (online_moves.*): played like book moves; a score counts like a search's.
    {"AnExplorerMoveIsPostedWithoutASearch",
     {{full(true), 0ms, kHello + ", think"},
      {online(MoveSource::Explorer, "e2e4"), 40ms, "post e2e4"},
      {posted(), 60ms, "played"}}},
    {"ATablebaseLossResignsWhenThePolicySaysSo",
     {{game::FullReceived{full_game(true, "", kFen20)}, 0ms, kHello + ", think"},
      {online(MoveSource::Tablebase, "e1d1", engine::Score{true, -20}), 40ms, "resign"}},
     [](GameSettings& s) {
         s.draw_or_resign.resign_enabled = true;
         s.draw_or_resign.resign_moves = 1;
     }},
    {"ATablebaseDrawOffersADraw",
     {{game::FullReceived{full_game(true, "e1d1 e8d8", kFen20)}, 0ms, "think"},
      {online(MoveSource::Tablebase, "d1c1", engine::Score{false, 0}), 40ms, "post d1c1 +draw"}},
     [](GameSettings& s) { s.draw_or_resign.offer_draw_moves = 1; }},
    {"AnUnscoredOnlineMoveNeitherResignsNorOffers",
     {{game::FullReceived{full_game(true, "", kFen20)}, 0ms, kHello + ", think"},
      {online(MoveSource::Chessdb, "e1d1"), 40ms, "post e1d1"}},
     [](GameSettings& s) {
         s.draw_or_resign.resign_enabled = true;
         s.draw_or_resign.resign_moves = 1;
         s.draw_or_resign.offer_draw_moves = 1;
     }},

    // Every Lichess variant: rebuilt from its own start or initialFen, drops and both castling
    // forms, the score of a variant's win for draw_or_resign, pondering and takebacks.
    {"ACrazyhouseGameReplaysCapturesAndPostsADrop",
     {{variant_full("crazyhouse", true, "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5"), 0ms, "think"},
      {searched_in(engine::Variant::CRAZYHOUSE, "e2e4 d7d5 e4d5 d8d5 b1c3 d5a5", "P@d4"), 100ms,
       "post P@d4"},
      {posted(), 150ms, "played"},
      {moved("e2e4 d7d5 e4d5 d8d5 b1c3 d5a5 P@d4 P@e6"), 1000ms, "think"}}},
    {"AHordeGameStartsFromTheHordesOwnStart",
     // b5b6 exists only in the horde's start position: a standard board would refuse it.
     {{variant_full("horde", false), 0ms, kHello}, {moved("b5b6"), 100ms, "think"}}},
    {"ARacingKingsTakebackRebuildsFromItsOwnStart",
     {{variant_full("racingKings", true, "h2h3 a2a3"), 0ms, "think"},
      {searched_in(engine::Variant::RACING_KINGS, "h2h3 a2a3", "h3h4"), 100ms, "post h3h4"},
      {posted(), 150ms, "played"},
      {moved("h2h3 a2a3 h3h4"), 200ms, ""},
      {moved("h2h3 a2a3"), 300ms, "think"}}},
    {"AVariantWinInTheSearchIsAMateForTheResignRule",
     // Being mated in 3 by a king reaching the hill counts as a mate: resign_score is met.
     {{variant_full("kingOfTheHill", true, "", kHill20), 0ms, kHello + ", think"},
      {searched_in(engine::Variant::KING_OF_THE_HILL, "", "e1d1", 0, kHill20,
                   engine::Score{true, -3}),
       100ms, "resign"}},
     [](GameSettings& s) {
         s.draw_or_resign.resign_enabled = true;
         s.draw_or_resign.resign_moves = 1;
     }},
    {"AGoneOpponentInAVariantGameIsClaimed",
     {{variant_full("atomic", false, "e2e4"), 0ms, kHello + ", think"},
      {searched_in(engine::Variant::ATOMIC, "e2e4", "e7e5"), 100ms, "post e7e5"},
      {posted(), 150ms, "played"},
      {moved("e2e4 e7e5"), 1000ms, ""},
      {gone(0), 2000ms, ""},
      {tick(), 2300ms, "claim"}}},
    {"PonderInAVariantGame",
     {{variant_full("threeCheck", true), 0ms, kHello + ", think"},
      {[] {
           auto pos = engine::Position::start(engine::Variant::THREE_CHECK);
           engine::SearchResult r;
           r.best = *pos.parse_uci("e2e4");
           pos.play(r.best);
           r.ponder = *pos.parse_uci("e7e5");
           return GameInput{game::MoveChosen{.think_ms = 50, .search = r}};
       }(),
       100ms, "post e2e4"},
      {posted(), 150ms, "played, ponder"},
      {moved("e2e4"), 200ms, ""},
      {moved("e2e4 e7e5"), 900ms, "think (ponder hit)"}},
     [](GameSettings& s) { s.ponder = true; }},

    // The abort timer.
    {"WhiteAbortsWhenBlackNeverMoves",
     plus(white_moved(), {{tick(), 20'999ms, ""}, {tick(), 21'001ms, "abort"}, {tick(), 40s, ""}})},
    {"BlackAbortsWhenWhiteNeverMoves",
     {{full(false), 0ms, kHello}, {tick(), 20'000ms, ""}, {tick(), 20'001ms, "abort"}}},
    {"WaitInTheChatExtendsTheAbortTimer",
     {{full(false), 0ms, kHello},
      {game::AbortTimerExtended{60s}, 1000ms, ""},
      {tick(), 21s, ""},
      {tick(), 80'001ms, "abort"}}},
    {"NoAbortOnceTheOpponentMoved",
     {{full(false), 0ms, kHello},
      {moved("e2e4"), 5000ms, "think"},
      {searched("e2e4", "e7e5"), 5100ms, "post e7e5"},
      {posted(), 5200ms, "played"},
      {moved("e2e4 e7e5"), 5300ms, ""},
      {tick(), 60s, ""}}},
    {"CorrespondenceIsNeverAborted",
     {{full(false), 0ms, kHello}, {tick(), 3600s, ""}},
     [](GameSettings& s) { s.parking = parking(24h); }},

    // What lila lets us do in a game (GameRights): arena, simul and swiss games, challenge rules.
    {"AnArenaGameIsNeverAbortedForANoShow",
     plus(white_moved(), {{tick(), 21'001ms, ""}, {tick(), 60s, ""}}),
     [](GameSettings& s) { s.rights = rights_of("arena", true); }},
    {"AGameFullNamingItsArenaMakesItAnArenaGame",
     {{game::FullReceived{in_arena(full_game(false, ""))}, 0ms, kHello},
      {tick(), 20'001ms, ""},
      {tick(), 60s, ""}}},
    {"TheNoAbortRuleKeepsTheAbortTimerOff",
     {{full(false), 0ms, kHello}, {tick(), 20'001ms, ""}},
     [](GameSettings& s) { s.rights = rights_of("friend", false, {"noAbort"}); }},
    {"BadInputInAnArenaGameResignsSinceNothingCanAbortIt",
     {{game::FullReceived{in_arena(full_game(true, "", "not a fen"))}, 0ms,
       "ponder stop, leave (resign)"}},
     nullptr,
     Phase::Left},
    {"NoTakebackIsAnsweredInAnArenaGame",
     plus(white_moved(),
          {{with(state("e2e4 e7e5"), [](auto& s) { s.btakeback = true; }), 2000ms, "think"}}),
     [](GameSettings& s) {
         s.max_takebacks_accepted = 1;
         s.rights = rights_of("arena", true);
     }},
    {"TheNoEarlyDrawRuleHoldsOffersBackUntilPly60",
     {{game::FullReceived{full_game(true, "e1d1 e8d8", kFen20)}, 0ms, "think"},
      {searched("e1d1 e8d8", "d1c1", 0, "", kFen20), 100ms, "post d1c1"}},
     [](GameSettings& s) {
         s.draw_or_resign.offer_draw_moves = 1;
         s.rights = rights_of("friend", false, {"noEarlyDraw"});
     }},
    {"NoClaimInASwissGameOrWithTheNoClaimWinRule",
     plus(black_moved(), {{gone(10), 2000ms, ""}, {tick(), 13s, ""}, {tick(), 60s, ""}}),
     [](GameSettings& s) { s.rights = rights_of("friend", false, {"noClaimWin"}); }},

    // Draw offers and resigning (draw_or_resign).
    {"ADrawOfferIsDeclinedByMovingNoRequest",
     {{full(false), 0ms, kHello},
      {with(state("e2e4"), [](auto& s) { s.wdraw = true; }), 100ms, "think"},
      {with(state("e2e4"), [](auto& s) { s.wdraw = true; }), 200ms, ""}}},
    {"ADrawOfferIsAcceptedWhenThePolicyWouldOffer",
     {{game::FullReceived{full_game(false, "", kFen20)}, 0ms, kHello},
      {moved("e1d1"), 100ms, "think"},
      // lila counts no draw offer before both sides moved (abortable, not drawable).
      {searched("e1d1", "e8d8", 0, "", kFen20), 200ms, "post e8d8"},
      {posted(), 300ms, "played"},
      {moved("e1d1 e8d8"), 400ms, ""},
      {with(state("e1d1 e8d8 d1e1"), [](auto& s) { s.wdraw = true; }), 500ms, "draw yes, think"}},
     [](GameSettings& s) {
         s.draw_or_resign.offer_draw_moves = 1;
         s.draw_or_resign.offer_draw_score = 10;
     }},
    {"ResignsWhenThePolicySaysSo",
     {{game::FullReceived{full_game(true, "", kFen20)}, 0ms, kHello + ", think"},
      {searched("", "e1d1", -2000, "", kFen20), 100ms, "resign"},
      {game::ResignAnswered{Outcome{}}, 150ms, ""},
      {ended("", lichess::GameStatus::Resign, lichess::Color::Black), 200ms,
       kBye + ", ended loss 0-1"}},
     [](GameSettings& s) {
         s.draw_or_resign.resign_enabled = true;
         s.draw_or_resign.resign_moves = 1;
     },
     Phase::Over},
    {"AFailedResignPlaysTheMoveInstead",
     {{game::FullReceived{full_game(true, "", kFen20)}, 0ms, kHello + ", think"},
      {searched("", "e1d1", -2000, "", kFen20), 100ms, "resign"},
      {game::ResignAnswered{failed(false)}, 150ms, "post e1d1"},
      {posted(), 200ms, "played"}},
     [](GameSettings& s) {
         s.draw_or_resign.resign_enabled = true;
         s.draw_or_resign.resign_moves = 1;
     }},
    {"NeverResignsBeforeMoveTen",
     {{full(true), 0ms, kHello + ", think"}, {searched("", "e2e4", -2000), 100ms, "post e2e4"}},
     [](GameSettings& s) {
         s.draw_or_resign.resign_enabled = true;
         s.draw_or_resign.resign_moves = 1;
     }},

    // Takebacks (max_takebacks_accepted).
    {"ATakebackIsGrantedThenTheShorterListIsPlayedFrom",
     plus(white_moved(),
          {{with(state("e2e4 e7e5"), [](auto& s) { s.btakeback = true; }), 2000ms, "takeback yes"},
           {game::TakebackAnswered{true, Outcome{}}, 2100ms, ""},
           {moved("e2e4"), 2200ms, ""},
           {moved("e2e4 d7d5"), 3000ms, "think"}}),
     [](GameSettings& s) { s.max_takebacks_accepted = 1; }},
    {"ATakebackBeyondTheLimitIsDeclinedAndWeMove",
     plus(white_moved(),
          {{with(state("e2e4 e7e5"), [](auto& s) { s.btakeback = true; }), 2000ms, "takeback no"},
           {game::TakebackAnswered{false, Outcome{}}, 2100ms, "think"}})},
    {"AFailedTakebackYesStillMoves",
     plus(white_moved(),
          {{with(state("e2e4 e7e5"), [](auto& s) { s.btakeback = true; }), 2000ms, "takeback yes"},
           {game::TakebackAnswered{true, failed(true)}, 2100ms, "think"}}),
     [](GameSettings& s) { s.max_takebacks_accepted = 1; }},
    {"ATakebackShorteningTheListToOurTurnMakesUsMoveAgain",
     {{full(true, "e2e4 e7e5"), 0ms, "think"},
      {searched("e2e4 e7e5", "g1f3"), 100ms, "post g1f3"},
      {posted(), 150ms, "played"},
      {moved("e2e4 e7e5 g1f3"), 200ms, ""},
      {moved("e2e4 e7e5"), 300ms, "think"}}},

    // Move posts that fail.
    {"A429IsRetriedAfterItsRetryAfter",
     {{full(true), 0ms, kHello + ", think"},
      {searched("", "e2e4"), 100ms, "post e2e4"},
      {post_failed(false, 1000ms), 200ms, ""},
      {tick(), 1199ms, ""},
      {tick(), 1200ms, "post e2e4"},
      {posted(), 1300ms, "played"}}},
    {"A5xxIsRetriedAfterTheMoveRetryWait",
     {{full(true), 0ms, kHello + ", think"},
      {searched("", "e2e4"), 100ms, "post e2e4"},
      {post_failed(false), 200ms, ""},
      {tick(), 449ms, ""},
      {tick(), 450ms, "post e2e4"}}},
    {"ARetriedMoveKeepsItsDrawOffer",
     {{game::FullReceived{full_game(true, "e1d1 e8d8", kFen20)}, 0ms, "think"},
      {searched("e1d1 e8d8", "d1c1", 0, "", kFen20), 100ms, "post d1c1 +draw"},
      {post_failed(false), 200ms, ""},
      {tick(), 450ms, "post d1c1 +draw"}},
     [](GameSettings& s) { s.draw_or_resign.offer_draw_moves = 1; }},
    {"A4xxOnAMoveIsFinal",
     {{full(true), 0ms, kHello + ", think"},
      {searched("", "e2e4"), 100ms, "post e2e4"},
      {post_failed(true), 200ms, ""},
      {tick(), 10s, ""}}},
    {"AShutdownCancelIsFinal",
     {{full(true), 0ms, kHello + ", think"},
      {searched("", "e2e4"), 100ms, "post e2e4"},
      {game::MovePosted{Outcome{.ok = false,
                                .final_no = false,
                                .cancelled = true,
                                .game_over = false,
                                .retry_after = std::nullopt,
                                .error = "cancelled"}},
       200ms, ""},
      {tick(), 10s, ""}}},
    // A 429's wait (the client gives at most 3 s) never outlasts our clock: with 2 s left the
    // move goes again after a quarter of what is left (450 ms), not after 3 s.
    {"A429NeverWaitsPastOurFlag",
     {{full_with_clock("e2e4 e7e5", 2000), 0ms, "think"},
      {searched("e2e4 e7e5", "g1f3"), 200ms, "post g1f3"},
      {post_failed(false, 3000ms), 200ms, ""},
      {tick(), 649ms, ""},
      {tick(), 650ms, "post g1f3"},
      {post_failed(false, 3000ms), 650ms, ""},
      {tick(), 987ms, "post g1f3"}}},
    {"A429WithTimeToSpareWaitsItsRetryAfter",
     {{full_with_clock("e2e4 e7e5", 50'000), 0ms, "think"},
      {searched("e2e4 e7e5", "g1f3"), 200ms, "post g1f3"},
      {post_failed(false, 3000ms), 200ms, ""},
      {tick(), 3199ms, ""},
      {tick(), 3200ms, "post g1f3"}}},
    {"ARetryIsDroppedWhenTheServersListMovedOn",
     {{full(true), 0ms, kHello + ", think"},
      {searched("", "e2e4"), 100ms, "post e2e4"},
      {post_failed(false, 5000ms), 200ms, ""},
      {moved("e2e4"), 300ms, ""},  // the move was taken after all
      {tick(), 6000ms, ""}}},
    {"AStateThatMovesNothingKeepsTheRetryAndStartsNoSearch",
     {{full(true), 0ms, kHello + ", think"},
      {searched("", "e2e4"), 100ms, "post e2e4"},
      {post_failed(false, 1000ms), 200ms, ""},
      {with(state(""), [](auto& s) { s.bdraw = true; }), 300ms, ""},
      {tick(), 1200ms, "post e2e4"}}},

    // opponentGone and claims (lila: only on the gone opponent's turn).
    {"AGoneOpponentIsClaimedAfterItsSecondsOnItsTurn",
     plus(black_moved(), {{gone(10), 2000ms, ""},
                          {tick(), 12'299ms, ""},
                          {tick(), 12'300ms, "claim"},
                          {claimed(true), 12'310ms, ""},
                          {tick(), 14'309ms, ""},
                          {tick(), 14'310ms, "claim"}})},
    {"NoClaimOnOurTurnUntilWeMoved",
     {{full(true), 0ms, kHello + ", think"},
      {gone(0), 10ms, ""},
      {tick(), 5000ms, ""},
      {searched("", "e2e4"), 5100ms, "post e2e4"},
      {posted(), 5200ms, "played"},
      {moved("e2e4"), 5300ms, ""},
      {tick(), 5400ms, "claim"}}},
    {"AClaimRefusedWith4xxWaitsForTheNextGoneLine",
     plus(black_moved(), {{gone(0), 2000ms, ""},
                          {tick(), 2300ms, "claim"},
                          {claimed(false, true), 2310ms, ""},
                          {tick(), 30s, ""},
                          {gone(0), 31s, ""},
                          {tick(), 31'300ms, "claim"}})},
    {"AClaimAfterANetworkErrorIsAskedAgainSooner",
     plus(black_moved(), {{gone(0), 2000ms, ""},
                          {tick(), 2300ms, "claim"},
                          {claimed(false), 2310ms, ""},
                          {tick(), 3310ms, "claim"}})},
    {"AReturningOpponentCancelsTheClaim",
     plus(black_moved(), {{gone(10), 2000ms, ""}, {back(), 5000ms, ""}, {tick(), 60s, ""}})},
    {"AtMostFiveClaimsPerGoneLine", plus(black_moved(), {{gone(0), 2000ms, ""},
                                                         {tick(), 2300ms, "claim"},
                                                         {claimed(true), 2300ms, ""},
                                                         {tick(), 4300ms, "claim"},
                                                         {claimed(true), 4300ms, ""},
                                                         {tick(), 6300ms, "claim"},
                                                         {claimed(true), 6300ms, ""},
                                                         {tick(), 8300ms, "claim"},
                                                         {claimed(true), 8300ms, ""},
                                                         {tick(), 10'300ms, "claim"},
                                                         {claimed(true), 10'300ms, ""},
                                                         {tick(), 60s, ""}})},

    // Pondering (engine.ponder).
    {"PonderOnTheExpectedReplyAndHitIt",
     {{full(true), 0ms, kHello + ", think"},
      {searched("", "e2e4", 20, "e7e5"), 100ms, "post e2e4"},
      {posted(), 150ms, "played, ponder"},
      {moved("e2e4"), 200ms, ""},
      {moved("e2e4 e7e5"), 900ms, "think (ponder hit)"}},
     [](GameSettings& s) { s.ponder = true; }},
    {"PonderMissOnAnotherReply",
     {{full(true), 0ms, kHello + ", think"},
      {searched("", "e2e4", 20, "e7e5"), 100ms, "post e2e4"},
      {posted(), 150ms, "played, ponder"},
      {moved("e2e4 c7c5"), 900ms, "think"}},
     [](GameSettings& s) { s.ponder = true; }},
    {"PonderStoppedWhenATakebackRebuildsThePosition",
     {{full(true, "e2e4 e7e5"), 0ms, "think"},
      {searched("e2e4 e7e5", "g1f3", 20, "b8c6"), 100ms, "post g1f3"},
      {posted(), 150ms, "played, ponder"},
      {moved("e2e4"), 900ms, "ponder stop"}},
     [](GameSettings& s) { s.ponder = true; }},
    {"NoPonderWhenOff",
     {{full(true), 0ms, kHello + ", think"},
      {searched("", "e2e4", 20, "e7e5"), 100ms, "post e2e4"},
      {posted(), 150ms, "played"}}},

    // Correspondence parking.
    {"CorrespondenceParksAfterLingerOnTheirTurn",
     plus(white_moved(), {{tick(), 15'999ms, ""}, {tick(), 16'000ms, ""}}),
     [](GameSettings& s) { s.parking = parking(15s); }, Phase::Parked},
    {"CorrespondenceParksAtOnceWhenOthersWait",
     plus(white_moved(), {{game::Tick{.others_waiting = true}, 1001ms, ""}}),
     [](GameSettings& s) { s.parking = parking(1h); }, Phase::Parked},
    {"CorrespondenceNeverParksWhileAMoveWaitsForItsRetry",
     {{full(true), 0ms, kHello + ", think"},
      {searched("", "e2e4"), 100ms, "post e2e4"},
      {post_failed(false, 10s), 200ms, ""},
      {game::Tick{.others_waiting = true}, 300ms, ""}},
     [](GameSettings& s) { s.parking = parking(0ms); }},
    {"ALaterCorrespondenceSessionDoesNotGreet",
     {{full(true), 0ms, "think"}},
     [](GameSettings& s) { s.parking = parking(1h, false); }},

    // Bad input: leave the game rather than lose it on time.
    {"AnUnknownStatusLeavesTheGame",
     {{full(true), 0ms, kHello + ", think"},
      {ended("", lichess::GameStatus::Unknown), 10ms, "ponder stop, leave (abort)"}},
     nullptr,
     Phase::Left},
    {"AnIllegalMoveListResignsAfterTwoPlies",
     {{full(true, "e2e4 e7e5"), 0ms, "think"},
      {moved("e2e4 e7e5 e1e3"), 10ms, "ponder stop, leave (resign)"}},
     nullptr,
     Phase::Left},
    {"AGameFullForAnotherGameLeaves",
     {{game::FullReceived{[] {
           auto f = full_game(true, "");
           f.id = "othergme";
           return f;
       }()},
       0ms, "ponder stop, leave (abort)"}},
     nullptr,
     Phase::Left},
    {"AGameFullWithoutUsLeaves",
     {{game::FullReceived{[] {
           auto f = full_game(true, "");
           f.white.id = "bob";
           return f;
       }()},
       0ms, "ponder stop, leave (abort)"}},
     nullptr,
     Phase::Left},
    {"AVariantKeyLichessMayAddLaterLeaves",
     {{variant_full("duckChess", true), 0ms, "ponder stop, leave (abort)"}},
     nullptr,
     Phase::Left},
    {"AnUnknownVariantAfterTwoPliesResigns",
     {{variant_full("duckChess", true, "e2e4 e7e5"), 0ms, "ponder stop, leave (resign)"}},
     nullptr,
     Phase::Left},
    {"AMalformedPocketInTheInitialFenLeaves",
     {{variant_full("crazyhouse", false, "",
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Xq] w KQkq - 0 1"),
       0ms, "ponder stop, leave (abort)"}},
     nullptr,
     Phase::Left},
    {"AnInitialFenThatIsNoPositionOfTheVariantLeaves",
     // A white king in a horde game: horde's white has none.
     {{variant_full("horde", false, "", "4k3/8/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"), 0ms,
       "ponder stop, leave (abort)"}},
     nullptr,
     Phase::Left},
    // lila reads a fromPosition FEN with strict off (scalachess FenReader): nine pawns, a
    // right without its rook and a stale en-passant square are a game to play.
    {"AFromPositionGameWithNinePawnsIsPlayed",
     {{variant_full("fromPosition", true, "", "4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1"), 0ms,
       kHello + ", think"}}},
    {"AFromPositionGameWithAStaleRightAndEnPassantIsPlayed",
     {{variant_full("fromPosition", true, "", "r3k2r/8/8/8/8/8/8/4K3 w KQkq e6 0 1"), 0ms,
       kHello + ", think"}}},
    // A start our rules see as over (white's king home in racing kings) has no move: the
    // session says so and leaves, rather than wait without a move.
    {"ARacingKingsStartAlreadyWonLeaves",
     {{variant_full("racingKings", false, "", "K7/8/8/8/8/8/k7/8 b - - 0 1"), 0ms,
       kHello + ", ponder stop, leave (abort)"}},
     nullptr,
     Phase::Left},
    {"AMoveListIllegalUnderTheVariantResigns",
     // Antichess: after 1. e3 b5 White must take on b5; a quiet move is no move there.
     {{variant_full("antichess", true, "e2e3 b7b5 a2a3"), 0ms, "ponder stop, leave (resign)"}},
     nullptr,
     Phase::Left},
    {"ADropOfAPieceNotInThePocketAborts",
     {{variant_full("crazyhouse", false), 0ms, kHello},
      {moved("N@e4"), 100ms, "ponder stop, leave (abort)"}},
     nullptr,
     Phase::Left},
    {"ADropInAGameWithoutDropsResigns",
     {{variant_full("atomic", true, "e2e4 e7e5"), 0ms, "think"},
      {moved("e2e4 e7e5 P@e6"), 100ms, "ponder stop, leave (resign)"}},
     nullptr,
     Phase::Left},
    {"AnUnreadableGameStateResignsAfterTwoPlies",
     {{full(true, "e2e4 e7e5"), 0ms, "think"},
      {unreadable("gameState", "wtime"), 10ms, "ponder stop, leave (resign)"},
      {tick(), 20ms, ""}},
     nullptr,
     Phase::Left},
    {"AnUnreadableGameStateAbortsWhileLilaAllows",
     {{full(false, "e2e4"), 0ms, kHello + ", think"},
      {unreadable("gameState", "btime"), 10ms, "ponder stop, leave (abort)"}},
     nullptr,
     Phase::Left},
    {"AnUnreadableGameFullLeavesBeforeAnyMove",
     {{unreadable("gameFull", "clock.initial"), 0ms, "ponder stop, leave (abort)"}},
     nullptr,
     Phase::Left},
    {"ALineThatIsNoJsonLeavesToo",
     {{full(true, "e2e4 e7e5 g1f3 b8c6"), 0ms, "think"},
      {unreadable("", ""), 10ms, "ponder stop, leave (resign)"}},
     nullptr,
     Phase::Left},
    {"ABadInitialFenLeaves",
     {{game::FullReceived{full_game(true, "", "not a fen")}, 0ms, "ponder stop, leave (abort)"}},
     nullptr,
     Phase::Left},
};
}  // namespace rules_table

class RulesTable : public testing::TestWithParam<RulesRow> {};

TEST_P(RulesTable, Plays) {
    const RulesRow& row = GetParam();
    GameSettings s = base_settings();
    if (row.settings) row.settings(s);
    GameRules game(s);
    for (std::size_t i = 0; i < row.steps.size(); ++i) {
        const Step& step = row.steps[i];
        EXPECT_EQ(summary(game.on(step.event, t0 + step.at)), step.expect)
            << "step " << i + 1 << " at " << step.at.count() << " ms";
    }
    EXPECT_EQ(to_string(game.phase()), std::string(to_string(row.phase_after)));
}

INSTANTIATE_TEST_SUITE_P(GameRules, RulesTable, testing::ValuesIn(rules_table::kRulesRows),
                         [](const auto& info) { return std::string(info.param.name); });

// The end of a game in every final status lila sends: result, PGN result, goodbye, phase.
struct Ending {
    lichess::GameStatus status;
    std::optional<lichess::Color> winner;
    std::string expect;
};

class EndTable : public testing::TestWithParam<Ending> {};

TEST_P(EndTable, RecordsTheResult) {
    using namespace std::chrono_literals;
    const Ending& e = GetParam();
    GameRules game(base_settings());
    (void)game.on(full(true), t0);
    const auto actions = game.on(ended("", e.status, e.winner), t0 + 1s);
    EXPECT_EQ(summary(actions), e.expect);
    EXPECT_EQ(game.phase(), Phase::Over);
    EXPECT_TRUE(game.on(tick(), t0 + 2s).empty()) << "an ended game does nothing more";
}

const auto W = lichess::Color::White;
const auto B = lichess::Color::Black;
INSTANTIATE_TEST_SUITE_P(
    GameRules, EndTable,
    testing::Values(
        Ending{lichess::GameStatus::Mate, W, kBye + ", ended win 1-0"},
        Ending{lichess::GameStatus::Mate, B, kBye + ", ended loss 0-1"},
        Ending{lichess::GameStatus::Resign, W, kBye + ", ended win 1-0"},
        Ending{lichess::GameStatus::Resign, std::nullopt, kBye + ", ended draw *"},
        Ending{lichess::GameStatus::Stalemate, std::nullopt, kBye + ", ended draw 1/2-1/2"},
        Ending{lichess::GameStatus::Timeout, W, kBye + ", ended win 1-0"},
        Ending{lichess::GameStatus::Timeout, std::nullopt, kBye + ", ended draw 1/2-1/2"},
        Ending{lichess::GameStatus::Draw, std::nullopt, kBye + ", ended draw 1/2-1/2"},
        Ending{lichess::GameStatus::OutOfTime, B, kBye + ", ended loss on time 0-1"},
        Ending{lichess::GameStatus::OutOfTime, W, kBye + ", ended win 1-0"},
        Ending{lichess::GameStatus::Cheat, W, kBye + ", ended win 1-0"},
        Ending{lichess::GameStatus::NoStart, B, kBye + ", ended loss 0-1"},
        Ending{lichess::GameStatus::UnknownFinish, std::nullopt, kBye + ", ended draw 1/2-1/2"},
        Ending{lichess::GameStatus::InsufficientMaterialClaim, std::nullopt,
               kBye + ", ended draw 1/2-1/2"},
        Ending{lichess::GameStatus::VariantEnd, W, kBye + ", ended win 1-0"},
        Ending{lichess::GameStatus::Aborted, std::nullopt, "ponder stop, ended aborted *"}),
    [](const auto& info) {
        return std::string(lichess::to_string(info.param.status)) +
               (info.param.winner ? (*info.param.winner == W ? "_White" : "_Black") : "_None");
    });

// Facts the table does not show: the PGN notes, the move's deadline, the lag and the logs.
TEST(GameRules, ThePgnKeepsClocksEvalsAndBookNotesOfMovesTakenAfterARetry) {
    using namespace std::chrono_literals;
    GameSettings s = base_settings();
    GameRules game(s);
    (void)game.on(full(true), t0);
    (void)game.on(book("e2e4"), t0 + 10ms);
    (void)game.on(post_failed(false, 100ms), t0 + 20ms);
    (void)game.on(tick(), t0 + 200ms);
    (void)game.on(posted(), t0 + 210ms);
    (void)game.on(with(state("e2e4"), [](auto& st) { st.wtime_ms = 59000; }), t0 + 300ms);
    (void)game.on(moved("e2e4 e7e5"), t0 + 400ms);
    (void)game.on(searched("e2e4 e7e5", "g1f3", 35), t0 + 500ms);
    (void)game.on(posted(), t0 + 600ms);
    (void)game.on(with(state("e2e4 e7e5 g1f3"), [](auto& st) { st.wtime_ms = 58000; }), t0 + 700ms);
    const auto actions =
        game.on(ended("e2e4 e7e5 g1f3", lichess::GameStatus::Resign, W), t0 + 800ms);
    const auto* end = std::get_if<game::GameEnded>(&actions.back());
    ASSERT_NE(end, nullptr);
    ASSERT_EQ(end->record.moves.size(), 3u);
    EXPECT_EQ(end->record.moves[0].source, "book");
    EXPECT_EQ(end->record.moves[0].clock_ms, 59000);
    EXPECT_EQ(end->record.moves[1].source, "");
    ASSERT_TRUE(end->record.moves[2].eval.has_value());
    EXPECT_EQ(end->record.moves[2].eval->value, 35);
    EXPECT_EQ(end->record.moves[2].clock_ms, 58000);
    EXPECT_EQ(end->record.site, "https://lichess.org");
    EXPECT_EQ(end->record.game_id, kGame);
    EXPECT_EQ(end->record.time_control, "60+0");
}

// A move the search chose among those the local Syzygy tables keep: searched (its eval in the
// PGN, its log line), and named "syzygy" in the log and the PGN comment.
TEST(GameRules, ASyzygyMoveIsASearchedMoveThatNamesItsTables) {
    using namespace std::chrono_literals;
    GameSettings s = base_settings();
    GameRules game(s);
    (void)game.on(full(true), t0);
    GameInput chosen = searched("", "e2e4", 150);
    std::get<game::MoveChosen>(chosen).source = MoveSource::Syzygy;
    std::get<game::MoveChosen>(chosen).uci = "e2e4";
    auto actions = game.on(chosen, t0 + 10ms);
    const auto after_post = game.on(posted(), t0 + 20ms);
    actions.insert(actions.end(), after_post.begin(), after_post.end());
    bool logged = false;
    for (const auto& a : actions)
        if (const auto* log = std::get_if<game::Log>(&a))
            logged = logged || log->text.find("move e2e4 (syzygy) score") != std::string::npos;
    EXPECT_TRUE(logged);
    (void)game.on(with(state("e2e4"), [](auto&) {}), t0 + 30ms);
    const auto end = game.on(ended("e2e4 e7e5", lichess::GameStatus::Resign, W), t0 + 40ms);
    const auto* ended_game = std::get_if<game::GameEnded>(&end.back());
    ASSERT_NE(ended_game, nullptr);
    ASSERT_EQ(ended_game->record.moves.size(), 2u);
    EXPECT_EQ(ended_game->record.moves[0].source, "syzygy");
    ASSERT_TRUE(ended_game->record.moves[0].eval.has_value());
    EXPECT_EQ(ended_game->record.moves[0].eval->value, 150);
}

TEST(GameRules, AMovePostGivesUpWhenOurClockRunsOut) {
    using namespace std::chrono_literals;
    GameRules game(base_settings());
    auto f = full_game(true, "e2e4 e7e5");
    f.state.wtime_ms = 1500;
    (void)game.on(game::FullReceived{f}, t0 + 10s);
    const auto actions = game.on(searched("e2e4 e7e5", "g1f3"), t0 + 10'400ms);
    ASSERT_EQ(actions.size(), 1u);
    const auto* post = std::get_if<game::PostMove>(&actions[0]);
    ASSERT_NE(post, nullptr);
    EXPECT_EQ(post->give_up_at, t0 + 11'500ms);  // the turn began at 10 s with 1.5 s left
    EXPECT_EQ(post->ply, 3u);
}

TEST(GameRules, TheLagOfOurMovesShortensTheNextPlan) {
    using namespace std::chrono_literals;
    GameRules game(base_settings());
    (void)game.on(full(true, "e2e4 e7e5"), t0);
    (void)game.on(searched("e2e4 e7e5", "g1f3"), t0 + 100ms);
    (void)game.on(posted(), t0 + 200ms);
    // The server shows our move 700 ms after we sent it.
    (void)game.on(moved("e2e4 e7e5 g1f3"), t0 + 800ms);
    const auto actions = game.on(moved("e2e4 e7e5 g1f3 b8c6"), t0 + 900ms);
    ASSERT_EQ(actions.size(), 1u);
    const auto* think = std::get_if<game::Think>(&actions[0]);
    ASSERT_NE(think, nullptr);
    EXPECT_EQ(think->plan.overhead_ms, base_settings().planner.move_overhead_ms + 700);
    EXPECT_EQ(think->clock.our_moves_played, 2);
}

TEST(GameRules, LogsNameTheGameAndTheMove) {
    using namespace std::chrono_literals;
    GameRules game(base_settings());
    (void)game.on(full(true), t0);
    (void)game.on(book("e2e4"), t0 + 10ms);
    const auto actions = game.on(posted(), t0 + 20ms);
    std::string logs;
    for (const auto& a : actions)
        if (const auto* l = std::get_if<game::Log>(&a)) logs += l->text + "\n";
    EXPECT_NE(logs.find("game game0001: move e2e4 (book) ply 1 weight 1 from test.bin"),
              std::string::npos)
        << logs;
}

TEST(GameRules, AnOnlineMoveIsLoggedAndMarkedInThePgnWithItsSource) {
    using namespace std::chrono_literals;
    GameRules game(base_settings());
    (void)game.on(full(true), t0);
    (void)game.on(online(MoveSource::Cloud, "e2e4", engine::Score{false, 25}), t0 + 10ms);
    const auto actions = game.on(posted(), t0 + 20ms);
    std::string logs;
    for (const auto& a : actions)
        if (const auto* l = std::get_if<game::Log>(&a)) logs += l->text + "\n";
    EXPECT_NE(logs.find("game game0001: move e2e4 (cloud) ply 1 from the test"), std::string::npos)
        << logs;
    (void)game.on(moved("e2e4"), t0 + 30ms);
    const auto end = game.on(ended("e2e4", lichess::GameStatus::Resign, W), t0 + 40ms);
    const auto* ended_game = std::get_if<game::GameEnded>(&end.back());
    ASSERT_NE(ended_game, nullptr);
    EXPECT_EQ(ended_game->record.moves[0].source, "cloud");
    ASSERT_TRUE(ended_game->record.moves[0].eval.has_value());
    EXPECT_EQ(ended_game->record.moves[0].eval->value, 25);
}

// lila writes castling king-to-rook (e1h1) in every variant since 2025, older games and other
// servers king-two-squares (e1g1): both replay in every variant that castles, and the PGN has
// O-O either way.
TEST(GameRules, CastlingInBothFormsReplaysInEveryVariantThatCastles) {
    using namespace std::chrono_literals;
    const std::string king_to_rook = "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1 e8h8";
    const std::string king_two_squares = "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1g1 e8g8";
    for (const char* key :
         {"standard", "chess960", "crazyhouse", "atomic", "kingOfTheHill", "threeCheck"}) {
        for (const std::string& moves : {king_to_rook, king_two_squares}) {
            GameRules game(base_settings());
            auto f = variant_game(
                key, true, moves,
                std::string(key) == "chess960" ? std::string(engine::START_FEN) : "startpos");
            EXPECT_EQ(summary(game.on(game::FullReceived{f}, t0)), "think") << key << ": " << moves;
            const auto end = game.on(ended(moves, lichess::GameStatus::Resign, W), t0 + 1s);
            const auto* ended_game = std::get_if<game::GameEnded>(&end.back());
            ASSERT_NE(ended_game, nullptr) << key;
            EXPECT_EQ(ended_game->record.variant, key);
            ASSERT_EQ(ended_game->record.moves.size(), 8u) << key << ": " << moves;
        }
    }
    // The horde's black castles too (its white has no king).
    GameRules horde(base_settings());
    const std::string moves = "e4e5 g8f6 d4d5 e7e6 a4a5 f8e7 h4h5 e8h8";
    EXPECT_EQ(summary(horde.on(variant_full("horde", true, moves), t0)), "think");
    EXPECT_EQ(horde.moves().size(), 8u);
}

TEST(GameRules, AnUnreadableVariantGameNamesTheGameAndWhatWasWrong) {
    const auto logs_of = [](const std::vector<GameAction>& actions) {
        std::string logs;
        for (const auto& a : actions)
            if (const auto* l = std::get_if<game::Log>(&a)) logs += l->text + "\n";
        return logs;
    };
    GameRules unknown(base_settings());
    EXPECT_NE(logs_of(unknown.on(variant_full("duckChess", true), t0))
                  .find("game game0001: ending the session: variant 'duckChess' is not one "
                        "Outpost plays"),
              std::string::npos);
    GameRules bad_fen(base_settings());
    const std::string fen_logs = logs_of(bad_fen.on(
        variant_full("crazyhouse", true, "", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Xq] w"),
        t0));
    EXPECT_NE(fen_logs.find("game game0001: ending the session: the initial FEN "
                            "'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Xq] w' is not a "
                            "crazyhouse position"),
              std::string::npos)
        << fen_logs;
    GameRules illegal(base_settings());
    const std::string illegal_logs =
        logs_of(illegal.on(variant_full("antichess", true, "e2e3 b7b5 a2a3"), t0));
    EXPECT_NE(illegal_logs.find("game game0001: move 3 'a2a3' from the server is illegal"),
              std::string::npos)
        << illegal_logs;
}

TEST(GameRules, TheRecordOfAVariantGameHasItsKeyAndStart) {
    using namespace std::chrono_literals;
    GameRules game(base_settings());
    (void)game.on(variant_full("racingKings", false, "h2h3"), t0);
    const auto end = game.on(ended("h2h3", lichess::GameStatus::VariantEnd, W), t0 + 1s);
    EXPECT_EQ(summary(end), kBye + ", ended loss 1-0");
    const auto* ended_game = std::get_if<game::GameEnded>(&end.back());
    ASSERT_NE(ended_game, nullptr);
    EXPECT_EQ(ended_game->record.variant, "racingKings");
    EXPECT_EQ(ended_game->record.initial_fen, "startpos");
    EXPECT_EQ(ended_game->record.termination, "Normal");
}

TEST(GameRules, AnUnreadableLineIsAnErrorNamingTheGameAndTheField) {
    using namespace std::chrono_literals;
    GameRules game(base_settings());
    (void)game.on(full(true, "e2e4 e7e5"), t0);
    const auto actions = game.on(unreadable("gameState", "wtime"), t0 + 10ms);
    std::string errors;
    for (const auto& a : actions)
        if (const auto* line = std::get_if<game::Log>(&a);
            line && line->level == common::LogLevel::Error)
            errors += line->text;
    EXPECT_EQ(errors,
              "game game0001: ending the session: its gameState could not be read (wtime): "
              "expected a number, got text");
}

// The clock a Think plans with is what the game can hold: a state that says 1e10 ms in a 1+0
// game plans with its minute, and the move's deadline is within that minute too.
TEST(GameRules, ThinkPlansWithTheClockTheGameCanHold) {
    using namespace std::chrono_literals;
    GameRules game(base_settings());
    const auto actions = game.on(full_with_clock("e2e4 e7e5", 10'000'000'000), t0);
    const auto* think = std::get_if<game::Think>(&actions.back());
    ASSERT_NE(think, nullptr);
    EXPECT_EQ(think->clock.our_ms, 60'000);
    EXPECT_EQ(think->plan.limits.wtime, 60'000);
    const auto posted = game.on(searched("e2e4 e7e5", "g1f3"), t0 + 100ms);
    const auto* post = std::get_if<game::PostMove>(&posted.back());
    ASSERT_NE(post, nullptr);
    EXPECT_EQ(post->give_up_at, t0 + 60s);
}

TEST(GameRules, FirstMovesPendingUntilTheOpponentMoved) {
    using namespace std::chrono_literals;
    GameRules game(base_settings());
    EXPECT_FALSE(game.first_moves_pending());
    (void)game.on(full(false), t0);
    EXPECT_TRUE(game.first_moves_pending());
    (void)game.on(moved("e2e4"), t0 + 1s);
    EXPECT_FALSE(game.first_moves_pending());
}

TEST(GameRules, AnArenaGamesFirstMoveComesAtOnce) {
    const auto first_think = [](GameSettings settings, bool arena) {
        GameRules game(std::move(settings));
        auto f = full_game(true, "");
        if (arena) f.tournament_id = "arena001";
        for (const auto& a : game.on(game::FullReceived{f}, t0))
            if (const auto* think = std::get_if<game::Think>(&a)) return *think;
        ADD_FAILURE() << "no Think";
        return game::Think{};
    };
    const auto plain = first_think(base_settings(), false);
    EXPECT_FALSE(plain.hurry);
    EXPECT_EQ(plain.plan.limits.movetime, 1000);  // first_move_max_ms: 60 s / 20 is more
    const auto arena = first_think(base_settings(), true);
    EXPECT_TRUE(arena.hurry);  // no online source asked
    EXPECT_EQ(arena.plan.limits.movetime, base_settings().arena_first_move_ms);
}

// lila counts a new draw offer only 20 plies after our last one (playerHasOfferedDrawRecently):
// the policy may want one every move, the server gets one each 21 plies.
TEST(GameRules, ADrawIsOfferedAgainOnlyTwentyPliesAfterTheLast) {
    using namespace std::chrono_literals;
    GameSettings s = base_settings();
    s.draw_or_resign.offer_draw_moves = 1;
    GameRules game(s);
    std::string moves = "e1d1 e8d8";
    (void)game.on(game::FullReceived{full_game(true, moves, kFen20)}, t0);
    std::vector<std::size_t> offered_at;
    for (int turn = 0; turn < 13; ++turn) {
        const std::size_t plies = 2 + 2 * turn;
        const std::string ours = turn % 2 == 0 ? "d1c1" : "c1d1";
        const std::string theirs = turn % 2 == 0 ? "d8c8" : "c8d8";
        const auto at = t0 + std::chrono::seconds(turn + 1);
        for (const auto& a : game.on(searched(moves, ours, 0, "", kFen20), at))
            if (const auto* post = std::get_if<game::PostMove>(&a); post && post->offer_draw)
                offered_at.push_back(plies);
        (void)game.on(posted(), at + 10ms);
        moves += " " + ours;
        (void)game.on(moved(moves), at + 20ms);
        moves += " " + theirs;
        (void)game.on(moved(moves), at + 30ms);
    }
    EXPECT_EQ(offered_at, (std::vector<std::size_t>{2, 24}));
}

// A correspondence game's policies come in with its session's rules and go out with what the
// session fed them; the value given is not changed behind the desk's back.
TEST(GameRules, APolicyGivenIsFedAndHandedBackAsAValue) {
    using namespace std::chrono_literals;
    GameSettings s = base_settings();
    s.draw_or_resign.resign_enabled = true;
    s.draw_or_resign.resign_moves = 2;
    s.parking = parking(1h);
    GamePolicies given = GamePolicies::from(s.draw_or_resign, 0);
    (void)given.draw_resign.after_search(-5000, 20, 30);  // a lost score from an earlier session
    s.parking->policies = given;
    GameRules game(s);
    (void)game.on(game::FullReceived{full_game(true, "", kFen20)}, t0);
    EXPECT_EQ(summary(game.on(searched("", "e1d1", -2000, "", kFen20), t0 + 1s)), "resign");
    EXPECT_EQ(game.policies().draw_resign.losing_streak(), 2);
    EXPECT_EQ(given.draw_resign.losing_streak(), 1);
}

}  // namespace game_rules_test
}  // namespace service
