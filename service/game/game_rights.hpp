// GameRights: what lila lets a player do in one game, read from lila's Game
// (modules/core/src/main/game/Game.scala), so that the rules never ask for what lila would refuse
// or silently ignore:
//  - abort: `abortable` = started, fewer than 2 plies, and not mandatory (an arena, simul or swiss
//    game); the challenge rule noAbort forbids it to the players too (`abortableByUser`);
//  - takeback: `canTakebackOrAddTime` = not mandatory;
//  - draw: an offer counts when the game is `drawable` (playable, not abortable, neither a swiss
//    game nor the rule noEarlyDraw under 60 plies) and `playerCanOfferDraw` (from ply 2, and not
//    within 20 plies of our last offer: modules/game/src/main/GameExt.scala); any other is answered
//    200 and dropped (BotPlayer.offerDraw, for a move's offeringDraw and draw/yes alike);
//  - claim the win when the opponent left: `forceResignable` = a clock, not against the AI, not a
//    swiss game, not the rule noClaimWin;
//  - an arena game's first move is urgent: lila ends a game whose first moves do not come as
//    noStart and withdraws the player who did not move (TournamentApi.withdrawNonMover).
// Berserk is an arena player's right that lila never gives a bot (TournamentApi.berserk).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace service {

struct GameRights {
    bool mandatory = false;  // arena, simul or swiss: it cannot be aborted and it counts
    bool arena = false;      // an arena game: its first move comes at once
    bool abort = true;
    bool takeback = true;
    bool claim_win = true;
    std::size_t draw_from_ply = 2;  // a draw offer counts from this many plies on
    // lila's playerHasOfferedDrawRecently: a new offer counts only this many plies after ours.
    static constexpr std::size_t kDrawOfferGap = 21;

    [[nodiscard]] bool may_offer_draw(std::size_t plies) const { return plies >= draw_from_ply; }
    bool operator==(const GameRights&) const = default;
};

// From what gameStart (or the ongoing games' list) says of a game: its `source` and
// `tournamentId`, and the rules of the challenge that made it (lila ChallengeJson `rules`:
// noAbort, noRematch, noGiveTime, noClaimWin, noEarlyDraw), when known.
[[nodiscard]] GameRights rights_of(const std::optional<std::string>& source, bool in_arena,
                                   const std::vector<std::string>& rules = {});

}  // namespace service
