// Where our move comes from: the one place that asks the book, the online sources and the search,
// in a fixed order, for the position of a game::Think. The sources themselves (the book's files,
// the online services, the engine and its ponder search) sit behind MoveSources, so the order,
// the online lookup's time taken off the search and the tablebase's veto are table-tested alone.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>

#include "engine/position.hpp"
#include "engine/search.hpp"
#include "service/game/game_rules.hpp"
#include "service/moves/online_moves.hpp"
#include "service/moves/opening_book.hpp"

namespace service {

// The sources of a move, asked in this order; the first that answers decides:
//  1. Book:   the opening book of the game's variant (engine.book), within its max_depth.
//  L. LocalTables: the local tables (Syzygy, then Gaviota: engine.tablebases) answer the
//             position, so the online sources are not asked and the search plays among the moves
//             the tables keep; a move the Syzygy tables chose says so (source "syzygy").
//  2. Online: online_moves.* (a tablebase, then chessdb, cloud evaluations, the explorer), not on
//             a ponder hit (that search already runs on our clock), asked within a small share
//             of our clock (online_deadline) that the search then does without.
//  3. Search: the engine; on a ponder hit the ponder search goes on under the clock instead of a
//             new one. An online tablebase in `suggest` mode answered in step 2 with the moves
//             that keep its result: a searched move outside them is replaced by the table's best.
// A book or online move ends a ponder search that is running (it was searching another move).
enum class MoveStep { Book, LocalTables, Online, Search };
inline constexpr std::array<MoveStep, 4> kMoveSteps{MoveStep::Book, MoveStep::LocalTables,
                                                    MoveStep::Online, MoveStep::Search};

// What the chooser asks; the session gives the real sources, tests give fakes.
class MoveSources {
  public:
    virtual ~MoveSources() = default;
    // A book move for the Think's position; none when its variant has no book or no move.
    [[nodiscard]] virtual std::optional<BookChoice> book_move(const game::Think& think) = 0;
    // Whether the engine's local tables answer this position at the search's root.
    [[nodiscard]] virtual bool local_tables_cover(const engine::Position& /*position*/) {
        return false;
    }
    // Whether any online source is enabled (online_moves.*).
    [[nodiscard]] virtual bool online_enabled() const = 0;
    [[nodiscard]] virtual std::optional<OnlineChoice> online_move(const engine::Position& position,
                                                                  const OnlineAsk& ask) = 0;
    // Ends the ponder search, if one runs: on a hit it goes on under the clock and its result
    // comes back; otherwise it is stopped and none comes back.
    [[nodiscard]] virtual std::optional<engine::SearchResult> finish_ponder(bool hit) = 0;
    [[nodiscard]] virtual engine::SearchResult search(const engine::Position& position,
                                                      const engine::SearchLimits& limits) = 0;
    // The stream showed the game's end: a search is stopped, and no move is played.
    [[nodiscard]] virtual bool final_state_seen() const = 0;
    [[nodiscard]] virtual std::chrono::steady_clock::time_point now() const = 0;
};

// Our move for `think`'s position (game::MoveChosen), or game::NoMoveChosen when the game ended
// or the search found nothing.
[[nodiscard]] GameInput choose_move(game::Think think, MoveSources& sources);

// The clock ran while an online lookup took `spent_ms`: the search gets that much less, its
// movetime never below 10 ms and our clock never below 1 ms (a limit not set stays unset).
void take_lookup_time(engine::SearchLimits& limits, engine::Color us, std::int64_t spent_ms);

}  // namespace service
