// The transition table of a game (see game_stage.hpp) and the names of its stages, events and
// guards.
#include "service/game/game_stage.hpp"

#include <array>

namespace service {

// The table's own block: its rows name the stages bare.
namespace stage_table {

using enum Stage;

// Every stage of a game being played; and those with a game before its gameFull.
constexpr Stages kPlaying = {TheirTurn, Thinking, Posting, Resigning,         Resigned,
                             RetryWait, Moved,    Stalled, AnsweringTakeback, Claiming};
constexpr Stages kLive = {AwaitingGame, TheirTurn, Thinking, Posting,           Resigning, Resigned,
                          RetryWait,    Moved,     Stalled,  AnsweringTakeback, Claiming};

// clang-format off
constexpr std::array kTable = {
    // The game's lines: a gameFull (first, and after each reconnect) or a gameState. A state
    // before the gameFull waits for it; a line that changes no move list moves nothing on.
    Transition{kLive,    Event::Full,  Guard::BadInput,      Left},
    Transition{kLive,    Event::Full,  Guard::GameOver,      Over},
    Transition{kLive,    Event::Full,  Guard::TakebackAsked, AnsweringTakeback},
    Transition{kLive,    Event::Full,  Guard::OurMove,       Thinking},
    Transition{kLive,    Event::Full,  Guard::TheirMove,     TheirTurn},
    Transition{kPlaying, Event::State, Guard::BadInput,      Left},
    Transition{kPlaying, Event::State, Guard::GameOver,      Over},
    Transition{kPlaying, Event::State, Guard::TakebackAsked, AnsweringTakeback},
    Transition{kPlaying, Event::State, Guard::OurMove,       Thinking},
    Transition{kPlaying, Event::State, Guard::TheirMove,     TheirTurn},
    Transition{kLive,    Event::Unreadable, Guard::Always,   Left},
    // Our move: chosen, then posted (again after a refusal that may pass), or resigned instead.
    Transition{{Thinking},  Event::MoveChosen,   Guard::Play,           Posting},
    Transition{{Thinking},  Event::MoveChosen,   Guard::Resign,         Resigning},
    Transition{{Thinking},  Event::MoveChosen,   Guard::NoMove,         Stalled},
    Transition{{Thinking},  Event::NoMoveChosen, Guard::Always,         Stalled},
    Transition{{Posting},   Event::MovePosted,   Guard::Taken,          Moved},
    Transition{{Posting},   Event::MovePosted,   Guard::RefusedForNow,  RetryWait},
    Transition{{Posting},   Event::MovePosted,   Guard::RefusedForGood, Stalled},
    Transition{{RetryWait}, Event::Tick,         Guard::RetryDue,       Posting},
    Transition{{Resigning}, Event::ResignAnswered, Guard::Taken,        Resigned},
    Transition{{Resigning}, Event::ResignAnswered, Guard::Refused,      Posting},
    // The opponent's takeback request, answered before we think.
    Transition{{AnsweringTakeback}, Event::TakebackAnswered, Guard::OurMove,      Thinking},
    Transition{{AnsweringTakeback}, Event::TakebackAnswered, Guard::TheirMove,    TheirTurn},
    Transition{{AnsweringTakeback}, Event::TakebackAnswered, Guard::OurTurnIdle,  Stalled},
    Transition{{AnsweringTakeback}, Event::TakebackAnswered, Guard::RetryPending, RetryWait},
    Transition{{AnsweringTakeback}, Event::TakebackAnswered, Guard::BadInput,     Left},
    // A gone opponent's game claimed on its turn; a correspondence session parks.
    Transition{{TheirTurn},          Event::Tick,          Guard::ClaimDue,   Claiming},
    Transition{{Claiming},           Event::ClaimAnswered, Guard::Always,     TheirTurn},
    Transition{{TheirTurn, Stalled}, Event::Tick,          Guard::TimeToPark, Parked},
};
// clang-format on

}  // namespace stage_table

std::span<const Transition> transitions() { return stage_table::kTable; }

const Transition* find_transition(Stage from, Event event, Guard guard) {
    for (const Transition& t : stage_table::kTable)
        if (t.event == event && t.guard == guard && t.from.contains(from)) return &t;
    return nullptr;
}

bool has_transition(Stage from, Event event) {
    for (const Transition& t : stage_table::kTable)
        if (t.event == event && t.from.contains(from)) return true;
    return false;
}

Phase phase_of(Stage s) {
    switch (s) {
        case Stage::AwaitingGame:
            return Phase::AwaitingGame;
        case Stage::Over:
            return Phase::Over;
        case Stage::Left:
            return Phase::Left;
        case Stage::Parked:
            return Phase::Parked;
        default:
            return Phase::Playing;
    }
}

const char* to_string(Phase p) {
    switch (p) {
        case Phase::AwaitingGame:
            return "awaiting the game";
        case Phase::Playing:
            return "playing";
        case Phase::Over:
            return "over";
        case Phase::Left:
            return "left";
        case Phase::Parked:
            return "parked";
    }
    return "?";
}

const char* to_string(Stage s) {
    static constexpr std::array<const char*, kStageCount> kNames = {
        "AwaitingGame", "TheirTurn", "Thinking",  "Posting",  "RetryWait",
        "Moved",        "Stalled",   "Resigning", "Resigned", "AnsweringTakeback",
        "Claiming",     "Over",      "Left",      "Parked"};
    return kNames[std::size_t(s)];
}

const char* to_string(Event e) {
    static constexpr std::array<const char*, kEventCount> kNames = {"Full",
                                                                    "State",
                                                                    "OpponentGone",
                                                                    "Unreadable",
                                                                    "AbortTimerExtended",
                                                                    "Tick",
                                                                    "MoveChosen",
                                                                    "NoMoveChosen",
                                                                    "MovePosted",
                                                                    "ResignAnswered",
                                                                    "TakebackAnswered",
                                                                    "ClaimAnswered"};
    return kNames[std::size_t(e)];
}

const char* to_string(Guard g) {
    static constexpr std::array kNames = {
        "None",     "Always",     "BadInput",      "GameOver",      "TakebackAsked",
        "OurMove",  "TheirMove",  "OurTurnIdle",   "RetryPending",  "RetryDue",
        "ClaimDue", "TimeToPark", "Play",          "Resign",        "NoMove",
        "Taken",    "Refused",    "RefusedForNow", "RefusedForGood"};
    static_assert(kNames.size() == std::size_t(Guard::RefusedForGood) + 1);
    return kNames[std::size_t(g)];
}

}  // namespace service
