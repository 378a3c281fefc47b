// ChallengeDesk as a table: each row is one rule of the challenge pipeline an operator would
// name, played as events at given times (a challenge, a withdrawal, an answer to a request, a
// gameStart, a tick), with the requests expected after each (log lines left out, except where a
// row is about one). No thread, no I/O, no clock.
#include "service/challenges/challenge_desk.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <variant>
#include <vector>

#include "tests/service/challenges/lila_fixtures.hpp"
#include "tests/support/manual_clock.hpp"

namespace service {
namespace {

// ---- challenges ------------------------------------------------------------------------------

lichess::ChallengeInfo offer(const std::string& id, const std::string& name, int rating = 1500) {
    return lila_fixtures::challenge(id, name, rating);
}
lichess::ChallengeInfo bot_offer(const std::string& id, const std::string& name,
                                 int rating = 2000) {
    return lila_fixtures::challenge(id, name, rating, true);
}
lichess::ChallengeInfo correspondence_offer(const std::string& id, const std::string& name) {
    auto c = offer(id, name);
    c.speed = "correspondence";
    c.time_control = {};
    c.time_control.type = lichess::TimeControl::Type::Correspondence;
    c.time_control.days_per_turn = 3;
    return c;
}
lichess::GameEventInfo game_start(const std::string& id, const std::string& opponent = "alice",
                                  const std::string& speed = "blitz") {
    lichess::GameEventInfo g;
    g.game_id = id;
    g.speed = speed;
    g.opponent = lichess::GameOpponent{};
    g.opponent->id = opponent;
    return g;
}

// ---- the desk and its inputs -------------------------------------------------------------------

struct Harness {
    config::ChallengeConfig config;
    test_support::ManualClock clock;
    GameSlots slots;
    ChallengeDesk desk;
    std::map<std::string, challenge::Accept> asked;  // Accepts not answered yet, by challenge id
    std::map<std::string, challenge::Decline> declined;  // the last Decline asked, by id
    std::vector<std::string> logs;

    explicit Harness(config::ChallengeConfig c, DeskTimes times)
        : config(std::move(c)),
          slots(config.concurrency, std::chrono::seconds(config.accept_timeout_s), clock.fn()),
          desk(config, "outpostbot", slots, times) {
        slots.reserve_for_humans(config.games_reserved_for_humans);
    }
};

std::function<ChallengeDesk::Requests(Harness&)> arrives(lichess::ChallengeInfo c,
                                                         ChallengeArrival arrival = {}) {
    return [c = std::move(c), arrival](Harness& h) {
        return h.desk.on_challenge(c, arrival, h.clock.now());
    };
}
// Our correspondence games against `opponent` (max_simultaneous_games_per_user counts them).
std::function<ChallengeDesk::Requests(Harness&)> arrives_with_games(lichess::ChallengeInfo c,
                                                                    const std::string& opponent,
                                                                    int games) {
    ChallengeArrival arrival;
    arrival.other_games[opponent] = games;
    return arrives(std::move(c), std::move(arrival));
}
std::function<ChallengeDesk::Requests(Harness&)> answered_ok(const std::string& id) {
    return [id](Harness& h) {
        const auto accept = h.asked.at(id);
        h.asked.erase(id);
        return h.desk.on(challenge::AcceptAnswered{accept, std::nullopt}, h.clock.now());
    };
}
std::function<ChallengeDesk::Requests(Harness&)> accept_fails(const std::string& id,
                                                              lichess::ApiError error) {
    return [id, error](Harness& h) {
        const auto accept = h.asked.at(id);
        h.asked.erase(id);
        return h.desk.on(challenge::AcceptAnswered{accept, error}, h.clock.now());
    };
}
std::function<ChallengeDesk::Requests(Harness&)> withdrawn(const std::string& id) {
    return [id](Harness& h) { return h.desk.on_challenge_gone(id, true); };
}
std::function<ChallengeDesk::Requests(Harness&)> game_started(lichess::GameEventInfo g,
                                                              bool session_running = false) {
    return [g = std::move(g), session_running](Harness& h) {
        return h.desk.on_game_start(g, session_running);
    };
}
std::function<ChallengeDesk::Requests(Harness&)> finished(const std::string& id) {
    return [id](Harness& h) {
        h.desk.on_session_finished(id);
        return ChallengeDesk::Requests{};
    };
}
std::function<ChallengeDesk::Requests(Harness&)> aborted(const std::string& id, bool ok) {
    return [id, ok](Harness& h) {
        return h.desk.on(challenge::AbortAnswered{
            id, ok ? std::nullopt : std::optional(lila_fixtures::http_error(400, "cannot abort"))});
    };
}
std::function<ChallengeDesk::Requests(Harness&)> listed(std::vector<lichess::GameEventInfo> games) {
    return [games = std::move(games)](Harness& h) {
        return h.desk.on(challenge::PlayingListed{games, ""}, h.clock.now());
    };
}
// Our ratings as /api/account gives them.
std::function<ChallengeDesk::Requests(Harness&)> ratings(int blitz) {
    return [blitz](Harness& h) {
        lichess::Account a;
        a.perfs["blitz"] = lichess::PerfRating{blitz, 100, false};
        return h.desk.on(challenge::RatingsRead{a, ""}, h.clock.now());
    };
}
std::function<ChallengeDesk::Requests(Harness&)> desk_tick() {
    return [](Harness& h) { return h.desk.tick(h.clock.now()); };
}
std::function<ChallengeDesk::Requests(Harness&)> unreadable(const std::string& id) {
    return [id](Harness& h) { return h.desk.on_unreadable(id, "no challenger", h.clock.now()); };
}
// The answer to a Decline the desk asked for (`id`'s last one).
std::function<ChallengeDesk::Requests(Harness&)> decline_answered(
    const std::string& id, std::optional<lichess::ApiError> error = std::nullopt) {
    return [id, error](Harness& h) {
        const auto decline = h.declined.at(id);
        return h.desk.on(challenge::DeclineAnswered{decline, error}, h.clock.now());
    };
}
// A challenge of a variant the default config leaves out: declined `variant`.
lichess::ChallengeInfo unwanted(const std::string& id, const std::string& name) {
    auto c = offer(id, name);
    c.variant.key = "duckChess";
    return c;
}
// An arena's game (gameStart with a tournamentId).
lichess::GameEventInfo arena_game_start(const std::string& id,
                                        const std::string& opponent = "carol") {
    auto g = game_start(id, opponent);
    g.source = "arena";
    g.tournament_id = "arena001";
    return g;
}
std::function<ChallengeDesk::Requests(Harness&)> matchmaking_paused(std::chrono::seconds left) {
    return [left](Harness& h) {
        h.desk.matchmaking_paused_for(left, h.clock.now());
        return ChallengeDesk::Requests{};
    };
}
std::function<ChallengeDesk::Requests(Harness&)> shutting_down() {
    return [](Harness& h) {
        h.desk.stop_accepting();
        return h.desk.decline_queued(h.clock.now());
    };
}

// ---- requests, in short ------------------------------------------------------------------------

std::string summary(const challenge::Request& request) {
    return std::visit(
        [](const auto& r) -> std::string {
            using T = std::decay_t<decltype(r)>;
            if constexpr (std::is_same_v<T, challenge::Accept>)
                return "accept " + r.challenge.id;
            else if constexpr (std::is_same_v<T, challenge::Decline>)
                return "decline " + r.challenge_id + " " + lichess::to_string(r.reason) +
                       (r.counted ? "" : " quietly");
            else if constexpr (std::is_same_v<T, challenge::ReadRatings>)
                return "read ratings";
            else if constexpr (std::is_same_v<T, challenge::ListPlaying>)
                return "list playing";
            else if constexpr (std::is_same_v<T, challenge::AbortGame>)
                return "abort " + r.game_id;
            else if constexpr (std::is_same_v<T, challenge::ResignGame>)
                return "resign " + r.game_id;
            else if constexpr (std::is_same_v<T, challenge::StartGame>)
                return "start game " + r.game.game_id;
            else if constexpr (std::is_same_v<T, challenge::StartSession>)
                return "session " + r.game_id;
            else if constexpr (std::is_same_v<T, challenge::PauseBotGames>)
                return "pause bot games " +
                       std::to_string(
                           std::chrono::duration_cast<std::chrono::seconds>(r.wait).count()) +
                       "s";
            else
                return "";  // logs
        },
        request);
}

// ---- the table -------------------------------------------------------------------------------

struct Step {
    std::function<ChallengeDesk::Requests(Harness&)> input;
    std::chrono::milliseconds at;
    std::string expect;  // the requests' summaries, joined by ", "
    // The challengers in the queue after the step, in order; none: not checked.
    std::optional<std::vector<std::string>> queue = std::nullopt;
};

struct DeskRow {
    const char* name;
    std::vector<Step> steps;
    std::function<void(config::ChallengeConfig&)> config = nullptr;
};

std::ostream& operator<<(std::ostream& os, const DeskRow& r) { return os << r.name; }

// The rows' times are chrono literals; the using that brings them in stays in this block.
namespace desk_table {
using namespace std::chrono_literals;
const std::vector<DeskRow> kDeskRows = {
    // Judging.
    {"AHumanWithAFreeSlotIsAccepted",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {answered_ok("c1"), 10ms, ""},
      {game_started(game_start("c1")), 20ms, "session c1"}}},
    {"OurOwnChallengeIsIgnored",
     {{arrives([] {
           auto c = offer("c1", "OutpostBot");
           c.direction = "out";
           return c;
       }()),
       0ms, ""}}},
    {"AnUnwantedVariantIsDeclinedWithItsReason",
     {{arrives([] {
           auto c = offer("c1", "Alice");
           c.variant.key = "duckChess";
           return c;
       }()),
       0ms, "decline c1 variant"}}},
    {"AnUnreadableChallengeIsDeclinedGeneric", {{unreadable("c1"), 0ms, "decline c1 generic"}}},
    {"ThePerUserLimitCountsOurCorrespondenceGames",
     {{arrives_with_games(offer("c1", "Alice"), "alice", 2), 0ms, "decline c1 later"}},
     [](auto& c) { c.max_simultaneous_games_per_user = 2; }},
    {"RatingDifferenceReadsOurRatingsFirst",
     {{arrives(offer("c1", "Alice", 1900)), 0ms, "read ratings"},
      {ratings(1500), 5ms, "decline c1 generic"},
      // Read 5 ms ago: not again.
      {arrives(offer("c2", "Bob", 1600)), 10ms, "accept c2"}},
     [](auto& c) { c.rating_difference = 200; }},
    {"OurRatingsAreReadAgainOnceOld",
     {{arrives(offer("c1", "Alice")), 0ms, "read ratings"},
      {ratings(1500), 5ms, "accept c1"},
      {withdrawn("c1"), 6ms, ""},
      {arrives(offer("c2", "Bob")), 11min, "read ratings"}},
     [](auto& c) { c.rating_difference = 200; }},

    // The queue.
    {"NoFreeSlotQueuesTheChallengeAndAcceptsItWhenAGameEnds",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {answered_ok("c1"), 10ms, ""},
      {game_started(game_start("c1")), 20ms, "session c1"},
      {arrives(offer("c2", "Bob")), 30ms, "", std::vector<std::string>{"Bob"}},
      {desk_tick(), 40ms, ""},
      {finished("c1"), 5s, ""},
      {desk_tick(), 5100ms, "accept c2", std::vector<std::string>{}},
      {answered_ok("c2"), 5200ms, ""}}},
    {"AChallengeArrivingAsASlotFreesWaitsBehindThoseQueued",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {answered_ok("c1"), 10ms, ""},
      {game_started(game_start("c1")), 20ms, "session c1"},
      {arrives(offer("c2", "Bob")), 30ms, "", std::vector<std::string>{"Bob"}},
      {arrives(offer("c3", "Carol")), 40ms, "", std::vector<std::string>{"Bob", "Carol"}},
      {finished("c1"), 5s, ""},
      // Before the next tick: Bob, first in the queue, takes the slot; Dan waits behind Carol.
      {arrives(offer("c4", "Dan")), 5010ms, "accept c2", std::vector<std::string>{"Carol", "Dan"}},
      {answered_ok("c2"), 5020ms, ""},
      {game_started(game_start("c2", "bob")), 5030ms, "session c2"},
      {finished("c2"), 6s, ""},
      {desk_tick(), 6100ms, "accept c3", std::vector<std::string>{"Dan"}}}},
    {"AChallengeArrivingAsTwoSlotsFreeIsAcceptedBesideTheQueuedOne",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {arrives(offer("c0", "Eve")), 5ms, "accept c0"},
      {arrives(offer("c2", "Bob")), 10ms, "", std::vector<std::string>{"Bob"}},
      {withdrawn("c1"), 20ms, ""},
      {withdrawn("c0"), 25ms, ""},
      {arrives(offer("c3", "Carol")), 30ms, "accept c2, accept c3", std::vector<std::string>{}}},
     [](auto& c) { c.concurrency = 2; }},
    {"AFullQueueDeclinesLater",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {arrives(offer("c2", "Bob")), 10ms, "", std::vector<std::string>{"Bob"}},
      {arrives(offer("c3", "Carol")), 20ms, "decline c3 later", std::vector<std::string>{"Bob"}}},
     [](auto& c) { c.max_queued = 1; }},
    {"NoQueueDeclinesLaterAtOnce",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {arrives(offer("c2", "Bob")), 10ms, "decline c2 later", std::vector<std::string>{}}},
     [](auto& c) { c.max_queued = 0; }},
    {"TheQueueTakesTheBestRatedFirst",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {arrives(offer("c2", "Bob", 1400)), 10ms, ""},
      {arrives(offer("c3", "Carol", 1900)), 20ms, "", std::vector<std::string>{"Carol", "Bob"}},
      {withdrawn("c1"), 30ms, ""},
      {desk_tick(), 40ms, "accept c3", std::vector<std::string>{"Bob"}}}},
    {"TheQueueWaitsForEachAcceptsAnswer",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {arrives(offer("c0", "Dan")), 5ms, "accept c0"},
      {arrives(offer("c2", "Bob")), 10ms, ""},
      {arrives(offer("c3", "Carol")), 20ms, "", std::vector<std::string>{"Bob", "Carol"}},
      {withdrawn("c1"), 30ms, ""},
      {withdrawn("c0"), 35ms, ""},
      {desk_tick(), 40ms, "accept c2"},
      {desk_tick(), 50ms, ""},  // c2's answer is awaited: nothing more
      {accept_fails("c2", lila_fixtures::http_error(400, "This challenge has been canceled.")),
       60ms, "decline c2 generic, accept c3", std::vector<std::string>{}}},
     [](auto& c) { c.concurrency = 2; }},
    {"ABotThatDoesNotFitDoesNotHoldBackAHuman",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {answered_ok("c1"), 1ms, ""},
      {game_started(game_start("c1")), 2ms, "session c1"},
      {arrives(bot_offer("c2", "SomeBot")), 10ms, "accept c2"},  // the one slot bots may take
      {arrives(bot_offer("c3", "OtherBot", 2600)), 20ms, "", std::vector<std::string>{"OtherBot"}},
      {arrives(offer("c4", "Bob", 1400)), 30ms, "", std::vector<std::string>{"OtherBot", "Bob"}},
      {answered_ok("c2"), 40ms, ""},
      {game_started(game_start("c2", "somebot")), 50ms, "session c2"},
      {finished("c1"), 60ms, ""},
      // A slot frees, but not one a bot may take: the human behind the bot gets it.
      {desk_tick(), 70ms, "accept c4", std::vector<std::string>{"OtherBot"}}},
     [](auto& c) {
         c.concurrency = 2;
         c.games_reserved_for_humans = 1;
     }},
    {"AWithdrawnChallengeLeavesTheQueue",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {arrives(offer("c2", "Bob")), 10ms, "", std::vector<std::string>{"Bob"}},
      {withdrawn("c2"), 20ms, "", std::vector<std::string>{}},
      {withdrawn("c1"), 30ms, ""},
      {desk_tick(), 40ms, ""}}},
    {"AChallengeWaitingLongerThanLichessKeepsItLeavesTheQueue",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {arrives(offer("c2", "Bob")), 10ms, "", std::vector<std::string>{"Bob"}},
      {desk_tick(), 3h + 20ms, "", std::vector<std::string>{}}}},
    {"AResentPendingChallengeKeepsItsPlace",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {arrives(offer("c2", "Bob")), 10ms, ""},
      {arrives(offer("c3", "Carol", 1400)), 20ms, "", std::vector<std::string>{"Bob", "Carol"}},
      {arrives(offer("c2", "Bob")), 30ms, "", std::vector<std::string>{"Bob", "Carol"}}}},
    {"ShutdownDeclinesTheQueueAndEveryLaterChallenge",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {arrives(offer("c2", "Bob")), 10ms, "", std::vector<std::string>{"Bob"}},
      {shutting_down(), 20ms, "decline c2 later", std::vector<std::string>{}},
      {arrives(offer("c3", "Carol")), 30ms, "decline c3 later quietly"}}},

    // lila's daily bot-vs-bot limit.
    {"OurDailyBotLimitPausesBotGamesAndDeclinesLater",
     {{arrives(bot_offer("c1", "SomeBot")), 0ms, "accept c1"},
      {accept_fails("c1", lila_fixtures::our_bot_limit(600s)), 10ms,
       "pause bot games 600s, decline c1 later"},
      {arrives(bot_offer("c2", "OtherBot")), 1min, "decline c2 later"},
      {arrives(offer("c3", "Alice")), 2min, "accept c3"},
      {answered_ok("c3"), 2min + 10ms, ""},
      {withdrawn("c3"), 3min, ""},
      // The pause over, bots are welcome again.
      {arrives(bot_offer("c4", "ThirdBot")), 11min, "accept c4"}}},
    {"OurDailyBotLimitWithoutAWaitPausesForTheDefaultHour",
     {{arrives(bot_offer("c1", "SomeBot")), 0ms, "accept c1"},
      {accept_fails("c1", lila_fixtures::http_error(429, "limit", "bot.vsBot.day")), 10ms,
       "pause bot games 3600s, decline c1 later"},
      {arrives(bot_offer("c2", "OtherBot")), 59min, "decline c2 later"},
      {arrives(bot_offer("c3", "ThirdBot")), 61min, "accept c3"}}},
    {"TheDailyBotLimitDeclinesQueuedBots",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {answered_ok("c1"), 1ms, ""},
      {game_started(game_start("c1")), 2ms, "session c1"},
      {arrives(bot_offer("c2", "SomeBot")), 10ms, "", std::vector<std::string>{"SomeBot"}},
      {matchmaking_paused(600s), 20ms, ""},
      {finished("c1"), 30ms, ""},
      {desk_tick(), 40ms, "decline c2 later", std::vector<std::string>{}}}},
    {"TheMatchmakersPauseDeclinesBots",
     {{matchmaking_paused(600s), 0ms, ""},
      {arrives(bot_offer("c1", "SomeBot")), 10ms, "decline c1 later"},
      {arrives(offer("c2", "Alice")), 20ms, "accept c2"}}},
    {"AChallengerOutOfBotGamesIsDeclinedLaterAndItsSlotFreed",
     {{arrives(bot_offer("c1", "TiredBot")), 0ms, "accept c1"},
      {accept_fails("c1", lila_fixtures::their_bot_limit("TiredBot")), 10ms, "decline c1 later"},
      {arrives(bot_offer("c2", "FreshBot")), 20ms, "accept c2"}}},
    {"AnAcceptThatFailsFreesTheSlot",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {accept_fails("c1", lila_fixtures::http_error(403, "Missing scope")), 10ms, ""},
      {arrives(offer("c2", "Bob")), 20ms, "accept c2"}}},

    // An accept whose answer was lost: lila answers the next try 404 (Challenge.apiAccept:
    // accepted, then tryRematch, then notFoundJson), and the game is on its way.
    {"A404OnAnAcceptKeepsTheSlotUntilTheGameStarts",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {accept_fails("c1", lila_fixtures::http_error(404, "Not found")), 3s, ""},
      {arrives(offer("c2", "Bob")), 3100ms, "", std::vector<std::string>{"Bob"}},
      {desk_tick(), 3200ms, ""},
      {game_started(game_start("c1")), 3300ms, "session c1"},
      {finished("c1"), 10s, ""},
      {desk_tick(), 10100ms, "accept c2", std::vector<std::string>{}}}},
    {"A404OnAnAcceptKeepsTheSlotUntilTheChallengeIsGone",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {accept_fails("c1", lila_fixtures::http_error(404, "Not found")), 3s, ""},
      {arrives(offer("c2", "Bob")), 3100ms, "", std::vector<std::string>{"Bob"}},
      {withdrawn("c1"), 3200ms, ""},
      {desk_tick(), 3300ms, "accept c2", std::vector<std::string>{}}}},
    {"ANetworkErrorOnAnAcceptKeepsTheSlotUntilTheReservationEnds",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {accept_fails("c1",
                    lichess::ApiError{lichess::ApiError::Kind::Network, 0, "timed out", {}, {}}),
       9s, ""},
      {arrives(offer("c2", "Bob")), 10s, "", std::vector<std::string>{"Bob"}},
      {desk_tick(), 29s, "list playing"},
      {listed({}), 29100ms, ""},
      // challenge.accept_timeout_s (30) after the reservation: the slot is free again.
      {desk_tick(), 31s, "accept c2", std::vector<std::string>{}}}},
    {"A404AfterTheGameStartedIsNoFailure",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {game_started(game_start("c1")), 100ms, "session c1"},
      {accept_fails("c1", lila_fixtures::http_error(404, "Not found")), 3s, ""},
      {desk_tick(), 8s, ""}}},

    // A challenge sent again when the event stream reconnects is judged once.
    {"AReplayedChallengeIsNotJudgedAgainWhileItsAcceptIsPendingOrItsGameRuns",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {arrives(offer("c1", "Alice")), 500ms, ""},
      {answered_ok("c1"), 1s, ""},
      {arrives(offer("c1", "Alice")), 1100ms, ""},
      {game_started(game_start("c1")), 1200ms, "session c1"},
      {arrives(offer("c1", "Alice")), 1300ms, ""}}},
    {"AReplayedChallengeIsNotJudgedAgainWhileItsLost404IsSettled",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {accept_fails("c1", lila_fixtures::http_error(404, "Not found")), 3s, ""},
      {arrives(offer("c1", "Alice")), 3100ms, ""}}},
    {"AReplayedChallengeIsNotDeclinedTwice",
     {{arrives([] {
           auto c = offer("c1", "Alice");
           c.variant.key = "duckChess";
           return c;
       }()),
       0ms, "decline c1 variant"},
      {arrives([] {
           auto c = offer("c1", "Alice");
           c.variant.key = "duckChess";
           return c;
       }()),
       100ms, ""}}},
    {"A400OnAnAcceptIsAnsweredWithADeclineGeneric",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {accept_fails("c1", lila_fixtures::http_error(400, "This challenge has been canceled.")),
       10ms, "decline c1 generic"},
      {arrives(offer("c2", "Bob")), 20ms, "accept c2"}}},

    // Requests answered later than they were asked (the Bot runs them off its event loop).
    {"AChallengeArrivingWhileAnAcceptIsPendingCountsItsSlot",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {arrives(offer("c2", "Bob")), 500ms, "", std::vector<std::string>{"Bob"}},
      {accept_fails("c1", lila_fixtures::http_error(400, "This challenge has been canceled.")), 3s,
       "decline c1 generic"},
      {desk_tick(), 3100ms, "accept c2", std::vector<std::string>{}}}},
    {"ChallengesArrivingWhileOurRatingsAreReadWaitForThemInOrder",
     {{arrives(offer("c1", "Alice", 1900)), 0ms, "read ratings"},
      {arrives(offer("c2", "Bob", 1550)), 100ms, ""},
      {arrives(offer("c3", "Carol", 1600)), 200ms, ""},
      {ratings(1500), 3s, "decline c1 generic, accept c2"}},
     [](auto& c) { c.rating_difference = 200; }},
    {"AGameStartBeforeItsAcceptsAnswerIsNotLookedForAgain",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {game_started(game_start("c1")), 100ms, "session c1"},
      {answered_ok("c1"), 2s, ""},
      {desk_tick(), 7s, ""},
      {desk_tick(), 12s, ""}}},

    // A 429 on the challenge requests: nothing is dropped.
    {"A429OnAnAcceptQueuesTheChallengeUntilThePauseEnds",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {accept_fails("c1", lila_fixtures::http_error(429, "Too many requests")), 10ms, "",
       std::vector<std::string>{"Alice"}},
      {arrives(offer("c2", "Bob", 1400)), 10s, "", std::vector<std::string>{"Alice", "Bob"}},
      {arrives([] {
           auto c = offer("c3", "Carol");
           c.variant.key = "duckChess";
           return c;
       }()),
       20s, ""},
      {desk_tick(), 30s, ""},
      {desk_tick(), 61s, "decline c3 variant, accept c1", std::vector<std::string>{"Bob"}}}},
    {"ADeclineRefusedWithA429IsSentWhenThePauseEnds",
     {{arrives([] {
           auto c = offer("c1", "Alice");
           c.variant.key = "duckChess";
           return c;
       }()),
       0ms, "decline c1 variant"},
      {decline_answered("c1", lila_fixtures::http_error(429, "Too many requests")), 100ms, ""},
      {desk_tick(), 30s, ""},
      {desk_tick(), 61s, "decline c1 variant"},
      {decline_answered("c1"), 62s, ""}}},

    // A flood of declines: at most four on their way, the newest first, none for a challenge
    // that is gone or waited too long.
    {"ADeclineFloodAnswersTheNewestFirstAndNeverAWithdrawnChallenge",
     {{arrives(unwanted("c1", "A1")), 0ms, "decline c1 variant"},
      {arrives(unwanted("c2", "A2")), 1ms, "decline c2 variant"},
      {arrives(unwanted("c3", "A3")), 2ms, "decline c3 variant"},
      {arrives(unwanted("c4", "A4")), 3ms, "decline c4 variant"},
      {arrives(unwanted("c5", "A5")), 4ms, ""},
      {arrives(unwanted("c6", "A6")), 5ms, ""},
      {arrives(unwanted("c7", "A7")), 6ms, ""},
      {decline_answered("c1"), 2s, "decline c7 variant"},
      {withdrawn("c6"), 2100ms, ""},
      {decline_answered("c2"), 2500ms, "decline c5 variant"},
      {decline_answered("c3"), 3s, ""}}},
    {"ADeclineThatWaitedTooLongIsDropped",
     {{arrives(unwanted("c1", "A1")), 0ms, "decline c1 variant"},
      {arrives(unwanted("c2", "A2")), 1ms, "decline c2 variant"},
      {arrives(unwanted("c3", "A3")), 2ms, "decline c3 variant"},
      {arrives(unwanted("c4", "A4")), 3ms, "decline c4 variant"},
      {arrives(unwanted("c5", "A5")), 4ms, ""},
      {desk_tick(), 2min + 5ms, ""},
      {decline_answered("c1"), 2min + 10ms, ""},
      {arrives(unwanted("c6", "A6")), 2min + 20ms, "decline c6 variant"}}},

    // Games.
    {"AGameBeyondConcurrencyIsAborted",
     {{game_started(game_start("g1")), 0ms, "session g1"},
      {game_started(game_start("g2", "bob")), 10ms, "abort g2"},
      {aborted("g2", true), 20ms, ""},
      // lila's abort is fire-and-forget: its gameStart may come again.
      {game_started(game_start("g2", "bob")), 30ms, ""}}},
    {"AGameBeyondConcurrencyThatCannotBeAbortedIsPlayed",
     {{game_started(game_start("g1")), 0ms, "session g1"},
      {game_started(game_start("g2", "bob")), 10ms, "abort g2"},
      {aborted("g2", false), 20ms, "session g2"}}},
    {"AnArenaGameBeyondConcurrencyIsPlayedNeverAborted",
     {{game_started(game_start("g1")), 0ms, "session g1"},
      {game_started(arena_game_start("g2")), 10ms, "session g2"}}},
    {"GamesBeyondConcurrencyThatCannotBeAbortedAreCappedTheNextIsResigned",
     {{game_started(game_start("g1")), 0ms, "session g1"},
      {game_started(game_start("g2", "b2")), 10ms, "abort g2"},
      {aborted("g2", false), 11ms, "session g2"},
      {game_started(game_start("g3", "b3")), 20ms, "abort g3"},
      {aborted("g3", false), 21ms, "session g3"},
      {game_started(game_start("g4", "b4")), 30ms, "abort g4"},
      {aborted("g4", false), 31ms, "session g4"},
      {game_started(game_start("g5", "b5")), 40ms, "abort g5"},
      {aborted("g5", false), 41ms, "session g5"},
      // kMaxGamesBeyondConcurrency (4) are played: the fifth is resigned, its slot freed.
      {game_started(game_start("g6", "b6")), 50ms, "abort g6"},
      {aborted("g6", false), 51ms, "resign g6"},
      {game_started(game_start("g6", "b6")), 60ms, ""},
      // One of them ends: the next such game is played again.
      {finished("g2"), 70ms, ""},
      {game_started(game_start("g7", "b7")), 80ms, "abort g7"},
      {aborted("g7", false), 81ms, "session g7"}}},
    {"ArenaGamesBeyondConcurrencyAreCappedTooTheNextIsResigned",
     {{game_started(game_start("g1")), 0ms, "session g1"},
      {game_started(arena_game_start("g2", "b2")), 10ms, "session g2"},
      {game_started(arena_game_start("g3", "b3")), 20ms, "session g3"},
      {game_started(arena_game_start("g4", "b4")), 30ms, "session g4"},
      {game_started(arena_game_start("g5", "b5")), 40ms, "session g5"},
      {game_started(arena_game_start("g6", "b6")), 50ms, "resign g6"},
      // Replayed after a restart or a reconnect: nothing more.
      {game_started(arena_game_start("g6", "b6")), 60ms, ""},
      {finished("g3"), 70ms, ""},
      {game_started(arena_game_start("g7", "b7")), 80ms, "session g7"}}},
    {"AReplayedGameStartOfARunningGameStartsNothing",
     {{game_started(game_start("g1")), 0ms, "session g1"},
      {game_started(game_start("g1"), true), 10ms, ""}}},
    {"ACorrespondenceChallengeTakesNoSlot",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {answered_ok("c1"), 10ms, ""},
      {game_started(game_start("c1")), 20ms, "session c1"},
      {arrives(correspondence_offer("c2", "Bob")), 30ms, "accept c2"},
      {answered_ok("c2"), 40ms, ""},
      {game_started(game_start("c2", "bob", "correspondence")), 50ms, "start game c2"}},
     [](auto& c) { c.time_controls.push_back("correspondence"); }},
    {"AnAcceptedChallengeWithoutGameStartIsFoundAmongTheOngoingGames",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {answered_ok("c1"), 10ms, ""},
      {desk_tick(), 3s, ""},
      {desk_tick(), 4010ms, "list playing"},
      {desk_tick(), 5s, ""},  // not again before game_start_poll
      {listed({game_start("other"), game_start("c1")}), 5100ms, "start game c1"},
      {game_started(game_start("c1")), 5200ms, "session c1"},
      {desk_tick(), 20s, ""}}},
    {"AnAcceptedChallengeIsForgottenAfterTheLongestWait",
     {{arrives(offer("c1", "Alice")), 0ms, "accept c1"},
      {answered_ok("c1"), 10ms, ""},
      {desk_tick(), 4010ms, "list playing"},
      {listed({}), 4100ms, ""},
      {desk_tick(), 2min + 100ms, ""},
      {desk_tick(), 3min, ""}}},
};
}  // namespace desk_table

class DeskTable : public ::testing::TestWithParam<DeskRow> {};

TEST_P(DeskTable, Plays) {
    const DeskRow& row = GetParam();
    config::ChallengeConfig config;
    if (row.config) row.config(config);
    Harness h(config, DeskTimes{});
    const std::chrono::steady_clock::time_point t0 = h.clock.now();
    for (std::size_t i = 0; i < row.steps.size(); ++i) {
        const Step& step = row.steps[i];
        h.clock.t = t0 + step.at;
        const auto requests = step.input(h);
        std::string got;
        for (const auto& r : requests) {
            if (const auto* a = std::get_if<challenge::Accept>(&r)) h.asked[a->challenge.id] = *a;
            if (const auto* d = std::get_if<challenge::Decline>(&r))
                h.declined[d->challenge_id] = *d;
            if (const auto* l = std::get_if<challenge::Log>(&r)) h.logs.push_back(l->text);
            const std::string one = summary(r);
            if (!one.empty()) got += (got.empty() ? "" : ", ") + one;
        }
        EXPECT_EQ(got, step.expect) << "step " << i + 1;
        if (step.queue) {
            EXPECT_EQ(h.desk.queued_names(), *step.queue) << "step " << i + 1;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(ChallengeDesk, DeskTable, ::testing::ValuesIn(desk_table::kDeskRows),
                         [](const auto& info) { return std::string(info.param.name); });

// ---- what the log says
// ---------------------------------------------------------------------------

std::string logged(const ChallengeDesk::Requests& requests) {
    std::string text;
    for (const auto& r : requests) {
        if (const auto* l = std::get_if<challenge::Log>(&r)) text += l->text + "\n";
        if (const auto* d = std::get_if<challenge::Decline>(&r)) text += d->log.text + "\n";
    }
    return text;
}

TEST(ChallengeDesk, TheDailyBotLimitIsLoggedOnceAndEachDeclineSaysWhy) {
    using namespace std::chrono_literals;
    Harness h({}, {});
    auto first = h.desk.on_challenge(bot_offer("c1", "SomeBot"), {}, h.clock.now());
    const auto accept1 = std::get<challenge::Accept>(first.at(0));
    auto failed1 = h.desk.on(challenge::AcceptAnswered{accept1, lila_fixtures::our_bot_limit(600s)},
                             h.clock.now());
    const std::string text1 = logged(failed1);
    EXPECT_NE(text1.find("our bot-vs-bot games for today are played (too many bot games today); "
                         "declining challenges from bots for 600 s, humans are still welcome"),
              std::string::npos)
        << text1;
    EXPECT_NE(text1.find("challenge c1 from SomeBot (BOT): declined (later: our bot games for "
                         "today are played)"),
              std::string::npos)
        << text1;
    // A second refusal while paused extends nothing new in the log.
    h.clock.advance(10s);
    auto again = h.desk.on_challenge(bot_offer("c2", "OtherBot"), {}, h.clock.now());
    EXPECT_NE(logged(again).find("declined (later: our bot games for today are played; 590 s "
                                 "left)"),
              std::string::npos)
        << logged(again);
    EXPECT_EQ(h.desk.bot_games_paused_for(h.clock.now()), std::optional(590000ms));
}

TEST(ChallengeDesk, NamesWithControlCharactersCannotForgeALogLine) {
    Harness h({}, {});
    auto c = offer("c1", "Eve\nFAKE line");
    c.variant.key = "duckChess";
    const auto requests = h.desk.on_challenge(c, {}, h.clock.now());
    const std::string text = logged(requests);
    EXPECT_EQ(text.find('\n'), text.size() - 1) << text;
    EXPECT_NE(text.find("Eve\\nFAKE line"), std::string::npos) << text;
}

TEST(ChallengeDesk, AnAcceptedChallengeIsLoggedWithItsGame) {
    Harness h({}, {});
    auto c = offer("c1", "Alice");
    c.rated = true;
    const auto accept =
        std::get<challenge::Accept>(h.desk.on_challenge(c, {}, h.clock.now()).at(0));
    EXPECT_EQ(accept.who, "Alice");
    EXPECT_FALSE(accept.from_queue);
    const auto answered = h.desk.on(challenge::AcceptAnswered{accept, std::nullopt}, h.clock.now());
    EXPECT_EQ(logged(answered), "challenge c1 from Alice (standard blitz rated): accepted\n");
}

TEST(ChallengeDesk, A400OnAnAcceptIsLoggedWithLilasError) {
    Harness h({}, {});
    const auto accept = std::get<challenge::Accept>(
        h.desk.on_challenge(offer("c1", "Alice"), {}, h.clock.now()).at(0));
    const auto failed = h.desk.on(
        challenge::AcceptAnswered{accept, lila_fixtures::http_error(400, "This challenge is gone")},
        h.clock.now());
    const auto decline = std::get<challenge::Decline>(failed.at(0));
    EXPECT_EQ(decline.reason, lichess::DeclineReason::Generic);
    EXPECT_EQ(decline.log.text,
              "challenge c1 from Alice: declined (generic: lila refused the accept: This challenge "
              "is gone)");
    // Its answer writes the line, with the decline's own error when it has one.
    const auto answered =
        h.desk.on(challenge::DeclineAnswered{decline, lila_fixtures::http_error(404, "Not found")},
                  h.clock.now());
    EXPECT_NE(logged(answered).find("declined (generic: lila refused the accept: This challenge is "
                                    "gone) - "),
              std::string::npos)
        << logged(answered);
}

TEST(ChallengeDesk, TheChallengesRulesGoWithItsGamesSession) {
    Harness h({}, {});
    auto c = offer("c1", "Alice");
    c.rules = {"noAbort", "noEarlyDraw"};
    const auto accept =
        std::get<challenge::Accept>(h.desk.on_challenge(c, {}, h.clock.now()).at(0));
    (void)h.desk.on(challenge::AcceptAnswered{accept, std::nullopt}, h.clock.now());
    const auto started = h.desk.on_game_start(game_start("c1"), false);
    const auto session = std::get<challenge::StartSession>(started.at(0));
    EXPECT_EQ(session.rules, (std::vector<std::string>{"noAbort", "noEarlyDraw"}));
    EXPECT_EQ(session.game.game_id, "c1");
}

TEST(ChallengeDesk, DeclinesDroppedUnsentAreLoggedOnceAMinute) {
    using namespace std::chrono_literals;
    Harness h({}, {});
    for (int i = 1; i <= 6; ++i)
        (void)h.desk.on_challenge(unwanted("c" + std::to_string(i), "A"), {}, h.clock.now());
    h.clock.advance(2min + 1s);
    EXPECT_NE(logged(h.desk.tick(h.clock.now()))
                  .find("2 decline(s) dropped unsent: they waited more than 120 s"),
              std::string::npos);
    // Four are still on their way: their answers bring no more lines about drops.
    h.clock.advance(1s);
    EXPECT_EQ(logged(h.desk.tick(h.clock.now())).find("dropped"), std::string::npos);
}

TEST(ChallengeDesk, A429IsLoggedOnceWithItsPause) {
    using namespace std::chrono_literals;
    Harness h({}, {});
    const auto accept = std::get<challenge::Accept>(
        h.desk.on_challenge(offer("c1", "Alice"), {}, h.clock.now()).at(0));
    const auto failed = h.desk.on(
        challenge::AcceptAnswered{accept, lila_fixtures::http_error(429, "Too many requests")},
        h.clock.now());
    EXPECT_NE(logged(failed).find("challenge requests paused for 60 s after a 429"),
              std::string::npos)
        << logged(failed);
    EXPECT_EQ(h.desk.requests_paused_for(h.clock.now()), std::optional(60000ms));
    h.clock.advance(61s);
    EXPECT_EQ(h.desk.requests_paused_for(h.clock.now()), std::nullopt);
}

}  // namespace
}  // namespace service
