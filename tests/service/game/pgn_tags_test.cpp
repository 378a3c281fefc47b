// Event for every perf and arena games, Result and Termination for every status, as lila's
// PgnDump writes them (docs/LICHESS.md).
#include "service/game/pgn_tags.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace service {
namespace {

struct TagRow {
    lichess::GameStatus status;
    std::optional<lichess::Color> winner;
    const char* result;
    const char* termination;
};

class PgnTags : public ::testing::TestWithParam<TagRow> {};

TEST_P(PgnTags, AsLilaWritesThem) {
    const TagRow& r = GetParam();
    EXPECT_EQ(pgn_result(r.status, r.winner), r.result) << lichess::to_string(r.status);
    EXPECT_STREQ(pgn_termination(r.status), r.termination) << lichess::to_string(r.status);
}

INSTANTIATE_TEST_SUITE_P(
    Statuses, PgnTags,
    ::testing::Values(
        TagRow{lichess::GameStatus::Mate, lichess::Color::White, "1-0", "Normal"},
        TagRow{lichess::GameStatus::Resign, lichess::Color::Black, "0-1", "Normal"},
        // No winner where lila always names one: unknown, never a draw.
        TagRow{lichess::GameStatus::Mate, std::nullopt, "*", "Normal"},
        TagRow{lichess::GameStatus::Resign, std::nullopt, "*", "Normal"},
        TagRow{lichess::GameStatus::Cheat, std::nullopt, "*", "Rules infraction"},
        TagRow{lichess::GameStatus::Stalemate, std::nullopt, "1/2-1/2", "Normal"},
        TagRow{lichess::GameStatus::Draw, std::nullopt, "1/2-1/2", "Normal"},
        TagRow{lichess::GameStatus::VariantEnd, lichess::Color::White, "1-0", "Normal"},
        TagRow{lichess::GameStatus::OutOfTime, lichess::Color::Black, "0-1", "Time forfeit"},
        TagRow{lichess::GameStatus::OutOfTime, std::nullopt, "1/2-1/2", "Time forfeit"},
        TagRow{lichess::GameStatus::Timeout, lichess::Color::White, "1-0", "Time forfeit"},
        TagRow{lichess::GameStatus::Timeout, std::nullopt, "1/2-1/2", "Time forfeit"},
        TagRow{lichess::GameStatus::Cheat, lichess::Color::White, "1-0", "Rules infraction"},
        TagRow{lichess::GameStatus::NoStart, lichess::Color::Black, "0-1", "Abandoned"},
        TagRow{lichess::GameStatus::Aborted, std::nullopt, "*", "Abandoned"},
        TagRow{lichess::GameStatus::InsufficientMaterialClaim, std::nullopt, "1/2-1/2",
               "Insufficient material"},
        TagRow{lichess::GameStatus::UnknownFinish, std::nullopt, "1/2-1/2", "Unknown"},
        TagRow{lichess::GameStatus::UnknownFinish, lichess::Color::Black, "0-1", "Unknown"},
        TagRow{lichess::GameStatus::Started, std::nullopt, "*", "Unterminated"},
        TagRow{lichess::GameStatus::Unknown, std::nullopt, "*", "Unterminated"}));

struct EventRow {
    bool rated;
    const char* variant;
    const char* speed;
    const char* tournament_id;
    const char* event;
};

class PgnEvent : public ::testing::TestWithParam<EventRow> {};

TEST_P(PgnEvent, AsEventOfWritesIt) {
    const EventRow& r = GetParam();
    EXPECT_EQ(pgn_event(r.rated, r.variant, r.speed, r.tournament_id), r.event);
}

// lila modules/game/src/main/PgnDump.scala eventOf: "<Rated|Casual> <perf> game", an arena's
// "... tournament https://lichess.org/tournament/<id>"; the perf is PerfType.nameKey.
INSTANTIATE_TEST_SUITE_P(
    Perfs, PgnEvent,
    ::testing::Values(
        EventRow{true, "crazyhouse", "blitz", "", "Rated Crazyhouse game"},
        EventRow{false, "chess960", "rapid", "", "Casual Chess960 game"},
        EventRow{true, "kingOfTheHill", "bullet", "", "Rated King of the Hill game"},
        EventRow{true, "threeCheck", "blitz", "", "Rated Three-check game"},
        EventRow{false, "racingKings", "blitz", "", "Casual Racing Kings game"},
        EventRow{true, "antichess", "bullet", "", "Rated Antichess game"},
        EventRow{true, "atomic", "blitz", "", "Rated Atomic game"},
        EventRow{true, "horde", "classical", "", "Rated Horde game"},
        // Standard and fromPosition are rated by speed: nameKey is the speed's i18n key, but
        // UltraBullet's is its name.
        EventRow{true, "standard", "blitz", "", "Rated blitz game"},
        EventRow{false, "standard", "bullet", "", "Casual bullet game"},
        EventRow{true, "standard", "ultraBullet", "", "Rated UltraBullet game"},
        EventRow{false, "fromPosition", "rapid", "", "Casual rapid game"},
        EventRow{false, "standard", "correspondence", "", "Casual correspondence game"},
        EventRow{true, "standard", "classical", "", "Rated classical game"},
        EventRow{true, "standard", "", "", "Rated game"},
        // An arena game.
        EventRow{true, "standard", "blitz", "Qa7aFb4z",
                 "Rated blitz tournament https://lichess.org/tournament/Qa7aFb4z"},
        EventRow{false, "crazyhouse", "bullet", "hourly01",
                 "Casual Crazyhouse tournament https://lichess.org/tournament/hourly01"}));

}  // namespace
}  // namespace service
