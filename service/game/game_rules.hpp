// GameRules: every rule of one game as a pure state machine. It is fed what happened (the game
// stream's lines, a timer tick, the answer to a request it asked for, the move the engine or
// the book chose) with the time it happened, and returns what to do: post a move, answer a
// draw or takeback, chat, abort, claim, resign, think, ponder, park, record the end. It starts
// no thread, does no I/O and reads no clock; GameSession runs it and carries out its actions.
// Its stages and the table of their transitions are in game_stage.hpp.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "common/log_line.hpp"
#include "config/config.hpp"
#include "engine/position.hpp"
#include "engine/search.hpp"
#include "lichess_client/api.hpp"
#include "lichess_client/api_error.hpp"
#include "lichess_client/events.hpp"
#include "service/game/draw_resign.hpp"
#include "service/game/game_facts.hpp"
#include "service/game/game_policies.hpp"
#include "service/game/game_record.hpp"
#include "service/game/game_rights.hpp"
#include "service/game/game_stage.hpp"
#include "service/game/last_search.hpp"
#include "service/game/move_planner.hpp"
#include "service/game/move_source.hpp"
#include "service/game/parking.hpp"
#include "service/game/strength_level.hpp"

namespace service {

// Every timing of a game that is not a config key; tests shorten them.
struct GameTimings {
    std::chrono::milliseconds poll{250};  // the session looks at its timers at least this often
    // A move the server did not take for a passing reason (429, 5xx, network) is posted again
    // after the server's Retry-After, or after this.
    std::chrono::milliseconds move_retry{250};
    // A claim is sent this long after lila's claimWinInSeconds ran out (its clock and ours).
    std::chrono::milliseconds claim_margin{300};
    // lila answers 200 to a claim that ended nothing (the opponent came back, or it was our
    // turn): asked again after this; after a failure that may pass, after claim_retry_error.
    std::chrono::milliseconds claim_retry_ok{2000};
    std::chrono::milliseconds claim_retry_error{1000};
    int max_claims = 5;  // claims per opponentGone line
};

// What a GameRules is told at its start: who we are and the config that shapes its answers.
struct GameSettings {
    std::string game_id;
    std::string my_id;                         // lowercase user id
    std::string my_name;                       // display name
    std::string site = "https://lichess.org";  // config `url`, for the PGN
    std::chrono::seconds abort_time{20};
    config::GreetingConfig greeting;
    config::DrawOrResignConfig draw_or_resign;
    int max_takebacks_accepted = 0;
    bool ponder = false;
    MovePlannerSettings planner;
    GameTimings timings;
    // A correspondence game's session (the CorrespondenceDesk); none: real time.
    std::optional<ParkingRules> parking;
    // What lila lets us do in this game (an arena game's gameFull makes it one of an arena).
    GameRights rights;
    // An arena game's first move (GameRights::arena): thought about at most this long, with no
    // online source asked, since lila gives a bullet arena's first move about 16 s.
    std::int64_t arena_first_move_ms = 100;
    // engine.strength: the game's level is chosen from it at the first gameFull.
    config::StrengthConfig strength;

    [[nodiscard]] static GameSettings from(const config::Config& config, std::string game_id,
                                           std::string my_id, std::string my_name);
};

// The answer to a request the rules asked for, as the rules need it.
struct Outcome {
    bool ok = true;
    bool final_no = false;   // a 4xx other than 429: asking again will not help
    bool cancelled = false;  // the daemon is shutting down
    bool game_over = false;  // the stream showed the game's end while the request ran
    std::optional<std::chrono::milliseconds> retry_after;
    std::string error;  // describe() of the failure; empty when ok

    [[nodiscard]] static Outcome from(const lichess::Result<lichess::Ok>& r);
};

using TimePoint = std::chrono::steady_clock::time_point;

// ---- what happens to a game ----------------------------------------------------------------
namespace game {

// gameFull: the stream's first line, again after each reconnect. `facts` are those of its state,
// read where the line arrived (when not given, read here).
struct FullReceived {
    lichess::GameFull full;
    StateFacts facts = read_state(full.state);
};
struct StateReceived {
    lichess::GameState state;
    StateFacts facts = read_state(state);
};
struct OpponentGoneReceived {
    lichess::OpponentGone gone;
};
// A gameFull or gameState that could not be read (lichess::GameUnreadable): the game is left,
// resigned or aborted while lila still allows it, rather than lost on time.
struct UnreadableReceived {
    lichess::GameUnreadable line;
};
struct AbortTimerExtended {  // the opponent asked for time in the chat (!wait)
    std::chrono::seconds by{0};
};
struct Tick {                     // the session's timer: retries, claims, the abort timer, parking
    bool others_waiting = false;  // correspondence: ParkingRules::games_waiting is above 0
};
// The engine, the book or an online source chose our move for the position of the last Think.
struct MoveChosen {
    MoveSource source = MoveSource::Search;
    std::string uci = {};  // a book or online move's; a searched move is search->best
    std::int64_t think_ms = 0;
    std::optional<engine::SearchResult> search = std::nullopt;  // source Search or Syzygy
    // An online source's score from our side (cloud evaluation, tablebase result): it counts for
    // the draw/resign policy as a search's does.
    std::optional<engine::Score> score = std::nullopt;
    bool ponder_hit = false;
    std::string note = {};  // a book move's "weight N from FILE", a source's details, for the log
};
struct NoMoveChosen {};  // the search was stopped (game over, shutdown) or found nothing
struct MovePosted {
    Outcome outcome;
};
struct ResignAnswered {
    Outcome outcome;
};
struct TakebackAnswered {
    bool accepted = false;
    Outcome outcome;
};
struct ClaimAnswered {
    Outcome outcome;
};

// ---- what the rules ask for -----------------------------------------------------------------

// Choose a move: the book (when it has one), a ponder hit, or a search with `plan`.
struct Think {
    engine::Position position;
    std::string variant;  // Lichess key, for the book and the online sources
    MoveClock clock;
    MovePlan plan;
    int fullmove = 1;  // for the book's max_depth
    bool ponder_hit = false;
    bool hurry = false;  // an arena game's first move: book or a short search, no online source
};
struct PostMove {
    std::string uci;
    bool offer_draw = false;
    TimePoint give_up_at;  // our clock runs out then: a move sent later cannot count
    std::size_t ply = 0;   // plies in the server's list once the move is in it
};
struct AcceptDraw {};  // the session logs a failure; the game goes on either way
struct AnswerTakeback {
    bool accept = false;
};
struct Resign {};
struct Abort {};
struct ClaimVictory {};
// Bad input: leave a game that may still be on rather than lose it on time (abort while it is
// abortable, resign otherwise; the session resigns when the abort fails).
struct LeaveGame {
    bool abort = false;
};
struct Say {
    lichess::ChatRoom room = lichess::ChatRoom::Player;
    std::string text;
};
struct StartPonder {
    engine::Position position;  // after our move and the expected reply
    engine::SearchLimits limits;
};
struct StopPonder {};
struct MovePlayed {  // for /metrics: the server took a move of ours
    std::int64_t reaction_ms = 0;
    std::int64_t think_ms = 0;
};
struct GameEnded {  // for /metrics and the PGN
    GameResult result = GameResult::Draw;
    bool lost_on_time = false;
    GameRecord record;
};
// A log line, written by the session (service/ops/logging.hpp: write_log).
using Log = common::LogLine;

}  // namespace game

using GameInput = std::variant<game::FullReceived, game::StateReceived, game::OpponentGoneReceived,
                               game::UnreadableReceived, game::AbortTimerExtended, game::Tick,
                               game::MoveChosen, game::NoMoveChosen, game::MovePosted,
                               game::ResignAnswered, game::TakebackAnswered, game::ClaimAnswered>;
using GameAction =
    std::variant<game::Think, game::PostMove, game::AcceptDraw, game::AnswerTakeback, game::Resign,
                 game::Abort, game::ClaimVictory, game::LeaveGame, game::Say, game::StartPonder,
                 game::StopPonder, game::MovePlayed, game::GameEnded, game::Log>;

class GameRules {
  public:
    explicit GameRules(GameSettings settings);

    // Feeds one event; returns what to do, in order. An action that expects an answer
    // (Think, PostMove, Resign, AnswerTakeback, ClaimVictory) is the last of its batch: the rules
    // wait for the answer's event before they decide more. The others need no answer.
    [[nodiscard]] std::vector<GameAction> on(const GameInput& event, TimePoint now);

    [[nodiscard]] Phase phase() const { return phase_of(stage_); }
    [[nodiscard]] bool ended() const {
        const Phase p = phase();
        return p != Phase::AwaitingGame && p != Phase::Playing;
    }
    [[nodiscard]] Stage stage() const { return stage_; }
    // The row of the transition table the last event took; null when it took none.
    [[nodiscard]] const Transition* last_transition() const { return last_transition_; }
    // The game's policies as they stand (a correspondence desk keeps them between sessions).
    [[nodiscard]] const GamePolicies& policies() const { return policies_; }
    [[nodiscard]] const std::vector<std::string>& moves() const { return moves_; }
    [[nodiscard]] engine::Color our_color() const { return us_; }
    // For the chat commands.
    [[nodiscard]] const LastSearch* last_search() const {
        return last_search_ ? &*last_search_ : nullptr;
    }
    [[nodiscard]] bool first_moves_pending() const;
    [[nodiscard]] const GameSettings& settings() const { return s_; }
    // For the status page: the gameFull (null before it) and the position now (null before it).
    [[nodiscard]] const lichess::GameFull* full() const { return full_ ? &*full_ : nullptr; }
    [[nodiscard]] const engine::Position* position() const {
        return position_ ? &*position_ : nullptr;
    }
    // The level this game is played at (engine.strength), chosen at the first gameFull; null
    // before it.
    [[nodiscard]] const GameLevel* level() const { return level_ ? &*level_ : nullptr; }

  private:
    using Actions = std::vector<GameAction>;
    // A move chosen but not yet taken by the server, with what the PGN says of it once it is.
    struct OutgoingMove {
        std::string uci;
        bool offer_draw = false;
        std::optional<PgnEval> eval;  // a searched (or scored online) move's score
        MoveSource source = MoveSource::Search;
        std::int64_t think_ms = 0;
        engine::Move ours;    // searched moves: for pondering
        engine::Move ponder;  // the reply the search expects; none: no pondering
        std::string line;     // logged once the server takes the move
        bool retried = false;
    };

    // The handlers: each does what its event calls for in the stage the game is in and returns
    // the guard that held; the transition table says where that leads (game_stage.hpp).
    Guard on_full(const lichess::GameFull& full, const StateFacts& facts, TimePoint now,
                  Actions& out);
    Guard on_state(const lichess::GameState& state, const StateFacts& facts, TimePoint now,
                   Actions& out);
    void on_gone(const lichess::OpponentGone& gone, TimePoint now, Actions& out);
    Guard on_unreadable(const lichess::GameUnreadable& line, Actions& out);
    Guard on_tick(const game::Tick& tick, TimePoint now, Actions& out);
    Guard on_chosen(const game::MoveChosen& chosen, TimePoint now, Actions& out);
    Guard on_posted(const Outcome& outcome, TimePoint now, Actions& out);
    Guard on_resign_answered(const Outcome& outcome, TimePoint now, Actions& out);
    Guard on_claim_answered(const Outcome& outcome, TimePoint now, Actions& out);
    // Answers the opponent's draw and takeback offers; true when a takeback answer was asked
    // for and must come back before the rules go on.
    bool answer_offers(const lichess::GameState& state, bool changed, Actions& out);
    Guard on_takeback_answered(const game::TakebackAnswered& a, TimePoint now, Actions& out);
    void start_ponder(const OutgoingMove& move, std::int64_t reaction_ms, Actions& out);

    // Replays the server's move list on our position; false when a move is illegal (logged).
    bool sync(const std::vector<std::string>& moves, Actions& out);
    [[nodiscard]] bool our_turn() const;
    // A draw offer with the move about to be posted counts (lila's drawable and
    // playerCanOfferDraw: from its ply, and not again within 20 plies of our last).
    [[nodiscard]] bool may_offer_draw() const {
        const auto last = policies_.draw_resign.last_offer_plies();
        return s_.rights.may_offer_draw(moves_.size()) &&
               (!last || moves_.size() >= *last + GameRights::kDrawOfferGap);
    }
    [[nodiscard]] MoveClock clock_for_us(const lichess::GameState& state) const;
    // Asks for our move (Guard::OurMove), or leaves a position that is over by our rules.
    Guard think(TimePoint now, Actions& out);
    // The move to post for what was chosen (a searched one, or a book or online move).
    [[nodiscard]] OutgoingMove outgoing_move(const game::MoveChosen& chosen) const;
    void post(OutgoingMove move, TimePoint now, Actions& out);
    Guard finish(const lichess::GameState& state, Actions& out);
    Guard leave(const std::string& why, Actions& out);
    void record_clocks(const lichess::GameState& state, std::size_t first_new_ply);
    [[nodiscard]] GameRecord record(const lichess::GameState& state) const;
    [[nodiscard]] std::string expand(const std::string& text) const;
    void log(Actions& out, common::LogLevel level, std::string text) const;
    static std::int64_t ms_between(TimePoint from, TimePoint to);

    GameSettings s_;
    const std::string id_;  // the game's id as log lines show it (common::printable)
    Stage stage_ = Stage::AwaitingGame;
    const Transition* last_transition_ = nullptr;

    // The game, from gameFull and the states.
    std::optional<lichess::GameFull> full_;
    std::optional<GameLevel> level_;
    engine::Color us_ = engine::WHITE;
    std::string initial_fen_;
    engine::Variant variant_ = engine::Variant::STANDARD;
    bool chess960_ = false;
    std::optional<engine::Position> position_;
    std::vector<std::string> moves_;  // as Lichess sent them
    std::size_t server_plies_ = 0;    // in the last move list the server sent
    std::vector<PgnMove> notes_;      // per ply, for the PGN
    lichess::GameState last_state_;   // the last state we played from (clocks for Think)

    // Our moves.
    LagTracker lag_;
    MovePlanner planner_;
    // Posting, RetryWait, Resigning: the move (being posted, waiting for its retry, played if
    // resigning fails).
    std::optional<OutgoingMove> outgoing_;
    TimePoint retry_at_{};                // RetryWait: outgoing_ is posted again then
    std::optional<TimePoint> posted_at_;  // for the lag: when the move the server took was sent
    std::size_t posted_ply_ = 0;
    std::optional<PgnEval> pending_eval_;  // our last move's notes, until the server shows it
    MoveSource pending_source_ = MoveSource::Search;
    bool think_after_answer_ = false;  // AnsweringTakeback: think if the answer was no
    MoveClock think_clock_;            // the clock and plan of the last Think
    MovePlan think_plan_;
    TimePoint turn_started_{};
    TimePoint flag_at_ = TimePoint::max();  // our clock runs out (this turn)
    TimePoint opponent_turn_since_{};
    std::optional<LastSearch> last_search_;
    // Pondering: the reply we expect after our move at `ponder_ply_` (plies before it).
    engine::Move ponder_expected_;
    std::size_t ponder_ply_ = SIZE_MAX;

    // Offers, chat, and two timers that run beside the stages: the claim and the abort timer.
    bool greeted_ = false;
    bool draw_answered_this_ply_ = false;
    GamePolicies policies_;
    std::optional<TimePoint> claim_at_;
    int claims_ = 0;  // claims sent since the last opponentGone line
    bool aborted_ = false;
    std::chrono::seconds abort_extension_{0};
};

}  // namespace service
