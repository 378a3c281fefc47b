// GameSlots: the one authoritative count of games we play or have promised to play, so that
// `challenge.concurrency` holds through bursts, replayed gameStarts and restarts.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace service {

// A copy of the slot counts at one moment, for ChallengePolicy (which must stay a pure function).
struct SlotSnapshot {
    int limit = 1;
    int active = 0;      // games started (including any admitted over the limit)
    int reserved = 0;    // accepted or outgoing challenges whose game has not started yet
    int bot_limit = -1;  // at most this many against bots (games_reserved_for_humans); -1: limit
    int bot_games = 0;   // active games and reservations against bots
    // Challengers waiting in the Bot's ChallengeQueue, in the order they would be accepted
    // (filled in by the Bot, not by GameSlots).
    std::vector<std::string> queued;
    // Active games plus reservations per opponent (lowercase user id).
    std::map<std::string, int, std::less<>> per_user;

    [[nodiscard]] int free() const;
    // A free slot that a bot may take (free() and below bot_limit).
    [[nodiscard]] int free_for_bots() const;
    [[nodiscard]] int games_with(std::string_view user_id) const;
};

// What on_game_start made of a game.
enum class Admission {
    Admitted,        // it took its own reservation or a free slot
    AlreadyRunning,  // a replayed gameStart for a game already counted: nothing changed
    OverLimit,       // never reserved and no slot was free: recorded anyway, the Bot must decide
};
[[nodiscard]] const char* to_string(Admission a);

// Thread-safe: every member locks one mutex. Ids are compared as given for games and
// case-insensitively for users (Lichess user ids are lowercase names).
//
// A slot is held by a reservation (challenge id, with a deadline) or by an active game. A
// challenge id equals the id of the game it creates, so a gameStart for a reserved id turns
// the reservation into the game. Reservations older than `reservation_ttl` are dropped on
// the next call: an accepted challenge whose game never starts must not hold a slot forever.
class GameSlots {
  public:
    using Clock = std::function<std::chrono::steady_clock::time_point()>;

    // limit: challenge.concurrency (0 means: reserve nothing). reservation_ttl: how long an
    // accepted challenge may wait for its gameStart (challenge.accept_timeout_s).
    GameSlots(
        int limit, std::chrono::milliseconds reservation_ttl,
        Clock now = [] { return std::chrono::steady_clock::now(); });

    // Holds a slot for a challenge we accept, or one we send (matchmaking: the opponent's
    // user id, and a ttl as long as we wait for their answer). False when no slot is free.
    // Reserving an id that is already reserved or running succeeds without a second slot.
    // ttl: how long this reservation lives; none means the constructor's reservation_ttl.
    // bot: the opponent is a BOT; then also false when bot_limit() bot games are held already.
    [[nodiscard]] bool try_reserve(std::string_view challenge_id, std::string_view user_id,
                                   std::optional<std::chrono::milliseconds> ttl = std::nullopt,
                                   bool bot = false);
    // Gives a reservation back (challenge canceled or declined, accept failed). Unknown ids and
    // ids that already became games are ignored.
    void release_reservation(std::string_view challenge_id);

    // A gameStart (from the event stream, or /api/account/playing at start-up). `in_place_of`:
    // a reservation whose slot the game takes when it has none of its own (an arena's).
    [[nodiscard]] Admission on_game_start(std::string_view game_id, std::string_view user_id,
                                          std::string_view in_place_of = {});
    // The game ended (or was aborted); frees its slot. False when the id was not active.
    bool on_game_finish(std::string_view game_id);

    [[nodiscard]] int limit() const { return limit_; }
    // Bot games (challenge.games_reserved_for_humans): at most limit() minus that many slots go
    // to bots, so humans always find one. A game keeps the bot mark of its reservation.
    void reserve_for_humans(int slots);
    [[nodiscard]] int bot_limit() const;
    [[nodiscard]] int active() const;
    [[nodiscard]] int reserved() const;
    [[nodiscard]] int free() const;
    [[nodiscard]] bool is_active(std::string_view game_id) const;
    // A reservation or a started game under this id.
    [[nodiscard]] bool holds(std::string_view id) const;
    // Active games plus reservations against that opponent.
    [[nodiscard]] int games_with(std::string_view user_id) const;
    [[nodiscard]] SlotSnapshot snapshot() const;

    // Drops expired reservations now (every other call does it too); returns their ids so the
    // Bot can log them.
    std::vector<std::string> expire_now();

  private:
    struct Reservation {
        std::string user;
        std::chrono::steady_clock::time_point deadline;
        bool bot = false;
    };

    // Expiry is lazy, so even const readers drop stale reservations first.
    std::vector<std::string> expire_locked() const;
    [[nodiscard]] int free_locked() const;
    [[nodiscard]] int games_with_locked(std::string_view user) const;
    [[nodiscard]] int bot_games_locked() const;

    const int limit_;
    const std::chrono::milliseconds ttl_;
    const Clock now_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, Reservation, std::less<>> reservations_;  // challenge id ->
    std::map<std::string, std::string, std::less<>> games_;                 // game id -> user
    std::set<std::string, std::less<>> bot_games_;  // ids of games started from a bot reservation
    int bot_limit_;
};

// The slots as the rest of the daemon may read them from any thread (a session's !queue, the
// tests): GameSlots' counts now, with the challengers waiting in the queue as the Bot last
// published them. The Bot writes; nobody reads anything of the Bot's.
class SlotsView {
  public:
    explicit SlotsView(const GameSlots& slots) : slots_(slots) {}

    void publish_queue(std::vector<std::string> names);
    [[nodiscard]] SlotSnapshot snapshot() const;

  private:
    const GameSlots& slots_;
    mutable std::mutex mutex_;
    std::vector<std::string> queued_;
};

}  // namespace service
