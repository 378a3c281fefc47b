// The stages of one game and the table of transitions between them: GameRules's state machine
// as data. GameRules's handlers do the work an event calls for and report which guard held; the
// table alone says which stage that leads to. An event whose (stage, event, guard) has no row
// leaves the stage as it is.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>

namespace service {

// Where a game is. A session ends in every phase but the first two.
enum class Phase {
    AwaitingGame,  // no gameFull yet
    Playing,
    Over,    // the game ended and was recorded
    Left,    // bad input: we left the game (aborted or resigned) and ended the session
    Parked,  // correspondence: the session ends, the game goes on
};
[[nodiscard]] const char* to_string(Phase p);

// The stages of a game: Phase::Playing split by whose turn it is and which answer the rules wait
// for. "Out" means an action that expects an answer was returned and the answer is awaited.
enum class Stage : std::uint8_t {
    AwaitingGame,       // no gameFull yet
    TheirTurn,          // the opponent is on move
    Thinking,           // our turn: a Think is out
    Posting,            // a PostMove is out
    RetryWait,          // the server refused our move for a reason that may pass; a tick posts it
    Moved,              // the server took our move; no state has shown it yet
    Stalled,            // our turn, no move under way (none chosen, or refused for good)
    Resigning,          // a Resign is out, instead of the move chosen
    Resigned,           // the server took the resignation; the final state comes next
    AnsweringTakeback,  // an AnswerTakeback is out
    Claiming,           // a ClaimVictory is out
    Over,               // final: the game ended and was recorded
    Left,               // final: bad input, we left the game
    Parked,             // final: correspondence, the session ends and the game goes on
};
inline constexpr int kStageCount = int(Stage::Parked) + 1;
[[nodiscard]] const char* to_string(Stage s);
[[nodiscard]] Phase phase_of(Stage s);

// What happens to a game: one per GameInput alternative, in its order.
enum class Event : std::uint8_t {
    Full,
    State,
    OpponentGone,
    Unreadable,
    AbortTimerExtended,
    Tick,
    MoveChosen,
    NoMoveChosen,
    MovePosted,
    ResignAnswered,
    TakebackAnswered,
    ClaimAnswered,
};
inline constexpr int kEventCount = int(Event::ClaimAnswered) + 1;
[[nodiscard]] const char* to_string(Event e);

// What a handler found when it dealt with an event.
enum class Guard : std::uint8_t {
    None,  // nothing that moves the game on
    Always,
    // A line of the game, or where a takeback answer leaves the game.
    BadInput,       // no game to play from it: leave (not ours, unknown, illegal, over for us)
    GameOver,       // a final status
    TakebackAsked,  // the opponent's takeback request is answered before anything else
    OurMove,        // a new position with us on move: think
    TheirMove,      // the opponent is on move
    OurTurnIdle,    // our turn with no move to make until the next state
    RetryPending,   // our refused move still waits for its retry
    // A tick.
    RetryDue,
    ClaimDue,
    TimeToPark,
    // A chosen move.
    Play,
    Resign,
    NoMove,  // a search without a best move
    // The answer to a request.
    Taken,
    Refused,         // a resignation the server did not take
    RefusedForNow,   // a move refused for a reason that may pass (429, 5xx, network)
    RefusedForGood,  // a move refused by a 4xx, a shutdown or the game's end
};
[[nodiscard]] const char* to_string(Guard g);

// A set of stages, for the rows that hold in several.
class Stages {
  public:
    constexpr Stages(std::initializer_list<Stage> stages) {
        for (Stage s : stages) bits_ |= bit(s);
    }
    [[nodiscard]] constexpr bool contains(Stage s) const { return (bits_ & bit(s)) != 0; }

  private:
    static constexpr std::uint32_t bit(Stage s) { return std::uint32_t{1} << unsigned(s); }
    std::uint32_t bits_ = 0;
};

struct Transition {
    Stages from;
    Event event;
    Guard guard;
    Stage to;
};

// Every transition of a game; no two rows share a stage, an event and a guard.
[[nodiscard]] std::span<const Transition> transitions();
// The row for `event` with `guard` from `from`, or null.
[[nodiscard]] const Transition* find_transition(Stage from, Event event, Guard guard);
// Whether any row leaves `from` on `event`.
[[nodiscard]] bool has_transition(Stage from, Event event);

}  // namespace service
