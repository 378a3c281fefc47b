// Result and Termination for every status, as lila's PgnDump writes them (docs/LICHESS.md).
#include "service/game/pgn_tags.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace service {
namespace {

using lichess::Color;
using lichess::GameStatus;

struct TagRow {
    GameStatus status;
    std::optional<Color> winner;
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
    ::testing::Values(TagRow{GameStatus::Mate, Color::White, "1-0", "Normal"},
                      TagRow{GameStatus::Resign, Color::Black, "0-1", "Normal"},
                      TagRow{GameStatus::Stalemate, std::nullopt, "1/2-1/2", "Normal"},
                      TagRow{GameStatus::Draw, std::nullopt, "1/2-1/2", "Normal"},
                      TagRow{GameStatus::VariantEnd, Color::White, "1-0", "Normal"},
                      TagRow{GameStatus::OutOfTime, Color::Black, "0-1", "Time forfeit"},
                      TagRow{GameStatus::OutOfTime, std::nullopt, "1/2-1/2", "Time forfeit"},
                      TagRow{GameStatus::Timeout, Color::White, "1-0", "Time forfeit"},
                      TagRow{GameStatus::Timeout, std::nullopt, "1/2-1/2", "Time forfeit"},
                      TagRow{GameStatus::Cheat, Color::White, "1-0", "Rules infraction"},
                      TagRow{GameStatus::NoStart, Color::Black, "0-1", "Abandoned"},
                      TagRow{GameStatus::Aborted, std::nullopt, "*", "Abandoned"},
                      TagRow{GameStatus::InsufficientMaterialClaim, std::nullopt, "1/2-1/2",
                             "Insufficient material"},
                      TagRow{GameStatus::UnknownFinish, std::nullopt, "1/2-1/2", "Unknown"},
                      TagRow{GameStatus::UnknownFinish, Color::Black, "0-1", "Unknown"},
                      TagRow{GameStatus::Started, std::nullopt, "*", "Unterminated"},
                      TagRow{GameStatus::Unknown, std::nullopt, "*", "Unterminated"}));

}  // namespace
}  // namespace service
