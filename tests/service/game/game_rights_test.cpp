// GameRights as a table: what lila lets a player do in a game, by where the game comes from and
// its challenge's rules (lila modules/core/src/main/game/Game.scala: abortable,
// canTakebackOrAddTime, drawable, forceResignable).
#include "service/game/game_rights.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace service {
namespace {

struct RightsRow {
    const char* what;
    std::optional<std::string> source;
    bool in_arena;
    std::vector<std::string> rules;
    GameRights expected;
};

GameRights rights(bool mandatory, bool arena, bool abort, bool takeback, bool claim,
                  std::size_t draw_from) {
    GameRights r;
    r.mandatory = mandatory;
    r.arena = arena;
    r.abort = abort;
    r.takeback = takeback;
    r.claim_win = claim;
    r.draw_from_ply = draw_from;
    return r;
}

TEST(GameRights, AsLilaGivesThem) {
    const std::vector<RightsRow> rows = {
        {"a challenge", "friend", false, {}, rights(false, false, true, true, true, 2)},
        {"a game we know nothing of",
         std::nullopt,
         false,
         {},
         rights(false, false, true, true, true, 2)},
        {"an arena game by its source",
         "arena",
         false,
         {},
         rights(true, true, false, false, true, 2)},
        {"an arena game by its tournamentId",
         "friend",
         true,
         {},
         rights(true, true, false, false, true, 2)},
        {"an older payload's tournament source",
         "tournament",
         false,
         {},
         rights(true, true, false, false, true, 2)},
        {"a simul game", "simul", false, {}, rights(true, false, false, false, true, 2)},
        {"a swiss game", "swiss", false, {}, rights(true, false, false, false, false, 60)},
        {"the rule noAbort",
         "friend",
         false,
         {"noAbort"},
         rights(false, false, false, true, true, 2)},
        {"the rule noClaimWin",
         "friend",
         false,
         {"noClaimWin"},
         rights(false, false, true, true, false, 2)},
        {"the rule noEarlyDraw",
         "friend",
         false,
         {"noEarlyDraw"},
         rights(false, false, true, true, true, 60)},
        {"rules that change nothing here",
         "friend",
         false,
         {"noRematch", "noGiveTime"},
         rights(false, false, true, true, true, 2)},
    };
    for (const RightsRow& row : rows)
        EXPECT_EQ(rights_of(row.source, row.in_arena, row.rules), row.expected) << row.what;
}

TEST(GameRights, DrawOffersCountFromTheirPly) {
    EXPECT_FALSE(rights_of("friend", false).may_offer_draw(1));
    EXPECT_TRUE(rights_of("friend", false).may_offer_draw(2));
    EXPECT_FALSE(rights_of("arena", true).may_offer_draw(1));  // playerCanOfferDraw: ply 2
    EXPECT_FALSE(rights_of("swiss", false).may_offer_draw(59));
    EXPECT_TRUE(rights_of("swiss", false).may_offer_draw(60));
}

}  // namespace
}  // namespace service
