// The emulated Lichess server's state: the account, games with their opponents, challenges,
// the open streams, and a scheduler thread that runs clocks, opponents and scripted events.
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "bot_limit.hpp"
#include "challenge.hpp"
#include "faults.hpp"
#include "game.hpp"
#include "http_types.hpp"
#include "opponent.hpp"
#include "recorder.hpp"
#include "scenario.hpp"

namespace emu {

struct ChatRecord {
    Ms t_ms = 0;
    std::string user, room, text;
};

// A copy of one game's record for tests.
struct GameView {
    std::string id, status, bot_color, opponent_kind, uci_moves;
    std::optional<std::string> winner;
    bool over = false;
    Ms started_ms = 0;          // when its gameStart was sent
    std::string tournament_id;  // an arena's game
    std::vector<MoveRecord> moves;
    std::vector<ChatRecord> chat;
    std::vector<std::string> events;  // "draw_offer_bot@12", "takeback_opponent@5", ...
};

// An arena as tests see it: what the bot did in it and what it played.
struct ArenaView {
    std::string id;
    bool joined = false, withdrawn = false, finished = false;
    int joins = 0, withdrawals = 0, pair_me_asap = 0;  // requests the bot sent
    std::vector<std::string> games;                    // in pairing order
    std::vector<std::string> events;                   // "withdrawn_no_start@game0001", ...
};

struct ChallengeView {
    std::string id, direction, status, decline_reason, decline_reason_key;
    std::string opponent;  // the other side's name: the challenger, or whom the bot challenged
    std::string speed, variant;
    bool rated = false;
    Ms created_ms = 0;
};

class World {
  public:
    World(Scenario scenario, Recorder& recorder, FaultPlan& faults);
    ~World();
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    void start();
    void stop();
    Ms now() const;
    std::int64_t unix_ms() const { return unix_start_ms_ + now(); }
    bool stopping() const;
    // Sleeps up to `ms`; false when the emulator stops meanwhile.
    bool sleep_for(Ms ms);
    const Scenario& scenario() const { return scenario_; }
    const std::string& token() const { return scenario_.account.token; }

    // --- account and users (world_account.cpp)
    bool authorized(const std::string& authorization_header) const;
    Reply account();
    Reply playing(int nb);
    Reply token_test(const std::string& body);
    Reply upgrade();
    Reply bots_online(int nb);
    Reply users_status(const std::string& ids);

    // --- streams
    StreamStart open_event_stream(std::vector<FaultSpec> faults);
    std::variant<Reply, StreamStart> open_game_stream(const std::string& id,
                                                      std::vector<FaultSpec> faults);

    // --- the bot's game actions (world_games.cpp)
    Reply move(const std::string& id, const std::string& uci, std::optional<bool> offering_draw);
    Reply chat(const std::string& id, const std::string& room, const std::string& text);
    Reply chat_history(const std::string& id);
    Reply abort(const std::string& id);
    Reply resign(const std::string& id);
    Reply draw(const std::string& id, bool yes);
    Reply takeback(const std::string& id, bool yes);
    Reply claim_victory(const std::string& id);
    Reply claim_draw(const std::string& id);

    // --- challenges (world_challenges.cpp)
    Reply accept_challenge(const std::string& id);
    Reply decline_challenge(const std::string& id, const std::string& reason);
    Reply cancel_challenge(const std::string& id);
    Reply create_challenge(const std::string& username,
                           const std::map<std::string, std::string>& form);

    // --- arenas (world_arenas.cpp)
    Reply tournament(const std::string& id);
    Reply join_tournament(const std::string& id, const std::map<std::string, std::string>& form);
    Reply withdraw_tournament(const std::string& id);

    // --- for tests: script more at run time
    void add_challenge(ChallengeSpec spec);
    void add_game(GameSpec spec);

    // True once the scenario's exit condition holds (all games finished, or max duration).
    bool done() const;
    bool wait_done(Ms timeout);
    nlohmann::json snapshot_json() const;
    std::vector<GameView> games() const;
    std::vector<ChallengeView> challenges() const;
    std::vector<ArenaView> arenas() const;

  private:
    struct GameSlot {
        GameSlot(Game g, OpponentSpec o, std::uint64_t seed)
            : game(std::move(g)), opp(std::move(o)), mover(opp, seed) {}
        Game game;
        OpponentSpec opp;
        OpponentMover mover;
        std::shared_ptr<LineQueue> stream;
        std::map<int, Ms> turn_sent;  // ply → when the state that put the bot on move was sent
        bool went_away = false, gone = false;
        Ms gone_at = -1;
        Ms gone_line_at = -1;  // the last opponentGone line (lila repeats it every 5 s)
        bool draw_offer_done = false, takeback_done = false;
        int bot_draw_offer_ply = -1000;           // lila GameExt drawOffers: the bot's last offer
        std::size_t takebacks_on_turn_asked = 0;  // entries of opp.takeback_on_turn_at_plies
        std::vector<bool> chat_sent;
        Ms draw_answer_due = -1, takeback_answer_due = -1;
        std::vector<ChatRecord> chat;
        std::vector<std::string> events;
        bool finish_sent = false;
    };
    struct ArenaSlot {
        TournamentSpec spec;
        ArenaView view;
        std::string playing;  // the bot's game in it now
        Ms next_pair_at = 0;
    };
    struct ChallengeSlot {
        Challenge c;
        OpponentSpec opp;
        int accept_status = 200;
        std::string accept_error;
        Ms cancel_at = -1;
        Ms answer_at = -1;  // outgoing: when the target answers
        OutgoingRule rule;
    };

    // An opponent move to choose outside the lock (the engine may think for a while).
    struct MoveJob {
        GameSlot* slot;
        int ply;
        engine::Position position;
    };

    // All below run with mutex_ held.
    void tick(std::vector<MoveJob>* jobs);
    void opponent_turn(GameSlot& s, std::vector<MoveJob>* jobs);
    void apply_opponent_move(GameSlot& s, int ply, const std::optional<std::string>& move);
    void go_away(GameSlot& s);
    void push_gone_line(GameSlot& s);
    // lila's RoundSocket.tickInterval: how often a gone opponent's line is sent again.
    static constexpr Ms kGoneTickMs = 5000;
    void publish(GameSlot& s);  // pushes the current gameState; handles game end
    // lila GameExt.playerCanOfferDraw for the bot, now: drawable, from ply 2, and not within 20
    // plies of its last offer.
    static bool bot_may_offer_draw(const GameSlot& s);
    void emit_event(const nlohmann::json& line);
    void emit_chat(GameSlot& s, const std::string& user, const std::string& room,
                   const std::string& text);
    GameSlot* find_game(const std::string& id);
    GameSlot* create_game(GameSetup setup, const std::string& moves, OpponentSpec opp,
                          std::string* error);
    void release_challenge(const ChallengeSpec& spec);
    // lila BotLimit.challengeLimitError(orig, dest) as Challenge.apiCreate/apiAccept answer it:
    // 429 when `orig` has played its bot games, 400 when `dest` has; none for other games.
    std::optional<Reply> bot_limit_error(const Player& orig, const Player& dest) const;
    // A game started: charges both players when both are BOTs (BotLimit's StartGame hook).
    void charge_bot_limit(const GameSetup& setup);
    void release_game(const GameSpec& spec);
    void arena_tick(Ms t);
    ArenaSlot* find_arena(const std::string& id);
    nlohmann::json arena_json(const ArenaSlot& a) const;
    void answer_outgoing(ChallengeSlot& slot);
    GameSetup base_setup(const std::string& id, const std::string& variant,
                         const TimeControlSpec& tc, bool rated, const std::string& fen,
                         const UserSpec& opponent) const;
    std::string new_id();
    Player bot_player() const;
    bool check_exit();
    void on_line_sent(const Line& line);
    StreamStart make_stream(const std::string& family, const std::string& game_id,
                            std::shared_ptr<LineQueue> queue, std::vector<FaultSpec> faults);

    Scenario scenario_;
    Recorder& recorder_;
    FaultPlan& faults_;
    std::int64_t unix_start_ms_ = 0;
    std::int64_t steady_start_ms_ = 0;
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::condition_variable done_cv_;
    std::thread scheduler_;
    bool stop_ = false;
    std::atomic<bool> stop_search_{false};
    bool done_ = false;
    Ms all_finished_since_ = -1;
    std::mt19937_64 rng_;
    std::optional<std::string> title_;  // the account's title (upgrade sets BOT)
    std::shared_ptr<LineQueue> events_;
    std::map<std::string, std::unique_ptr<GameSlot>> games_;
    std::vector<std::string> game_order_;
    std::map<std::string, ChallengeSlot> challenges_;
    std::vector<std::string> challenge_order_;
    std::vector<ChallengeSpec> pending_challenges_;
    std::vector<GameSpec> pending_games_;
    std::vector<int> outgoing_uses_;
    std::map<std::string, ArenaSlot> arenas_;
    // lila Pause: the bot's pauses (a withdrawal near the top of a running arena), per user across
    // arenas; the record is forgotten 20 min after its last pause.
    int pauses_ = 0;
    Ms paused_at_ = -1;
    Ms pause_left(const TournamentSpec& t, Ms now) const;
    Ms presence_until_ = -1;  // /api/bot/online lists the bot until then (OnlineApiUsers)
    std::uint64_t stream_seed_ = 0;
    BotLimit bot_limit_;
};

Reply ok_reply();
Reply error_reply(int status, const std::string& message);
std::string lower(std::string s);
Player player_of(const UserSpec& u);

}  // namespace emu
