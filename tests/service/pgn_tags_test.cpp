// Result and Termination for every status, as lila's PgnDump writes them (docs/LICHESS.md).
#include "service/pgn_tags.hpp"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace service {
namespace {

using lichess::Color;
using lichess::GameStatus;

struct Row {
    GameStatus status;
    std::optional<Color> winner;
    const char* result;
    const char* termination;
};

class PgnTags : public ::testing::TestWithParam<Row> {};

TEST_P(PgnTags, AsLilaWritesThem) {
    const Row& r = GetParam();
    EXPECT_EQ(pgn_result(r.status, r.winner), r.result) << lichess::to_string(r.status);
    EXPECT_STREQ(pgn_termination(r.status), r.termination) << lichess::to_string(r.status);
}

INSTANTIATE_TEST_SUITE_P(
    Statuses, PgnTags,
    ::testing::Values(Row{GameStatus::Mate, Color::White, "1-0", "Normal"},
                      Row{GameStatus::Resign, Color::Black, "0-1", "Normal"},
                      Row{GameStatus::Stalemate, std::nullopt, "1/2-1/2", "Normal"},
                      Row{GameStatus::Draw, std::nullopt, "1/2-1/2", "Normal"},
                      Row{GameStatus::VariantEnd, Color::White, "1-0", "Normal"},
                      Row{GameStatus::OutOfTime, Color::Black, "0-1", "Time forfeit"},
                      Row{GameStatus::OutOfTime, std::nullopt, "1/2-1/2", "Time forfeit"},
                      Row{GameStatus::Timeout, Color::White, "1-0", "Time forfeit"},
                      Row{GameStatus::Timeout, std::nullopt, "1/2-1/2", "Time forfeit"},
                      Row{GameStatus::Cheat, Color::White, "1-0", "Rules infraction"},
                      Row{GameStatus::NoStart, Color::Black, "0-1", "Abandoned"},
                      Row{GameStatus::Aborted, std::nullopt, "*", "Abandoned"},
                      Row{GameStatus::InsufficientMaterialClaim, std::nullopt, "1/2-1/2",
                          "Insufficient material"},
                      Row{GameStatus::UnknownFinish, std::nullopt, "1/2-1/2", "Unknown"},
                      Row{GameStatus::UnknownFinish, Color::Black, "0-1", "Unknown"},
                      Row{GameStatus::Started, std::nullopt, "*", "Unterminated"},
                      Row{GameStatus::Unknown, std::nullopt, "*", "Unterminated"}));

}  // namespace
}  // namespace service
