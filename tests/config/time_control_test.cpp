// Matchmaking time controls: what "minutes+seconds" accepts, and the speed Lichess files it under.
#include "config/time_control.hpp"

#include <gtest/gtest.h>

namespace config {
namespace {

TEST(TimeControl, ParsesWholeAndFractionalMinutes) {
    EXPECT_EQ(parse_time_control("3+2"), (ClockSetting{180, 2}));
    EXPECT_EQ(parse_time_control(" 0.5 + 0 "), (ClockSetting{30, 0}));
    EXPECT_EQ(parse_time_control("0.25+1"), (ClockSetting{15, 1}));
    EXPECT_EQ(parse_time_control("1.5+0"), (ClockSetting{90, 0}));
    EXPECT_EQ(parse_time_control("0+1"), (ClockSetting{0, 1}));
    EXPECT_EQ(parse_time_control("180+60"), (ClockSetting{10800, 60}));
}

TEST(TimeControl, RejectsWhatLichessWouldRefuse) {
    for (const char* bad : {"", "3", "+2", "3+", "fast", "3+2+1", "0+0", "181+0", "3+61", "-1+2",
                            "3+-2", "+3+2", "3++2", "0.3+0", "2.5+0", "3.0+2", "3+2.5"})
        EXPECT_FALSE(parse_time_control(bad).has_value()) << '"' << bad << '"';
}

TEST(TimeControl, SpeedFollowsTheEstimatedDurationAtTheBoundaries) {
    EXPECT_EQ(speed_of({15, 0}), "ultraBullet");
    EXPECT_EQ(speed_of({29, 0}), "ultraBullet");
    EXPECT_EQ(speed_of({30, 0}), "bullet");
    EXPECT_EQ(speed_of({0, 1}), "bullet");
    EXPECT_EQ(speed_of({60, 2}), "bullet");  // 140 s
    EXPECT_EQ(speed_of({179, 0}), "bullet");
    EXPECT_EQ(speed_of({180, 0}), "blitz");
    EXPECT_EQ(speed_of({180, 2}), "blitz");  // 260 s
    EXPECT_EQ(speed_of({479, 0}), "blitz");
    EXPECT_EQ(speed_of({480, 0}), "rapid");
    EXPECT_EQ(speed_of({600, 5}), "rapid");
    EXPECT_EQ(speed_of({1499, 0}), "rapid");
    EXPECT_EQ(speed_of({1500, 0}), "classical");
}

}  // namespace
}  // namespace config
