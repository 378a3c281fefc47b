// Numbers from the server are range-checked: huge, fractional, negative and unsigned values in
// clocks, increments, ratings and seconds parse to clamped values, never through an undefined
// float->int cast or a wrap-around (this suite runs under UBSan in the sanitize preset).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "lichess_client/events.hpp"
#include "lichess_client/json_util.hpp"
#include "lichess_client/payloads.hpp"

namespace lichess {
namespace {

GameState state_with(const std::string& wtime, const std::string& btime, const std::string& winc,
                     const std::string& binc) {
    const std::string line = R"({"type":"gameState","moves":"e2e4","wtime":)" + wtime +
                             R"(,"btime":)" + btime + R"(,"winc":)" + winc + R"(,"binc":)" + binc +
                             R"(,"status":"started"})";
    auto r = parse_game_event(line);
    EXPECT_TRUE(r.ok()) << line << ": " << (r.ok() ? "" : r.error().message);
    if (!r.ok() || !r.value() || !std::holds_alternative<GameState>(*r.value())) return {};
    return std::get<GameState>(*r.value());
}

TEST(ExtremeNumbers, HugeAndFractionalClocksAreClamped) {
    const GameState s = state_with("1e300", "9000000000000000000", "1.7976931348623157e308",
                                   "18446744073709551615");
    EXPECT_EQ(s.wtime_ms, detail::kMaxClockMs);
    EXPECT_EQ(s.btime_ms, detail::kMaxClockMs);
    EXPECT_EQ(s.winc_ms, detail::kMaxClockMs);
    EXPECT_EQ(s.binc_ms, detail::kMaxClockMs);
}

TEST(ExtremeNumbers, NegativeClocksBecomeZero) {
    const GameState s = state_with("-1e300", "-9223372036854775808", "-5", "-0.5");
    EXPECT_EQ(s.wtime_ms, 0);
    EXPECT_EQ(s.btime_ms, 0);
    EXPECT_EQ(s.winc_ms, 0);
    EXPECT_EQ(s.binc_ms, 0);
}

TEST(ExtremeNumbers, OrdinaryClocksAreKept) {
    // Unlimited games send 2147483647; fractions are cut toward zero.
    const GameState s = state_with("2147483647", "180000", "2000.9", "0");
    EXPECT_EQ(s.wtime_ms, 2147483647);
    EXPECT_EQ(s.btime_ms, 180000);
    EXPECT_EQ(s.winc_ms, 2000);
    EXPECT_EQ(s.binc_ms, 0);
}

TEST(ExtremeNumbers, GameFullClockAndRatingsAreClamped) {
    const std::string line =
        R"({"type":"gameFull","id":"abcdefgh","rated":false,"variant":{"key":"standard"},)"
        R"("clock":{"initial":1e300,"increment":-1e300},"speed":"blitz","createdAt":1e300,)"
        R"("white":{"id":"a","name":"a","rating":1e20},"black":{"id":"b","name":"b",)"
        R"("rating":-99999999999},"initialFen":"startpos",)"
        R"("state":{"type":"gameState","moves":"","wtime":1e19,"btime":0,"winc":0,"binc":0,)"
        R"("status":"started"}})";
    auto r = parse_game_event(line);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_TRUE(r.value() && std::holds_alternative<GameFull>(*r.value()));
    const GameFull& g = std::get<GameFull>(*r.value());
    ASSERT_TRUE(g.clock);
    EXPECT_EQ(g.clock->initial_ms, detail::kMaxClockMs);
    EXPECT_EQ(g.clock->increment_ms, 0);
    EXPECT_EQ(g.created_at_ms, std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(g.white.rating, std::numeric_limits<int>::max());
    EXPECT_EQ(g.black.rating, std::numeric_limits<int>::min());
    EXPECT_EQ(g.state.wtime_ms, detail::kMaxClockMs);
}

TEST(ExtremeNumbers, ChallengeTimeControlAndOpponentGoneSecondsStayInIntRange) {
    const std::string line =
        R"({"type":"challenge","challenge":{"id":"c1","status":"created",)"
        R"("challenger":{"id":"x","name":"x","rating":3e9},"destUser":null,)"
        R"("variant":{"key":"standard"},"rated":false,"speed":"blitz",)"
        R"("timeControl":{"type":"clock","limit":1e300,"increment":-4294967296},)"
        R"("color":"random"}})";
    auto r = parse_event(line);
    ASSERT_TRUE(r.ok()) << r.error().message;
    ASSERT_TRUE(r.value() && std::holds_alternative<Challenge>(*r.value()));
    const ChallengeInfo& c = std::get<Challenge>(*r.value()).challenge;
    EXPECT_EQ(c.challenger.rating, std::numeric_limits<int>::max());
    EXPECT_EQ(c.time_control.limit_s, std::numeric_limits<int>::max());
    EXPECT_EQ(c.time_control.increment_s, std::numeric_limits<int>::min());

    auto gone =
        parse_game_event(R"({"type":"opponentGone","gone":true,"claimWinInSeconds":1e300})");
    ASSERT_TRUE(gone.ok());
    ASSERT_TRUE(gone.value() && std::holds_alternative<OpponentGone>(*gone.value()));
    EXPECT_EQ(std::get<OpponentGone>(*gone.value()).claim_win_in_seconds,
              std::numeric_limits<int>::max());
}

TEST(ExtremeNumbers, ToI64CoversEveryJsonNumberKind) {
    using detail::json;
    using L = std::numeric_limits<std::int64_t>;
    EXPECT_EQ(detail::to_i64(json::parse("1e300")), L::max());
    EXPECT_EQ(detail::to_i64(json::parse("-1e300")), L::min());
    EXPECT_EQ(detail::to_i64(json::parse("9.3e18")), L::max());
    EXPECT_EQ(detail::to_i64(json::parse("18446744073709551615")), L::max());
    EXPECT_EQ(detail::to_i64(json::parse("-9223372036854775808")), L::min());
    EXPECT_EQ(detail::to_i64(json::parse("-2.9")), -2);
    EXPECT_EQ(detail::to_i64(json::parse("42")), 42);
    // A non-number clock is no zero: the line is unreadable, naming the field.
    auto r = parse_game_event(R"({"type":"gameState","moves":"","wtime":"soon","btime":0,)"
                              R"("status":"started"})");
    ASSERT_TRUE(r.ok() && r.value());
    const auto* u = std::get_if<GameUnreadable>(&*r.value());
    ASSERT_NE(u, nullptr);
    EXPECT_EQ(u->field, "wtime");
}

}  // namespace
}  // namespace lichess
